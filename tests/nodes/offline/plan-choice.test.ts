import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { linkMentions } from "../../../nodes/offline/condition-links.js";
import { ModelFileError } from "../../../nodes/offline/model-file.js";
import {
  checkPlanChoiceModel,
  choosePlan,
  executePlans,
  planChoiceFeatures,
  setPlanChoiceModel,
} from "../../../nodes/offline/plan-choice.js";
import { firstPlan, planCandidates } from "../../../nodes/offline/plans/registry.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  setPlanChoiceModel(undefined);
  fx.close();
});

const run = (sql: string) => fx.db.prepare(sql).all();

function inputOf(question: string, table: string) {
  const analysis = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return { analysis, catalog, mentions: linkMentions(question, analysis, catalog) };
}

/** The SQL route's answer of the plan choosePlan takes. */
function answer(question: string, table: string): string {
  const input = inputOf(question, table);
  const choice = choosePlan(question, input, run);
  return executePlans([choice!.plan], run, question, input.analysis, input.mentions)[0]!.answer;
}

describe("learned plan choice", () => {
  it("describes each candidate's run: its generator against the first plan's, the answer's shape, the named column", () => {
    const q = "Who has the highest salary?";
    const input = inputOf(q, "employees");
    const runs = executePlans(planCandidates(input, 8), run, q, input.analysis, input.mentions);
    expect(runs[0]).toMatchObject({ answer: "Cara Diaz", rows: 1 });
    const first = planChoiceFeatures(input, runs[0]!, 0, runs[0]!);
    expect(first).toMatchObject({ base: 1, "text×person": 1, "items=1": 1 });
    expect(first.alt).toBeUndefined();
    // The next-best target column answers a person question with a salary: a number from a numeric column.
    const i = runs.findIndex((r) => r.plan.targetColumn === "salary" && r.plan.targetRank === 1);
    const salary = planChoiceFeatures(input, runs[i]!, i, runs[0]!);
    expect(salary).toMatchObject({ alt: 1, "target-rank": 1, "number×person": 1, "numeric-target×person": 1 });
    expect(salary.base).toBeUndefined();
  });

  it("reads tied rows of one value as one answer, and ties of several rows as ties", () => {
    // Two races paid the highest prize: the value is one answer; the rows holding it are two.
    const q = "what was the highest prize?";
    const input = inputOf(q, "races");
    const [value] = executePlans([firstPlan(input)!], run, q, input.analysis, input.mentions);
    expect(value).toMatchObject({ answer: "$2,000", rows: 2 });
    const f = planChoiceFeatures(input, value!, 0, value!);
    expect(f["items=1"]).toBe(1);
    expect(f.ties).toBeUndefined();
    const tie = inputOf("which year had the highest prize?", "races");
    const [years] = executePlans(
      [firstPlan(tie)!],
      run,
      "which year had the highest prize?",
      tie.analysis,
      tie.mentions,
    );
    expect(years!.answer).toBe("2003 | 2004");
    expect(planChoiceFeatures(tie, years!, 0, years!)).toMatchObject({ ties: 1, "items=2-5": 1, "number×year": 1 });
  });

  it("marks an answer the question already holds and a count of every row", () => {
    const q = "how many races did kim lee win?";
    const input = inputOf(q, "races");
    const runs = executePlans(planCandidates(input, 8), run, q, input.analysis, input.mentions);
    expect(runs[0]!.answer).toBe("2");
    const all = inputOf("how many races are there?", "races");
    const allRuns = executePlans(planCandidates(all, 8), run, "how many races are there?", all.analysis, all.mentions);
    expect(allRuns[0]!.answer).toBe("4");
    expect(planChoiceFeatures(all, allRuns[0]!, 0, allRuns[0]!)["count=all"]).toBe(1);
    const winner = inputOf("did kim lee win in tokyo?", "races");
    const winnerRun = { plan: firstPlan(winner)!, rows: 1, answer: "Kim Lee" };
    expect(planChoiceFeatures(winner, winnerRun, 0, winnerRun)["in-question"]).toBe(1);
  });

  it("without a model takes the first plan; a model's weights move the choice, and the writer builds the same plan", () => {
    const q = "Who has the highest salary?";
    const input = inputOf(q, "employees");
    setPlanChoiceModel(null);
    expect(choosePlan(q, input, run)).toMatchObject({ plan: { sql: firstPlan(input)!.sql }, rank: 0 });
    // A model that prefers the most frequent value over the argmax takes that candidate.
    setPlanChoiceModel({ trainedOn: "test", weights: { base: 1, "alt:tpl=group-count": 3 }, minMargin: 0 });
    const choice = choosePlan(q, input, run)!;
    expect(choice.rank).toBeGreaterThan(0);
    expect(choice.plan.generator).toBe("superlative.frequency");
    expect(choice.margin).toBeCloseTo(2);
    // A margin the alternative does not clear keeps the first plan.
    setPlanChoiceModel({ trainedOn: "test", weights: { base: 1, "alt:tpl=group-count": 3 }, minMargin: 2.5 });
    expect(choosePlan(q, input, run)?.rank).toBe(0);
    setPlanChoiceModel({ trainedOn: "test", weights: { base: 1, "alt:tpl=group-count": 3 }, minMargin: 0 });
    // The decomposer records the choice; planSql (the writer) then builds that plan, not the first one.
    const grounded = {
      ...input,
      analysis: {
        ...input.analysis,
        grounding: {
          tableId: "employees",
          mentions: input.mentions,
          planChoice: { generator: choice.plan.generator, targetRank: choice.plan.targetRank },
        },
      },
    };
    expect(planSql(grounded)?.sql).toBe(choice.plan.sql);
    expect(planSql(input)?.sql).toBe(firstPlan(input)!.sql);
    setPlanChoiceModel(undefined);
  });

  it("the shipped model (or none) keeps a plain table's everyday answers", () => {
    setPlanChoiceModel(undefined);
    expect(answer("What is the highest salary?", "employees")).toBe("88000");
    expect(answer("What is the lowest salary?", "employees")).toBe("52000");
    expect(answer("Who has the highest salary?", "employees")).toBe("Cara Diaz");
    expect(answer("How many employees work in Sales?", "employees")).toBe("2");
    expect(answer("What's Bo Chen's salary?", "employees")).toBe("64000");
    expect(answer("which nation won 19 gold medals?", "medals")).toBe("Great Britain");
  });

  it("refuses a model file without weights or with a weight that is not a number, naming the file", () => {
    expect(() => checkPlanChoiceModel({ trainedOn: "x" }, "/m/plan-choice.json")).toThrow(ModelFileError);
    expect(() => checkPlanChoiceModel({ weights: { base: "1" } }, "/m/plan-choice.json")).toThrow(
      /plan-choice\.json.*base/,
    );
    expect(() => checkPlanChoiceModel({ weights: { alt: 1 }, minMargin: 0 }, "/m/plan-choice.json")).toThrow(/base/);
    expect(() => checkPlanChoiceModel({ weights: { base: 1 } }, "/m/plan-choice.json")).toThrow(/minMargin/);
    expect(
      checkPlanChoiceModel({ trainedOn: "x", weights: { base: 1 }, minMargin: 1 }, "/m/plan-choice.json").weights,
    ).toEqual({ base: 1 });
  });
});
