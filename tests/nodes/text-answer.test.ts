/** The TEXT reading (nodes/text-answer.ts): with and without the reader's other candidates. */
import { describe, expect, it } from "vitest";
import { readingOf } from "../../nodes/text-answer.js";
import type { AnswerCandidate } from "../../nodes/types.js";

const candidates: AnswerCandidate[] = [
  { answer: " Oslo ", features: { "rc:score": 0.8, "rc:margin": 0.3 } },
  { answer: "Bergen", features: { "rc:score": 0.5 } },
];

describe("readingOf", () => {
  it("with candidates: the first is the answer, the others travel marked as alternatives", () => {
    const r = readingOf(candidates);
    expect(r.answer).toBe("Oslo");
    expect(r.readerFeatures).toEqual({ "rc:score": 0.8, "rc:margin": 0.3 });
    expect(r.readerCandidates).toEqual([{ answer: "Bergen", features: { "rc:score": 0.5, "rc:alternative": 1 } }]);
  });

  it("without: the same answer keeps its own span score and margin, and no other answer is proposed", () => {
    const r = readingOf(candidates, false);
    expect(r).toEqual({ answer: "Oslo", readerFeatures: { "rc:score": 0.8, "rc:margin": 0.3 } });
  });

  it("no valid candidate reads as not found", () => {
    expect(readingOf([{ answer: "  ", features: {} }], false).answer).toBe("not found");
  });
});
