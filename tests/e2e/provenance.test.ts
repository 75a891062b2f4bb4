/**
 * Answers over examples/ carry their evidence: the table, the row numbers and columns of the cells
 * used, the SQL that ran with its result rows and the rows it read, the passage sentence — for
 * each route (forced with the fixed router) and through the default router, in the final state
 * (`answerProvenance`) and in the run record (`atr_provenance`). Rows are 0-based (SQL `_row`):
 * examples/tables/clubs.csv lists Ashford Rovers (0), Brookhaven United (1), Carrow Athletic (2),
 * Dunmere FC (3), Eastbridge Town (4), Fenwick City (5).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerQuestion, type AnswerResult } from "../../graph/answer.js";
import type { ConfigurableInput } from "../../graph/configuration.js";
import { runBatch } from "../../evals/runner.js";
import type { Provenance } from "../../nodes/types.js";
import { useExampleIndex } from "../fixtures/example-index.js";

const index = useExampleIndex();

async function ask(question: string, table_id?: string, configurable: ConfigurableInput = {}): Promise<AnswerResult> {
  return answerQuestion(
    { question, ...(table_id ? { table_id } : {}) },
    { configurable: { indexPath: index.dir, ...configurable } },
  );
}

const only = (r: AnswerResult): Provenance => {
  expect(r.provenance).toHaveLength(1);
  return r.provenance[0]!;
};
const cellsOf = (p: Provenance) => p.cells.map((c) => `${c.tableId}#${c.row}.${c.column}=${c.value}`);

describe("answer provenance over examples/", () => {
  it("HYBRID: the linked row's cells, the SQL with its binding, its result and the row it read", async () => {
    const r = await ask("Who manages Dunmere FC?", "clubs");
    expect(r.answer).toBe("Oskar Lind");
    const p = only(r);
    expect(p.route).toBe("HYBRID");
    expect(p.tables).toEqual(["clubs"]);
    expect(cellsOf(p)).toEqual(["clubs#3.Club=Dunmere FC", "clubs#3.Manager=Oskar Lind"]);
    expect(p.sql!.query).toMatch(/FROM "clubs" WHERE "club" = 'Dunmere FC'/);
    expect(p.sql!.resultRows).toEqual([{ manager__raw: "Oskar Lind" }]);
    expect(p.sql!.columns.sort()).toEqual(["clubs.Club", "clubs.Manager"]);
    expect(p.sql!.rows).toEqual([3]);
    expect(p.passages).toEqual([]);
    // The trace keeps every attempt's provenance; the final one is the attempt that produced the answer.
    const producing = r.trace.verifier_decisions.find(
      (d) => d.provenance?.attempt === p.attempt && d.sub_query === p.subQuery,
    );
    expect(producing?.produced_answer).toBe("Oskar Lind");
  });

  it("SQL aggregate: the rows it counted and the column it filtered on", async () => {
    const r = await ask("How many clubs were founded before 1900?", "clubs", {
      routerType: "fixed",
      forceRoute: "SQL",
    });
    expect(r.answer).toBe("3");
    const p = only(r);
    expect(p.route).toBe("SQL");
    expect(p.sql!.query).toMatch(/^SELECT COUNT\(\*\) FROM "clubs" WHERE/);
    expect(p.sql!.resultRows).toEqual([{ "COUNT(*)": 3 }]);
    expect(p.sql!.rows).toEqual([0, 3, 5]); // founded 1887, 1895, 1899
    expect(p.sql!.rowCount).toBe(3);
    expect(p.sql!.columns).toEqual(["clubs.Founded"]);
    expect(cellsOf(p)).toEqual(["clubs#0.Founded=1887", "clubs#3.Founded=1895", "clubs#5.Founded=1899"]);
  });

  it("SQL argmin over a sub-query: the one row returned", async () => {
    const r = await ask("Which city has the smallest area?", "cities");
    expect(r.answer).toBe("Eastbridge");
    const p = only(r);
    expect(p.sql!.rows).toEqual([4]);
    expect(cellsOf(p)).toContain("cities#4.City=Eastbridge");
  });

  it("RETRIEVE: the row read and the cells holding the linked value and the answer", async () => {
    const r = await ask("What is the population of Brookhaven?", "cities", {
      routerType: "fixed",
      forceRoute: "RETRIEVE",
      noEscalation: true,
    });
    expect(r.answer).toBe("212,000");
    const p = only(r);
    expect(p.route).toBe("RETRIEVE");
    expect(p.sql).toBeUndefined();
    expect(p.tables).toEqual(["cities"]);
    expect(cellsOf(p)).toEqual(["cities#1.City=Brookhaven", "cities#1.Population=212,000"]);
  });

  it("RETRIEVE: a number that recurs in other rows is cited from the row the reader used", async () => {
    const r = await ask("How many home wins did Ashford Rovers have in the 2023 season?", "season_2023", {
      routerType: "fixed",
      forceRoute: "RETRIEVE",
      noEscalation: true,
    });
    expect(r.answer).toBe("4");
    const p = only(r);
    expect(cellsOf(p)).toEqual(["season_2023#Standings#1.Home › W=4"]);
  });

  it("TEXT: the passage and the sentence that hold the answer", async () => {
    const r = await ask("Which river runs beside the stadium of the oldest club?");
    expect(r.answer).toBe("River Tamsin");
    const p = only(r);
    expect(p.route).toBe("TEXT");
    expect(p.passages).toEqual([
      {
        id: "club/ashford-rovers",
        file: "clubs.json",
        sentence:
          "Its ground, Mill Lane, stands beside the River Tamsin, and balls kicked over the east stand are still fished out of the water by a volunteer in a rowing boat.",
      },
    ]);
  });

  it("a join says why it has no row numbers, and still names the table and columns", async () => {
    const r = await ask("Which club was founded earlier, Brookhaven United or Fenwick City?", "clubs");
    expect(r.answer).toBe("Fenwick City");
    const p = only(r);
    expect(p.tables).toEqual(["clubs"]);
    expect(p.sql!.columns.sort()).toEqual(["clubs.Club", "clubs.Founded"]);
    expect(p.sql!.rows).toEqual([]);
    expect(p.sql!.rowsUnavailable).toMatch(/join/);
  });

  it("the run record carries it as atr_provenance", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-prov-run-"));
    try {
      const out = join(dir, "run.jsonl");
      await runBatch({
        questions: [{ question_id: "q1", question: "Who manages Dunmere FC?", table_id: "clubs" }],
        answer: (input, o) => answerQuestion(input, { configurable: o.configurable as ConfigurableInput }),
        outputPath: out,
        configurable: { indexPath: index.dir },
      });
      const record = JSON.parse(readFileSync(out, "utf8").trim()) as {
        agentic_tablerag_answer: string;
        atr_provenance: Provenance[];
      };
      expect(record.agentic_tablerag_answer).toBe("Oskar Lind");
      expect(record.atr_provenance[0]!.sql!.rows).toEqual([3]);
      expect(cellsOf(record.atr_provenance[0]!)).toContain("clubs#3.Manager=Oskar Lind");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
