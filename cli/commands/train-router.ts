/**
 * `atr train-router labels|train|eval|compare|replay|plans|stop|next` (reference §11): make router labels from a traced run, train
 * the hashed logistic-regression student and export it to ONNX, and measure its agreement.
 */
import { writeFileSync } from "node:fs";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { STOP_HELP, stopCommand } from "./train-router-stop.js";
import { NEXT_HELP, nextCommand } from "./train-router-next.js";

const LABEL_FLAGS: FlagSpecs = {
  from_inference: {
    kind: "string",
    help: "results file of `atr run --emit_trace`: accepted decisions become labels",
    repeatable: true,
  },
  distill: {
    kind: "string",
    help: "results file of `atr run --emit_trace`: the §5.2 teacher routes each first sub-query (≤ 4 labels/question)",
    repeatable: true,
  },
  oracle: {
    kind: "string",
    help: "ROUTE=RUN.jsonl, once per route: runs with --router_type fixed --force_route ROUTE --no_escalation; label = cheapest route answering right (needs --gold_bench)",
    repeatable: true,
  },
  explore: {
    kind: "string",
    help: "results file of an exploration run (`atr run --accept_threshold 1 --emit_trace`: every route tried and traced); label = cheapest route whose answer on the first sub-query is right (needs --gold_bench)",
    repeatable: true,
  },
  replay: {
    kind: "string",
    help: "results file of an exploration run: the loop is replayed under the shipped verifier with each route first; label = the first routes whose final answer is right with the fewest attempts (needs --gold_bench; training/route-replay.ts)",
    repeatable: true,
  },
  out: { kind: "string", help: "labels file to write (.jsonl)" },
  gold_bench: {
    kind: "string",
    help: "with --from_inference: keep only accepted decisions whose answer is right by this benchmark's official metric (wtq | tatqa | hybridqa), gold = the answer field of each run record",
  },
  summary: {
    kind: "string",
    help: "also write a JSON summary of the labels (counts per route, right routes, question types) to this file",
  },
};

const TRAIN_FLAGS: FlagSpecs = {
  labels: { kind: "string", help: "labels file (.jsonl) from `atr train-router labels`", repeatable: true },
  out: { kind: "string", help: "model folder to write (model.onnx + router.json)" },
  epochs: { kind: "number", help: "passes over the training labels", default: 30 },
  lr: { kind: "number", help: "SGD step size", default: 5 },
  l2: { kind: "number", help: "L2 penalty", default: 1e-5 },
  seed: { kind: "number", help: "shuffle and split seed", default: 42 },
  validation_share: {
    kind: "number",
    help: "share of questions held out for epoch selection (grouped by question)",
    default: 0.1,
  },
  dimension: { kind: "number", help: "hashed feature vector length D", default: 4096 },
  input_version: { kind: "number", help: "router input text: 1 (no history) or 2 (§5.3)", default: 2 },
  holdout_share: {
    kind: "number",
    help: "also hold out this share of questions entirely and write them to <out>/heldout-labels.jsonl",
    default: 0,
  },
  targets: {
    kind: "string",
    help: "label (one-hot on the label's route) | right_routes (uniform over the oracle's right routes; epoch picked by route accuracy)",
    default: "label",
  },
  class_weighting: { kind: "string", help: "balanced (max_count / count_c, reference) | none", default: "balanced" },
  plan_tokens: {
    kind: "boolean",
    help: "also featurise the plan's offline analysis (answer kind, cell mentions, SQL template, passage bridge: nodes/routers/plan-features.ts); labels need it (`atr train-router plans` on the run first)",
  },
  heuristic_margin: {
    kind: "number",
    help: "write heuristic_margin to router.json: the heuristic router's route stays first unless the student's softmax probability of another is higher by more than this (0..1; `atr train-router replay` sweeps it)",
  },
};

const EVAL_FLAGS: FlagSpecs = {
  model: { kind: "string", help: "model folder (model.onnx + router.json)" },
  labels: { kind: "string", help: "labels file (.jsonl)", repeatable: true },
  json: { kind: "boolean", help: "print the report as JSON" },
};

