/**
 * A timetable of flights and a class's marks, asked as people ask them: "which flights go to Oslo?" asks for every
 * flight that does (a plural noun with a plural verb), and "what was Dana's best subject?" is the header of the
 * named row's highest mark, its total the sum across them; a table whose rows are courses keeps the Course column.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "flights",
    file: "flights.csv",
    header: ["Flight", "From", "To", "Price"],
    rows: [
      ["QF11", "Bergen", "Oslo", "89"],
      ["QF12", "Oslo", "Bergen", "95"],
      ["QF31", "Tromso", "Oslo", "120"],
    ],
  },
  {
    id: "marks",
    file: "marks.csv",
    header: ["Student", "Maths", "Science", "English"],
    rows: [
      ["Dana", "85", "91", "77"],
      ["Eli", "60", "72", "95"],
    ],
  },
  {
    id: "courses",
    file: "courses.csv",
    header: ["Course", "Fee", "Seats"],
    rows: [
      ["Pottery", "120", "8"],
      ["Welding", "340", "6"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("plural questions and a row's best subject", () => {
  it("lists every row a plural question with a plural verb asks for", () => {
    expect(answer("Which flights go to Oslo?", "flights")).toEqual(["QF11", "QF31"]);
  });
  it("answers a row's best and worst subject with the header of its highest and lowest mark", () => {
    expect(answer("What was Dana's best subject?", "marks")).toEqual(["Science"]);
    expect(answer("What is Eli's worst subject?", "marks")).toEqual(["Maths"]);
  });
  it("keeps a column the noun names: the course with the highest fee is a row", () => {
    expect(answer("Which course has the highest fee?", "courses")).toEqual(["Welding"]);
  });
});
