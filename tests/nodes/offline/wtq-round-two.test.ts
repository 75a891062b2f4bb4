/**
 * Conditions WTQ-like questions state and the backbone used to drop or misread (docs/OFFLINE-BACKBONE.md,
 * "Table order round two"): "at least 4th" is a bound on the place, not the cell "4th"; "the top of the list" is
 * the table's first row, not the largest value; "besides X, which other runners …" lists everyone the exception
 * leaves; a table's first rows are no header rows because their dates name years; "the difference between the
 * heaviest X and the lightest" is the measure's spread; a name that is part of many short cells of one column
 * ("Bergen, Norway", "Oslo, Norway", …) selects all of them; "how many X won at least twice" counts the values
 * that recur; the first and the last row's measure apart, by the table's order or by the places.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // A rowing club's seasons and where it finished in its league.
    id: "seasons",
    file: "seasons.csv",
    header: ["Season", "League", "Place"],
    rows: [
      ["2015", "Division 2", "6th"],
      ["2016", "Division 2", "2nd"],
      ["2017", "Division 1", "9th"],
      ["2018", "Division 1", "4th"],
      ["2019", "Division 1", "1st"],
      ["2020", "Division 1", "4th"],
    ],
  },
  {
    // Fishing harbours and their landings, listed by region (not by size).
    id: "harbours",
    file: "harbours.csv",
    header: ["Harbour", "Region", "Landings (t)"],
    rows: [
      ["Scrabster", "Caithness", "11,400"],
      ["Kinlochbervie", "Sutherland", "18,950"],
      ["Ullapool", "Ross", "7,120"],
    ],
  },
  {
    // A hill race's finishers and their clubs.
    id: "hillrace",
    file: "hillrace.csv",
    header: ["Runner", "Club", "Time"],
    rows: [
      ["Ailsa Grant", "Carnethy", "1:02:10"],
      ["Rory Baird", "Westies", "1:04:55"],
      ["Fiona Rae", "Carnethy", "1:05:30"],
      ["Duncan Kerr", "Carnethy", "1:07:02"],
      ["Moira Shaw", "Westies", "1:09:41"],
    ],
  },
  {
    // Players signed by a club: the first rows' whole dates name years, yet they are rows of data.
    id: "signings",
    file: "signings.csv",
    header: ["Player", "From", "Signed"],
    rows: [
      ["Calum Reid", "Ross County", "4 July 2011"],
      ["Euan Muir", "Elgin City", "19 August 2011"],
      ["Innes Mackay", "Brora Rangers", "2 January 2012"],
      ["Lewis Gunn", "Wick Academy", "30 June 2012"],
    ],
  },
  {
    // A curling tour's fixtures in many towns of two countries, numbered stages beside them.
    id: "fixtures",
    file: "fixtures.csv",
    header: ["Stage", "Venue", "Winner"],
    rows: [
      ["Stage 1", "Bergen, Norway", "Team Lund"],
      ["Stage 2", "Oslo, Norway", "Team Berg"],
      ["Stage 3", "Malmö, Sweden", "Team Lund"],
      ["Stage 4", "Tromsø, Norway", "Team Holm"],
      ["Stage 5", "Stavanger, Norway", "Team Berg"],
      ["Stage 6", "Gothenburg, Sweden", "Team Lund"],
      ["Stage 7", "Trondheim, Norway", "Team Holm"],
    ],
  },
  {
    // A regatta's winners by year, each skipper's tally of wins beside a separate count column.
    id: "regattas",
    file: "regattas.csv",
    header: ["Year", "Skipper", "Boat", "Crew size"],
    rows: [
      ["2011", "Iona Bell", "Kittiwake", "4"],
      ["2012", "Hamish Dow", "Solan", "5"],
      ["2013", "Iona Bell", "Kittiwake", "4"],
      ["2014", "Kirsty Rae", "Fulmar", "6"],
      ["2015", "Hamish Dow", "Solan", "5"],
      ["2016", "Iona Bell", "Shearwater", "3"],
    ],
  },
  {
    // A shinty league listed by name, its places in a column of their own.
    id: "league",
    file: "league.csv",
    header: ["Team", "Place", "Points"],
    rows: [
      ["Ardrossan", "3", "30"],
      ["Barra", "1", "41"],
      ["Carloway", "4", "22"],
      ["Dalmally", "2", "35"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a place bound", () => {
  it("'at least 4th' is 4th or better", () => {
    expect(answer("in how many seasons did the club end up at least 4th?", "seasons")).toEqual(["4"]);
    expect(answer("which seasons did the crew finish at least 2nd?", "seasons")).toEqual(["2016", "2019"]);
  });
});

describe("the top of the list", () => {
  it("is the table's first row", () => {
    expect(answer("which harbour sits on top of this list?", "harbours")).toEqual(["Scrabster"]);
    expect(answer("what is the top region shown in the table?", "harbours")).toEqual(["Caithness"]);
  });

  it("beside a measure it is still the measure's top", () => {
    expect(answer("which harbour is on top in landings?", "harbours")).toEqual(["Kinlochbervie"]);
  });
});

describe("an exception and the others", () => {
  it("'which other runners …' lists everyone the exception leaves", () => {
    expect(answer("besides ailsa grant, which other runners belong to carnethy?", "hillrace")).toEqual([
      "Fiona Rae",
      "Duncan Kerr",
    ]);
  });

  it("the column's noun may stand before the excepted value", () => {
    expect(answer("besides runner rory baird, which other runner was with westies?", "hillrace")).toEqual([
      "Moira Shaw",
    ]);
  });
});

describe("rows whose dates name years", () => {
  it("are rows of data, not header rows", () => {
    expect(answer("which club did calum reid come from?", "signings")).toEqual(["Ross County"]);
    expect(answer("when was euan muir signed?", "signings")).toEqual(["19 August 2011"]);
  });
});

describe("the two ends of a measure", () => {
  it("words between the two extremes, in either order", () => {
    expect(
      answer("what is the difference in landings between the largest harbour and the smallest one?", "harbours"),
    ).toEqual(["11830"]);
    expect(answer("what was the gap between the lowest landings and the highest?", "harbours")).toEqual(["11830"]);
  });
});

describe("a name that is part of many cells", () => {
  it("selects every cell of its column that holds it", () => {
    expect(answer("in how many fixtures was the venue in norway?", "fixtures")).toEqual(["5"]);
  });
});

describe("values that recur", () => {
  it("counted, or listed in table order", () => {
    expect(answer("how many skippers won at least twice?", "regattas")).toEqual(["2"]);
    expect(answer("which boats took the trophy more than once?", "regattas")).toEqual(["Kittiwake", "Solan"]);
  });
});

describe("the first and the last apart", () => {
  it("in the table's order, or by the places when places are named", () => {
    expect(answer("what is the gap in landings between the first harbour and the last?", "harbours")).toEqual(["4280"]);
    expect(answer("what was the points gap between first place and last place?", "league")).toEqual(["19"]);
  });
});
