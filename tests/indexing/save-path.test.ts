/**
 * `--save_path` safety and leftovers of interrupted builds (docs/RELIABILITY.md, "Input files"), and
 * the build going on past bad input files, which the manifest lists.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndex } from "../../indexing/build-index.js";
import { verifyIndexFiles } from "../../indexing/manifest.js";
import { openIndex } from "../../indexing/open-index.js";
import { BUILD_MARKER, cleanStaleBuilds } from "../../indexing/save-path.js";
import { runCli } from "../fixtures/run-cli.js";
import { handWrittenXlsx, inlineCell } from "./zip-fixture.js";

let root: string;
let tables: string;
let docs: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "atr-save-path-"));
  tables = join(root, "tables");
  docs = join(root, "docs");
  mkdirSync(tables);
  mkdirSync(docs);
  writeFileSync(join(tables, "clubs.csv"), "Club,City\nLeeds United,Leeds\nHull City,Hull\n");
  writeFileSync(join(docs, "notes.txt"), "Leeds United play at Elland Road.");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const build = (savePath: string, excelDir = tables, docDir = docs) => buildIndex({ excelDir, docDir, savePath });
const listing = (dir: string): string[] => readdirSync(dir).sort();
/** A pid that certainly belonged to a process that has exited. */
const deadPid = (): number => spawnSync("true").pid!;

describe("--save_path safety", () => {
  it("refuses a folder that merely has some manifest.json, deleting nothing", async () => {
    const app = join(root, "webapp");
    mkdirSync(app);
    writeFileSync(join(app, "manifest.json"), JSON.stringify({ name: "my web app" }));
    writeFileSync(join(app, "index.html"), "<h1>keep</h1>");
    await expect(build(app)).rejects.toThrow(
      /refusing to replace --save_path .*webapp: its manifest\.json has no formatVersion and checksums.*Nothing was deleted/,
    );
    expect(listing(app)).toEqual(["index.html", "manifest.json"]);
  });

  it("refuses a save path that is or contains an input folder", async () => {
    const app = join(root, "myapp");
    mkdirSync(join(app, "data"), { recursive: true });
    writeFileSync(join(app, "data", "t.csv"), "a\n1\n");
    await expect(build(app, join(app, "data"))).rejects.toThrow(
      /refusing --save_path .*myapp: it contains --excel_dir .*myapp\/data, and replacing the index would delete the input/,
    );
    await expect(build(join(app, "data"), join(app, "data"))).rejects.toThrow(/it is --excel_dir/);
    await expect(build(app, tables, join(app, "data"))).rejects.toThrow(/it contains --doc_dir/);
    expect(readFileSync(join(app, "data", "t.csv"), "utf8")).toBe("a\n1\n");
  });

  it("refuses an index whose files no longer match the manifest, a file, and a symbolic link", async () => {
    const edited = join(root, "edited");
    await build(edited);
    writeFileSync(join(edited, "passages.jsonl"), "{}\n");
    await expect(build(edited)).rejects.toThrow(/passages\.jsonl does not match its checksum/);
    expect(readFileSync(join(edited, "passages.jsonl"), "utf8")).toBe("{}\n");
    const extra = join(root, "extra");
    await build(extra);
    writeFileSync(join(extra, "my-notes.txt"), "mine");
    await expect(build(extra)).rejects.toThrow(/it holds my-notes\.txt, which is not part of the index/);
    writeFileSync(join(root, "plain-file"), "x");
    await expect(build(join(root, "plain-file"))).rejects.toThrow(/it is a file, not a directory/);
    const real = join(root, "real-index");
    await build(real);
    symlinkSync(real, join(root, "link-index"));
    await expect(build(join(root, "link-index"))).rejects.toThrow(/it is a symbolic link/);
  });

  it("atr build-index exits 1 with the refusal, and prints a note for each leftover it removes", async () => {
    const app = join(root, "cli-app");
    mkdirSync(app);
    writeFileSync(join(app, "manifest.json"), "{}");
    const refused = await runCli([
      "build-index",
      "--excel_dir",
      tables,
      "--doc_dir",
      docs,
      "--save_path",
      app,
      "--quiet",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/refusing to replace --save_path .*cli-app: its manifest\.json has no formatVersion/);
    const save = join(root, "cli-index");
    const stale = `${save}.tmp-${deadPid()}`;
    mkdirSync(stale);
    writeFileSync(join(stale, BUILD_MARKER), "x");
    const built = await runCli([
      "build-index",
      "--excel_dir",
      tables,
      "--doc_dir",
      docs,
      "--save_path",
      save,
      "--quiet",
    ]);
    expect(built.code).toBe(0);
    expect(built.err).toMatch(/note: removed .*cli-index\.tmp-\d+, left by an interrupted build/);
    expect(existsSync(stale)).toBe(false);
  });

  it("replaces a verified index and an empty directory", async () => {
    const save = join(root, "again");
    await build(save);
    await build(save);
    expect(verifyIndexFiles(save).violations).toEqual([]);
    expect(existsSync(join(save, BUILD_MARKER))).toBe(false);
    mkdirSync(join(root, "empty"));
    await build(join(root, "empty"));
    expect(verifyIndexFiles(join(root, "empty")).violations).toEqual([]);
  });
});

describe("leftovers of interrupted builds", () => {
  it("removes a marked temp dir of a dead build, keeps unmarked and live ones, restores a put-aside index", async () => {
    const save = join(root, "stale");
    const dead = deadPid();
    const stale = `${save}.tmp-${dead}`;
    mkdirSync(stale);
    writeFileSync(join(stale, BUILD_MARKER), "x");
    writeFileSync(join(stale, "tables.sqlite"), Buffer.alloc(1024 * 1024));
    const unmarked = `${save}.tmp-${deadPid()}`;
    mkdirSync(unmarked);
    writeFileSync(join(unmarked, "mine.txt"), "not a build");
    const live = `${save}.tmp-${process.ppid}`;
    mkdirSync(live);
    writeFileSync(join(live, BUILD_MARKER), "x");
    const result = await build(save);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(join(unmarked, "mine.txt"))).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(result.cleanup).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`removed .*stale\\.tmp-${dead}, left by an interrupted build`)),
        expect.stringMatching(/has no \.atr-build-in-progress marker; left alone/),
        expect.stringMatching(/still running .*left alone/),
      ]),
    );
    // A build killed between "old index aside" and "new index in" leaves only <save>.old-<pid>.
    const aside = `${save}.old-${deadPid()}`;
    const { renameSync } = await import("node:fs");
    renameSync(save, aside);
    expect(cleanStaleBuilds(save)).toEqual(
      expect.arrayContaining([expect.stringMatching(/restored .*stale from .*\.old-/)]),
    );
    expect(verifyIndexFiles(save).violations).toEqual([]);
    rmSync(unmarked, { recursive: true });
    rmSync(live, { recursive: true });
  });

  it("removes its temp dir when killed with SIGTERM during the build", async () => {
    const big = join(root, "big");
    mkdirSync(big);
    const lines = ["id,name,city,score"];
    for (let i = 0; i < 8000; i++) lines.push(`${i},name ${i},city ${i % 300},${(i * 7) % 1000}`);
    writeFileSync(join(big, "big.csv"), lines.join("\n"));
    const save = join(root, "killed");
    const child = spawn(
      process.execPath,
      ["bin/atr.js", "build-index", "--excel_dir", big, "--doc_dir", docs, "--save_path", save, "--quiet"],
      { stdio: "ignore" },
    );
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    const seen = await new Promise<boolean>((resolve) => {
      const started = Date.now();
      const timer = setInterval(() => {
        if (readdirSync(root).some((n) => n.startsWith("killed.tmp-"))) {
          clearInterval(timer);
          child.kill("SIGTERM");
          resolve(true);
        } else if (Date.now() - started > 60_000 || child.exitCode !== null) {
          clearInterval(timer);
          resolve(false);
        }
      }, 10);
    });
    expect(seen).toBe(true);
    expect(await exited).toEqual({ code: null, signal: "SIGTERM" });
    expect(readdirSync(root).filter((n) => n.startsWith("killed"))).toEqual([]);
  }, 90_000);
});

