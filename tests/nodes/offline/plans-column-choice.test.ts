import { afterAll, describe, expect, it } from "vitest";
import { openFixture, planAnswer } from "./fixtures.js";

// medals2: Brazil 3/1/2, Chile 1/2/0, Peru 0/1/1 (gold/silver/bronze): totals 4, 4, 3.
const fx = openFixture();
afterAll(() => fx.close());

function answer(question: string): { value: unknown; generator: string } {
  return planAnswer(fx.catalog("medals2"), fx.run, question);
}

describe("a choice of two columns", () => {
  it("answers the column whose total is larger (smaller), with its header", () => {
    expect(answer("were there more gold or bronze medals?")).toEqual({
      value: "Gold",
      generator: "comparison.columns",
    });
    expect(answer("were there fewer silver or bronze medals?").value).toBe("Bronze");
  });

  it("compares the named row's two cells, and says when they are the same", () => {
    expect(answer("did chile win more silver or bronze medals?").value).toBe("Silver");
    expect(answer("did peru win more silver or bronze medals?").value).toBe("same");
  });
});
