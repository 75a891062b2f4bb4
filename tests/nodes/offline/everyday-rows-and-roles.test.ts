/**
 * Which rows and whose role (the eighth and ninth everyday suites' causes, on tables of their own): everyone
 * tied on the first day, everyone past a bound a "who" question sets, the days someone missed (not a date
 * column), the driest plot, a role asked for by a fragment ("owner of X", "the X curator"), the mechanic of
 * a job and a row's Total, the compared column the question's own word names ("parts under $100"), the
 * person an "earliest applicant" is, the date column a verb names only weakly ("harvested" of
 * orchard_harvest.csv), the name of the most recent row rather than its date, the kind of an animal (its
 * Species), and the people of a booking or all its guests as a party-size column.
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

const REPAIRS: RawTable = {
  id: "bike_repairs",
  file: "bike_repairs.csv",
  header: ["Job #", "Bike", "Date In", "Parts ($)", "Total ($)", "Mechanic"],
  rows: [
    ["J101", "Trek FX", "13 May 2024", "$40.00", "$95.00", "Sam"],
    ["J102", "Brompton", "15 May 2024", "$210.50", "$300.50", "Lou"],
    ["J103", "Giant TCR", "17 May 2024", "$95.20", "$180.20", "Sam"],
  ],
};
const APPLICANTS: RawTable = {
  id: "job_applicants",
  file: "job_applicants.csv",
  header: ["App ID", "Candidate", "Applied", "Yrs Exp"],
  rows: [
    ["A-1", "Rui Costa", "March 3, 2024", "2"],
    ["A-2", "Dana Wolf", "February 9, 2024", "7"],
    ["A-3", "Sven Ek", "March 21, 2024", "1"],
  ],
};
const HARVEST: RawTable = {
  id: "orchard_harvest",
  file: "orchard_harvest.csv",
  header: ["Row", "Fruit", "Harvest Date", "Yield (kg)"],
  rows: [
    ["R1", "Apple", "2024-09-02", "410"],
    ["R2", "Pear", "2024-09-20", "280"],
    ["R3", "Plum", "2024-08-15", "150"],
  ],
};

const KENNEL: RawTable = {
  id: "kennel_animals",
  file: "kennel_animals.csv",
  header: ["ID", "Name", "Species", "Intake Date", "Wt (kg)"],
  rows: [
    ["K-01", "Nutmeg", "Dog", "2025-02-11", "18.2"],
    ["K-02", "Ziggy", "Cat", "2025-06-30", "4.1"],
    ["K-03", "Bramble", "Rabbit", "2025-04-02", "1.9"],
  ],
};

const fixture = openTables([PUPILS, PLOTS, TABLES, REPAIRS, APPLICANTS, HARVEST, KENNEL]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("which rows and whose role", () => {
  it("gives everyone tied on the first day a date column names", () => {
    expect(answer("Who sat the test first?", "pupil_results")).toEqual(["Omar Test", "Lena Ruiz"]);
    expect(answer("Who sat the test last?", "pupil_results")).toEqual(["Kofi Adu"]);
  });

  it("gives everyone past the bound a 'who' question sets", () => {
    expect(analyzeQuestion("Who paid a deposit of more than £100?").listAnswer).toBe(true);
    expect(analyzeQuestion("who was the first coach hired after 1990?").listAnswer).toBe(false);
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

  it("names a mechanic's column for who worked on a job, and the row's Total for its total", () => {
    expect(answer("Who worked on job J102?", "bike_repairs")).toEqual(["Lou"]);
    expect(answer("J103 total $", "bike_repairs")).toEqual(["180.2"]);
    expect(answer("total parts cost", "bike_repairs")).toEqual(["345.7"]);
  });

  it("compares the column the question's own word names before any money column", () => {
    expect(answer("Which jobs had parts under $100?", "bike_repairs")).toEqual(["J101", "J103"]);
  });

  it("orders a person by the date the verb or the table names, and answers the person", () => {
    expect(analyzeQuestion("earliest applicant").answerType).toBe("person");
    expect(answer("earliest applicant", "job_applicants")).toEqual(["Dana Wolf"]);
    expect(answer("Which row was harvested last?", "orchard_harvest")).toEqual(["R2"]);
  });

  it("answers the row's name, not the date that orders it, unless a date is asked", () => {
    expect(answer("most recent intake", "kennel_animals")).toEqual(["Ziggy"]);
    expect(answer("when was the most recent intake", "kennel_animals")).toEqual(["2025-06-30"]);
    expect(answer("what kind of animal is Bramble", "kennel_animals")).toEqual(["Rabbit"]);
  });

  it("reads people and guests as a party size", () => {
    expect(answer("How many people is Ines Moro's booking for?", "supper_bookings")).toEqual(["6"]);
    expect(answer("How many guests are booked in total?", "supper_bookings")).toEqual(["15"]);
  });
});
