/** The example corpus loads as documented, and its gold answers follow from its tables and passages. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndex } from "../../indexing/build-index.js";
import { openIndex, type OpenedIndex } from "../../indexing/open-index.js";

interface Question {
  question_id: string;
  question: string;
  table_id: string;
  answer: string[];
  type: string;
}

const questions = readFileSync("examples/questions.jsonl", "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Question);
let root: string;
let index: OpenedIndex;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-examples-"));
  await buildIndex({ excelDir: "examples/tables", docDir: "examples/docs", savePath: join(root, "index") });
  index = await openIndex(join(root, "index"));
});
afterAll(() => {
  index?.close();
  rmSync(root, { recursive: true, force: true });
});

const one = (sql: string): unknown => index.db.prepare(sql).pluck().get();

describe("examples/", () => {
  it("loads five tables, the workbook's merged header flattened, and links club passages to the clubs table", () => {
    expect([...index.tables.keys()]).toEqual([
      "cities",
      "clubs",
      "players",
      "season_2023#Standings",
      "season_2023#Attendance",
    ]);
    expect(index.tables.get("season_2023#Standings")!.columns.map((c) => c.name)).toEqual([
      "Pos",
      "Club",
      "Home › W",
      "Home › D",
      "Home › L",
      "Away › W",
      "Away › D",
      "Away › L",
      "Points",
    ]);
    expect(index.tables.get("players")!.columns.find((c) => c.name === "Born")!.type).toBe("date");
    expect(index.passages.filter((p) => p.tableId === "clubs")).toHaveLength(6);
  });

  it("has about twenty questions of every kind, each on a table of the corpus", () => {
    expect(questions.length).toBeGreaterThanOrEqual(20);
    expect(new Set(questions.map((q) => q.type))).toEqual(
      new Set(["lookup", "count", "aggregate", "superlative", "comparison", "bridge"]),
    );
    for (const q of questions) expect(index.tables.has(q.table_id)).toBe(true);
    expect(new Set(questions.map((q) => q.question_id)).size).toBe(questions.length);
  });

  it("gold answers follow from the data", () => {
    const gold = (id: string) => questions.find((q) => q.question_id === id)!.answer;
    expect(gold("ex-03")).toEqual([String(one("SELECT population FROM cities WHERE city = 'Brookhaven'"))]);
    expect(gold("ex-04")).toEqual([
      String(one(`SELECT home_w FROM season_2023_standings WHERE club = 'Ashford Rovers'`)),
    ]);
    expect(gold("ex-05")).toEqual([String(one("SELECT COUNT(*) FROM clubs WHERE founded < 1900"))]);
    expect(gold("ex-09")).toEqual([String(one("SELECT AVG(capacity) FROM clubs"))]);
    expect(gold("ex-10")).toEqual([String(one("SELECT AVG(population) FROM cities WHERE region = 'Coastal'"))]);
    expect(gold("ex-11")).toEqual([String(one("SELECT SUM(sell_outs) FROM season_2023_attendance"))]);
    expect(gold("ex-15")).toEqual([one("SELECT player FROM players ORDER BY born LIMIT 1")]);
    const biggest = one("SELECT club FROM clubs ORDER BY capacity DESC LIMIT 1") as string;
    const passage = index.passages.find((p) => p.title === biggest)!;
    expect(passage.text).toContain(gold("ex-18")[0]!);
    const top = one("SELECT player FROM players ORDER BY goals DESC LIMIT 1") as string;
    expect(index.passages.find((p) => p.title === top)!.text).toContain(gold("ex-21")[0]!);
  });
});
