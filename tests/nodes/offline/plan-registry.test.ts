/** The SQL plan registry (nodes/offline/plans/): named generators in one ordered list, and several candidates per question. */
import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { firstPlan, planCandidates, planContext, PLAN_GENERATORS } from "../../../nodes/offline/plans/registry.js";
import { countRows } from "../../../nodes/offline/plans/count.js";
import { superlativeGroupTotal, superlativeOrder } from "../../../nodes/offline/plans/superlative.js";
import { lookupRows } from "../../../nodes/offline/plans/lookup.js";
import { candidateFeatures, kindAgreement, resultShape } from "../../../nodes/offline/plans/candidate-features.js";
import type { SqlPlanInput } from "../../../nodes/offline/plans/types.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

function inputFor(question: string, table: string): SqlPlanInput {
  const analysis = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return { analysis, catalog, mentions: findMentions(question, catalog, { avoidWords: askedWords(analysis) }) };
}

describe("plan generators", () => {
  it("a generator's applies reads the analysis and its build writes a statement over the table", () => {
    const ctx = planContext(inputFor("how many nations won more than 20 gold medals?", "medals"));
    expect(countRows.applies(ctx)).toBe(true);
    expect(superlativeOrder.applies(ctx)).toBe(false);
    const plan = countRows.build(ctx)!;
    expect(plan.template).toBe("count");
    expect(fx.run(plan.sql)).toEqual([[3]]);
  });

  it("the superlative generator keeps ties and the lookup generator needs a selected row", () => {
    const ctx = planContext(inputFor("which year had the highest prize?", "races"));
    expect(fx.run(superlativeOrder.build(ctx)!.sql)).toEqual([["2003"], ["2004"]]);
    // No mention or condition selects a row: a lookup has nothing to read.
    expect(lookupRows.build(ctx)).toBeNull();
  });

  it("a total per group sums each value's rows, and gives way when every value has one row", () => {
    const ctx = planContext(inputFor("which department has the highest total salary?", "employees"));
    expect(superlativeGroupTotal.applies(ctx)).toBe(true);
    const plan = superlativeGroupTotal.build(ctx)!;
    expect(plan.sql).toMatch(/GROUP BY "department__raw" ORDER BY SUM\("salary"\) DESC/);
    expect(fx.run(plan.sql)).toEqual([["Sales"]]);
    // (Names are one per row: the row with the extreme is superlative.order's; no total word, no total.)
    expect(
      superlativeGroupTotal.build(planContext(inputFor("who has the highest total salary?", "employees"))),
    ).toBeNull();
    const single = planContext(inputFor("which department has the highest salary?", "employees"));
    expect(superlativeGroupTotal.applies(single)).toBe(false);
  });

  it("a comparison with the average is its own generator, ahead of the AVG() of the column", () => {
    // (Mean salary 68750.)
    const plan = firstPlan(inputFor("who earns more than the average salary?", "employees"))!;
    expect(plan.generator).toBe("comparison.vs-average");
    expect(fx.run(plan.sql)).toEqual([["Ana Ruiz"], ["Cara Diaz"]]);
  });

  it("one line per group is its own generator, ahead of the row count and the AVG() of the column", () => {
    const plan = firstPlan(inputFor("how many employees are there in each department?", "employees"))!;
    expect(plan.generator).toBe("aggregate.per-group");
    expect(plan.sql).toMatch(/GROUP BY "department__raw" ORDER BY MIN\("_row"\)/);
    // (Without a group word, the row count.)
    expect(firstPlan(inputFor("how many employees are there?", "employees"))!.generator).toBe("count.rows");
  });

  it("values recurring at least N times are their own generator, ahead of the row count", () => {
    const plan = firstPlan(inputFor("how many departments appear at least twice?", "employees"))!;
    expect(plan.generator).toBe("count.repeated");
    expect(fx.run(plan.sql)).toEqual([[1]]);
  });

  it("the first and the last row apart are their own generator", () => {
    const plan = firstPlan(inputFor("what is the salary gap between the first employee and the last?", "employees"))!;
    expect(plan.generator).toBe("aggregate.ends-apart");
    expect(fx.run(plan.sql)).toEqual([[19000]]);
  });

  it("rows sharing a named row's value, counted, are their own generator, ahead of the row count", () => {
    const plan = firstPlan(inputFor("how many employees work in the same department as ana ruiz?", "employees"))!;
    expect(plan.generator).toBe("count.same-as");
    expect(fx.run(plan.sql)).toEqual([[1]]);
    const listed = firstPlan(inputFor("bo chen began work the same year as which employee?", "employees"))!;
    expect(listed.generator).toBe("comparison.same-as");
    expect(fx.run(listed.sql)).toEqual([]);
  });

  it("one game's score difference is its own generator, ahead of the lookup of the result cell", () => {
    const plan = firstPlan(inputFor("what was the score difference in the game against navy?", "games"))!;
    expect(plan.generator).toBe("aggregate.score-margin");
    expect(fx.run(plan.sql)).toEqual([[28]]);
  });

  it("the years between two named rows are their own generator, ahead of the row count", () => {
    const plan = firstPlan(inputFor("how many years passed between ana ruiz and dev patel?", "employees"))!;
    expect(plan.generator).toBe("aggregate.time-apart");
    expect(fx.run(plan.sql)).toEqual([[2]]);
  });

  it("has unique names, one family prefix each, and ends with the catch-all lookup", () => {
    const names = PLAN_GENERATORS.map((g) => g.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names)
      expect(n).toMatch(/^(lookup|count|aggregate|superlative|position|comparison|yes-no|report-table|row-columns)\./);
    expect(names[names.length - 1]).toBe("lookup.rows");
  });
});

