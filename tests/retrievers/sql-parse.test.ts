import { describe, expect, it } from "vitest";
import { buildGuardScope, checkSql, columnsRead } from "../../retrievers/sql-guard.js";
import { rowsQuery } from "../../retrievers/sql-rows.js";
import { parseSql } from "../../retrievers/sql-parse.js";
import { CLUBS } from "./sql-fixtures.js";

const scope = (columns: string[]) => {
  const built = buildGuardScope({
    tables: [CLUBS],
    allowedColumns: columns.map((column) => ({ tableId: "clubs", column })),
    linkedValues: [],
  });
  expect(built.errors).toEqual([]);
  return built.scope;
};

describe("parsed statements are cached by text", () => {
  it("parses a text once, returns a frozen tree, and remembers parse errors too", () => {
    const sql = `SELECT "founded" FROM "clubs" WHERE "club__raw" = 'Ann'`;
    const first = parseSql(sql);
    expect(parseSql(sql)).toBe(first);
    expect("ast" in first && Object.isFrozen(first.ast)).toBe(true);
    const bad = parseSql("SELECT FROM WHERE");
    expect("error" in bad).toBe(true);
    expect(parseSql("SELECT FROM WHERE")).toBe(bad);
  });

  it("a statement's verdict depends on the scope it is checked in, not on an earlier check of the same text", () => {
    const sql = `SELECT "founded" FROM "clubs" WHERE "club__raw" = 'Ann'`;
    expect(checkSql(sql, scope(["Founded", "Club"]))).toEqual([]);
    expect(checkSql(sql, scope(["Club"])).join(" ")).toMatch(/founded/i);
    expect(checkSql(sql, scope(["Founded", "Club"]))).toEqual([]);
    expect(columnsRead(sql, scope(["Founded", "Club"]))?.get("clubs")).toEqual(new Set(["founded", "club__raw"]));
  });

  it("the row-number query of a cached statement (with a sub-query) is written from a copy, twice the same", () => {
    const sql = `SELECT COUNT(*) FROM "clubs" WHERE "founded" > (SELECT AVG("founded") FROM "clubs")`;
    const one = rowsQuery(sql, ["founded"]);
    const two = rowsQuery(sql, ["founded"]);
    expect("sql" in one && one.sql).toMatch(/_row/);
    expect(two).toEqual(one);
  });
});
