/**
 * `atr train-verifier`: train the learned offline verifier from exploration runs on the training
 * splits (training/answer-verifier.ts), and print its figures — cross-validated on the training
 * data, and on other runs (dev) with `--evaluate` — side by side, with a reliability table.
 */
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";

const FLAGS: FlagSpecs = {
  data: {
    kind: "string",
    help: "BENCH=QUESTIONS.jsonl,RUN.jsonl — a training split's questions and its exploration run (`atr run --emit_trace --accept_threshold 1`); once per split; BENCH is wtq, tatqa, hybridqa or plain (the synthetic plain tables of scripts/plain-tables.ts)",
    repeatable: true,
  },
  evaluate: {
    kind: "string",
    help: "BENCH=QUESTIONS.jsonl,RUN.jsonl — runs to report the model on (dev), not used for fitting; once per split",
    repeatable: true,
  },
  model: {
    kind: "string",
    help: "model file to evaluate without --data (default: the shipped nodes/offline/models/answer-verifier.json)",
  },
  out: { kind: "string", help: "model file to write (default: the shipped one)" },
  target_precision: {
    kind: "number",
    help: "precision of accepted answers the threshold must reach out of fold on every training benchmark (and, with --bound_z, as a lower bound on all of them together)",
    default: 0.85,
  },
  bound_z: {
    kind: "number",
    help: "the threshold must also bring the lower Wilson bound (at this many standard errors) of all training benchmarks' accepted answers together to the target precision (0: the point estimates only)",
    default: 1,
  },
  ignore_features: {
    kind: "string",
    help: "a regular expression: features whose name matches are left out of training (the model gets no weight for them, so it ignores them when answering), e.g. '^(lr|rc):'",
  },
  threshold_by: {
    kind: "string",
    help: 'a threshold of its own, chosen by the same rule on the training questions carrying this feature alone (e.g. "tables-only": indexes without passages); the others\' threshold on the others (default: one threshold for all)',
  },
  acceptor_only: {
    kind: "boolean",
    help: "keep the per-attempt scorer, threshold and ranker of --model (default the shipped file) and fit only the question-level verifier (the acceptor: P of the ranker's answer when no attempt was accepted), with table-grouped folds and a calibration and threshold per kind of evidence (--acceptor_kinds)",
  },
  acceptor_kinds: {
    kind: "string",
    help: "with --acceptor_only: comma-separated features naming the kinds of evidence, each with its own calibration and threshold (the first a question carries), the rest one more",
    default: "tables-only,period-table",
  },
  acceptor_scorer_by: {
    kind: "string",
    help: 'with --acceptor_only: "shared" (one scorer for every kind of evidence, a calibration and threshold per kind) or "kind" (each kind its own scorer, fitted on its questions alone)',
    default: "shared",
  },
  scorer: {
    kind: "string",
    help: "logistic, or trees (gradient-boosted, depth ≤ 3: better log-loss, less acceptance under one threshold; docs/VERIFIER.md)",
    default: "logistic",
  },
  trees: { kind: "number", help: "number of trees (≤ 200)", default: 150 },
  depth: { kind: "number", help: "tree depth (1..3)", default: 3 },
  learning_rate: { kind: "number", help: "trees: shrinkage per tree", default: 0.1 },
  l2: { kind: "number", help: "logistic: L2 penalty (also the ranker's)", default: 0.002 },
  compare: {
    kind: "boolean",
    help: "also cross-validate the other scorer and print both scorers' log-loss, AUC and acceptance at the target precision",
  },
  folds: { kind: "number", help: "cross-validation folds (grouped by question)", default: 5 },
  json: { kind: "boolean", help: "print the figures as JSON" },
  wtq_labels: {
    kind: "string",
    help: 'labels of WTQ records without answer_canon (wtq/train): "typed" (the values CoreNLP would give their answers, as dev and held-out records have them: training/wtq-canon.ts) or "strict" (the answer strings as they are)',
    default: "typed",
  },
  note: {
    kind: "string",
    help: "a line for the model file's trainedOn.notes (e.g. how a split was sampled); repeatable",
    repeatable: true,
  },
};

