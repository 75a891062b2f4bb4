/**
 * Builds nodes/offline/models/sql-confidence.json: the precision of the offline SQL plans per plan
 * shape (nodes/offline/confidence.ts), counted on the WTQ TRAINING split only.
 *
 *   npx tsx scripts/offline-dev.ts --build ../shared/data/wtq/train/tables --store /tmp/wtqtrain.sqlite
 *   npx tsx scripts/offline-dev.ts --store /tmp/wtqtrain.sqlite --questions ../shared/data/wtq/train/questions.jsonl \
 *     --show none --out /tmp/wtqtrain-harness.jsonl
 *   npx tsx training/offline-confidence.ts /tmp/wtqtrain-harness.jsonl [nodes/offline/models/sql-confidence.json]
 *
 * Evaluate on dev (not used for fitting): run the harness on dev with --out, then
 *   npx tsx training/offline-confidence.ts --evaluate /tmp/wtqdev/harness.jsonl
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { featureKeys, planConfidence, type ConfidenceModel, type PlanFeatures } from "../nodes/offline/confidence.js";

interface Row {
  ok: boolean;
  prediction: string;
  features?: PlanFeatures;
}

function read(path: string): Row[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Row);
}

const args = process.argv.slice(2);
if (args[0] === "--evaluate") {
  const rows = read(args[1]!).filter((r) => r.features && r.prediction !== "");
  const scored = rows.map((r) => ({ ok: r.ok, c: planConfidence(r.features!) })).sort((a, b) => b.c - a.c);
  const total = read(args[1]!).length;
  console.log("threshold  answered  precision  accuracy(over all questions)");
  for (const t of [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]) {
    const kept = scored.filter((s) => s.c >= t);
    const right = kept.filter((s) => s.ok).length;
    console.log(
      `${t.toFixed(2).padStart(9)}  ${String(kept.length).padStart(8)}  ${((100 * right) / Math.max(1, kept.length)).toFixed(1).padStart(9)}  ${((100 * right) / total).toFixed(1)}`,
    );
  }
} else {
  const [input, output = "nodes/offline/models/sql-confidence.json"] = args;
  if (!input)
    throw new Error(
      "usage: offline-confidence.ts <train harness output.jsonl> [model.json] | --evaluate <harness output.jsonl>",
    );
  const rows = read(input).filter((r) => r.features && r.prediction !== "");
  const table: Record<string, [number, number]> = {};
  let right = 0;
  for (const r of rows) {
    if (r.ok) right++;
    for (const key of featureKeys(r.features!)) {
      const cell = (table[key] ??= [0, 0]);
      if (r.ok) cell[0]++;
      cell[1]++;
    }
  }
  const model: ConfidenceModel = { prior: Math.round((1000 * right) / rows.length) / 1000, table, k: 5 };
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(model)}\n`);
  console.log(
    `wrote ${output}: ${Object.keys(table).length} shapes from ${rows.length} answered training questions (prior ${model.prior})`,
  );
}
