/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round five"): a negated bound ("no
 * more than 40", "did not score over 12 points", "never dropped below 20%", "did not finish higher than 3rd") is the
 * bound turned round; a negated verb before a value ("were not built by X", "was not held in X") sets X's rows
 * aside; how long a named row lasted between two of its own columns (From / To, Took office / Left office, Born /
 * Died); "won three silver medals", "had only one gold medal": a number word before the noun naming its column
 * is an equality on that column; "the first three games", "the last two entries" are the first (last) N of the rows
 * the rest of the question selects.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables, planGenerator } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // A curling league's clubs and their season.
    id: "clubs",
    file: "clubs.csv",
    header: ["Place", "Club", "Wins", "Points", "Rink"],
    rows: [
      ["1", "Ardmore", "14", "44", "Lochside Arena"],
      ["2", "Balfron", "12", "38", "Lochside Arena"],
      ["3", "Carnwath", "9", "31", "Glen Rink"],
      ["4", "Dalry", "7", "22", "Lochside Arena"],
      ["5", "Elgin Thistle", "4", "12", "Moss Hall"],
    ],
  },
  {
    // A narrow-gauge line's engines and who built them.
    id: "engines",
    file: "engines.csv",
    header: ["Engine", "Builder", "Built", "Weight (t)"],
    rows: [
      ["Wren", "Kerr Stuart", "1905", "8"],
      ["Merlin", "Hunslet", "1911", "12"],
      ["Kestrel", "Kerr Stuart", "1914", "9"],
      ["Osprey", "Bagnall", "1920", "14"],
    ],
  },
  {
    // A club's home fixtures over two seasons.
    id: "gates",
    file: "gates.csv",
    header: ["Season", "Opponent", "Attendance"],
    rows: [
      ["2019", "Kelso", "1200"],
      ["2019", "Peebles", "1500"],
      ["2019", "Melrose", "900"],
      ["2020", "Kelso", "2000"],
      ["2020", "Hawick", "1000"],
      ["2020", "Selkirk", "3000"],
    ],
  },
  {
    // A regatta's medal table.
    id: "regatta",
    file: "regatta.csv",
    header: ["Rank", "Club", "Gold", "Silver", "Bronze"],
    rows: [
      ["1", "Loch Venn", "4", "3", "1"],
      ["2", "Tarn Side", "3", "1", "2"],
      ["3", "Mere Point", "1", "2", "1"],
      ["4", "Crag Water", "0", "1", "1"],
    ],
  },
  {
    // A harbour board's chairmen: whole dates, a year among words, a chairman still in office.
    id: "chairmen",
    file: "chairmen.csv",
    header: ["Chairman", "Took office", "Left office", "Born", "Died"],
    rows: [
      ["Ewan Tolmie", "May 3, 1961", "June 1970", "1910", "1988"],
      ["Moira Lindsay", "June 9, 1970", "April 1974", "1922", "2001"],
      ["Hamish Reid", "April 2, 1974", "Present", "1931", ""],
    ],
  },
  {
    // A moor's weather stations and the years each ran, and a column of how long.
    id: "stations",
    file: "stations.csv",
    header: ["Station", "Opened", "Closed"],
    rows: [
      ["Black Hill", "1908", "1920"],
      ["Cairn Brae", "1917", "1918"],
      ["Fell End", "1931", "1966"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);
const generator = (question: string, table: string) => planGenerator(fx, question, table);

describe("a negated bound", () => {
  it("'no more than N', 'no less than N' include the bound on the side the negation leaves", () => {
    expect(answer("which clubs had no more than 22 points?", "clubs")).toEqual(["Dalry", "Elgin Thistle"]);
    expect(answer("how many clubs had no less than 38 points?", "clubs")).toEqual(["2"]);
  });

  it("a negated verb before the bound turns it round too", () => {
    expect(answer("how many clubs did not win more than 9 games?", "clubs")).toEqual(["3"]);
    expect(answer("which clubs did not score at least 30 points?", "clubs")).toEqual(["Dalry", "Elgin Thistle"]);
    expect(answer("how many engines were not built before 1912?", "engines")).toEqual(["2"]);
  });

  it("a place the negated verb bounds is that place or worse", () => {
    expect(answer("how many clubs did not finish higher than 3rd?", "clubs")).toEqual(["3"]);
  });
});

describe("a negated verb before a value", () => {
  it("sets the value's rows aside", () => {
    expect(answer("how many engines were not made by kerr stuart?", "engines")).toEqual(["2"]);
    expect(answer("how many clubs do not play at lochside arena?", "clubs")).toEqual(["2"]);
  });
});

describe("how long a named row lasted between two of its own columns", () => {
  it("is the end's year minus the start's, 'N years' asked how long and 'N' asked how many years", () => {
    expect(answer("how long was moira lindsay in office?", "chairmen")).toEqual(["4 years"]);
    expect(answer("how many years did ewan tolmie serve?", "chairmen")).toEqual(["9"]);
    expect(answer("how long did the cairn brae station operate?", "stations")).toEqual(["1 year"]);
    expect(generator("how many years did the black hill station run?", "stations")).toBe("aggregate.row-span");
  });

  it("of a life, asked how long one lived, is read between Born and Died", () => {
    expect(answer("how long did ewan tolmie live?", "chairmen")).toEqual(["78 years"]);
  });
});

describe("a number word before the noun naming its column", () => {
  it("is an equality on that column, 'one' as well as 'three'", () => {
    expect(answer("which was the only club to win three silver medals?", "regatta")).toEqual(["Loch Venn"]);
    expect(answer("how many clubs earned only one bronze medal?", "regatta")).toEqual(["3"]);
    expect(answer("what is the only club to have one gold medal?", "regatta")).toEqual(["Mere Point"]);
  });
});

describe("the first (last) N rows", () => {
  it("are the first N of the rows the rest of the question selects, in table order", () => {
    expect(answer("what was the total attendance of the first three games?", "gates")).toEqual(["3600"]);
    expect(answer("what was the total attendance of the first two games of 2020?", "gates")).toEqual(["3000"]);
    expect(answer("what is the average attendance of the last two games?", "gates")).toEqual(["2000"]);
  });
});
