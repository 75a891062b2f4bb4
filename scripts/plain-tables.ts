/**
 * Writes the synthetic plain-table training data (training/plain-tables.ts) as a benchmark folder:
 * DIR/tables/*.csv, an empty DIR/passages/, and DIR/questions.jsonl (question_id, question,
 * table_id, answer, kind). scripts/bench-verifier.sh builds its index, answers it in an
 * exploration run and trains the verifier on it as the `plain` benchmark.
 *
 *   npx tsx scripts/plain-tables.ts --out DIR [--seeds 1,2,3] [--every 2]
 *
 * `--every N` keeps every N-th question (default 2: about 1,450 questions over the 72 tables of
 * three seeds, which keeps the exploration run short).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { plainCorpus, plainCsv } from "../training/plain-tables.js";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    seeds: { type: "string", default: "1,2,3" },
    every: { type: "string", default: "2" },
  },
});
if (!values.out) throw new Error("--out DIR is required (the folder to write the tables and questions.jsonl into)");
const seeds = values.seeds!.split(",").map(Number);
const every = Number(values.every);
if (!Number.isInteger(every) || every < 1) throw new Error(`--every ${values.every}: expected a whole number ≥ 1`);
if (seeds.some((s) => !Number.isInteger(s))) throw new Error(`--seeds ${values.seeds}: expected integers, e.g. 1,2,3`);
rmSync(values.out, { recursive: true, force: true });
mkdirSync(join(values.out, "tables"), { recursive: true });
mkdirSync(join(values.out, "passages"), { recursive: true });
const lines: string[] = [];
for (const seed of seeds) {
  const { tables, questions } = plainCorpus(seed);
  for (const t of tables) writeFileSync(join(values.out, "tables", `${t.id}.csv`), plainCsv(t));
  for (const q of questions.filter((_, i) => i % every === 0))
    lines.push(
      JSON.stringify({ question_id: q.id, question: q.question, table_id: q.table, answer: q.gold, kind: q.kind }),
    );
}
writeFileSync(join(values.out, "questions.jsonl"), lines.join("\n") + "\n");
console.log(`wrote ${values.out}: ${lines.length} questions over the tables of seeds ${seeds.join(", ")}`);
