/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round four"): the time between two
 * named rows ("how many years after A was B lit?", "how long between A and B?") — the years between their years,
 * of a year column, of a date column's dates, or of a year written in a text cell ("the Harbour Act 1978"); "N
 * years" asked how long (one year is "1 year"), not since a time ("how long has it been since A?": from today); home
 * and away games of a fixture list, told by a column of Home / Away (H / A), by the away opponents written "at X" or
 * by the column of the side (Home, Visitor) a named team is read in;
 * games not won, in a statement the SQL guard admits.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables, planGenerator } from "./fixtures.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { linkMentions } from "../../../nodes/offline/condition-links.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { homeAwayPredicates } from "../../../nodes/offline/plans/home-away.js";
import { buildGuardScope, checkSql } from "../../../retrievers/sql-guard.js";

const tables: RawTable[] = [
  {
    // A coast's lighthouses and the year each was first lit.
    id: "lights",
    file: "lights.csv",
    header: ["Lighthouse", "County", "First lit", "Height (m)"],
    rows: [
      ["North Rock", "Antrim", "1832", "21"],
      ["Harbour Head", "Down", "1861", "14"],
      ["Point Lynas", "Down", "1835", "11"],
      ["Skerry Light", "Antrim", "1862", "30"],
    ],
  },
  {
    // A rocket programme's flights, with whole dates.
    id: "flights",
    file: "flights.csv",
    header: ["Flight", "Date", "Payload", "Result"],
    rows: [
      ["R1", "March 2, 2001", "Tern", "Success"],
      ["R2", "August 19, 2003", "Plover", "Failure"],
      ["R3", "May 7, 2008", "Curlew", "Success"],
      ["R4", "June 30, 2008", "Dunlin", "Success"],
    ],
  },
  {
    // Harbour boards and the acts that set them up (the year inside the act's name).
    id: "boards",
    file: "boards.csv",
    header: ["Board", "Minister", "Founding act"],
    rows: [
      ["Tay Harbour Board", "Transport", "Tay Harbour Act 1951 (Part 2)"],
      ["Forth Pilotage Board", "Transport", "Forth Pilotage Act 1968"],
      ["Clyde Ferry Board", "Islands", "Clyde Ferries (Scotland) Act 1994"],
    ],
  },
  {
    // A club's chairmen and the seasons each chaired.
    id: "chairs",
    file: "chairs.csv",
    header: ["Chairman", "Span"],
    rows: [
      ["Ian Grant", "1970–71"],
      ["Rory Ness", "1971–1979"],
    ],
  },
  {
    // A shinty club's fixtures; where each was played in a column of its own.
    id: "fixtures",
    file: "fixtures.csv",
    header: ["Date", "Opponent", "H/A", "Result"],
    rows: [
      ["3 May", "Kingussie", "H", "W 3–1"],
      ["10 May", "Newtonmore", "A", "L 0–2"],
      ["17 May", "Oban Camanachd", "H", "L 1–4"],
      ["24 May", "Glenurquhart", "H", "W 2–0"],
      ["31 May", "Lovat", "A", "W 5–3"],
    ],
  },
  {
    // A gridiron season: the away games' opponents are written "at X".
    id: "season",
    file: "season.csv",
    header: ["Week", "Opponent", "Result", "Attendance"],
    rows: [
      ["1", "Harbor City Gulls", "W 21–14", "41,200"],
      ["2", "at Ridgeway Foxes", "L 10–24", "55,800"],
      ["3", "Lakeside Herons", "W 17–3", "47,900"],
      ["4", "at Pine Valley Elks", "W 28–27", "38,100"],
      ["5", "Summit Rams", "L 6–13", "44,300"],
    ],
  },
  {
    // An ice hockey league's results: each game's visitor and home team.
    id: "hockey",
    file: "hockey.csv",
    header: ["Date", "Visitor", "Score", "Home"],
    rows: [
      ["Jan 2", "Dunmore Otters", "3–2", "Carrick Hawks"],
      ["Jan 5", "Carrick Hawks", "1–4", "Dunmore Otters"],
      ["Jan 9", "Dunmore Otters", "2–2", "Bellmoor Lynx"],
      ["Jan 12", "Bellmoor Lynx", "0–5", "Carrick Hawks"],
      ["Jan 16", "Dunmore Otters", "6–1", "Carrick Hawks"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);
const generator = (question: string, table: string) => planGenerator(fx, question, table);

describe("the time between two named rows", () => {
  it("is the years between their years, a number asked how many years", () => {
    expect(answer("how many years after north rock was harbour head first lit?", "lights")).toEqual(["29"]);
    expect(answer("how many years passed between point lynas and skerry light?", "lights")).toEqual(["27"]);
  });

  it("asked how long, is written in years, one year as '1 year'", () => {
    expect(answer("how long after harbour head was skerry light lit?", "lights")).toEqual(["1 year"]);
    expect(answer("how long was it between north rock and point lynas?", "lights")).toEqual(["3 years"]);
  });

  it("reads the years of whole dates, and a year written inside a text cell", () => {
    expect(answer("how many years passed between flight r1 and flight r3?", "flights")).toEqual(["7"]);
    expect(
      answer(
        "how many years was it between the founding act of the tay harbour board and the clyde ferry board?",
        "boards",
      ),
    ).toEqual(["43"]);
  });

  it("is not the time since a row (from today) nor how long between two whole dates (days or months)", () => {
    expect(generator("how long has it been since north rock was first lit?", "lights")).not.toBe(
      "aggregate.time-apart",
    );
    expect(generator("how long after flight r3 was flight r4?", "flights")).not.toBe("aggregate.time-apart");
  });
});

describe("home and away games", () => {
  it("a column of H / A selects the side asked", () => {
    expect(answer("how many home games did the club play?", "fixtures")).toEqual(["3"]);
    expect(answer("how many away games did the club win?", "fixtures")).toEqual(["1"]);
  });

  it("opponents written 'at X' are the away games, the others the home games", () => {
    expect(answer("how many games did they win on the road?", "season")).toEqual(["1"]);
    expect(answer("how many wins did the team have at home?", "season")).toEqual(["2"]);
    expect(answer("who did we play in the home game with the highest attendance?", "season")).toEqual([
      "Lakeside Herons",
    ]);
  });

  it("a team named in Visitor and Home columns is read in the column of the side asked", () => {
    expect(answer("how many home games did the dunmore otters play?", "hockey")).toEqual(["1"]);
    expect(answer("how many away games did the carrick hawks play?", "hockey")).toEqual(["1"]);
  });

  it("'home or away' asks which side: no side's rows", () => {
    const side = (question: string) => homeAwayPredicates(analyzeQuestion(question), fx.catalog("season"), () => true);
    expect(side("was the first loss at home or away?").preds).toEqual([]);
    expect(side("was the first loss at home?").preds).toHaveLength(1);
  });
});

describe("games not won", () => {
  it("are counted by a statement the SQL guard admits", () => {
    const catalog = fx.catalog("fixtures");
    const question = "how many games did the club not win?";
    const analysis = analyzeQuestion(question);
    const plan = planSql({ analysis, catalog, mentions: linkMentions(question, analysis, catalog) })!;
    const schema = fx.tables.get("fixtures")!;
    const scope = buildGuardScope({
      tables: [schema],
      allowedColumns: schema.columns.map((c) => ({ tableId: "fixtures", column: c.name })),
      linkedValues: [],
    });
    expect(checkSql(plan.sql, scope.scope)).toEqual([]);
    expect(fx.run(plan.sql)).toEqual([[2]]);
  });
});

describe("how long a span lasted", () => {
  it("one year is '1 year'", () => {
    expect(answer("how long did ian grant chair the club?", "chairs")).toEqual(["1 year"]);
  });
});
