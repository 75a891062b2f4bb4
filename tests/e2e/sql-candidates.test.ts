/**
 * Several SQL candidates per attempt, through the real graph (offline backbone): the SQL attempt's
 * other plans run beside it and are traced as named alternatives, and the final answer can come from
 * one of them — here a lookup whose first plan reads the wrong column (who "leads" a team: the
 * question names no column, so the person column of the row wins over the manager column).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import { closeResources } from "../../graph/resources.js";
import { buildIndex } from "../../indexing/build-index.js";
import { answerModel } from "../../nodes/offline/answer-model.js";
import { bestScoredCandidate, chooseWithAlternatives } from "../../nodes/synthesize.js";
import type { TraceDecision } from "../../graph/state.js";

const STAFF = `Name,Office,Manager,Salary,Started
Ana Ruiz,Oslo,Ben Kole,52000,2019-03-01
Carl Dorn,Lima,Dina Voss,61000,2017-06-15
Eva Lund,Oslo,Ben Kole,58000,2020-01-10
Finn Hale,Cairo,Gia Moro,47000,2021-09-01
Hana Ito,Lima,Dina Voss,66000,2016-11-20
`;
let root = "";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-sqlcand-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "tables", "staff.csv"), STAFF);
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
}, 60_000);

afterAll(async () => {
  await closeResources();
  if (root) rmSync(root, { recursive: true, force: true });
});

const ask = (question: string) =>
  answerQuestion(
    { question, table_id: "staff" },
    { configurable: { indexPath: join(root, "index"), backbone: "offline" } },
  );

describe("SQL candidates through the graph", () => {
  it("traces the SQL attempt's alternatives with their plan names, and the right answer of a non-first candidate can be the final one", async () => {
    const r = await ask("who leads the cairo team?");
    const rows = r.trace.verifier_decisions;
    const sqlRows = rows.filter((d) => d.effective_route === "SQL");
    expect(sqlRows[0]!.alternative).toBeUndefined();
    expect(sqlRows[0]!.sql_plan).toBe("lookup.rows");
    const alt = sqlRows.find((d) => d.alternative && d.produced_answer === "Gia Moro");
    expect(alt).toBeDefined();
    expect(alt!.sql_plan).toBe("lookup.rows");
    expect(alt!.features?.["cand:alt"]).toBe(1);
    expect(alt!.features?.["cand:next-target"]).toBe(1);
    expect(alt!.p_correct).toBeTypeOf("number");
    // The first plan read the person column; with no margin an alternative that scores at least as well replaces it.
    expect(sqlRows[0]!.produced_answer).toBe("Finn Hale");
    const scored = rows.filter((d) => d.p_correct !== undefined && d.features);
    expect(chooseWithAlternatives(scored, undefined, 1, -1)?.produced_answer).toBe("Gia Moro");
    expect(bestScoredCandidate(rows, answerModel()?.ranker, answerModel()?.threshold, -1)?.answer).toBe("Gia Moro");
  }, 60_000);

  it("keeps the attempts' answer when no alternative beats it by the margin", async () => {
    const r = await ask("which office does the highest paid person work in?");
    expect(r.answer).toBe("Lima");
    expect(r.trace.verifier_decisions.some((d) => d.alternative)).toBe(true);
    // A count's alternatives that would be lookups contradict the answer kind: they are not run.
    const count = await ask("how many people work in lima?");
    expect(count.answer).toBe("2");
    expect(
      count.trace.verifier_decisions
        .filter((d) => d.alternative)
        .every((d) => d.features?.["cand:kind=disagree"] !== 1),
    ).toBe(true);
  }, 60_000);
});

describe("chooseWithAlternatives", () => {
  const row = (answer: string, p: number, extra: Partial<TraceDecision> = {}): TraceDecision =>
    ({
      produced_answer: answer,
      p_correct: p,
      features: { bias: 1 },
      verdict: 0.5,
      accepted: false,
      effective_route: "SQL",
      sub_query: "q",
      ...extra,
    }) as TraceDecision;

  it("an alternative replaces the attempts' choice only above its best P plus the margin, and never when an attempt was accepted", () => {
    const trace = [row("A", 0.3), row("B", 0.45, { alternative: true }), row("A", 0.4, { effective_route: "TEXT" })];
    expect(chooseWithAlternatives(trace, undefined, 1, 0.1)?.produced_answer).toBe("A");
    expect(chooseWithAlternatives(trace, undefined, 1, 0.01)?.produced_answer).toBe("B");
    const accepted = [row("A", 0.95, { verdict: 1, accepted: true }), row("B", 0.99, { alternative: true })];
    expect(chooseWithAlternatives(accepted, undefined, 1, 0)?.produced_answer).toBe("A");
    // A contradicted alternative (verdict 0) is never chosen.
    expect(
      chooseWithAlternatives([row("A", 0.1), row("B", 0.9, { alternative: true, verdict: 0 })], undefined, 1, 0)
        ?.produced_answer,
    ).toBe("A");
  });
});
