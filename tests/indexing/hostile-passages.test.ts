/** Hostile-but-fair passage input (docs/RELIABILITY.md, "Input files"): bad entries skipped by index, with an issue. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, jsonTooDeep, loadPassages } from "../../indexing/load-passages.js";
import type { LoadIssue } from "../../indexing/load-tables.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-hostile-passages-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const problems = (issues: LoadIssue[], file: string): string[] =>
  issues.filter((i) => i.file === file).map((i) => `${i.severity}: ${i.problem}`);

describe("passage JSON of unexpected shape", () => {
  it('does not index [1,2,3] as passages "1", "2", "3": the file is skipped, the entries named', () => {
    writeFileSync(join(dir, "numbers.json"), "[1,2,3]");
    const { passages, issues } = loadPassages(dir);
    expect(passages).toEqual([]);
    expect(problems(issues, "numbers.json")).toEqual([
      'error: entries 0, 1, 2: a number, not a passage (expected an object with "text", or a string); skipped',
      "error: no passages with text; skipped",
    ]);
  });

  it('does not index {"text": null} as "null"', () => {
    writeFileSync(join(dir, "null.json"), '{"text": null}');
    const { passages, issues } = loadPassages(dir);
    expect(passages).toEqual([]);
    expect(problems(issues, "null.json")[0]).toBe('error: entry 0: "text" is null, expected a string; skipped');
  });

  it("keeps the good entries of a mixed array and names every bad one by index", () => {
    const entries = [
      { id: "a", text: "Leeds is in Yorkshire." },
      5,
      null,
      [1, [2]],
      { text: 3 },
      { text: "   " },
      { club: "Hull", founded: 1904, board: { chair: "x" }, tags: ["a"] },
      { nested: { only: true } },
      "A plain string passage.",
      { id: { not: "an id" }, text: "Odd id." },
      true,
    ];
    writeFileSync(join(dir, "mixed.json"), JSON.stringify(entries));
    const { passages, issues } = loadPassages(dir);
    expect(passages.map((p) => [p.id, p.text])).toEqual([
      ["a", "Leeds is in Yorkshire."],
      ["mixed.json#6", "club: Hull\nfounded: 1904"],
      ["mixed.json#8", "A plain string passage."],
      ["mixed.json#9", "Odd id."],
    ]);
    expect(problems(issues, "mixed.json")).toEqual([
      'error: entry 1: a number, not a passage (expected an object with "text", or a string); skipped',
      'error: entry 2: null, not a passage (expected an object with "text", or a string); skipped',
      'error: entry 3: an array, not a passage (expected an object with "text", or a string); skipped',
      'error: entry 4: "text" is a number, expected a string; skipped',
      'error: entry 5: "text" is empty; skipped',
      'error: entry 7: no "text" and no plain (string, number, boolean) fields; skipped',
      'error: entry 10: a boolean, not a passage (expected an object with "text", or a string); skipped',
      'warning: entry 6: no "text"; passage made of the plain fields, nested fields "board", "tags" left out',
      'warning: entry 9: "id" is an object, not a string or number; used mixed.json#<n>',
    ]);
  });

  it("skips a top-level number, and JSON nested too deeply without parsing it", () => {
    writeFileSync(join(dir, "answer.json"), "42");
    const depth = 5_000_000;
    writeFileSync(join(dir, "deep.json"), `${"[".repeat(depth)}${"]".repeat(depth)}`);
    writeFileSync(join(dir, "ok.json"), JSON.stringify([{ text: "fine", meta: [[[1]]] }]));
    const started = Date.now();
    const { passages, issues } = loadPassages(dir);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(passages.map((p) => p.file)).toEqual(["ok.json"]);
    expect(problems(issues, "answer.json")).toEqual([
      "error: the JSON is a number; expected an array of passages, an object or a string; skipped",
    ]);
    expect(problems(issues, "deep.json")).toEqual([`error: JSON nested deeper than ${MAX_JSON_DEPTH} levels; skipped`]);
    expect(jsonTooDeep('{"a": "[[[[[[[["}', 2)).toBe(false);
  });
});

describe("passage files", () => {
  it("reads UTF-16 text, skips binary data and hidden files, follows an inside symlink — each with an issue", () => {
    writeFileSync(
      join(dir, "utf16.txt"),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Größe: 3 m", "utf16le")]),
    );
    writeFileSync(join(dir, "photo.txt"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    writeFileSync(join(dir, ".notes.txt"), "hidden");
    mkdirSync(join(dir, "more"));
    symlinkSync(join(dir, "utf16.txt"), join(dir, "alias.txt"));
    const { passages, issues } = loadPassages(dir);
    expect(passages.map((p) => [p.file, p.text])).toEqual([
      ["alias.txt", "Größe: 3 m"],
      ["utf16.txt", "Größe: 3 m"],
    ]);
    expect(problems(issues, "photo.txt")).toEqual(["error: not a text file: the bytes are a PNG image; skipped"]);
    expect(problems(issues, ".notes.txt")[0]).toMatch(/hidden file/);
    expect(problems(issues, "more")[0]).toMatch(/sub-folder; skipped/);
    expect(problems(issues, "alias.txt")[0]).toMatch(/warning: symbolic link to utf16\.txt inside the folder; read/);
  });

  it("warns about an empty --doc_dir and refuses a file given as --doc_dir", () => {
    const { passages, issues } = loadPassages(dir);
    expect(passages).toEqual([]);
    expect(issues).toEqual([
      { file: dir, severity: "warning", problem: "--doc_dir holds no passage files; the index has tables only" },
    ]);
    writeFileSync(join(dir, "a.txt"), "x");
    expect(() => loadPassages(join(dir, "a.txt"))).toThrow(/--doc_dir .*a\.txt is not a directory/);
  });
});
