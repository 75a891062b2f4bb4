import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadPassages } from "../../indexing/load-passages.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-load-passages-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("loadPassages", () => {
  it("reads HybridQA-style records with ids, titles and cells, linked to the table named by the file", () => {
    writeFileSync(
      join(dir, "clubs.json"),
      JSON.stringify([
        {
          id: "/wiki/Leeds",
          title: "Leeds",
          text: "Leeds is a city.",
          cells: [
            [0, 1],
            [-1, 0],
          ],
        },
      ]),
    );
    const { passages, issues } = loadPassages(dir, { tableIds: new Set(["clubs"]) });
    expect(issues).toEqual([]);
    expect(passages).toEqual([
      {
        id: "/wiki/Leeds",
        title: "Leeds",
        text: "Leeds is a city.",
        file: "clubs.json",
        tableId: "clubs",
        cells: [
          [0, 1],
          [-1, 0],
        ],
      },
    ]);
  });

  it("reads TAT-QA paragraphs, a plain object, a .txt file; no tableId when the stem is not a table", () => {
    writeFileSync(
      join(dir, "report.json"),
      JSON.stringify([
        { id: "p1", order: 1, text: "Revenue grew." },
        { id: "p2", order: 2, text: " " },
      ]),
    );
    writeFileSync(join(dir, "facts.json"), JSON.stringify({ club: "Leeds", founded: 1919 }));
    writeFileSync(join(dir, "history.txt"), "\uFEFFThe league began in 1888.\n");
    const { passages } = loadPassages(dir, { tableIds: new Set(["other"]) });
    expect(passages.map((p) => [p.id, p.text, p.tableId])).toEqual([
      ["facts.json#0", "club: Leeds\nfounded: 1919", undefined],
      ["history.txt#0", "The league began in 1888.", undefined],
      ["p1", "Revenue grew.", undefined],
    ]);
    expect(passages[1]!.title).toBe("history");
  });

  it("keeps ids unique across files: a repeated id gets the file stem", () => {
    writeFileSync(join(dir, "a.json"), JSON.stringify([{ id: "/wiki/X", text: "x" }]));
    writeFileSync(
      join(dir, "b.json"),
      JSON.stringify([
        { id: "/wiki/X", text: "x" },
        { id: "/wiki/X", text: "x again" },
      ]),
    );
    expect(loadPassages(dir).passages.map((p) => p.id)).toEqual(["/wiki/X", "/wiki/X#b", "/wiki/X#b~2"]);
  });

  it("skips malformed, empty and foreign files with an issue naming each, and goes on", () => {
    writeFileSync(join(dir, "bad.json"), "{not json");
    writeFileSync(join(dir, "empty.txt"), "");
    writeFileSync(join(dir, "image.png"), "x");
    writeFileSync(join(dir, "ok.txt"), "fine");
    const { passages, issues } = loadPassages(dir);
    expect(passages.map((p) => p.file)).toEqual(["ok.txt"]);
    expect(issues.map((i) => i.file).sort()).toEqual(["bad.json", "empty.txt", "image.png"]);
    expect(issues.find((i) => i.file === "bad.json")!.problem).toMatch(/malformed JSON/);
  });

  it("decodes a non-UTF-8 passage file as Windows-1252 with a warning naming it", () => {
    writeFileSync(join(dir, "old.txt"), Buffer.from("Caf\xe9 \x93open\x94", "latin1"));
    const { passages, issues } = loadPassages(dir);
    expect(passages[0]!.text).toBe("Café “open”");
    expect(issues).toEqual([
      expect.objectContaining({
        file: "old.txt",
        severity: "warning",
        problem: expect.stringMatching(/not valid UTF-8/),
      }),
    ]);
  });

  it("fails clearly when the directory does not exist", () => {
    expect(() => loadPassages(join(dir, "missing"))).toThrow(/--doc_dir .*missing does not exist/);
  });
});
