/**
 * Table order against time on WTQ-like tables (docs/OFFLINE-BACKBONE.md, "Table order and dropped conditions"):
 * "her first role" of a list written newest first is the earliest row by its one year column, not the table's top
 * row; a table listed in time but for a slip keeps its own order, and a finishing place is no time. "The stop after
 * X" is the nearest row after X that has something to give: not a vacancy, not X's own value again; in a roll listed
 * newest first, "the winner before X" is the row below X, unless the question speaks of the list itself. A row
 * found by its time is answered by what the row is, not by that time, unless a time is asked.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // An actor's stage roles, newest first.
    id: "roles",
    file: "roles.csv",
    header: ["Year", "Play", "Role", "Theatre"],
    rows: [
      ["2019", "The Lighthouse Keeper", "Mara", "Royal Lyceum"],
      ["2016", "Winter Harbour", "Isla", "Tron"],
      ["2012", "Salt and Stone", "Agnes", "Citizens"],
      ["2009", "The Ferryman's Daughter", "Ellen", "Traverse"],
    ],
  },
  {
    // Kilns listed by site, their firing dates in no order.
    id: "kilns",
    file: "kilns.csv",
    header: ["Kiln", "Site", "Year"],
    rows: [
      ["Bellfield 3", "Bellfield", "1961"],
      ["Corran 1", "Corran", "1934"],
      ["Corran 2", "Corran", "1958"],
      ["Dunvegan East", "Dunvegan", "1947"],
      ["Dunvegan West", "Dunvegan", "1972"],
    ],
  },
  {
    // Listed in time but for one typed year: the table's order stands.
    id: "murals",
    file: "murals.csv",
    header: ["Year", "Mural"],
    rows: [
      ["1981", "Tide Mill"],
      ["1984", "Net Menders"],
      ["1993", "Herring Girls"],
      ["1990", "Lifeboat Crew"],
      ["1996", "Harbour Lights"],
      ["1999", "Gull Rock"],
    ],
  },
  {
    // A regatta's results with each crew's founding year: "came first" is the finishing order.
    id: "regatta",
    file: "regatta.csv",
    header: ["Crew", "Founded", "Time"],
    rows: [
      ["Kelpie", "1990", "41:02"],
      ["Selkie", "1975", "41:40"],
      ["Merrow", "2001", "42:15"],
    ],
  },
  {
    // A coast road's stops, one closed ("n/a"), and a ferry's sailings, two on the same day.
    id: "stops",
    file: "stops.csv",
    header: ["Stop", "Opened", "Sailing"],
    rows: [
      ["Portree", "1901", "03/14/22"],
      ["Sconser", "1910", "03/14/22"],
      ["n/a", "1915", "03/20/22"],
      ["Broadford", "1923", "04/02/22"],
      ["Kyleakin", "1931", "04/09/22"],
    ],
  },
  {
    // A shinty cup's winners, newest first.
    id: "cup",
    file: "cup.csv",
    header: ["Season", "Winner", "Venue"],
    rows: [
      ["2021", "Kingussie", "Oban"],
      ["2020", "Newtonmore", "Inverness"],
      ["2019", "Lovat", "Fort William"],
      ["2018", "Kyles Athletic", "Oban"],
    ],
  },
  {
    // Harbour masters, their terms written as dates of several forms.
    id: "masters",
    file: "masters.csv",
    header: ["Harbour master", "Took office", "Left office"],
    rows: [
      ["Ewan Drummond", "1902", "March 1911"],
      ["Morag Baillie", "March 1911", "1925"],
      ["Angus Finlay", "2 May 1925", "1940"],
    ],
  },
  {
    // Lighthouses and the year each was first lit.
    id: "lights",
    file: "lights.csv",
    header: ["Lighthouse", "Island", "Lit"],
    rows: [
      ["Rubha Reidh", "Mainland", "1912"],
      ["Eilean Glas", "Scalpay", "1789"],
      ["Neist Point", "Skye", "1909"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("first and last by the table's one column of years", () => {
  it("a list written newest first: the first row in time is the table's last", () => {
    expect(answer("what was her first play?", "roles")).toEqual(["The Ferryman's Daughter"]);
    expect(answer("what was her last role?", "roles")).toEqual(["Mara"]);
  });

  it("rows in no order of time: the earliest by the year column", () => {
    expect(answer("which kiln was the first to be lit?", "kilns")).toEqual(["Corran 1"]);
  });

  it("a table listed in time but for a slip keeps its order", () => {
    expect(answer("which mural was painted last?", "murals")).toEqual(["Gull Rock"]);
  });

  it("a finishing place is no time", () => {
    expect(answer("which crew came in first?", "regatta")).toEqual(["Kelpie"]);
    expect(answer("what was the winning time?", "regatta")).toEqual(["41:02"]);
  });
});

describe("the row after (before) a named one", () => {
  it("skips a vacancy in the list", () => {
    expect(answer("which stop comes after sconser?", "stops")).toEqual(["Broadford"]);
    expect(answer("which stop comes before broadford?", "stops")).toEqual(["Sconser"]);
  });

  it("asked of the named value's own column: the next other value, not its twin", () => {
    expect(answer("what is the next sailing after 03/14/22?", "stops")).toEqual(["03/20/22"]);
  });
});

describe("before and after in time, of a roll listed newest first", () => {
  it("the winner before (after) X is the row below (above) X", () => {
    expect(answer("who won the cup before lovat?", "cup")).toEqual(["Kyles Athletic"]);
    expect(answer("which club won the cup after newtonmore?", "cup")).toEqual(["Kingussie"]);
  });

  it("the list's own order when the question speaks of the list", () => {
    expect(answer("which winner is listed before lovat?", "cup")).toEqual(["Newtonmore"]);
  });
});

describe("a row found by its time is answered by what it is", () => {
  it("who took office after X: the person, not the date", () => {
    expect(answer("who took office after morag baillie?", "masters")).toEqual(["Angus Finlay"]);
  });

  it("which was lit first: the lighthouse, not the year; the year when asked", () => {
    expect(answer("which was lit first?", "lights")).toEqual(["Eilean Glas"]);
    expect(answer("what year was the first lighthouse lit?", "lights")).toEqual(["1789"]);
  });
});