const SHIPPED = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "nodes",
  "offline",
  "models",
  "answer-verifier.json",
);

function specs(values: unknown, flag: string): Array<{ bench: string; questions: string; run: string }> {
  return ((values as string[] | undefined) ?? []).map((v) => {
    const m = /^([a-z]+)=([^,]+),(.+)$/.exec(v);
    if (!m) throw new UsageError(`--${flag} ${v}: expected BENCH=QUESTIONS.jsonl,RUN.jsonl`);
    return { bench: m[1]!, questions: m[2]!, run: m[3]! };
  });
}

/** "0.89", or "0.86 (tables-only: 0.92)" with a threshold per kind of index. */
function thresholdText(m: { threshold: number; thresholdBy?: { feature: string; threshold: number } }): string {
  return m.thresholdBy ? `${m.threshold} (${m.thresholdBy.feature}: ${m.thresholdBy.threshold})` : String(m.threshold);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`.padStart(6);

async function run(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, FLAGS);
  const data = specs(flags.data, "data");
  const evaluate = specs(flags.evaluate, "evaluate");
  if (data.length + evaluate.length === 0)
    throw new UsageError("give --data BENCH=QUESTIONS,RUN (train) and/or --evaluate BENCH=QUESTIONS,RUN");
  const t = await import("../../training/answer-verifier.js");
  const { readFileSync } = await import("node:fs");
  let ignored: RegExp | undefined;
  if (flags.ignore_features !== undefined) {
    try {
      ignored = new RegExp(String(flags.ignore_features));
    } catch (error) {
      throw new UsageError(`--ignore_features ${String(flags.ignore_features)}: ${(error as Error).message}`);
    }
  }
  const load = (s: { bench: string; questions: string; run: string }) => {
    if (!(t.TRAINING_BENCHES as readonly string[]).includes(s.bench))
      throw new UsageError(`benchmark "${s.bench}" must be one of ${t.TRAINING_BENCHES.join(", ")}`);
    const questions = t.loadQuestions(
      s.bench as import("../../training/answer-verifier.js").TrainingBench,
      s.questions,
      s.run,
      {
        typedWtqGold: flags.wtq_labels !== "strict",
      },
    );
    return ignored ? t.withoutFeatures(questions, ignored) : questions;
  };
  if (flags.wtq_labels !== "typed" && flags.wtq_labels !== "strict")
    throw new UsageError(`--wtq_labels ${String(flags.wtq_labels)}: expected typed or strict`);
  const kind = String(flags.scorer);
  if (kind !== "trees" && kind !== "logistic") throw new UsageError(`--scorer ${kind}: expected trees or logistic`);
  const options = (k: "trees" | "logistic") => ({
    kind: k,
    l2: Number(flags.l2),
    trees: { trees: Number(flags.trees), depth: Number(flags.depth), learningRate: Number(flags.learning_rate) },
    folds: Number(flags.folds),
    targetPrecision: Number(flags.target_precision),
    boundZ: Number(flags.bound_z),
    ...(flags.threshold_by ? { thresholdBy: String(flags.threshold_by) } : {}),
  });
  const rows: Array<{ split: string; figures: import("../../training/answer-verifier.js").Figures }> = [];
  const qualities: Array<{ split: string; quality: import("../../training/answer-verifier.js").Quality }> = [];
  const reliability: Array<{ split: string; buckets: Array<{ from: number; n: number; right: number }> }> = [];
  let model: import("../../nodes/offline/answer-model.js").AnswerModel;
  const started = Date.now();
  if (data.length && flags.acceptor_only) {
    const { checkAnswerModel } = await import("../../nodes/offline/answer-model.js");
    const path = String(flags.model ?? SHIPPED);
    const base = checkAnswerModel(JSON.parse(readFileSync(path, "utf8")), path);
    if (!base.ranker) throw new UsageError(`--acceptor_only: ${path} has no ranker to judge the answers of`);
    const { acceptor: _old, ...ranker } = base.ranker;
    const train = data.flatMap(load);
    const kinds = String(flags.acceptor_kinds)
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    const scorerBy = String(flags.acceptor_scorer_by);
    if (scorerBy !== "shared" && scorerBy !== "kind")
      throw new UsageError(`--acceptor_scorer_by ${scorerBy}: expected shared or kind`);
    const score = t.scorerFor(train, base);
    const thresholds = t.thresholdsOf(base);
    const fit = t.fitAcceptor(train, score, thresholds, ranker, {
      ...options(kind),
      kinds,
      ...(ignored ? { ignore: ignored } : {}),
      folds: Number(flags.folds),
      targetPrecision: Number(flags.target_precision),
      boundZ: Number(flags.bound_z),
      scorerBy,
    });
    const oofRanker = (q: number) => {
      const a = fit.of(q);
      return a ? { ...ranker, acceptor: a } : ranker;
    };
    const figures: Record<string, import("../../training/answer-verifier.js").Figures> = {};
    for (const [bench, idx] of t.byBench(train)) {
      figures[bench] = t.simulate(train, score, thresholds, idx, oofRanker);
      rows.push({ split: `${bench} training data (cv)`, figures: figures[bench] });
      reliability.push({
        split: `${bench} training data (cv)`,
        buckets: t.reliability(
          train.filter((_, i) => idx.includes(i)),
          (q, c) => score(idx[q]!, c),
          thresholds,
          (q) => oofRanker(idx[q]!),
        ),
      });
    }
    model = {
      ...base,
      ranker: { ...ranker, acceptor: fit.acceptor },
      trainedOn: {
        ...base.trainedOn,
        acceptor: {
          sources: data.map((d) => `${d.bench}: ${d.run}`),
          notes: (flags.note as string[] | undefined) ?? [],
          examples: fit.examples,
          kinds,
          folds: `${Number(flags.folds)}, grouped by table`,
          targetPrecision: Number(flags.target_precision),
          boundZ: Number(flags.bound_z),
          scorerBy,
          settings: kind === "logistic" ? { kind, l2: Number(flags.l2) } : { kind, ...options(kind).trees },
          crossValidated: figures,
        },
      },
    };
    const out = String(flags.out ?? SHIPPED);
    writeFileSync(out, `${JSON.stringify(model)}\n`);
    const a = fit.acceptor;
    console.error(
      `wrote ${out}: acceptor over ${fit.examples} questions, thresholds ${[...a.kinds.map((k) => `${k.feature} ${k.threshold}`), `rest ${a.rest.threshold}`].join(", ")} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } else if (data.length) {
    const train = data.flatMap(load);
    const result = t.trainAnswerModel(train, {
      ...options(kind),
      sources: data.map((d) => `${d.bench}: ${d.questions}`),
      notes: [
        ...((flags.note as string[] | undefined) ?? []),
        ...(ignored ? [`features matching /${ignored.source}/ left out of training (--ignore_features)`] : []),
      ],
    });
    model = result.model;
    const out = String(flags.out ?? SHIPPED);
    writeFileSync(out, `${JSON.stringify(model)}\n`);
    const size =
      model.scorer.kind === "trees"
        ? `${model.scorer.trees.length} trees over ${model.scorer.features.length} features`
        : `${Object.keys(model.scorer.weights).length} weights`;
    console.error(
      `wrote ${out}: ${size}, threshold ${thresholdText(model)} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    for (const [bench, f] of Object.entries(result.crossValidated)) {
      rows.push({ split: `${bench} training data (cv)`, figures: f });
      rows.push({ split: `${bench} training data, rules`, figures: result.rules[bench]! });
      qualities.push({ split: `${bench} training data (cv), ${kind}`, quality: result.quality[bench]! });
    }
    if (flags.compare) {
      const other = kind === "trees" ? "logistic" : "trees";
      const oof = t.crossValidated(train, Number(flags.folds), options(other));
      for (const [bench, idx] of t.byBench(train))
        qualities.push({
          split: `${bench} training data (cv), ${other}`,
          quality: t.quality(train, oof, Number(flags.target_precision), idx),
        });
    }
    for (const [bench, idx] of t.byBench(train)) {
      reliability.push({
        split: `${bench} training data (cv)`,
        buckets: t.reliability(
          train.filter((_, i) => idx.includes(i)),
          (q, c) => result.oof(idx[q]!, c),
          t.thresholdsOf(model),
          (q) => result.oofRanker(idx[q]!),
        ),
      });
    }
  } else {
    const { checkAnswerModel } = await import("../../nodes/offline/answer-model.js");
    const path = String(flags.model ?? SHIPPED);
    model = checkAnswerModel(JSON.parse(readFileSync(path, "utf8")), path);
  }
  for (const s of evaluate) {
    const qs = load(s);
    const score = t.scorerFor(qs, model);
    const split = `${s.bench} ${basename(s.run).replace(/\.jsonl$/, "")}`;
    rows.push({ split, figures: t.simulate(qs, score, t.thresholdsOf(model), undefined, model.ranker) });
    rows.push({ split: `${split}, rules`, figures: t.rulePolicy(qs) });
    qualities.push({ split, quality: t.quality(qs, score, Number(flags.target_precision)) });
    reliability.push({ split, buckets: t.reliability(qs, score, t.thresholdsOf(model), model.ranker) });
  }
  if (flags.json) {
    console.log(
      JSON.stringify({
        threshold: model.threshold,
        ...(model.thresholdBy ? { thresholdBy: model.thresholdBy } : {}),
        figures: rows,
        quality: qualities,
        reliability,
      }),
    );
    return 0;
  }
  console.log(
    `threshold ${thresholdText(model)} (accept at P(correct) ≥ it: an attempt's P, or the ranker's P of the question's answer)`,
  );
  console.log("split                          questions  accuracy  accepted  precision  cand.recall  ranker");
  for (const { split, figures: f } of rows) {
    console.log(
      `${split.padEnd(31)}${String(f.questions).padStart(9)}  ${pct(f.accuracy)}    ${pct(f.accepted)}    ${pct(f.precision)}     ${pct(f.candidateRecall)}   ${pct(f.rankerAccuracy)}`,
    );
  }
  const target = `${(100 * Number(flags.target_precision)).toFixed(0)} %`;
  console.log(
    `\nper-attempt P                               candidates  log-loss    AUC  accepted at ≥ ${target} precision (threshold)`,
  );
  for (const { split, quality: q } of qualities) {
    console.log(
      `${split.padEnd(44)}${String(q.candidates).padStart(10)}  ${q.logLoss.toFixed(3).padStart(8)}  ${q.auc.toFixed(3)}  ${pct(q.acceptedAtTarget)} (${q.thresholdAtTarget.toFixed(2)})`,
    );
  }
  for (const r of reliability) {
    console.log(`\nreliability, ${r.split} (final answers: P bucket → share right)`);
    for (const b of r.buckets)
      if (b.n)
        console.log(
          `  P ${b.from.toFixed(1)}–${(b.from + 0.1).toFixed(1)}  ${String(b.n).padStart(5)} answers  ${pct(b.right / b.n)} % right`,
        );
  }
  return 0;
}

export const command: Command = {
  summary: "train the learned offline verifier on exploration runs of the training splits",
  help: () =>
    [
      "Usage: atr train-verifier --data BENCH=QUESTIONS.jsonl,RUN.jsonl ... [--evaluate BENCH=QUESTIONS.jsonl,RUN.jsonl ...] [flags]",
      "       atr train-verifier --evaluate BENCH=QUESTIONS.jsonl,RUN.jsonl ... [--model FILE]",
      "",
      "RUN.jsonl is an exploration run: atr run --emit_trace --accept_threshold 1 (every route tried, features traced).",
      "",
      formatFlagHelp(FLAGS),
    ].join("\n"),
  run,
};
