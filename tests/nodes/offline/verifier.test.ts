import { BOOKINGS_MARKDOWN } from "./fixtures.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setAnswerModel } from "../../../nodes/offline/answer-model.js";
import { setConfidenceModel } from "../../../nodes/offline/confidence.js";
import {
  DEFAULT_MIN_SQL_CONFIDENCE,
  createVerify,
  supportOf,
  verify,
  verifyAnswer,
} from "../../../nodes/offline/verifier.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { VerifyInput } from "../../../nodes/strategies.js";
import type { Route, SubQueryPlan } from "../../../nodes/types.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { TARGET_SPELLED_TEXT } from "../../../nodes/offline/plans/candidate-features.js";

function plan(q: string, entityMentions: string[] = []): SubQueryPlan {
  const a = analyzeQuestion(q);
  return {
    subQuery: q,
    requiredModalities: "table",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions,
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

const EVIDENCE =
  "[Source: teen.json]\nRuth Zakarian : Ruth Zakarian ( born February 6 , 1966 ) is an American actress who won the first Miss Teen USA pageant , held in 1983 in Lakeland , Florida .\n\n" +
  "[Source: teen.json]\nLakeland : Lakeland is a city in Polk County , Florida . Its population was 97,422 at the 2010 census .";

function input(q: string, answer: string, extra: Partial<VerifyInput> = {}, mentions: string[] = []): VerifyInput {
  return {
    question: q,
    subQuery: q,
    plan: plan(q, mentions),
    route: "TEXT" as Route,
    answer,
    evidence: EVIDENCE,
    sqlResult: "",
    ...extra,
  };
}

// These cases test the rule layer: without the learned model its verdict is the verdict.
beforeAll(() => setAnswerModel(null));
afterAll(() => setAnswerModel(undefined));

describe("offline rule verifier", () => {
  it("takes a text cell of a column the question spells whole, and one number per group, as the kind asked", () => {
    const q = "What coat size does Ilse Marr wear?";
    const sql = (features: Record<string, number>) => ({
      route: "SQL" as Route,
      sqlResult: '[["XL"]]',
      sqlPlan: { name: "lookup.rows", template: "lookup", features },
    });
    expect(verifyAnswer(input(q, "XL", sql({}))).code).toBe("wrong-kind");
    expect(verifyAnswer(input(q, "XL", sql({ [TARGET_SPELLED_TEXT]: 1 }))).code).not.toBe("wrong-kind");
    const each = "How much did each driver claim?";
    expect(verifyAnswer(input(each, "Ana: 120.5 | Bo: 80")).code).not.toBe("wrong-kind");
    expect(verifyAnswer(input(each, "Ana: lots | Bo: 80")).code).toBe("wrong-kind");
  });

  it("calls a read answer whose sentence matches the question plausible (1 only with verifyReadAnswers)", async () => {
    const i = input("When was Ruth Zakarian born ?", "February 6 , 1966", {}, ["Ruth Zakarian"]);
    expect((await verify(i)).verdict).toBe(0.5);
    expect(verifyAnswer(i, { verifyReadAnswers: true }).verdict).toBe(1);
  });

  it("gives 0.5 to no answer and 0 to sentinels and row dumps", async () => {
    expect((await verify(input("Who won ?", "not found"))).verdict).toBe(0.5);
    expect((await verify(input("Who won ?", ""))).verdict).toBe(0.5);
    expect((await verify(input("Who won ?", "none"))).verdict).toBe(0);
    expect((await verify(input("Who won ?", "SQL execution failed: no such column"))).verdict).toBe(0);
    expect((await verify(input("Who won ?", '[{"a":1},{"a":2}]'))).verdict).toBe(0);
  });

  it("rejects an answer of the wrong kind", async () => {
    const v = await verify(input("How many people lived in Lakeland in 2010 ?", "Polk County"));
    expect(v.verdict).toBe(0);
    expect(v.reason).toMatch(/count|number/);
    expect((await verify(input("Who won the first Miss Teen USA pageant ?", "1983"))).verdict).toBe(0);
  });

  it("rejects the filter entity instead of the asked attribute", async () => {
    const v = await verify(
      input("What was the population of Lakeland at the 2010 census ?", "Lakeland", {}, ["Lakeland"]),
    );
    expect(v.verdict).toBe(0);
  });

  it("does not take the bridge note's passage titles for the question's filter entity", async () => {
    // the offline decomposer appends the described row's linked passages: "(about: A; B)"
    const q = "In which county is the city where the first Miss Teen USA pageant was held ?";
    const bridged = `${q} (about: Ruth Zakarian; Polk County) (columns: City)`;
    const v = await verify({ ...input(q, "Polk County"), subQuery: bridged });
    expect(v.reason).not.toMatch(/filter entity/);
    expect(v.verdict).toBe(0.5);
    // words of the question itself still count
    const named = await verify({
      ...input("What was the population of Lakeland ?", "Lakeland"),
      subQuery: "What was the population of Lakeland ? (about: Lakeland)",
    });
    expect(named.verdict).toBe(0);
  });

  it("rejects answers that are not in the evidence", async () => {
    const v = await verify(input("In which county is Lakeland ?", "Orange County"));
    expect(v.verdict).toBe(0);
    expect(v.reason).toMatch(/evidence/);
  });

  it("accepts numbers computed by SQL even when the evidence does not contain them", async () => {
    const q = "What is the difference between the high and low prices in 2019 ?";
    const v = await verify({
      ...input(q, "1.97"),
      route: "SQL",
      sqlResult: '[{"diff": 1.9700000000000006}]',
      evidence: "Table: prices | Column: high",
    });
    expect(v.verdict).toBe(1);
  });

  it("is cautious about a zero from SQL and about weakly supported spans", async () => {
    const q = "How many strikers netted more than 12 goals ?";
    expect((await verify({ ...input(q, "0"), route: "SQL", sqlResult: '[{"n": 0}]' })).verdict).toBe(0.5);
    // "Florida" is in the evidence but its sentences say nothing about a birthplace of a singer.
    const weak = await verify(input("Where was the lead singer of the band born ?", "Florida"));
    expect(weak.verdict).toBe(0.5);
  });

  it("does not accept a number merely derivable from evidence numbers on the TEXT route", async () => {
    // 97,422 + 2010 is computable from the evidence but not read from it.
    expect((await verify(input("What was the population of Lakeland at the 2010 census ?", "99,432"))).verdict).toBe(0);
    expect((await verify(input("What was the population of Lakeland at the 2010 census ?", "97,422"))).verdict).toBe(
      0.5,
    );
    expect(
      verifyAnswer(input("What was the population of Lakeland at the 2010 census ?", "97,422"), {
        verifyReadAnswers: true,
      }).verdict,
    ).toBe(1);
  });

  it("measures how much of the question the answer's sentence covers", () => {
    expect(
      supportOf("When was Ruth Zakarian born ?", "When was Ruth Zakarian born ?", "1966", EVIDENCE),
    ).toBeGreaterThan(0.8);
    expect(
      supportOf("Where was the drummer born ?", "Where was the drummer born ?", "Polk County", EVIDENCE),
    ).toBeLessThan(0.5);
  });
});

describe("offline rule verifier with a table → passage bridge", () => {
  it("counts the titles of the passages linked from the described row as support", async () => {
    const q = "What is the population count of the hometown of the youngest winner ?";
    const evidence =
      "[Source: winners.json]\nCamden, Delaware\nCamden is a town in Kent County , Delaware . The population was 3,464 at the 2010 census .";
    const base = {
      question: q,
      subQuery: q,
      plan: plan(q),
      route: "TEXT" as Route,
      answer: "3,464",
      evidence,
      sqlResult: "",
    };
    const bridge = (question: string, table?: string) =>
      table === "winners" ? `${question} (about: Camden, Delaware)` : undefined;
    expect(verifyAnswer(base, { verifyReadAnswers: true }).verdict).toBe(0.5);
    expect(verifyAnswer(base, { bridge, verifyReadAnswers: true }).verdict).toBe(1);
    // By default a read answer is never verified, however well supported.
    expect((await createVerify(bridge)(base)).verdict).toBe(0.5);
  });

  it("grounds a read answer in the passages the described row links to, which retrieval may have missed", () => {
    const q = "What is the population count of the hometown of the youngest winner ?";
    const retrieved =
      "[Source: winners.json]\nAshley Coleman\nAshley Coleman is the first African American Miss Teen USA .";
    const row: DescribedRow = {
      tableId: "winners",
      rowId: 0,
      columns: ["Year", "Name", "Hometown"],
      values: ["1991", "Ashley Coleman", "Camden"],
      passages: [
        {
          id: "/wiki/Camden",
          title: "Camden, Delaware",
          text: "Camden is a town in Kent County , Delaware . The population was 3,464 at the 2010 census .",
          file: "winners.json",
          tableId: "winners",
          cells: [[0, 2]],
        },
      ],
      score: 3,
      runnerUp: 1,
    };
    const bridge = Object.assign(
      (question: string, table?: string) => (table === "winners" ? `${question} (about: Camden, Delaware)` : undefined),
      {
        findRow: (_q: string, table?: string) => (table === "winners" ? row : undefined),
      },
    );
    const p = { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "winners" } } };
    const base = {
      question: q,
      subQuery: q,
      plan: p,
      route: "TEXT" as Route,
      answer: "3,464",
      evidence: retrieved,
      sqlResult: "",
    };
    expect(verifyAnswer(base).verdict).toBe(0);
    expect(verifyAnswer(base, { bridge }).verdict).toBe(0.5);
  });

  it("takes the described row's cell under the asked header whatever kind the wording suggests", () => {
    const q = "What is the final score of the champion born on 11 June 1965 ?";
    const row: DescribedRow = {
      tableId: "finals",
      rowId: 0,
      columns: ["Year", "Winner", "Score"],
      values: ["1990", "Phil Taylor", "4 - 3"],
      passages: [],
      score: 3,
      runnerUp: 1,
    };
    const bridge = Object.assign(() => undefined, {
      findRow: (_q: string, table?: string) => (table === "finals" ? row : undefined),
    });
    const p = { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "finals" } } };
    const base = {
      question: q,
      subQuery: q,
      plan: p,
      route: "RETRIEVE" as Route,
      answer: "4 - 3",
      evidence: "[Table finals, row 0]\n  Year: 1990\n  Winner: Phil Taylor\n  Score: 4 - 3",
      sqlResult: "",
    };
    expect(verifyAnswer(base).verdict).toBe(0);
    expect(verifyAnswer(base, { bridge }).verdict).toBe(0.5);
  });

  it("takes that cell whatever operator the wording suggested ('register number' is no count)", () => {
    const q = "What is the register number for the prisoner who served four terms ?";
    const row: DescribedRow = {
      tableId: "inmates",
      rowId: 0,
      columns: ["Inmate Name", "Register Number"],
      values: ["Jim Traficant", "79112-054"],
      passages: [],
      score: 3,
      runnerUp: 1,
    };
    const bridge = Object.assign(() => undefined, {
      findRow: (_q: string, table?: string) => (table === "inmates" ? row : undefined),
    });
    const p = {
      ...plan(q),
      expectedOperator: "count" as const,
      analysis: { ...plan(q).analysis, grounding: { tableId: "inmates" } },
    };
    const base = {
      question: q,
      subQuery: q,
      plan: p,
      route: "RETRIEVE" as Route,
      answer: "79112-054",
      evidence: "[Table inmates, row 0]\n  Inmate Name: Jim Traficant\n  Register Number: 79112-054",
      sqlResult: "",
    };
    expect(verifyAnswer(base).verdict).toBe(0);
    expect(verifyAnswer(base, { bridge }).verdict).toBe(0.5);
  });
});

