/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round six"): a country's name or
 * demonym names the cells that write only its code in brackets after a name ("Ola Berg (NOR)"), in a table that
 * never writes the country's name; not "the Tour de France", and not in the country's own table, where its code
 * marks the home venues. "Not in the top N" ("did not place in the top 4", "top 5 but not the top 3") is a place
 * beyond N.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // A ski sprint's result list.
    id: "sprint",
    file: "sprint.csv",
    header: ["Rank", "Skier", "Club", "Time"],
    rows: [
      ["1", "Ola Berg (NOR)", "Lillehammer SK", "2:41.2"],
      ["2", "Karl Lind (SWE)", "Falun IF", "2:41.9"],
      ["3", "Pekka Salo (FIN)", "Lahti SK", "2:42.5"],
      ["4", "Nils Dahl (NOR)", "Bergen IL", "2:43.0"],
      ["5", "Anders Holm (SWE)", "Mora IK", "2:44.8"],
      ["6", "Jon Rud (NOR)", "Oslo SK", "2:45.1"],
    ],
  },
  {
    // A national fencing team's fixtures: the venue's code is the host's.
    id: "fixtures",
    file: "fixtures.csv",
    title: "Norway national fencing team",
    header: ["Year", "Venue", "Opponent", "Result"],
    rows: [
      ["2010", "Oslo (NOR)", "Denmark", "Win"],
      ["2011", "Malmö (SWE)", "Sweden", "Loss"],
      ["2012", "Bergen (NOR)", "Finland", "Win"],
      ["2013", "Turku (FIN)", "Finland", "Win"],
    ],
  },
  {
    // A local radio station's year-end chart, listed in chart order.
    id: "chart",
    file: "chart.csv",
    header: ["Title", "Artist", "Weeks"],
    rows: [
      ["Harbour Lights", "The Gulls", "21"],
      ["Slow Tide", "Mara Quinn", "18"],
      ["Paper Kites", "Northbound", "25"],
      ["Ember", "Mara Quinn", "12"],
      ["Long Road Home", "The Gulls", "9"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a country named by the code after a name", () => {
  it("a country's name selects the rows whose cell ends with its code in brackets", () => {
    expect(answer("how many skiers are from norway?", "sprint")).toEqual(["3"]);
    expect(answer("which club does the skier from finland ski for?", "sprint")).toEqual(["Lahti SK"]);
  });

  it("so does its demonym", () => {
    expect(answer("how many swedish skiers were in the sprint?", "sprint")).toEqual(["2"]);
  });

  it("not in the country's own table, where its code marks the venues at home", () => {
    expect(answer("how many matches did the norwegians win?", "fixtures")).toEqual(["3"]);
  });
});

describe("not in the top N", () => {
  it("is a rank beyond N", () => {
    expect(answer("how many skiers did not place in the top 4?", "sprint")).toEqual(["2"]);
    expect(answer("which skiers were in the top 5 but not the top 3?", "sprint")).toEqual([
      "Nils Dahl (NOR)",
      "Anders Holm (SWE)",
    ]);
  });

  it("is a row beyond the first N of a table without ranks", () => {
    expect(answer("how many songs were not in the top 3?", "chart")).toEqual(["2"]);
    expect(answer("which songs by mara quinn did not make the top 3?", "chart")).toEqual(["Ember"]);
  });
});
