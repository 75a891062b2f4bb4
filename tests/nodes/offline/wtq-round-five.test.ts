/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round five"): a negated bound ("no
 * more than 40", "did not score over 12 points", "never dropped below 20%", "did not finish higher than 3rd") is the
 * bound turned round; a negated verb before a value ("were not built by X", "was not held in X") sets X's rows
 * aside.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

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
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

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