describe("ordered choice", () => {
  it("the first applicable generator in list order wins, and its name comes with the plan", () => {
    const plan = firstPlan(inputFor("who won more gold medals, china or russia?", "medals"))!;
    expect(plan.generator).toBe("comparison.two-rows");
    expect(fx.run(plan.sql)).toEqual([["China"]]);
    // Without the comparison generators the same question falls to a later family.
    const later = firstPlan(
      inputFor("who won more gold medals, china or russia?", "medals"),
      PLAN_GENERATORS.filter((g) => !g.name.startsWith("comparison.")),
    );
    expect(later?.generator).not.toBe("comparison.two-rows");
  });
});

describe("planCandidates", () => {
  it("returns several named plans with distinct statements, the first being firstPlan's", () => {
    const input = inputFor("how many silver medals did russia win?", "medals");
    const cands = planCandidates(input, 4);
    expect(cands.length).toBeGreaterThan(1);
    expect(cands.length).toBeLessThanOrEqual(4);
    expect(cands[0]!.sql).toBe(firstPlan(input)!.sql);
    expect(new Set(cands.map((c) => c.sql)).size).toBe(cands.length);
    expect(cands.map((c) => c.generator)).toContain("count.column");
    expect(cands.map((c) => c.generator)).toContain("count.rows");
  });

  it("offers the next-best target column as its own candidate", () => {
    const cands = planCandidates(inputFor("who won in beijing?", "races"), 4);
    expect(fx.run(cands[0]!.sql)).toEqual([["Marilynn Jones"]]);
    const next = cands.find((c) => c.targetRank === 1);
    expect(next).toBeDefined();
    expect(next!.targetColumn).not.toBe(cands[0]!.targetColumn);
  });

  it("respects the cap", () => {
    expect(planCandidates(inputFor("how many silver medals did russia win?", "medals"), 1)).toHaveLength(1);
  });
});

describe("candidate features", () => {
  it("name the generator, the rank, the next-best target and the kind agreement", () => {
    const input = inputFor("how many races were held after 2001?", "races");
    const [first] = planCandidates(input, 4);
    expect(candidateFeatures(first!, 0, input.analysis)).toEqual({
      "gen=count.rows": 1,
      "cand:rank=0": 1,
      "cand:kind=agree": 1,
    });
    expect(kindAgreement("lookup", { answerType: "count" })).toBe("disagree");
    expect(kindAgreement("choice", { answerType: "choice" })).toBe("agree");
  });

  it("read the result's shape: rows, NULL cells, superlative ties", () => {
    expect(resultShape('[["2003"],["2004"]]', "argmax")).toEqual(["res:rows=2-5", "res:ties"]);
    expect(resultShape("[[null]]", "lookup")).toEqual(["res:rows=1", "res:null"]);
  });
});
