import { describe, expect, it } from "vitest";
import { verdictLine } from "../../cli/commands/demo.js";

const d = (answer: string, p: number, verdict: 0 | 0.5 | 1, reason: string, route = "SQL", attempt = 1) =>
  ({
    produced_answer: answer,
    p_correct: p,
    verdict,
    accepted: verdict === 1,
    reason,
    effective_route: route,
    attempt,
  }) as never;

describe("demo verdict line", () => {
  it("says whether the answer was accepted and gives the verifier's reason without the feature list", () => {
    const decisions = [
      d(
        "Porto",
        0.42,
        0.5,
        "not verified, P(correct) 0.42 < 0.80: the SQL plan's shape is too often wrong [rule=sql-low-confidence −0.7]",
      ),
      d(
        "Porto",
        0.91,
        1,
        "accepted, P(correct) 0.91 ≥ 0.80: the answer has the expected type; an earlier attempt found the same answer [agree=1 +1.4]",
        "RETRIEVE",
        2,
      ),
    ];
    expect(verdictLine("Porto", true, decisions)).toBe(
      "accepted (RETRIEVE, attempt 2): P(correct) 0.91 ≥ 0.80: the answer has the expected type; an earlier attempt found the same answer",
    );
    expect(verdictLine("Porto", false, decisions.slice(0, 1))).toBe(
      "not verified (SQL, attempt 1): P(correct) 0.42 < 0.80: the SQL plan's shape is too often wrong",
    );
    expect(verdictLine("not found", false, [])).toBe("not verified: no attempt produced an answer");
  });
});
