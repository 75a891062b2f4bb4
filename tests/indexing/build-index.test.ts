import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndex, readInputOrder } from "../../indexing/build-index.js";
import { INDEX_FORMAT_VERSION, IndexVerificationError, verifyIndexFiles } from "../../indexing/manifest.js";
import { inspectIndex, openIndex } from "../../indexing/open-index.js";
import { openSearchableIndex } from "../../retrievers/open-search.js";
import { closeCachedIndexes, openIndexCached } from "../../graph/resources.js";

let root: string;
let tables: string;
let docs: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "atr-build-"));
  tables = join(root, "tables");
  docs = join(root, "docs");
  mkdirSync(tables);
  mkdirSync(docs);
  writeFileSync(
    join(tables, "clubs.csv"),
    "Club,Founded,Stadium\nLeeds United,1919,Elland Road\nHull City,1904,MKM Stadium\nYork City,1922,LNER Community Stadium\n",
  );
  writeFileSync(join(tables, "clubs.json"), JSON.stringify({ page_title: "Northern clubs" }));
  writeFileSync(join(tables, "broken.xlsx"), "not a workbook");
  writeFileSync(
    join(docs, "clubs.json"),
    JSON.stringify([
      {
        id: "/wiki/Elland_Road",
        title: "Elland Road",
        text: "Elland Road is a football stadium in Leeds.",
        cells: [[0, 2]],
      },
    ]),
  );
  writeFileSync(join(docs, "history.txt"), "The league was founded in 1888.");
});
afterAll(() => {
  closeCachedIndexes();
  rmSync(root, { recursive: true, force: true });
});

const build = (savePath: string, extra: Record<string, unknown> = {}) =>
  buildIndex({ excelDir: tables, docDir: docs, savePath, ...extra });