const COMPARE_FLAGS: FlagSpecs = {
  bench: { kind: "string", help: "wtq | tatqa | hybridqa (which official metric)" },
  gold: { kind: "string", help: "gold questions file (.jsonl), e.g. ../shared/data/tatqa/dev/questions.jsonl" },
  pred: {
    kind: "string",
    help: "LABEL=RESULTS.jsonl of `atr run`, once per router; the first is the baseline of better / worse",
    repeatable: true,
  },
  json: { kind: "boolean", help: "print the comparison as JSON" },
};

const REPLAY_FLAGS: FlagSpecs = {
  model: { kind: "string", help: "model folder of the learned router" },
  explore: {
    kind: "string",
    help: "results file of an exploration run (`atr run --accept_threshold 1 --emit_trace`)",
    repeatable: true,
  },
  gold_bench: { kind: "string", help: "wtq | tatqa | hybridqa: the official metric that judges the replayed answers" },
  questions: {
    kind: "string",
    help: "labels file (.jsonl, e.g. <model>/heldout-labels.jsonl): replay only its questions (a grouped hold-out)",
    repeatable: true,
  },
  heuristic_margin: {
    kind: "number",
    help: "replay with this heuristic_margin instead of the model's (0..1; see `atr train-router train --heuristic_margin`)",
  },
  json: { kind: "boolean", help: "print the comparison as JSON" },
};

const PLANS_FLAGS: FlagSpecs = {
  run: { kind: "string", help: "results file of `atr run --emit_trace` (e.g. an exploration run)" },
  index_path: { kind: "string", help: "the index the run answered over (the offline decomposer re-reads it)" },
  out: { kind: "string", help: "results file to write: the run's records, first decisions with plan_analysis" },
};

/** Judges a produced answer against a record's gold by the benchmark's official metric. */
async function answerCheck(bench: string): Promise<import("../../training/labels.js").AnswerCheck> {
  const { BENCHES, officialScore } = await import("../../evals/score.js");
  if (!(BENCHES as readonly string[]).includes(bench))
    throw new UsageError(`--gold_bench must be one of ${BENCHES.join(", ")}`);
  return (record, answer) => {
    const scores = officialScore(
      bench as (typeof BENCHES)[number],
      { ...record, question: String(record.question ?? "") },
      { agentic_tablerag_answer: answer },
    );
    return (scores.accuracy ?? scores.em ?? 0) === 1;
  };
}

/** The shipped verifier model the replay judges with (it needs one: the replay is of the learned verifier's loop). */
async function shippedVerifier(): Promise<import("../../nodes/offline/answer-model.js").AnswerModel> {
  const { answerModel } = await import("../../nodes/offline/answer-model.js");
  const model = answerModel();
  if (!model)
    throw new UsageError("no verifier model (nodes/offline/models/answer-verifier.json): the replay needs one");
  return model;
}

function marginFlag(v: unknown): number {
  const m = Number(v);
  if (!(m >= 0 && m <= 1)) throw new UsageError(`--heuristic_margin must be a number in 0..1 (got ${String(v)})`);
  return m;
}

const required = (flags: Record<string, unknown>, name: string): string => {
  const v = flags[name];
  if (v === undefined || v === "" || (Array.isArray(v) && v.length === 0))
    throw new UsageError(`--${name} is required`);
  return Array.isArray(v) ? String(v[0]) : String(v);
};