describe("a build past bad input files", () => {
  it("builds the good tables beside a 1,000-column CSV and a workbook with a cell at XFD1048576, and lists every skip in the manifest", async () => {
    const mixed = join(root, "mixed");
    const mixedDocs = join(root, "mixed-docs");
    mkdirSync(mixed);
    mkdirSync(mixedDocs);
    writeFileSync(join(mixed, "clubs.csv"), "Club,City\nLeeds United,Leeds\n");
    writeFileSync(
      join(mixed, "wide.csv"),
      `${Array.from({ length: 1000 }, (_, i) => `c${i}`).join(",")}\n${"1,".repeat(999)}1\n`,
    );
    writeFileSync(
      join(mixed, "far.xlsx"),
      handWrittenXlsx([
        {
          name: "S",
          ref: "A1:XFD1048576",
          rows: `<row r="1">${inlineCell("A1", "x")}</row><row r="1048576">${inlineCell("XFD1048576", "y")}</row>`,
        },
      ]),
    );
    writeFileSync(join(mixed, ".hidden.csv"), "a\n1\n");
    writeFileSync(join(mixed, "Robert'); DROP TABLE clubs;--.csv"), "name\nBobby\n");
    mkdirSync(join(mixed, "archive"));
    writeFileSync(join(mixedDocs, "bad.json"), JSON.stringify([{ text: "Leeds won." }, 7, { text: null }]));
    const started = Date.now();
    const result = await build(join(root, "mixed-index"), mixed, mixedDocs);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.manifest.sources.tables).toEqual(["Robert'); DROP TABLE clubs;--.csv", "clubs.csv"]);
    expect(result.manifest.sources.documents).toEqual(["bad.json"]);
    const skipped = result.manifest.sources.skipped.map((s) => `${s.file}: ${s.reason}`);
    expect(skipped).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\.hidden\.csv: hidden file/),
        expect.stringMatching(/^archive: sub-folder/),
        expect.stringMatching(/^wide\.csv: the CSV has 1000 columns/),
        expect.stringMatching(/^far\.xlsx: sheet "S": its used range A1:XFD1048576/),
        expect.stringMatching(/^bad\.json: entry 1: a number/),
        expect.stringMatching(/^bad\.json: entry 2: "text" is null/),
      ]),
    );
    const index = await openIndex(join(root, "mixed-index"));
    try {
      const bobby = index.tables.get("Robert'); DROP TABLE clubs;--")!;
      expect(index.db.prepare(`SELECT name FROM "${bobby.physical}"`).pluck().all()).toEqual(["Bobby"]);
      expect(index.db.prepare("SELECT COUNT(*) FROM clubs").pluck().get()).toBe(1);
      expect(index.passages.map((p) => p.text)).toEqual(["Leeds won."]);
    } finally {
      index.close();
    }
  });
});
