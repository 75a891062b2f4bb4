/**
 * Scores a `scripts/offline-dev.ts --out` file of an exported everyday suite with the suite's own scorer
 * (everydayCorrect: money symbols, rounding to the cent, the question's `also` spellings) and lists the misses.
 *
 *   npx tsx scripts/everyday.ts --suite seventh --export DIR
 *   npx tsx scripts/offline-dev.ts --index DIR/index --questions DIR/questions.jsonl --show none --out OUT.jsonl
 *   npx tsx scripts/everyday-plans.ts --suite seventh --pred OUT.jsonl [--fresh] [--show wrong|none]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { everydayCorpus, everydayCorrect, type EverydayQuestion } from "../tests/fixtures/everyday-tables.js";
import { everydaySecondCorpus } from "../tests/fixtures/everyday-second-tables.js";
import { everydayThirdCorpus } from "../tests/fixtures/everyday-third-tables.js";
import { everydaySeventhCorpus } from "../tests/fixtures/everyday-seventh-tables.js";
import { everydaySixthCorpus } from "../tests/fixtures/everyday-sixth-tables.js";
import { everydayFifthCorpus } from "../tests/fixtures/everyday-fifth-tables.js";
import { everydayFourthCorpus } from "../tests/fixtures/everyday-fourth-tables.js";

const { values } = parseArgs({
  options: {
    suite: { type: "string", default: "seventh" },
    pred: { type: "string" },
    fresh: { type: "boolean", default: false },
    show: { type: "string", default: "wrong" },
  },
});
const corpora: Record<string, () => { questions: EverydayQuestion[]; fresh?: EverydayQuestion[] }> = {
  first: () => everydayCorpus(16),
  second: () => everydaySecondCorpus(5),
  third: () => everydayThirdCorpus(3),
  fourth: () => everydayFourthCorpus(4),
  fifth: () => everydayFifthCorpus(5),
  sixth: () => everydaySixthCorpus(6),
  seventh: () => everydaySeventhCorpus(7),
};
if (!values.pred || !corpora[values.suite!]) throw new Error("--suite first|…|seventh and --pred OUT.jsonl");
const c = corpora[values.suite!]!();
const qs = values.fresh ? (c.fresh ?? []) : c.questions;
const preds = readFileSync(values.pred, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { question_id: string; prediction: string; sql?: string });
let right = 0;
for (const p of preds) {
  const q = qs[Number(p.question_id.split("-").pop())]!;
  const ok = [q.gold, ...(q.also ?? [])].some((g) => everydayCorrect(g, p.prediction ?? ""));
  if (ok) right++;
  else if (values.show === "wrong")
    console.log(
      `[${q.kind}] ${q.question} → ${JSON.stringify(p.prediction)} (gold ${q.gold.join(" | ")})\n    ${p.sql ?? ""}`,
    );
}
console.log(`${right}/${preds.length}`);
