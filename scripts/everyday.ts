/**
 * The everyday-questions suite (tests/e2e/everyday.test.ts) as a script: builds the index of the
 * generated tables, answers every question through the real graph (offline backbone, default
 * configuration) and prints per-kind accuracy, how many answers the verifier accepted, and the wrong answers.
 *
 *   npx tsx scripts/everyday.ts [--seed 16] [--hint] [--show wrong|none]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { answerQuestion } from "../graph/answer.js";
import { closeResources } from "../graph/resources.js";
import { buildIndex } from "../indexing/build-index.js";
import { everydayCorpus, everydayCorrect, toCsv } from "../tests/fixtures/everyday-tables.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "16" },
    hint: { type: "boolean", default: false },
    show: { type: "string", default: "wrong" },
    kind: { type: "string" },
  },
});
const corpus = everydayCorpus(Number(values.seed));
const root = mkdtempSync(join(tmpdir(), "atr-everyday-"));
mkdirSync(join(root, "tables"));
mkdirSync(join(root, "docs"));
for (const t of corpus.tables) writeFileSync(join(root, "tables", `${t.id}.csv`), toCsv(t));
await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
const byKind = new Map<string, { n: number; ok: number; accepted: number }>();
let accepted = 0;
let acceptedRight = 0;
for (const q of corpus.questions.filter((x) => !values.kind || x.kind === values.kind)) {
  const r = await answerQuestion(
    { question: q.question, ...(values.hint ? { table_id: q.table } : {}) },
    { configurable: { indexPath: join(root, "index"), backbone: "offline" } },
  );
  const ok = everydayCorrect(q.gold, r.answer);
  if (r.answerVerified) {
    accepted++;
    if (ok) acceptedRight++;
  }
  const k = byKind.get(q.kind) ?? { n: 0, ok: 0, accepted: 0 };
  if (r.answerVerified) k.accepted++;
  k.n++;
  if (ok) k.ok++;
  byKind.set(q.kind, k);
  if (!ok && values.show === "wrong")
    console.log(`✗ [${q.kind}] ${q.question} → ${JSON.stringify(r.answer)} (gold ${q.gold.join(" | ")})`);
}
let n = 0;
let ok = 0;
for (const [kind, k] of byKind) {
  console.log(
    `${kind.padEnd(14)} ${k.ok}/${k.n} = ${((100 * k.ok) / k.n).toFixed(1)} %  (verifier accepted ${k.accepted})`,
  );
  n += k.n;
  ok += k.ok;
}
console.log(`overall        ${ok}/${n} = ${((100 * ok) / n).toFixed(1)} %`);
console.log(
  `verifier       accepted ${accepted}/${n} (${((100 * accepted) / n).toFixed(1)} %), ${acceptedRight} of them right`,
);
await closeResources();
rmSync(root, { recursive: true, force: true });