async function labelsCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, LABEL_FLAGS);
  const out = required(flags, "out");
  const inference = (flags.from_inference as string[] | undefined) ?? [];
  const distill = (flags.distill as string[] | undefined) ?? [];
  const oracle = (flags.oracle as string[] | undefined) ?? [];
  const explore = (flags.explore as string[] | undefined) ?? [];
  const replay = (flags.replay as string[] | undefined) ?? [];
  if (inference.length + distill.length + oracle.length + explore.length + replay.length === 0)
    throw new UsageError(
      "give --from_inference RUN.jsonl, --distill RUN.jsonl, --oracle ROUTE=RUN.jsonl, --explore RUN.jsonl or --replay RUN.jsonl",
    );
  if ((oracle.length || explore.length || replay.length) && !flags.gold_bench)
    throw new UsageError("--oracle, --explore and --replay need --gold_bench to judge the answers");
  const { readJsonl, labelsFromInference, distillLabels, oracleLabels, explorationLabels } =
    await import("../../training/labels.js");
  const { teacherRoute } = await import("../../nodes/offline/choose-route.js");
  const isCorrect = flags.gold_bench ? await answerCheck(String(flags.gold_bench)) : undefined;
  const labels = [
    ...inference.flatMap((f) => labelsFromInference(readJsonl(f), isCorrect)),
    ...distill.flatMap((f) => distillLabels(readJsonl(f), teacherRoute)),
    ...explore.flatMap((f) => explorationLabels(readJsonl(f), isCorrect!)),
  ];
  if (oracle.length) {
    const { LABELS } = await import("../../nodes/routers/router-config.js");
    const runs = new Map<import("../../nodes/types.js").Route, ReturnType<typeof readJsonl<Record<string, unknown>>>>();
    for (const spec of oracle) {
      const m = /^(TEXT|SQL|RETRIEVE|HYBRID)=(.+)$/.exec(spec);
      if (!m || !(LABELS as readonly string[]).includes(m[1]!))
        throw new UsageError(`--oracle takes ROUTE=RUN.jsonl with ROUTE one of ${LABELS.join(", ")} (got "${spec}")`);
      runs.set(m[1] as import("../../nodes/types.js").Route, readJsonl(m[2]!));
    }
    labels.push(...oracleLabels(runs, isCorrect!));
  }
  if (replay.length) {
    const { replayLabels } = await import("../../training/route-replay.js");
    const model = await shippedVerifier();
    for (const f of replay) labels.push(...(await replayLabels(readJsonl(f), isCorrect!, model)));
  }
  writeFileSync(out, labels.map((l) => JSON.stringify(l)).join("\n") + (labels.length ? "\n" : ""));
  const { labelSummary } = await import("../../training/labels.js");
  const summary = labelSummary(labels);
  if (flags.summary)
    writeFileSync(
      String(flags.summary),
      `${JSON.stringify({ ...summary, gold_bench: flags.gold_bench ?? null, runs: [...oracle, ...explore, ...replay] }, null, 2)}\n`,
    );
  console.log(
    `atr train-router: ${labels.length} labels from ${summary.questions} questions → ${out} ${JSON.stringify(summary.label_counts)}`,
  );
  return labels.length ? 0 : 1;
}

/** `atr train-router plans`: the run's first sub-queries get the offline decomposer's analysis (plan tokens). */
async function plansCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, PLANS_FLAGS);
  const run = required(flags, "run");
  const indexPath = required(flags, "index_path");
  const out = required(flags, "out");
  const { readJsonl } = await import("../../training/labels.js");
  const { attachPlanAnalysis } = await import("../../training/plan-analysis.js");
  const { openSearchableIndex } = await import("../../retrievers/open-search.js");
  const records = readJsonl<import("../../training/labels.js").ResultRecord>(run);
  const index = await openSearchableIndex(indexPath);
  try {
    const tally = await attachPlanAnalysis(records, index);
    writeFileSync(out, records.map((r) => JSON.stringify(r)).join("\n") + (records.length ? "\n" : ""));
    console.log(`atr train-router: ${out} ${JSON.stringify(tally)}`);
    return tally.attached > 0 ? 0 : 1;
  } finally {
    index.close();
  }
}

