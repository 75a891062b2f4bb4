/**
 * Which rows and whose role (the eighth and ninth everyday suites' causes, on tables of their own): everyone
 * tied on the first day, everyone past a bound a "who" question sets, the days someone missed (not a date
 * column), the driest plot, a role asked for by a fragment ("owner of X", "the X curator"), and the people
 * of a booking or all its guests as a party-size column.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { openTables, planColumn } from "./fixtures.js";

const PUPILS: RawTable = {
  id: "pupil_results",
  file: "pupil_results.csv",
  header: ["Pupil", "Form", "Score", "Absences", "Test Date"],
  rows: [
    ["Iris Vane", "7A", "71", "3", "2024-05-14"],
    ["Omar Test", "7B", "88", "6", "2024-05-13"],
    ["Lena Ruiz", "7A", "64", "1", "2024-05-13"],
    ["Kofi Adu", "7B", "90", "6", "2024-05-15"],
  ],
};
const PLOTS: RawTable = {
  id: "allotment_plots",
  file: "allotment_plots.csv",
  header: ["Plot", "Holder", "Curator", "Moisture %", "Yield (kg)"],
  rows: [
    ["Plot A", "Rosa Lind", "Jon Park", "31", "120"],
    ["Plot B", "Tariq Noor", "Amy Fox", "18", "95"],
    ["Plot C", "Mei Chen", "Jon Park", "24", "140"],
  ],
};
const TABLES: RawTable = {
  id: "supper_bookings",
  file: "supper_bookings.csv",
  header: ["Ref", "Guest Name", "Party Size", "Deposit (£)"],
  rows: [
    ["B-1", "Nora Finch", "4", "£40"],
    ["B-2", "Ezra Holt", "2", "£150"],
    ["B-3", "Ines Moro", "6", "£125"],
    ["B-4", "Paul Kerr", "3", "£30"],
  ],
};

const fixture = openTables([PUPILS, PLOTS, TABLES]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("which rows and whose role", () => {
  it("gives everyone tied on the first day a date column names", () => {
    expect(answer("Who sat the test first?", "pupil_results")).toEqual(["Omar Test", "Lena Ruiz"]);
    expect(answer("Who sat the test last?", "pupil_results")).toEqual(["Kofi Adu"]);
  });

  it("gives everyone past the bound a 'who' question sets", () => {
    expect(analyzeQuestion("Who paid a deposit of more than £100?").listAnswer).toBe(true);
    expect(answer("Who paid a deposit of more than £100?", "supper_bookings")).toEqual(["Ezra Holt", "Ines Moro"]);
  });

  it("counts the days missed on an absences column, not a date column", () => {
    expect(answer("which pupil missed the most days", "pupil_results")).toEqual(["Omar Test", "Kofi Adu"]);
  });

  it("reads 'driest' as the lowest moisture", () => {
    expect(answer("driest plot", "allotment_plots")).toEqual(["Plot B"]);
  });

  it("asks for the role a fragment names, not a count of its plural", () => {
    expect(analyzeQuestion("owner of biscuits").operator).not.toBe("count");
    expect(analyzeQuestion("flights from boston").operator).toBe("count");
    expect(analyzeQuestion("premium members").operator).toBe("count");
    expect(answer("holder of Plot C", "allotment_plots")).toEqual(["Mei Chen"]);
    expect(answer("plot b curator", "allotment_plots")).toEqual(["Amy Fox"]);
  });

  it("reads people and guests as a party size", () => {
    expect(answer("How many people is Ines Moro's booking for?", "supper_bookings")).toEqual(["6"]);
    expect(answer("How many guests are booked in total?", "supper_bookings")).toEqual(["15"]);
  });
});
