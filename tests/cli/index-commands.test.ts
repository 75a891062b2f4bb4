import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../fixtures/run-cli.js";
import { batchProgress, createProgress, renderBar } from "../../cli/progress.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "atr-cli-index-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = runCli;

describe("atr build-index / inspect-index", () => {
  it("builds the example index and inspects it, tables included", async () => {
    const save = join(root, "ex");
    const built = await run([
      "build-index",
      "--excel_dir",
      "examples/tables",
      "--doc_dir",
      "examples/docs",
      "--save_path",
      save,
      "--quiet",
      "--per_table_quota",
      "20",
    ]);
    expect(built.code).toBe(0);
    expect(built.out).toMatch(/5 tables \(36 rows\), 10 passages/);
    const inspected = await run(["inspect-index", save, "--tables"]);
    expect(inspected.code).toBe(0);
    expect(inspected.out).toMatch(/verified OK/);
    expect(inspected.out).toMatch(/cells +budget 10000, per table 20/);
    expect(inspected.out).toMatch(
      /season_2023#Standings +\[season_2023_standings, 6 rows, 9 columns, season_2023\.xlsx sheet Standings\]/,
    );
    expect(inspected.out).toMatch(/Home › W +integer +home_w/);
    const json = await run(["inspect-index", "--index_path", save, "--json"]);
    expect(JSON.parse(json.out).manifest.counts.tables).toBe(5);
  });

  it("reports missing required flags, bad numbers and a missing directory", async () => {
    expect((await run(["build-index", "--excel_dir", "examples/tables"])).err).toMatch(/--doc_dir is required/);
    expect(
      (await run(["build-index", "--excel_dir", "x", "--doc_dir", "y", "--save_path", "z", "--budget", "-5"])).err,
    ).toMatch(/--budget must be a non-negative integer/);
    const missing = await run([
      "build-index",
      "--excel_dir",
      join(root, "none"),
      "--doc_dir",
      "examples/docs",
      "--save_path",
      join(root, "o"),
      "--quiet",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--excel_dir .*none does not exist/);
  });

  it("inspect-index refuses something that is not an index, with exit code 1", async () => {
    const res = await run(["inspect-index", "examples/docs"]);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/no manifest\.json/);
  });

  it("doctor reports node, the SQLite module and the vector backend", async () => {
    const res = await run(["doctor"]);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/ok +node/);
    expect(res.out).toMatch(/ok +better-sqlite3 +\d+\.\d+\.\d+ \(SQLite/);
    expect(res.out).toMatch(/vector backend +(exact|faiss)/);
  });
});

describe("createProgress", () => {
  function fakeStream(tty: boolean) {
    const chunks: string[] = [];
    return { chunks, stream: { isTTY: tty, write: (s: string) => chunks.push(s) } as unknown as NodeJS.WriteStream };
  }

  it("prints one plain line when not on a terminal, nothing when quiet", () => {
    const plain = fakeStream(false);
    const bar = createProgress("sql", 3, { stream: plain.stream });
    bar.tick();
    bar.tick(2);
    bar.done();
    bar.done();
    expect(plain.chunks).toHaveLength(1);
    expect(plain.chunks[0]).toMatch(/^sql: 3\/3 \(\d+\.\ds\)\n$/);
    const quiet = fakeStream(false);
    createProgress("x", 1, { stream: quiet.stream, quiet: true }).done();
    expect(quiet.chunks).toEqual([]);
  });

  it("draws a bar in place on a terminal", () => {
    const tty = fakeStream(true);
    const bar = createProgress("embed", 4, { stream: tty.stream });
    bar.update(2);
    bar.done();
    expect(tty.chunks[0]).toMatch(/^\rembed +█+░+ +50% 2\/4/);
    expect(tty.chunks.join("")).toMatch(/100% 4\/4/);
  });

  it("shows an ETA while running and a batch's failures, LLM calls and tokens", () => {
    const line = renderBar("atr run", 50, 200, 10_000, "failed 2");
    expect(line).toMatch(/ 25% 50\/200 ETA 0:30 · failed 2$/);
    const plain = fakeStream(false);
    const batch = batchProgress("atr run", { stream: plain.stream });
    batch.update({ done: 1, total: 2, failed: 0, llmCalls: 3, tokens: 10, skipped: 0 });
    batch.update({ done: 2, total: 2, failed: 1, llmCalls: 300, tokens: 45_000, skipped: 10 });
    batch.finish();
    expect(plain.chunks).toHaveLength(1);
    expect(plain.chunks[0]).toMatch(
      /^atr run: 2\/2 \(\d+\.\ds\) · \+10 resumed · failed 1 · LLM calls 300 · tokens 45k\n$/,
    );
  });
});
