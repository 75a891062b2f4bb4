/**
 * "Which baker is the oldest?" over a table of bakers with no age column: each baker's page says when they
 * were born, and the bridge took the first row the question's words left tied. It now orders those rows by
 * the birth date of the page their cell links (nodes/offline/age-order.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlStore, readTableSchemas, writeSqlStore } from "../../../indexing/sql-store.js";
import { createRowFinder } from "../../../nodes/offline/bridge.js";
import { ageOrderOf, birthKey } from "../../../nodes/offline/age-order.js";
import type { Passage } from "../../../indexing/types.js";

const dir = mkdtempSync(join(tmpdir(), "atr-age-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("birth dates on people's pages", () => {
  it("reads the date after 'born', or the first date of a life span", () => {
    expect(birthKey("Ada Lind ( born 4 May 1950 ) is a baker .")).toBe(19500504);
    expect(birthKey("Tom Berg ( June 1 , 1890 - July 2 , 1960 ) was a miller .")).toBe(18900601);
    expect(birthKey("Eva Holm ( Swedish : [ eːva ] ; 1932- ) is a cook .")).toBe(19320000);
    expect(birthKey("Kai Dahl was born on 3 March 1971 in Lund .")).toBe(19710303);
  });
  it("reads no birth from a year alone", () => {
    expect(birthKey("The 2004 Fair ( held in 2004 ) was a market .")).toBeUndefined();
  });
  it("tells the asked order and its rank", () => {
    expect(ageOrderOf("Which baker is the oldest ?")).toMatchObject({ direction: "min", rank: 1 });
    expect(ageOrderOf("Who is the second youngest baker ?")).toMatchObject({ direction: "max", rank: 2 });
    expect(ageOrderOf("Of the bakers in Lund , who was born later ?")).toMatchObject({ direction: "max" });
    expect(ageOrderOf("Which bakery is the oldest surviving one ?")).toBeUndefined();
    expect(ageOrderOf("Which baker is the youngest ever winner of the fair ?")).toBeUndefined();
    expect(ageOrderOf("Which constructor made the oven ?")).toBeUndefined();
  });
});

describe("the bridge's row for an age superlative", () => {
  const path = join(dir, "tables.sqlite");
  writeSqlStore(path, [
    {
      id: "bakers",
      file: "bakers.csv",
      header: ["Baker", "Town", "Bakery"],
      rows: [
        ["Ada Lind", "Lund", "Lind Bread"],
        ["Tom Berg", "Malmo", "Berg Buns"],
        ["Eva Holm", "Lund", "Holm Cakes"],
        ["Kai Dahl", "Malmo", "Dahl Rolls"],
      ],
    },
  ]);
  const db = openSqlStore(path);
  const tables = readTableSchemas(db);
  const page = (title: string, text: string, row: number, column = 0): Passage => ({
    id: `/wiki/${title}`,
    title,
    text,
    file: "bakers.json",
    tableId: "bakers",
    cells: [[row, column]],
  });
  const passages: Passage[] = [
    page("Ada Lind", "Ada Lind ( born 4 May 1950 ) is a Swedish baker .", 0),
    page("Tom Berg", "Tom Berg ( 1 June 1931 - 2 July 2010 ) was a Swedish baker .", 1),
    page("Eva Holm", "Eva Holm ( born 9 March 1962 ) is a Swedish baker .", 2),
    page("Kai Dahl", "Kai Dahl ( born 3 March 1971 ) is a Swedish baker .", 3),
    page("Lund", "Lund is a city in Sweden , founded around 990 .", 0, 1),
  ];
  const findRow = createRowFinder({ db, tables, passages });
  const baker = (q: string) => findRow(q, "bakers")?.values[0];

  it("takes the baker born first for 'the oldest', last for 'the youngest'", () => {
    expect(baker("Which baker is the oldest ?")).toBe("Tom Berg");
    expect(baker("Which baker is the youngest ?")).toBe("Kai Dahl");
    expect(baker("Who is the second oldest baker ?")).toBe("Ada Lind");
  });
  it("orders only the rows the question's other words name", () => {
    expect(baker("Of the bakers from Lund , who was born later ?")).toBe("Eva Holm");
    expect(baker("Which Malmo baker is older ?")).toBe("Tom Berg");
  });
});
