/**
 * Acceptance curves of a question-level acceptor fitted on exploration runs, without writing a model:
 * out of fold on the --data splits (folds grouped by table) and on each --eval split, the share of
 * questions accepted and their precision at the kinds' own thresholds (the training rule: every training
 * benchmark ≥ 85 %, the Wilson bound) and at fixed thresholds 0.5 … 0.95 for every kind.
 * The per-attempt scorer, ranker and threshold are the shipped model's; only the acceptor is refitted.
 *
 *   npx tsx scripts/acceptor-curves.ts --data wtq=Q.jsonl,RUN.jsonl [--data …] [--eval bench=Q,RUN …] \
 *     [--kinds 'tables-only&pm:table-clean=1,tables-only,period-table'] [--by-kind] [--scorer logistic|trees] [--out model.json]
 *     [--slices r:sql-and-read,b:op=aggregate,…]   (out-of-fold precision at P ≥ 0.7 of the examples carrying each feature)
 *
 * docs/VERIFIER.md "Plain-table training data" has the runs and figures.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { calibrated, checkAnswerModel, rawScore } from "../nodes/offline/answer-model.js";
import {
  acceptorExamples,
  byBench,
  fitAcceptor,
  loadQuestions,
  scorerFor,
  simulate,
  thresholdsOf,
  type QuestionCandidates,
  type TrainingBench,
} from "../training/answer-verifier.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true, default: [] },
    eval: { type: "string", multiple: true, default: [] },
    kinds: { type: "string", default: "tables-only,period-table" },
    "by-kind": { type: "boolean", default: false },
    slices: { type: "string" },
    scorer: { type: "string", default: "logistic" },
    l2: { type: "string", default: "0.002" },
    out: { type: "string" },
  },
});
if (values.data.length === 0) throw new Error("usage: --data bench=QUESTIONS.jsonl,RUN.jsonl (one or more)");
if (values.scorer !== "logistic" && values.scorer !== "trees") throw new Error("--scorer: logistic or trees");

const load = (spec: string): QuestionCandidates[] => {
  const m = /^(\w+)=([^,]+),(.+)$/.exec(spec);
  if (!m) throw new Error(`expected bench=QUESTIONS.jsonl,RUN.jsonl, got "${spec}"`);
  return loadQuestions(m[1] as TrainingBench, m[2]!, m[3]!, { typedWtqGold: true });
};
const base = checkAnswerModel(
  JSON.parse(readFileSync(new URL("../nodes/offline/models/answer-verifier.json", import.meta.url), "utf8")),
);
if (!base.ranker) throw new Error("the shipped model has no ranker");
const { acceptor: _shipped, ...ranker } = base.ranker;
const train = values.data.flatMap(load);
const thresholds = thresholdsOf(base);
const fit = fitAcceptor(train, scorerFor(train, base), thresholds, ranker, {
  kind: values.scorer,
  l2: Number(values.l2),
  kinds: values.kinds.split(","),
  folds: 5,
  targetPrecision: 0.85,
  boundZ: 1,
  scorerBy: values["by-kind"] ? "kind" : "shared",
});
console.log(
  "thresholds",
  fit.acceptor.kinds.map((k) => `${k.feature} ${k.threshold}`).join(", "),
  "rest",
  fit.acceptor.rest.threshold,
  "examples",
  fit.examples,
);

type Acceptor = typeof fit.acceptor;
const atThreshold = (a: Acceptor, t: number): Acceptor => ({
  ...a,
  kinds: a.kinds.map((k) => ({ ...k, threshold: t })),
  rest: { ...a.rest, threshold: t },
});
const pct = (x: number) => (100 * x).toFixed(1);

function report(name: string, qs: QuestionCandidates[], acceptorOf: (q: number) => Acceptor): void {
  const score = scorerFor(qs, base);
  for (const [bench, idx] of byBench(qs)) {
    const run = (t?: number) =>
      simulate(qs, score, thresholds, idx, (q) => ({
        ...ranker,
        acceptor: t === undefined ? acceptorOf(q) : atThreshold(acceptorOf(q), t),
      }));
    const chosen = run();
    const line = [
      `${name} ${bench}: chosen ${pct(chosen.accepted)} % @ ${pct(chosen.precision)} (acc ${pct(chosen.accuracy)})`,
    ];
    for (const t of [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
      const g = run(t);
      line.push(`${t}:${pct(g.accepted)}@${(100 * g.precision).toFixed(0)}`);
    }
    console.log(line.join("  "));
  }
}

report("cv", train, (q) => fit.of(q)!);
if (values.slices) {
  // Out-of-fold precision of the acceptor's examples at P ≥ 0.7 that carry each named feature, per benchmark:
  // whether a signal separates one benchmark's right answers from its wrong ones as it does another's.
  const kinds = values.kinds.split(",");
  const examples = acceptorExamples(train, scorerFor(train, base), thresholds, ranker, kinds);
  const oof = examples.map((e) => {
    const a = fit.of(e.q)!;
    const k = e.kind >= 0 ? a.kinds[e.kind]! : a.rest;
    return { ...e, bench: train[e.q]!.bench, p: calibrated(k.calibration, rawScore(k.scorer ?? a.scorer, e.features)) };
  });
  for (const feature of ["(all)", ...values.slices.split(",")])
    for (const bench of new Set(oof.map((e) => e.bench))) {
      const hit = oof.filter((e) => e.bench === bench && e.p >= 0.7 && (feature === "(all)" || e.features[feature]));
      const right = hit.filter((e) => e.right).length;
      console.log(
        `slice ${feature} ${bench}: ${hit.length} at P ≥ 0.7, ${hit.length ? pct(right / hit.length) : "—"} % right`,
      );
    }
}
for (const spec of values.eval) report(spec.split(",")[1]!, load(spec), () => fit.acceptor);
if (values.out) writeFileSync(values.out, JSON.stringify({ ...base, ranker: { ...ranker, acceptor: fit.acceptor } }));
