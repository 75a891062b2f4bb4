/**
 * A ballot count, a relay's results, a quiz night, a departures board and a plant-care sheet, asked as people ask
 * them: "who came second?" is the row in second place (by a place column when the table has one, else by the
 * votes a contest is won by, else by the table's order), "where does the 08:30 go?" reads the destination, and "how
 * often do I water the basil?" reads the named plant's interval, where it counted the plant's rows.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "ballot",
    file: "ballot.csv",
    header: ["Candidate", "Party", "Votes"],
    // (Listed alphabetically, not in the order they finished.)
    rows: [
      ["Anna Holt", "Green", "3,120"],
      ["Bo Lund", "Labour", "5,480"],
      ["Cleo Marsh", "Liberal", "1,905"],
      ["Dev Rao", "Independent", "4,260"],
    ],
  },
  {
    id: "relay",
    file: "relay.csv",
    header: ["Club", "Time", "Pos"],
    rows: [
      ["Harbour AC", "3:21.4", "3"],
      ["Moor Striders", "3:18.9", "1"],
      ["Vale Harriers", "3:19.7", "2"],
    ],
  },
  {
    id: "quiz",
    file: "quiz.csv",
    header: ["Team", "Captain"],
    rows: [
      ["The Know-Alls", "Ruth"],
      ["Quizzly Bears", "Omar"],
      ["Trivia Newton", "Lena"],
    ],
  },
  {
    id: "departures",
    file: "departures.csv",
    header: ["Train", "From", "To", "Departs", "Platform"],
    rows: [
      ["IC 310", "Leeds", "York", "07:15", "3"],
      ["RE 52", "Leeds", "Hull", "08:30", "5"],
      ["RB 7", "Leeds", "Selby", "09:05", "1"],
    ],
  },
  {
    id: "plants",
    file: "plants.csv",
    header: ["Plant", "Room", "Water every (days)", "Last watered"],
    rows: [
      ["Basil", "Kitchen", "2", "2026-12-05"],
      ["Aloe", "Kitchen", "21", "2026-11-15"],
      ["Pothos", "Office", "10", "2026-11-27"],
    ],
  },
  {
    id: "visits",
    file: "visits.csv",
    header: ["Date", "Visitor", "Minutes"],
    rows: [
      ["2026-05-02", "Oona", "40"],
      ["2026-05-09", "Piet", "25"],
      ["2026-05-16", "Oona", "55"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("finishing places, destinations and intervals", () => {
  it("answers who came second or third by the votes a contest is won by", () => {
    expect(answer("Who came second?", "ballot")).toEqual(["Dev Rao"]);
    expect(answer("Which candidate finished third?", "ballot")).toEqual(["Anna Holt"]);
  });
  it("reads a finishing place only from a question that asks who holds it", () => {
    expect(analyzeQuestion("Which team finished 4th?").finishingPlace).toBe(4);
    expect(analyzeQuestion("who came first?").finishingPlace).toBeUndefined();
    expect(analyzeQuestion("how many riders finished 4th?").finishingPlace).toBeUndefined();
  });
  it("answers a finishing place by a place column when the table has one", () => {
    expect(answer("Which club finished second?", "relay")).toEqual(["Vale Harriers"]);
    expect(answer("Who came in second place?", "relay")).toEqual(["Vale Harriers"]);
  });
  it("answers a finishing place by the table's order when nothing else ranks the rows", () => {
    expect(answer("Which team came third?", "quiz")).toEqual(["Trivia Newton"]);
  });
  it("reads where a train goes from its destination column", () => {
    expect(answer("Where does the 08:30 go?", "departures")).toEqual(["Hull"]);
    expect(answer("Where is the RB 7 headed?", "departures")).toEqual(["Selby"]);
  });
  it("reads how often from the named row's interval column", () => {
    expect(answer("How often do I water the basil?", "plants")).toEqual(["2"]);
    expect(answer("How often should the aloe be watered?", "plants")).toEqual(["21"]);
  });
  it("still counts the rows when no column holds an interval", () => {
    expect(answer("How often did Oona visit?", "visits")).toEqual(["2"]);
  });
});
