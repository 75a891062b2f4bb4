import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlStore, physicalTableNames, readTableSchemas, writeSqlStore } from "../../indexing/sql-store.js";
import type { RawTable } from "../../indexing/types.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-sql-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const clubs: RawTable = {
  id: "200_1",
  file: "200_1.csv",
  title: "Clubs",
  header: ["Club Name", "Founded", "Budget ($m)", "Opened", "Club.Name"],
  rows: [
    ["Leeds", "1,919", "$5.2", "June 30, 2019", "x"],
    ["Hull", "1904", "(3.4)", "2001-02-03", ""],
    ["York", "", "n/a", "", "z"],
  ],
};
const sheet: RawTable = {
  id: "league#Home",
  file: "league.xlsx",
  sheet: "Home",
  header: ["Goals › For"],
  rows: [["10"]],
};

describe("sql store", () => {
  it("writes typed and raw columns, the _row id and bookkeeping, and reads the schemas back", () => {
    const path = join(dir, "tables.sqlite");
    const written = writeSqlStore(path, [clubs, sheet]);
    const db = openSqlStore(path);
    try {
      const schemas = readTableSchemas(db);
      expect([...schemas.values()]).toEqual(written);
      const s = schemas.get("200_1")!;
      expect(s.physical).toBe("t_200_1");
      expect(s.title).toBe("Clubs");
      expect(s.rowCount).toBe(3);
      expect(s.columns.map((c) => [c.name, c.physical, c.rawPhysical, c.type])).toEqual([
        ["Club Name", "club_name", "club_name__raw", "text"],
        ["Founded", "founded", "founded__raw", "integer"],
        ["Budget ($m)", "budget_m", "budget_m__raw", "real"],
        ["Opened", "opened", "opened__raw", "date"],
        ["Club.Name", "club_name_1", "club_name_1__raw", "text"],
      ]);
      expect(s.columns[0]!.examples).toEqual(["Leeds", "Hull", "York"]);
      const rows = db.prepare(`SELECT * FROM "t_200_1" ORDER BY _row`).all();
      expect(rows[0]).toEqual({
        _row: 0,
        club_name: "Leeds",
        club_name__raw: "Leeds",
        founded: 1919,
        founded__raw: "1,919",
        budget_m: 5.2,
        budget_m__raw: "$5.2",
        opened: "2019-06-30",
        opened__raw: "June 30, 2019",
        club_name_1: "x",
        club_name_1__raw: "x",
      });
      expect(rows[2]).toMatchObject({ _row: 2, founded: null, founded__raw: "", budget_m: null, budget_m__raw: "n/a" });
      expect(rows[1]).toMatchObject({ budget_m: -3.4, club_name_1: null, club_name_1__raw: "" });
      expect(db.prepare(`SELECT SUM(budget_m) FROM "t_200_1"`).pluck().get()).toBeCloseTo(1.8);
      expect(schemas.get("league#Home")).toMatchObject({
        physical: "league_home",
        sheet: "Home",
        columns: [{ physical: "goals_for", type: "integer" }],
      });
      expect(() => db.prepare(`DELETE FROM "t_200_1"`).run()).toThrow(/readonly/i);
    } finally {
      db.close();
    }
  });

  it("de-collides physical table names and avoids reserved prefixes", () => {
    expect(physicalTableNames(["a b", "a_b", "A-B", "_x", "sqlite_master"])).toEqual([
      "a_b",
      "a_b_2",
      "a_b_3",
      "t_x",
      "t_sqlite_master",
    ]);
  });

  it("cuts long schema examples but keeps the full raw text in SQL", () => {
    const long = "w".repeat(10_000);
    const path = join(dir, "tables.sqlite");
    const [schema] = writeSqlStore(path, [{ id: "t", file: "t.csv", header: ["a"], rows: [[long]] }]);
    expect(schema!.columns[0]!.examples[0]!.length).toBe(201);
    const db = openSqlStore(path);
    expect(db.prepare(`SELECT length(a__raw) FROM t`).pluck().get()).toBe(10_000);
    db.close();
  });

  it("refuses to open a missing store, naming the path", () => {
    expect(() => openSqlStore(join(dir, "none.sqlite"))).toThrow(/none\.sqlite/);
  });
});
