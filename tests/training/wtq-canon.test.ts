/** Typed gold values for wtq/train labels (training/wtq-canon.ts) and their use in loadQuestions. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { wtqTrainCanon, wtqTrainCanons } from "../../training/wtq-canon.js";
import { loadQuestions } from "../../training/answer-verifier.js";

describe("wtqTrainCanon: the value CoreNLP would give a gold answer", () => {
  it("types numbers written with separators, signs, ordinals and a unit word", () => {
    expect(wtqTrainCanon("3,456")).toBe("3456");
    expect(wtqTrainCanon("$120")).toBe("120");
    expect(wtqTrainCanon("2.5%")).toBe("2.5");
    expect(wtqTrainCanon("3rd")).toBe("3");
    expect(wtqTrainCanon("4 weeks")).toBe("4");
    expect(wtqTrainCanon("1,024,000")).toBe("1024000");
  });

  it("types dates in their common spellings, with unknown parts as xx", () => {
    expect(wtqTrainCanon("March 3, 2001")).toBe("2001-03-03");
    expect(wtqTrainCanon("3 March 2001")).toBe("2001-03-03");
    expect(wtqTrainCanon("Sept. 2004")).toBe("2004-09-xx");
    expect(wtqTrainCanon("June 9")).toBe("xxxx-06-09");
    expect(wtqTrainCanon("June")).toBe("xxxx-06-xx");
    expect(wtqTrainCanon("4/15/1999")).toBe("1999-04-15");
  });

  it("leaves names, mixed values and a bare 'May' as strings", () => {
    for (const s of [
      "May",
      "Iron Works 3",
      "Route 66 Diner",
      "76 years, 162 days",
      "2.8 miles (4.5 km)",
      "Since 1922",
      "3 Doors",
    ])
      expect(wtqTrainCanon(s), s).toBeNull();
    expect(wtqTrainCanons(["Lisbon", "Porto"])).toBeNull();
    expect(wtqTrainCanons(["Lisbon", "1,200"])).toEqual([null, "1200"]);
  });
});

describe("loadQuestions labels wtq/train answers by their typed gold", () => {
  const dir = mkdtempSync(join(tmpdir(), "atr-wtq-canon-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const gold = join(dir, "questions.jsonl");
  const run = join(dir, "run.jsonl");
  writeFileSync(
    gold,
    JSON.stringify({
      question_id: "q1",
      question: "how many tickets were sold in total?",
      table_id: "t1",
      answer: ["3,456"],
    }) + "\n",
  );
  const decision = (answer: string) => ({
    effective_route: "SQL",
    sub_query: "how many tickets were sold in total?",
    produced_answer: answer,
    verdict: 0.5,
    features: { bias: 1 },
  });
  writeFileSync(
    run,
    JSON.stringify({
      question_id: "q1",
      atr_trace: { verifier_decisions: [decision("3456"), decision("3,456"), decision("3457")] },
    }) + "\n",
  );

  it("a right number written without its separator is right with typed labels, wrong with strict ones", () => {
    const typed = loadQuestions("wtq", gold, run)[0]!.candidates.map((c) => c.right);
    const strict = loadQuestions("wtq", gold, run, { typedWtqGold: false })[0]!.candidates.map((c) => c.right);
    expect(typed).toEqual([true, true, false]);
    expect(strict).toEqual([false, true, false]);
  });
});
