import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../fixtures/run-cli.js";

let root: string;
let index: string;

const run = runCli;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-cli-search-"));
  index = join(root, "ex");
  const built = await run([
    "build-index",
    "--excel_dir",
    "examples/tables",
    "--doc_dir",
    "examples/docs",
    "--save_path",
    index,
    "--quiet",
  ]);
  expect(built.code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("atr search", () => {
  it("finds a row of one table and a cell by name", async () => {
    const rows = await run([
      "search",
      "--view",
      "rows",
      "--index_path",
      index,
      "--table_id",
      "clubs",
      "Dunmere FC stadium",
      "--k",
      "2",
    ]);
    expect(rows.code).toBe(0);
    expect(rows.out.split("\n")[0]).toMatch(/^ 1\. [\d.]+ +\[clubs · row 3\] Table clubs \| Club: Dunmere FC/);
    const cells = await run([
      "search",
      "--view",
      "cells",
      "--index_path",
      index,
      "--table_id",
      "players",
      "liam carver",
      "--json",
      "--k",
      "1",
    ]);
    expect(JSON.parse(cells.out)).toMatchObject({
      rank: 1,
      tableId: "players",
      column: "Player",
      value: "Liam Carver",
    });
  });

  it("searches schema, table chunks and passages", async () => {
    const schema = await run([
      "search",
      "--view",
      "schema",
      "--index_path",
      index,
      "stadium capacity",
      "--k",
      "1",
      "--json",
    ]);
    expect(JSON.parse(schema.out)).toMatchObject({ tableId: "clubs" });
    const tables = await run([
      "search",
      "--view",
      "tables",
      "--index_path",
      index,
      "Ashford Rovers Mill Lane",
      "--k",
      "1",
      "--json",
    ]);
    expect(JSON.parse(tables.out)).toMatchObject({ type: "table", tableId: "clubs" });
    const passages = await run([
      "search",
      "--view",
      "passages",
      "--index_path",
      index,
      "history of the club",
      "--k",
      "3",
      "--json",
    ]);
    expect(passages.out.split("\n").map((l) => JSON.parse(l).type)).toEqual(["text", "text", "text"]);
  });

  it("explains usage errors", async () => {
    expect((await run(["search", "--view", "rows", "--index_path", index, "x"])).err).toMatch(/exactly one --table_id/);
    expect((await run(["search", "--view", "nope", "--index_path", index, "x"])).err).toMatch(/--view must be one of/);
    expect((await run(["search", "--view", "cells", "--index_path", index])).err).toMatch(/give the query/);
    const typo = await run(["search", "--view", "cells", "--index_path", index, "--table_id", "club", "x"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/--table_id club: not a table of .* \(tables: .*clubs/);
  });
});
