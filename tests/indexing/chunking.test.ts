import { describe, expect, it } from "vitest";
import { chunkTable, chunkText, ChunkingError, renderTableMarkdown } from "../../indexing/chunking.js";
import { approximateTokenSpans, approximateTokenizer } from "../../indexing/embeddings/offline.js";
import type { RawTable, StreamedTable } from "../../indexing/types.js";

const tokens = (s: string) => approximateTokenSpans(s).map(([a, b]) => s.slice(a, b));
const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${i + from}`).join(" ");
const PREFIX = "File name: doc.txt\n";

describe("chunkText (reference §4.4, test_document_chunking)", () => {
  it("keeps a 300-token document in one chunk with the file-name prefix", async () => {
    const chunks = await chunkText(words(300), "doc.txt", approximateTokenizer);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.startsWith(PREFIX)).toBe(true);
  });

  it("splits a 700-token document into ≤512-token chunks that overlap by exactly 64 tokens", async () => {
    const chunks = await chunkText(words(700), "doc.txt", approximateTokenizer);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(tokens(c).length).toBeLessThanOrEqual(512);
    const contents = chunks.map((c) => tokens(c.slice(PREFIX.length)));
    for (let i = 1; i < contents.length; i++) {
      expect(contents[i]!.slice(0, 64)).toEqual(contents[i - 1]!.slice(-64));
    }
    // every word is covered, in order
    const covered = new Set(contents.flat());
    expect(covered.size).toBe(700);
  });

  it("ends chunks at sentence boundaries when one is in reach", async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} has some words in it.`).join(" ");
    const chunks = await chunkText(text, "doc.txt", approximateTokenizer, { size: 120, overlap: 10 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks.slice(0, -1)) expect(c.trimEnd().endsWith(".")).toBe(true);
  });

  it("rejects size 0, overlap = size, and a prefix that leaves no room", async () => {
    await expect(chunkText("x", "doc.txt", approximateTokenizer, { size: 0, overlap: 0 })).rejects.toThrow(
      ChunkingError,
    );
    await expect(chunkText("x", "doc.txt", approximateTokenizer, { size: 64, overlap: 64 })).rejects.toThrow(/overlap/);
    await expect(chunkText("x", "doc.txt", approximateTokenizer, { size: 8, overlap: 4 })).rejects.toThrow(/prefix/);
  });
});

describe("table chunks", () => {
  const table: RawTable = {
    id: "clubs",
    file: "clubs.csv",
    title: "Football clubs",
    header: ["Club", "Founded", "City"],
    rows: [
      ["Alpha FC", "1971", "Saint Etienne"],
      ["Gamma", "", "Paris"],
      ["A | B", "1", "multi\nline"],
    ],
  };

  it("keeps empty cells in their columns and escapes pipes and newlines", () => {
    const md = renderTableMarkdown(table);
    expect(md).toContain("Title: Football clubs");
    expect(md).toContain("| Gamma |  | Paris |");
    expect(md).toContain("| A \\| B | 1 | multi line |");
  });

  it("repeats the header in every chunk, covers every row and stays within the size", async () => {
    const big: RawTable = {
      ...table,
      rows: Array.from({ length: 300 }, (_, i) => [`Club ${i}`, String(1900 + i), `City ${i}`]),
    };
    const chunks = await chunkTable(big, approximateTokenizer, { size: 200, overlap: 20 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(
        c.startsWith("File name: clubs.csv\nTable name: clubs\nTitle: Football clubs\n| Club | Founded | City |"),
      ).toBe(true);
      expect(tokens(c).length).toBeLessThanOrEqual(200);
    }
    const all = chunks.join("\n");
    for (let i = 0; i < 300; i++) expect(all).toContain(`| Club ${i} | ${1900 + i} | City ${i} |`);
  });

  it("with maxRows chunks the first rows only, as if the table ended there, and stops reading its source", async () => {
    const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => [`Club ${i}`, String(1900 + i), `City ${i}`]);
    const sizes = { size: 200, overlap: 20 };
    const first = await chunkTable({ ...table, rows: rowsOf(120) }, approximateTokenizer, sizes);
    expect(await chunkTable({ ...table, rows: rowsOf(300) }, approximateTokenizer, sizes, 120)).toEqual(first);
    let read = 0;
    let released = false;
    const streamed: StreamedTable = {
      kind: "streamed",
      id: table.id,
      file: table.file,
      header: table.header,
      title: table.title,
      rowCount: 300,
      *readRows() {
        try {
          for (const r of rowsOf(300)) {
            read++;
            yield r;
          }
        } finally {
          released = true;
        }
      },
    };
    expect(await chunkTable(streamed, approximateTokenizer, sizes, 120)).toEqual(first);
    expect(read).toBe(120);
    expect(released).toBe(true);
    expect(await chunkTable(streamed, approximateTokenizer, sizes, 300)).toEqual(
      await chunkTable({ ...table, rows: rowsOf(300) }, approximateTokenizer, sizes),
    );
  });
});