describe("offline rule verifier: SQL plan confidence", () => {
  afterEach(() => setConfidenceModel(undefined));
  const q = "How many strikers netted more than 12 goals ?";
  const features = {
    template: "count",
    grounding: "exact" as const,
    mentions: "1" as const,
    target: "computed" as const,
  };
  function sqlInput(): VerifyInput {
    const p = plan(q);
    const analysis = {
      ...(p.analysis as Record<string, unknown>),
      grounding: { tableId: "t", mentions: [], features },
    };
    return {
      ...input(q, "7"),
      plan: { ...p, analysis },
      route: "SQL",
      sql: 'SELECT COUNT(*) FROM "t" WHERE "goals" > 10',
      sqlResult: '[{"n": 7}]',
    };
  }

  it("keeps the SQL value plausible when the question describes a row with linked passages", () => {
    setConfidenceModel({ prior: 0.5, k: 1, table: { count: [95, 100] } });
    const bridged = sqlInput();
    expect(verifyAnswer(bridged).verdict).toBe(1);
    const linked = verifyAnswer({ ...bridged, subQuery: `${bridged.subQuery} (about: Ashley Coleman)` });
    expect(linked.verdict).toBe(0.5);
    expect(linked.reason).toMatch(/row with linked passages/);
  });

  it("accepts the SQL result of a confident plan shape and calls a doubtful one plausible", async () => {
    setConfidenceModel({ prior: 0.5, k: 1, table: { count: [95, 100] } });
    const confident = await verify(sqlInput());
    expect(confident.verdict).toBe(1);
    expect(confident.reason).toMatch(/plan confidence 0\.9/);
    setConfidenceModel({ prior: 0.5, k: 1, table: { count: [10, 100] } });
    const doubtful = await verify(sqlInput());
    expect(doubtful.verdict).toBe(0.5);
    expect(doubtful.reason).toMatch(/too often wrong/);
    expect(verifyAnswer(sqlInput(), { minSqlConfidence: 0.05 }).verdict).toBe(1);
    expect(DEFAULT_MIN_SQL_CONFIDENCE).toBeGreaterThan(0);
  });
});