async function trainCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, TRAIN_FLAGS);
  const out = required(flags, "out");
  required(flags, "labels");
  const version = Number(flags.input_version);
  if (version !== 1 && version !== 2) throw new UsageError("--input_version takes 1 or 2");
  const targets = String(flags.targets);
  if (targets !== "label" && targets !== "right_routes") throw new UsageError("--targets takes label or right_routes");
  const classWeighting = String(flags.class_weighting);
  if (classWeighting !== "balanced" && classWeighting !== "none")
    throw new UsageError("--class_weighting takes balanced or none");
  const dimension = Number(flags.dimension);
  if (!Number.isInteger(dimension) || dimension < 16) throw new UsageError("--dimension takes an integer ≥ 16");
  const { readRouterLabels } = await import("../../training/labels.js");
  const { trainStudent, groupedSplit } = await import("../../training/student.js");
  const { writeRouterModel } = await import("../../training/export-model.js");
  const { DEFAULT_FEATURE_SETTINGS } = await import("../../nodes/routers/hashed-features.js");
  const labelFiles = flags.labels as string[];
  type L = import("../../training/labels.js").RouterLabel;
  let labels = labelFiles.flatMap((f) => readRouterLabels(f));
  const seed = Number(flags.seed);
  const holdout = Number(flags.holdout_share);
  let heldOut: L[] = [];
  if (holdout > 0) {
    const split = groupedSplit(labels, holdout, seed + 1);
    labels = split.train;
    heldOut = split.validation;
  }
  const features = { ...DEFAULT_FEATURE_SETTINGS, dimension, ...(flags.plan_tokens ? { planTokens: true } : {}) };
  if (flags.plan_tokens && !labels.some((l) => l.analysis))
    throw new UsageError(
      "--plan_tokens: no label has an analysis; make the labels from a run given one by `atr train-router plans`",
    );
  const { model, stats } = trainStudent(labels, {
    epochs: Number(flags.epochs),
    lr: Number(flags.lr),
    l2: Number(flags.l2),
    seed,
    validationShare: Number(flags.validation_share),
    features,
    inputVersion: version,
    targets,
    classWeighting,
  });
  const margin = flags.heuristic_margin !== undefined ? marginFlag(flags.heuristic_margin) : undefined;
  writeRouterModel(
    out,
    model,
    features,
    version,
    {
      ...stats,
      labelFiles,
      heldOutLabels: heldOut.length,
      command: `atr train-router train ${argv.join(" ")}`,
    },
    margin,
  );
  if (heldOut.length) {
    const { join } = await import("node:path");
    writeFileSync(join(out, "heldout-labels.jsonl"), heldOut.map((l) => JSON.stringify(l)).join("\n") + "\n");
  }
  console.log(
    `atr train-router: wrote ${out} (model.onnx + router.json${heldOut.length ? ` + heldout-labels.jsonl (${heldOut.length})` : ""})`,
  );
  console.log(JSON.stringify(stats));
  return 0;
}

async function evalCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, EVAL_FLAGS);
  const modelDir = required(flags, "model");
  required(flags, "labels");
  const { readRouterLabels } = await import("../../training/labels.js");
  const { createLearnedRouter } = await import("../../nodes/routers/learned.js");
  const { evaluateRouter, renderConfusion } = await import("../../training/evaluate.js");
  const labels = (flags.labels as string[]).flatMap((f) => readRouterLabels(f));
  const report = await evaluateRouter(await createLearnedRouter(modelDir), labels);
  if (flags.json) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(`${report.labels} labels`);
  console.log(`masked agreement (online rule: failed routes skipped): ${pct(report.masked.agreement)}`);
  console.log(renderConfusion(report.masked.confusion));
  console.log(`unmasked agreement (argmax over all 4 classes): ${pct(report.unmasked.agreement)}`);
  console.log(renderConfusion(report.unmasked.confusion));
  const r = report.routes;
  if (r) {
    console.log(
      `first-route accuracy (execution-oracle labels: the chosen route's answer is right), ${r.labels} labels:`,
    );
    const line = (name: string, t: typeof r) =>
      `  ${name.padEnd(12)} student ${pct(t.student)}  heuristic ${pct(t.heuristic)}  routes differ ${t.differ}  only student right ${t.studentOnly}  only heuristic right ${t.heuristicOnly}`;
    console.log(line("all", r));
    for (const [type, t] of Object.entries(r.byType)) console.log(line(type, { ...r, ...t }));
    console.log(
      `  first routes: student ${JSON.stringify(r.studentRoutes)}  heuristic ${JSON.stringify(r.heuristicRoutes)}`,
    );
  }
  return 0;
}

/** `atr train-router replay`: heuristic vs the student on exploration runs, each question's loop replayed under both. */
async function replayCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, REPLAY_FLAGS);
  const modelPath = required(flags, "model");
  required(flags, "explore");
  const isCorrect = await answerCheck(required(flags, "gold_bench"));
  const { readJsonl, readRouterLabels } = await import("../../training/labels.js");
  const { compareByReplay, renderReplay } = await import("../../training/route-replay.js");
  const { createLearnedRouter } = await import("../../nodes/routers/learned.js");
  const policy = await createLearnedRouter(
    modelPath,
    flags.heuristic_margin !== undefined ? { heuristicMargin: marginFlag(flags.heuristic_margin) } : {},
  );
  let records = (flags.explore as string[]).flatMap((f) =>
    readJsonl<import("../../training/labels.js").ResultRecord>(f),
  );
  const only = (flags.questions as string[] | undefined) ?? [];
  if (only.length) {
    const keep = new Set(only.flatMap((f) => readRouterLabels(f)).map((l) => l.question_id));
    records = records.filter((r) => keep.has(String(r.question_id ?? r.atr_trace?.question_id ?? "")));
  }
  const tallies = await compareByReplay(records, isCorrect, await shippedVerifier(), policy);
  console.log(flags.json ? JSON.stringify(tallies, null, 2) : renderReplay(tallies));
  return 0;
}

