/**
 * "How many people attended the X game?": a count question about one named row asks for a number in
 * that row, named by the people who came ("attendees", "spectators", "fans" of an Attendance column),
 * and the counted noun ends at its verb ("people attended the …", not "people attended … game"). The
 * rows are still counted when a bound, not a row, is named.
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

const fixture = openTables([MATCHES]);
const answer = (question: string) => planColumn(fixture, question, "club_matches");
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
