import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planCandidates } from "../../../nodes/offline/plans/registry.js";
import { openFixture, planAnswer } from "./fixtures.js";

// medals2: one row per nation; employees: Sales on two rows.
const fx = openFixture();
afterAll(() => fx.close());

function inputFor(question: string, table: string) {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return { analysis: a, catalog, mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }) };
}

function answer(question: string, table: string): unknown {
  return planAnswer(fx.catalog(table), fx.run, question).value;
}

describe("yes/no about one named row", () => {
  it("checks the row against a stated threshold of the column the question names", () => {
    expect(answer("did brazil win more than 2 gold medals?", "medals2")).toBe("yes");
    expect(answer("did chile win more than 2 gold medals?", "medals2")).toBe("no");
    expect(answer("did peru win at least one silver medal?", "medals2")).toBe("yes");
    expect(answer("did chile win fewer than 1 bronze medal?", "medals2")).toBe("yes");
    // (No column named, but no count of 4 rows reaches 80000: the value the verb is about.)
    expect(answer("does cara diaz earn more than 80000?", "employees")).toBe("yes");
    expect(answer("does bo chen earn more than 80000?", "employees")).toBe("no");
  });

  it("checks whether the row holds the column's top or bottom value", () => {
    expect(answer("did brazil win the most gold medals?", "medals2")).toBe("yes");
    expect(answer("did chile win the most gold medals?", "medals2")).toBe("no");
    expect(answer("is chile the nation with the fewest bronze medals?", "medals2")).toBe("yes");
    expect(answer("is peru the nation with the fewest bronze medals?", "medals2")).toBe("no");
  });

  it("compares how often the named value occurs with the most (least) frequent value of its column", () => {
    expect(answer("is sales the department with the most employees?", "employees")).toBe("yes");
    expect(answer("does finance have the most employees?", "employees")).toBe("no");
    expect(answer("is support the department with the fewest employees?", "employees")).toBe("yes");
  });

  it("counts a value's rows against the number when the question names no column and the value is on several rows", () => {
    expect(answer("does sales have more than 1 employee?", "employees")).toBe("yes");
    expect(answer("does finance have more than 1 employee?", "employees")).toBe("no");
  });

  it("leaves a comparison of two rows ('than that of') to the comparison plans", () => {
    const names = planCandidates(inputFor("did brazil win more gold medals than that of chile?", "medals2")).map(
      (p) => p.generator,
    );
    expect(names.some((n) => n.startsWith("yes-no."))).toBe(false);
  });
});

describe("choice between two named rows after the verb", () => {
  it("reads 'did A or B …' as a choice of the two rows", () => {
    expect(analyzeQuestion("did chile or peru win more bronze medals?").comparison).toMatchObject({
      kind: "choice",
      options: ["chile", "peru"],
    });
    expect(answer("did chile or peru win more bronze medals?", "medals2")).toBe("Peru");
  });
});
