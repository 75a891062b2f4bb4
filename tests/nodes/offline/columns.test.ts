import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import {
  chooseConditionColumn,
  chooseOrderColumn,
  chooseTargetColumn,
  headerMatch,
  setLearnedModel,
} from "../../../nodes/offline/columns.js";
import { findMentions } from "../../../nodes/offline/mentions.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  setLearnedModel(undefined);
  fx.close();
});

function target(question: string, table: string): string | undefined {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return chooseTargetColumn(a, catalog, findMentions(question, catalog))?.schema.name;
}

describe("column choice", () => {
  it("picks the column named by the question words", () => {
    expect(target("how many silver medals did russia win?", "medals")).toBe("Silver");
    expect(target("what was the prize in tokyo?", "races")).toBe("Prize");
  });

  it("uses the answer type when no header word is named", () => {
    expect(target("in what year did the race go to tokyo?", "races")).toBe("Year");
    expect(target("who won in beijing?", "races")).toBe("Winner");
  });

  it("never answers with the column of the entity the question names", () => {
    expect(target("what is the rank of germany?", "medals")).toBe("Rank");
    expect(target("which venue did ana smith win at?", "races")).toBe("Venue");
  });

  it("orders superlatives by the column after the superlative word", () => {
    const a = analyzeQuestion("which nation won the most bronze medals?");
    expect(chooseOrderColumn(a, fx.catalog("medals"), [])?.column.schema.name).toBe("Bronze");
  });

  it("applies year conditions to year columns and quantities to named columns", () => {
    expect(chooseConditionColumn(["held"], 2002, fx.catalog("races"))?.schema.name).toBe("Year");
    expect(chooseConditionColumn(["gold"], 20, fx.catalog("medals"))?.schema.name).toBe("Gold");
  });

  it("restricts choices to the usable columns", () => {
    const a = analyzeQuestion("how many silver medals did russia win?");
    const c = chooseTargetColumn(a, fx.catalog("medals"), [], { usable: new Set([1, 2]) });
    expect(["Nation", "Gold"]).toContain(c?.schema.name);
  });

  it("uses learned word↔header associations when a model is loaded", () => {
    const catalog = fx.catalog("races");
    const venue = catalog.columns.find((c) => c.schema.name === "Venue")!;
    setLearnedModel(null);
    expect(headerMatch(["held"], venue)).toBe(0);
    setLearnedModel({ assoc: { held: { venue: 0.9 } } });
    expect(headerMatch(["held"], venue)).toBeGreaterThan(0);
  });

  it("'who' means every person header of the one list (text/lexicons.ts PERSON_HEADERS)", () => {
    const winner = fx.catalog("races").columns.find((c) => c.schema.name === "Winner")!;
    setLearnedModel(null);
    for (const header of ["director", "holder", "winner"]) {
      const column = { ...winner, headerWords: [header] };
      expect(headerMatch(["who"], column)).toBeGreaterThan(0);
    }
    expect(headerMatch(["who"], { ...winner, headerWords: ["year"] })).toBe(0);
  });
});
