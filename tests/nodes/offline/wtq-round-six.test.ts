/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round six"): a country's name or
 * demonym names the cells that write only its code in brackets after a name ("Ola Berg (NOR)"), in a table that
 * never writes the country's name; not "the Tour de France", and not in the country's own table, where its code
 * marks the home venues.
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
