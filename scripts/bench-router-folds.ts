/**
 * Grouped k-fold check of a learned router before any graph run: the labels of the three train splits
 * are cut into k folds by table (TAT-QA and WTQ questions share tables, so a question-grouped split
 * would leak a table's wording; HybridQA questions have their own table ids), a student is trained on
 * k−1 folds, and each held-out question's loop is replayed (training/route-replay.ts) under the
 * heuristic and the student at every heuristic_margin. Printed: per benchmark and margin, the sums over
 * the folds (right heuristic / student, attempts, paired better / worse, first route differs), and the
 * masked agreement with the held-out labels.
 *
 *   npx tsx scripts/bench-router-folds.ts --labels L.jsonl [--labels …] --explore tatqa=RUN.jsonl --explore hybridqa=… --explore wtq=… \
 *     [--folds 4] [--margins 0,0.05,0.1,0.2] [--plan_tokens] [--targets right_routes] [--class_weighting none] [--out FILE.json]
 *
 * Reads exploration runs (../shared data answers), so it is a benchmark script, not part of the unit suite.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCHES, officialScore, type Bench } from "../evals/score.js";
import { answerModel } from "../nodes/offline/answer-model.js";
import { DEFAULT_FEATURE_SETTINGS } from "../nodes/routers/hashed-features.js";
import { createLearnedRouter } from "../nodes/routers/learned.js";
import { evaluateRouter } from "../training/evaluate.js";
import { writeRouterModel } from "../training/export-model.js";
import {
  readJsonl,
  readRouterLabels,
  type AnswerCheck,
  type ResultRecord,
  type RouterLabel,
} from "../training/labels.js";
import { compareByReplay, emptyReplayTally, type ReplayTally } from "../training/route-replay.js";
import { trainStudent } from "../training/student.js";

const { values } = parseArgs({
  options: {
    labels: { type: "string", multiple: true },
    explore: { type: "string", multiple: true },
    folds: { type: "string", default: "4" },
    margins: { type: "string", default: "0,0.05,0.1,0.2" },
    plan_tokens: { type: "boolean", default: false },
    targets: { type: "string", default: "right_routes" },
    class_weighting: { type: "string", default: "none" },
    out: { type: "string" },
  },
});
if (!values.labels?.length || !values.explore?.length)
  throw new Error("give --labels L.jsonl and --explore BENCH=RUN.jsonl (once per benchmark)");
const k = Number(values.folds);
if (!Number.isInteger(k) || k < 2) throw new Error(`--folds takes an integer ≥ 2 (got ${values.folds})`);
const margins = values.margins!.split(",").map(Number);
if (margins.some((m) => !(m >= 0 && m <= 1)))
  throw new Error(`--margins takes numbers in 0..1 (got ${values.margins})`);
const targets = values.targets === "label" ? "label" : "right_routes";
const classWeighting = values.class_weighting === "balanced" ? "balanced" : "none";

/** The fold of a table (or of a question without a table id). */
const foldOf = (key: string) => parseInt(createHash("md5").update(key).digest("hex").slice(0, 8), 16) % k;
const keyOf = (r: { table_id?: unknown; question_id?: unknown }) => String(r.table_id ?? r.question_id ?? "");

const verifier = answerModel();
if (!verifier) throw new Error("no verifier model (nodes/offline/models/answer-verifier.json): the replay needs one");
const runs = values.explore.map((spec) => {
  const m = /^(\w+)=(.+)$/.exec(spec);
  if (!m || !(BENCHES as readonly string[]).includes(m[1]!))
    throw new Error(`--explore takes BENCH=RUN.jsonl with BENCH one of ${BENCHES.join(", ")} (got "${spec}")`);
  const bench = m[1] as Bench;
  const isCorrect: AnswerCheck = (record, answer) => {
    const s = officialScore(
      bench,
      { ...record, question: String(record.question ?? "") },
      { agentic_tablerag_answer: answer },
    );
    return (s.accuracy ?? s.em ?? 0) === 1;
  };
  return { bench, records: readJsonl<ResultRecord>(m[2]!), isCorrect };
});
const labels: RouterLabel[] = values.labels.flatMap((f) => readRouterLabels(f));
const features = { ...DEFAULT_FEATURE_SETTINGS, ...(values.plan_tokens ? { planTokens: true } : {}) };

type Sum = Omit<ReplayTally, "studentFirst"> & { studentFirst: Record<string, number> };
const sums = new Map<string, Sum>();
const add = (key: string, t: ReplayTally) => {
  const s: Sum = sums.get(key) ?? { ...emptyReplayTally(), studentFirst: {} };
  for (const f of [
    "questions",
    "heuristic",
    "student",
    "heuristicAttempts",
    "studentAttempts",
    "better",
    "worse",
    "differ",
  ] as const)
    s[f] += t[f];
  for (const [r, n] of Object.entries(t.studentFirst)) s.studentFirst[r] = (s.studentFirst[r] ?? 0) + n!;
  sums.set(key, s);
};
let agreeing = 0;
let agreementLabels = 0;
const dir = mkdtempSync(join(tmpdir(), "atr-router-folds-"));
try {
  for (let fold = 0; fold < k; fold++) {
    const train = labels.filter((l) => foldOf(keyOf(l)) !== fold);
    const held = labels.filter((l) => foldOf(keyOf(l)) === fold);
    const { model, stats } = trainStudent(train, { features, inputVersion: 2, targets, classWeighting });
    const modelDir = join(dir, `fold-${fold}`);
    writeRouterModel(modelDir, model, features, 2, { ...stats });
    const report = await evaluateRouter(await createLearnedRouter(modelDir), held);
    agreeing += report.masked.agreement * report.labels;
    agreementLabels += report.labels;
    for (const margin of margins) {
      const policy = await createLearnedRouter(modelDir, { heuristicMargin: margin });
      for (const { bench, records, isCorrect } of runs) {
        const mine = records.filter((r) => foldOf(keyOf(r)) === fold);
        const tallies = await compareByReplay(mine, isCorrect, verifier, policy);
        for (const [type, t] of Object.entries(tallies)) add(`${bench}|${margin}|${type}`, t);
      }
    }
    console.error(`fold ${fold}: trained on ${train.length} labels, ${held.length} held out`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `masked agreement with the held-out labels: ${((100 * agreeing) / Math.max(1, agreementLabels)).toFixed(1)} % of ${agreementLabels}`,
);
console.log(
  "bench     margin  type          n  right heur / stud  attempts h / s  better / worse  differ  student first route",
);
for (const [key, s] of sums) {
  const [bench, margin, type] = key.split("|");
  const pct = (n: number) => ((100 * n) / s.questions).toFixed(2);
  console.log(
    [
      bench!.padEnd(8),
      margin!.padStart(6),
      type!.padEnd(10),
      String(s.questions).padStart(5),
      `${pct(s.heuristic)} / ${pct(s.student)}`.padStart(17),
      `${(s.heuristicAttempts / s.questions).toFixed(2)} / ${(s.studentAttempts / s.questions).toFixed(2)}`.padStart(
        14,
      ),
      `${s.better} / ${s.worse}`.padStart(14),
      String(s.differ).padStart(6),
      Object.entries(s.studentFirst)
        .map(([r, n]) => `${r} ${n}`)
        .join(", "),
    ].join("  "),
  );
}
if (values.out) writeFileSync(values.out, `${JSON.stringify(Object.fromEntries(sums), null, 2)}\n`);