describe("offline rule verifier: report-table cells", () => {
  const table = `[Source: bookings.json]\n${BOOKINGS_MARKDOWN}`;
  const q = "What was the change in net bookings from 2018 to 2019?";
  const cellInput = (answer: string): VerifyInput => ({
    ...input(q, answer),
    plan: { ...plan(q), requiredModalities: "table-text" as SubQueryPlan["requiredModalities"] },
    route: "HYBRID",
    evidence: table,
  });

  it("verifies the answer the located cells give only when they were located confidently", () => {
    const pq = "What was the percentage change in net bookings from 2018 to 2019?";
    const percentInput = (answer: string): VerifyInput => ({
      ...cellInput(answer),
      ...input(pq, answer),
      plan: { ...plan(pq), requiredModalities: "table-text" as SubQueryPlan["requiredModalities"] },
      route: "HYBRID",
      evidence: table,
    });
    const sure = verifyAnswer(percentInput("-12.04%"), { minCellConfidence: 0 });
    expect(sure.verdict).toBe(1);
    expect(sure.reason).toMatch(/percent_change, cell confidence/);
    const unsure = verifyAnswer(percentInput("-12.04%"), { minCellConfidence: 1.01 });
    expect(unsure.verdict).toBe(0.5);
    expect(unsure.reason).toMatch(/low confidence/);
    expect(verifyAnswer(cellInput("-837"), { minCellConfidence: 0 }).reason).not.toMatch(/cell confidence/);
  });

  it("keeps differences of located cells plausible (sign and bracket conventions vary)", () => {
    const difference = verifyAnswer(cellInput("-874"), { minCellConfidence: 0 });
    expect(difference.verdict).toBe(0.5);
    expect(difference.reason).toMatch(/difference answers are too often off by convention/);
  });
});