async function compareCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, COMPARE_FLAGS);
  const bench = required(flags, "bench");
  const gold = required(flags, "gold");
  required(flags, "pred");
  const { BENCHES } = await import("../../evals/score.js");
  if (!(BENCHES as readonly string[]).includes(bench))
    throw new UsageError(`--bench must be one of ${BENCHES.join(", ")}`);
  const { readJsonl } = await import("../../training/labels.js");
  const { compareRouterRuns, renderComparison } = await import("../../training/compare-routers.js");
  const runs = (flags.pred as string[]).map((spec) => {
    const m = /^([^=]+)=(.+)$/.exec(spec);
    if (!m) throw new UsageError(`--pred takes LABEL=RESULTS.jsonl (got "${spec}")`);
    return { label: m[1]!, records: readJsonl<Record<string, unknown>>(m[2]!) };
  });
  const rows = compareRouterRuns(bench as (typeof BENCHES)[number], readJsonl<Record<string, unknown>>(gold), runs);
  console.log(flags.json ? JSON.stringify(rows, null, 2) : renderComparison(rows));
  return 0;
}

export const command: Command = {
  summary:
    "learned router: make labels from traced runs, train the ONNX student, measure agreement, compare router runs (or replay them)",
  help: () =>
    [
      "Usage:",
      "  atr train-router labels --from_inference RUN.jsonl [--distill RUN.jsonl] --out labels.jsonl",
      "  atr train-router train --labels labels.jsonl --out DIR [--epochs N --lr X --seed N]",
      "  atr train-router eval --model DIR --labels labels.jsonl [--json]",
      "  atr train-router compare --bench B --gold QUESTIONS.jsonl --pred heuristic=H.jsonl --pred learned=L.jsonl",
      "  atr train-router replay --model DIR --explore RUN.jsonl --gold_bench B [--questions DIR/heldout-labels.jsonl]",
      "  atr train-router plans --run RUN.jsonl --index_path DIR --out RUN+plans.jsonl",
      "  atr train-router stop --explore B=RUN.jsonl [--explore …] --out nodes/routers/models/stop-policy.json",
      "  atr train-router next --explore B=RUN.jsonl [--explore …] --out nodes/routers/models/next-route.json",
      "",
      "labels:",
      formatFlagHelp(LABEL_FLAGS),
      "",
      "train:",
      formatFlagHelp(TRAIN_FLAGS),
      "",
      "eval:",
      formatFlagHelp(EVAL_FLAGS),
      "",
      "compare:",
      formatFlagHelp(COMPARE_FLAGS),
      "",
      "replay:",
      formatFlagHelp(REPLAY_FLAGS),
      "",
      "plans:",
      formatFlagHelp(PLANS_FLAGS),
      "",
      STOP_HELP,
      "",
      NEXT_HELP,
      "",
      "RUN.jsonl is a results file of `atr run ... --emit_trace`. The model folder works with",
      "`atr run|ask --router_type learned --router_model_path DIR`.",
    ].join("\n"),
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "labels") return labelsCommand(rest);
    if (sub === "train") return trainCommand(rest);
    if (sub === "eval") return evalCommand(rest);
    if (sub === "compare") return compareCommand(rest);
    if (sub === "replay") return replayCommand(rest);
    if (sub === "plans") return plansCommand(rest);
    if (sub === "stop") return stopCommand(rest);
    if (sub === "next") return nextCommand(rest);
    throw new UsageError(
      `expected a subcommand: labels | train | eval | compare | replay | plans | stop | next (got ${sub === undefined ? "none" : `"${sub}"`})`,
    );
  },
};
