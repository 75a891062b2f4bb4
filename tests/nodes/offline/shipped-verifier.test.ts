/** The shipped learned verifier (nodes/offline/models/answer-verifier.json) as docs/VERIFIER.md describes it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAnswerModel } from "../../../nodes/offline/answer-model.js";
import { familiesOf } from "../../../nodes/offline/feature-families.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const FILE = join(ROOT, "nodes", "offline", "models", "answer-verifier.json");
const model = checkAnswerModel(JSON.parse(readFileSync(FILE, "utf8")), FILE);
const docs = readFileSync(join(ROOT, "docs", "VERIFIER.md"), "utf8");

describe("the shipped verifier", () => {
  it("loads, and its threshold and feature families are the ones docs/VERIFIER.md names", () => {
    const named = /The shipped model: .*?threshold \*\*(\d\.\d+)\*\*.*?feature families used: ([^.\n]*)\./s.exec(docs);
    expect(named, "docs/VERIFIER.md: 'The shipped model: … threshold **T** … feature families used: …'").not.toBeNull();
    expect(model.threshold).toBe(Number(named![1]));
    const families = [...familiesOf(model)].map((f) => `\`${f}\``);
    expect(families.join(", ") || "none").toBe(named![2]!.trim());
  });
});