describe("buildIndex + openIndex", () => {
  it("builds a verified index whose SQL tables, passages and views open read-only", async () => {
    const save = join(root, "index");
    const stages = new Set<string>();
    const result = await build(save, { onProgress: (stage: string) => stages.add(stage) });
    expect(stages.has("sql")).toBe(true);
    expect(result.manifest.formatVersion).toBe(INDEX_FORMAT_VERSION);
    expect(result.manifest.counts).toMatchObject({ tables: 1, rows: 3, passages: 2 });
    expect(result.manifest.sources.tables).toEqual(["clubs.csv"]);
    expect(result.manifest.sources.skipped).toEqual([
      { file: "broken.xlsx", reason: expect.stringMatching(/not a valid \.xlsx/) },
    ]);
    expect(Object.keys(result.manifest.checksums)).toEqual(expect.arrayContaining(["tables.sqlite", "passages.jsonl"]));
    expect(readdirSync(root).filter((n) => n.includes(".tmp-") || n.includes(".old-"))).toEqual([]);

    const index = await openSearchableIndex(save);
    try {
      const schema = index.tables.get("clubs")!;
      expect(schema.title).toBe("Northern clubs");
      expect(index.db.prepare(`SELECT COUNT(*) FROM "${schema.physical}"`).pluck().get()).toBe(3);
      expect(
        index.db.prepare(`SELECT club FROM clubs WHERE founded = (SELECT MAX(founded) FROM clubs)`).pluck().get(),
      ).toBe("York City");
      expect(index.passages.find((p) => p.id === "/wiki/Elland_Road")).toMatchObject({
        tableId: "clubs",
        cells: [[0, 2]],
      });
      const hits = await index.search.rows("Elland Road", 1, { tableId: "clubs" });
      expect(hits[0]!.entry.rowIdx).toBe(0);
    } finally {
      index.close();
    }
  });

  it("refuses a tampered index, listing every violation", async () => {
    const save = join(root, "tampered");
    await build(save);
    const manifest = JSON.parse(readFileSync(join(save, "manifest.json"), "utf8"));
    manifest.formatVersion = 99;
    manifest.settings.cellBudget = -1;
    manifest.counts.passages = 5;
    writeFileSync(join(save, "manifest.json"), JSON.stringify(manifest));
    writeFileSync(join(save, "stray.txt"), "x");
    rmSync(join(save, "views.json"));
    const { violations } = verifyIndexFiles(save);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/formatVersion is 99/),
        expect.stringMatching(/settings\.cellBudget must be a positive integer/),
        expect.stringMatching(/passages\.jsonl has 2 lines but counts\.passages is 5/),
        expect.stringMatching(/views\.json is listed in the manifest but missing/),
        expect.stringMatching(/stray\.txt is in the index directory but not in the manifest/),
      ]),
    );
    await expect(openIndex(save)).rejects.toThrow(IndexVerificationError);
  });

  it("refuses a changed file (its size on open, its checksum in the full check) and a directory that is not an index", async () => {
    const save = join(root, "changed");
    await build(save);
    const passages = readFileSync(join(save, "passages.jsonl"), "utf8");
    // same size: only the full check (build, atr inspect-index) reads every byte
    writeFileSync(join(save, "passages.jsonl"), passages.replace("1888", "1999"));
    expect(verifyIndexFiles(save, "full").violations).toEqual([
      expect.stringMatching(/passages\.jsonl does not match its checksum/),
    ]);
    expect((await inspectIndex(save)).violations).toEqual([
      expect.stringMatching(/passages\.jsonl does not match its checksum/),
    ]);
    // another size: refused on every open
    writeFileSync(join(save, "passages.jsonl"), passages.replace("1888", "18888"));
    await expect(openIndex(save)).rejects.toThrow(/passages\.jsonl has \d+ bytes but the manifest records \d+/);
    await expect(openIndex(docs)).rejects.toThrow(/no manifest\.json/);
  });

  it("replaces an existing index atomically and never an unrelated directory", async () => {
    const save = join(root, "swap");
    const first = await build(save);
    const second = await build(save, { cellPerTableQuota: 3 });
    expect(second.manifest.settings.cellPerTableQuota).toBe(3);
    expect(second.manifest.createdAt >= first.manifest.createdAt).toBe(true);
    expect(verifyIndexFiles(save).violations).toEqual([]);
    const other = join(root, "precious");
    mkdirSync(other);
    writeFileSync(join(other, "notes.txt"), "keep me");
    await expect(build(other)).rejects.toThrow(/refusing to replace .*precious/);
    expect(readFileSync(join(other, "notes.txt"), "utf8")).toBe("keep me");
    expect(readdirSync(root).filter((n) => n.includes(".tmp-"))).toEqual([]);
  });

  it("leaves the old index untouched when a build fails", async () => {
    const save = join(root, "keep");
    await build(save);
    const before = readFileSync(join(save, "manifest.json"), "utf8");
    await expect(build(save, { chunkSize: 10, chunkOverlap: 20 })).rejects.toThrow();
    expect(readFileSync(join(save, "manifest.json"), "utf8")).toBe(before);
    expect(existsSync(`${save}.tmp-${process.pid}`)).toBe(false);
  });

  it("fails clearly on a missing directory and a directory without tables", async () => {
    await expect(buildIndex({ excelDir: join(root, "nope"), docDir: docs, savePath: join(root, "x") })).rejects.toThrow(
      /--excel_dir .*nope does not exist/,
    );
    await expect(buildIndex({ excelDir: docs, docDir: docs, savePath: join(root, "x") })).rejects.toThrow(
      /no tables found in --excel_dir/,
    );
    await expect(
      buildIndex({ excelDir: tables, docDir: join(root, "nodocs"), savePath: join(root, "x") }),
    ).rejects.toThrow(/--doc_dir .*nodocs does not exist/);
  });

  it("follows an --input_order file and rejects one that does not match the directories", async () => {
    const order = join(root, "order.json");
    writeFileSync(
      order,
      JSON.stringify({ tables: ["broken.xlsx", "clubs.csv"], documents: ["history.txt", "clubs.json"] }),
    );
    const result = await build(join(root, "ordered"), { inputOrder: readInputOrder(order) });
    expect(result.manifest.sources.documents).toEqual(["history.txt", "clubs.json"]);
    writeFileSync(order, JSON.stringify({ tables: ["clubs.csv"], documents: [] }));
    await expect(build(join(root, "ordered"), { inputOrder: readInputOrder(order) })).rejects.toThrow(
      /present but not listed: broken\.xlsx/,
    );
    writeFileSync(order, JSON.stringify({ tables: "clubs.csv" }));
    expect(() => readInputOrder(order)).toThrow(/must be \{"tables"/);
  });

  it("caches an opened index per directory and reopens a rebuilt one", async () => {
    const save = join(root, "cached");
    await build(save);
    const a = await openIndexCached(save);
    expect(await openIndexCached(join(save, "."))).toBe(a);
    await new Promise((r) => setTimeout(r, 20));
    await build(save);
    const b = await openIndexCached(save);
    expect(b).not.toBe(a);
    a.close();
    b.close();
  });
});
