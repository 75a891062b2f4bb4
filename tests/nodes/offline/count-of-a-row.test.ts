/**
 * "How many people attended the X game?": a count question about one named row asks for a number in
 * that row, named by the people who came ("attendees", "spectators", "fans" of an Attendance column),
 * and the counted noun ends at its verb ("people attended the …", not "people attended … game"). The
 * rows are still counted when a bound, not a row, is named. "How many skills does Ana have?" counts the
 * items of the list in her Skills cell.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { openTables, planColumn } from "./fixtures.js";

const MATCHES: RawTable = {
  id: "club_matches",
  file: "club_matches.csv",
  header: ["Date", "Opponent", "Result", "Attendance", "Goals Scored"],
  rows: [
    ["2024-03-02", "Riverside FC", "W 2-1", "12450", "2"],
    ["2024-03-09", "Northgate United", "L 0-3", "9800", "0"],
    ["2024-03-16", "Harbor Town", "D 1-1", "15020", "1"],
    ["2024-03-23", "Eastfield Rovers", "W 4-0", "11230", "4"],
    ["2024-03-30", "Lakeside City", "W 3-2", "13900", "3"],
  ],
};

const STAFF: RawTable = {
  id: "team_staff",
  file: "team_staff.csv",
  header: ["Name", "Team", "Skills", "Languages", "Stints"],
  rows: [
    ["Ana Ruiz", "Data", "Excel, SQL and Python", "Spanish; English", "2015-17, 2019"],
    ["Ben Cole", "Sales", "Negotiation", "English", "2020"],
    ["Cy Park", "Data", "SQL, R, Tableau, and Python", "Korean, English", "2012"],
    ["Dee Moss", "Data", "Excel & SQL", "English", "2021"],
  ],
};

const fixture = openTables([MATCHES, STAFF]);
const answer = (question: string, table = "club_matches") => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("how many people came to one match", () => {
  it("reads the named match's attendance, however the people are called", () => {
    expect(answer("How many attendees were at the game against Harbor Town?")).toEqual(["15020"]);
    expect(answer("How many people attended the Lakeside City game?")).toEqual(["13900"]);
    expect(answer("How many spectators came to the Riverside FC match?")).toEqual(["12450"]);
    expect(answer("How many fans watched the game against Eastfield Rovers?")).toEqual(["11230"]);
  });

  it("still counts the matches a bound selects", () => {
    expect(answer("How many games had more than 12000 attendees?")).toEqual(["3"]);
  });

  it("ends the counted noun at its verb", () => {
    expect(analyzeQuestion("How many people attended the Lakeside City game?").countNoun).toEqual(["people"]);
    expect(analyzeQuestion("How many fans came to the match?").countNoun).toEqual(["fans"]);
    // (an auxiliary still ends it, and a participle after the noun without an object stays: "goals scored by")
    expect(analyzeQuestion("How many goals were scored by Ada?").countNoun).toEqual(["goals"]);
  });
});

describe("how many items one cell lists", () => {
  it("counts the items of the named row's list, however they are joined", () => {
    expect(answer("How many skills does Ana Ruiz have?", "team_staff")).toEqual(["3"]);
    expect(answer("How many skills does Cy Park list?", "team_staff")).toEqual(["4"]);
    expect(answer("How many skills does Dee Moss have?", "team_staff")).toEqual(["2"]);
    expect(answer("How many languages does Ana Ruiz speak?", "team_staff")).toEqual(["2"]);
  });

  it("counts rows where no single row's list is asked about", () => {
    expect(answer("How many people are in the Data team?", "team_staff")).toEqual(["3"]);
    expect(answer("How many of the staff know SQL?", "team_staff")).toEqual(["3"]);
  });
});
