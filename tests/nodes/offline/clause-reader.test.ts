import { describe, expect, it } from "vitest";
import { clauseOf, readClause } from "../../../nodes/offline/clause-reader.js";
import { clauseAsk } from "../../../nodes/offline/clause-question.js";
import { answerKindOf } from "../../../nodes/offline/answer-kind.js";
import { readText } from "../../../nodes/offline/reader.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

const plan = (q: string): SubQueryPlan => ({
  subQuery: q,
  requiredModalities: "text",
  expectedOperator: "lookup",
  needGlobalTableView: false,
  entityMentions: [],
  uncertainty: 0,
});

const REPORT = [
  "[Source: notes.json]",
  "Leases. Operating leases cover office space in three cities and a fleet of delivery vans.",
  "Deferred revenue represents amounts billed to customers before the service is delivered.",
  "The company bills its customers when the installation is accepted by the customer.",
  "Revenue of the northern region rose by $4.1 million, primarily due to higher volumes of grain.",
  "The hedges are used by the group to fix the cost of fuel for the next two years.",
  "Inventories are stated at the lower of cost and net realisable value.",
  "If the customer cancels within ten days, then the deposit is refunded.",
  "The group's effective tax rate for the year was favourably impacted mainly by research credits and lower state taxes.",
  "Payments in these contracts have been classified as a finance lease.",
  "Acme Freight is a carrier of bulk cargo for mining firms (subject to renewal in two years).",
].join("\n");

describe("clauseAsk: which questions ask for a clause", () => {
  it("takes conditions, causes, purposes and objects", () => {
    expect(clauseAsk("When does the company bill its customers?")).toBe("condition");
    expect(clauseAsk("Why did revenue rise?")).toBe("cause");
    expect(clauseAsk("What drove the rise in revenue?")).toBe("cause");
    expect(clauseAsk("What are the hedges used by the group for?")).toBe("purpose");
    expect(clauseAsk("What do operating leases cover?")).toBe("object");
    expect(clauseAsk("What is deferred revenue?")).toBe("object");
    expect(clauseAsk("How are inventories stated?")).toBe("object");
  });
  it("leaves amounts, counts, dates, rates and superlatives to the other readers", () => {
    expect(clauseAsk("How much did revenue rise by?")).toBeUndefined();
    expect(clauseAsk("What was the amount of deferred revenue in 2019?")).toBeUndefined();
    expect(clauseAsk("When did the company open its plant?")).toBeUndefined();
    expect(clauseAsk("What is the percentage change in revenue?")).toBeUndefined();
    expect(clauseAsk("What is the most expensive lease?")).toBeUndefined();
    expect(clauseAsk("Where is the stadium located?")).toBeUndefined();
    expect(clauseAsk("What is the nickname of the team?")).toBeUndefined();
    expect(clauseAsk("What were the sales in 2019?")).toBeUndefined();
  });
});

describe("readClause: the sentence that restates the question, and what follows the restatement", () => {
  it("reads the object after the question's verb", () => {
    expect(readClause("What do operating leases cover?", REPORT)?.answer).toBe(
      "office space in three cities and a fleet of delivery vans",
    );
  });
  it("skips a linking verb the question does not ask with", () => {
    expect(readClause("What is deferred revenue?", REPORT)?.answer).toBe(
      "amounts billed to customers before the service is delivered",
    );
  });
  it("answers 'when does' with the sentence's condition", () => {
    expect(readClause("When does the company bill its customers?", REPORT)?.answer).toBe(
      "when the installation is accepted by the customer",
    );
    expect(readClause("When is the deposit refunded?", REPORT)?.answer).toBe("If the customer cancels within ten days");
  });
  it("answers a cause question from the cause marker", () => {
    expect(readClause("Why did the revenue of the northern region rise?", REPORT)?.answer).toBe(
      "primarily due to higher volumes of grain",
    );
  });
  it("answers 'used for' with the purpose clause", () => {
    expect(readClause("What are the hedges used by the group for?", REPORT)?.answer).toBe(
      "to fix the cost of fuel for the next two years",
    );
  });
  it("keeps the preposition the question does not end with", () => {
    expect(readClause("How are inventories stated?", REPORT)?.answer).toBe(
      "at the lower of cost and net realisable value",
    );
  });
  it("gives nothing when the question asks for no clause or no sentence shares its words", () => {
    expect(readClause("How much did revenue rise by?", REPORT)).toBeUndefined();
    expect(readClause("What do pension plans cover?", REPORT)).toBeUndefined();
  });
  it("drops a preposition the question ends with", () => {
    expect(
      clauseOf(
        "Which countries does the group operate plants in?",
        "object",
        "The group operates plants in France and Peru.",
      ),
    ).toBe("France and Peru");
  });
});

describe("readClause: frames, agents, verbs further on, asides", () => {
  it("drops a leading frame of the question", () => {
    expect(clauseAsk("In 2019, why did the revenue of the northern region rise?")).toBe("cause");
    expect(readClause("In 2019, why did the revenue of the northern region rise?", REPORT)?.answer).toBe(
      "primarily due to higher volumes of grain",
    );
  });
  it("answers 'what impacted X' with the agent", () => {
    expect(readClause("What impacted the group's effective tax rate?", REPORT)?.answer).toBe(
      "research credits and lower state taxes",
    );
  });
  it("finds the question's closing verb a few words after its subject", () => {
    expect(readClause("What are payments classified as?", REPORT)?.answer).toBe("a finance lease");
  });
  it("leaves out a closing aside in brackets", () => {
    expect(readClause("What is Acme Freight?", REPORT)?.answer).toBe("a carrier of bulk cargo for mining firms");
  });
  it("gives clause questions the answer kind text", () => {
    expect(answerKindOf(undefined, "When does the company bill its customers?")).toBe("text");
    expect(answerKindOf(undefined, "When did the company open its plant?")).not.toBe("text");
  });
});

describe("the TEXT reader answers clause questions with the clause", () => {
  it("returns the clause, not a name or a number of the sentence", async () => {
    const q = "What do operating leases cover?";
    const answer = await readText({ question: q, subQuery: q, plan: plan(q), evidence: REPORT });
    expect(answer).toBe("office space in three cities and a fleet of delivery vans");
  });
});
