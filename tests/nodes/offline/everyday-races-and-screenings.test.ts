/**
 * A race's results and a festival's screenings, asked as people ask them: a rider by "bib number 8", "where did
 * X come?" (a finishing place, not a town), "faster than 38 km/h" (the speed, not the time), "the last rider to
 * finish" (not a rider who did not), "Which club earned the most points?" (the clubs' totals), "screenings
 * starting after 21:00" (the films, not their date), "how many tickets were sold?" (the Seats Sold added up),
 * "a Q and A" (a "Q&A" column), "sold out" (Seats Sold reaching Capacity); a bakery's "sourdough loaves" (a
 * Sourdough Loaf item) "sold on February 4, 2025"; and what the graph does with them: the decomposer's note
 * keeps the column of rows a mention selects by number, "how hard" expects a grade, and a cell that only shares
 * a word with the question ("Hard") is no filter entity.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import type { SearchableIndex as OpenedIndex } from "../../../retrievers/open-search.js";
import { analysisOf, analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { answerKindFromQuestion, answerKindOf } from "../../../nodes/offline/answer-kind.js";
import { isFilterEntity } from "../../../nodes/offline/answer-checks.js";
import { createDecompose } from "../../../nodes/offline/decompose.js";
import type { VerifyInput } from "../../../nodes/strategies.js";
import type { SubQueryPlan } from "../../../nodes/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "road_race_results",
    file: "road_race_results.csv",
    header: ["Pos", "Bib", "Rider", "Club", "Time", "Avg km/h", "Pts"],
    rows: [
      ["1", "14", "Ines Varga", "Hill Wheelers", "2:31:10", "39.4", "25"],
      ["2", "8", "Tomas Reid", "Coast CC", "2:33:02", "38.9", "20"],
      ["3", "31", "Lena Okafor", "Coast CC", "2:35:40", "38.3", "16"],
      ["4", "5", "Omar Fitz", "Hill Wheelers", "2:40:12", "37.0", "13"],
      ["5", "22", "Mia Sorensen", "Coast CC", "2:44:51", "36.0", "11"],
      ["6", "17", "Jon Prieto", "Valley Velo", "2:58:30", "33.2", "10"],
      ["DNF", "40", "Rafe Moss", "Valley Velo", "", "", "0"],
      ["DNF", "9", "Ada Brandt", "Hill Wheelers", "", "", "0"],
    ],
  },
  {
    id: "festival_screenings",
    file: "festival_screenings.csv",
    header: ["#", "Film", "Screen", "Date", "Start", "Seats Sold", "Capacity", "Q&A"],
    rows: [
      ["1", "Glass Harbour", "Studio", "3 May 2025", "10:30", "40", "64", ""],
      ["2", "Salt Lines", "Screen 1", "3 May 2025", "18:00", "180", "180", "✓"],
      ["3", "North of Noon", "Screen 2", "3 May 2025", "21:15", "75", "120", "✓"],
      ["4", "Paper Birds", "Studio", "4 May 2025", "22:00", "64", "64", ""],
      ["5", "Quiet Rivers", "Screen 1", "4 May 2025", "14:00", "90", "180", ""],
    ],
  },
  {
    id: "bakery_log",
    file: "bakery_log.csv",
    header: ["Date", "Day", "Item", "Qty Baked", "Qty Sold"],
    rows: [
      ["2025-02-03", "Mon", "Sourdough Loaf", "30", "28"],
      ["2025-02-03", "Mon", "Croissant", "60", "60"],
      ["2025-02-04", "Tue", "Sourdough Loaf", "32", "23"],
      ["2025-02-04", "Tue", "Croissant", "64", "51"],
      ["2025-02-07", "Fri", "Sourdough Loaf", "27", "27"],
    ],
  },
  {
    id: "trail_guide",
    file: "trail_guide.csv",
    header: ["Trail", "Length (km)", "Difficulty"],
    rows: [
      ["Heron Way", "9.4", "Moderate"],
      ["Fox Ridge", "12.1", "Hard"],
    ],
  },
  {
    id: "enduro_entries",
    file: "enduro_entries.csv",
    header: ["Car", "Team", "Laps"],
    rows: [
      ["21", "Rossi Corse", "318"],
      ["7", "Blue Arrow", "322"],
      ["8", "Blue Arrow", "301"],
      ["33", "Kestrel", "290"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a race's results", () => {
  it("finds a rider by 'bib number 8' and reads 'where did X come?' as the place", () => {
    expect(answer("Which rider had bib number 8?", "road_race_results")).toEqual(["Tomas Reid"]);
    expect(answer("Where did Lena Okafor come?", "road_race_results")).toEqual(["3"]);
    expect(answer("where did omar fitz finish in the race?", "road_race_results")).toEqual(["4"]);
    expect(answerKindFromQuestion("Where did Lena Okafor come?")).toBe("number");
    expect(answerKindFromQuestion("Where did Lena Okafor grow up?")).toBe("place");
  });

  it("bounds the speed, not the time, with km/h, and lists the riders", () => {
    expect(answer("Which riders were faster than 38.5 kmh?", "road_race_results")).toEqual([
      "Ines Varga",
      "Tomas Reid",
    ]);
    // (A search fragment with a comparative counts, as the everyday suites' askers meant it.)
    expect(answer("riders faster than 38.5 kmh", "road_race_results")).toEqual(["2"]);
    expect(answer("Which riders averaged faster than 38 km/h?", "road_race_results")).toEqual([
      "Ines Varga",
      "Tomas Reid",
      "Lena Okafor",
    ]);
  });

  it("takes the last finisher, not a rider who did not finish", () => {
    expect(answer("Who was the last rider to finish?", "road_race_results")).toEqual(["Jon Prieto"]);
    expect(answer("How many riders finished the race?", "road_race_results")).toEqual(["6"]);
  });

  it("adds up the points of each club; a table of entries where a team runs twice keeps the best entry", () => {
    expect(answer("Which club earned the most points?", "road_race_results")).toEqual(["Coast CC"]);
    expect(answer("Which crew logged the most laps?", "enduro_entries")).toEqual(["Blue Arrow"]);
    expect(answer("Which car logged the most laps?", "enduro_entries")).toEqual(["7"]);
  });
});

describe("a festival's screenings", () => {
  it("answers 'screenings starting after 21:00' with the films, not their date", () => {
    expect(answer("screenings starting after 21:00", "festival_screenings")).toEqual(["North of Noon", "Paper Birds"]);
    expect(answer("Which screenings start before 11 am?", "festival_screenings")).toEqual(["Glass Harbour"]);
    expect(analyzeQuestion("films starting after 21:00").position).toBeNull();
  });

  it("adds up the seats sold for 'how many tickets were sold'", () => {
    expect(answer("How many tickets were sold across the whole festival?", "festival_screenings")).toEqual(["449"]);
    expect(answer("How many films were shown?", "festival_screenings")).toEqual(["5"]);
  });

  it("reads 'a Q and A' as the Q&A column and 'sold out' as seats sold reaching capacity", () => {
    expect(answer("How many films come with a Q and A?", "festival_screenings")).toEqual(["2"]);
    expect(answer("How many screenings sold out?", "festival_screenings")).toEqual(["2"]);
    expect(answer("Which films sold out?", "festival_screenings")).toEqual(["Salt Lines", "Paper Birds"]);
    expect(answer("Which screenings are full?", "festival_screenings")).toEqual(["Salt Lines", "Paper Birds"]);
  });
});

describe("a bakery's log", () => {
  it("reads 'sourdough loaves' as the Sourdough Loaf item and the quantity its verb names", () => {
    expect(answer("How many sourdough loaves were baked on Friday?", "bakery_log")).toEqual(["27"]);
    expect(answer("How many sourdough loaves did we sell on February 4, 2025?", "bakery_log")).toEqual(["23"]);
    expect(answer("How many croissants did we sell in February 2025?", "bakery_log")).toEqual(["111"]);
  });
});

describe("what the graph does with them", () => {
  it("names the column of rows a mention selects by number in the decomposer's note", async () => {
    const index = {
      db: fx.db,
      tables: fx.tables,
      passages: [],
      search: { documents: async () => [] },
    } as unknown as OpenedIndex;
    const plan = await createDecompose(index)({
      question: "How many riders finished the race?",
      history: [],
      consecutiveFailures: 0,
      schemaPreview: "",
      tableId: "road_race_results",
    });
    expect(analysisOf(plan)?.grounding?.columns).toEqual(["Pos"]);
    expect(plan.subQuery).toBe("How many riders finished the race? (columns: Pos)");
  });

  it("expects a grade for 'how hard', and a cell of an unfiltered column is no filter entity", () => {
    const kind = (question: string) =>
      answerKindOf({ analysis: analyzeQuestion(question) } as unknown as SubQueryPlan, question);
    expect(kind("How hard is Fox Ridge?")).toBe("text");
    expect(kind("How long is Fox Ridge?")).toBe("number");
    const input = (sql: string) =>
      ({
        question: "How hard is Fox Ridge?",
        subQuery: "How hard is Fox Ridge?",
        plan: { entityMentions: [] },
        answer: "Hard",
        sql,
      }) as unknown as VerifyInput;
    expect(
      isFilterEntity("Hard", input(`SELECT "difficulty__raw" FROM "trail_guide" WHERE "trail__raw" = 'Fox Ridge'`)),
    ).toBe(false);
    // (The statement's own filter column answering is the entity echoed back.)
    expect(isFilterEntity("Hard", input(`SELECT "difficulty__raw" FROM "t" WHERE "difficulty__raw" = 'Hard'`))).toBe(
      true,
    );
  });
});
