/**
 * `atr train-router next`: trains the learned route order (nodes/routers/next-route.ts) on exploration
 * runs of the training splits, prints the out-of-fold replay of every threshold per split against the
 * heuristic's order (both with the shipped stop policy), chooses the threshold (no split loses a right
 * or accepted right answer) and writes the model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";

export const NEXT_FLAGS: FlagSpecs = {
  explore: {
    kind: "string",
    help: "BENCH=RUN.jsonl, once per training split: an exploration run (`atr run --accept_threshold 1 --verifier_features all --emit_trace`)",
    repeatable: true,
  },
  out: { kind: "string", help: "model file to write (the shipped one: nodes/routers/models/next-route.json)" },
  folds: { kind: "number", help: "table-grouped folds for the out-of-fold replay", default: 4 },
  trees: { kind: "number", help: "boosted trees of the scorer", default: 100 },
  check: {
    kind: "string",
    help: "BENCH=RUN.jsonl: replay these exploration runs (e.g. the dev splits) with the trained model at its threshold",
    repeatable: true,
  },
};

const GRID = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

export async function nextCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, NEXT_FLAGS);
  const specs = (flags.explore as string[] | undefined) ?? [];
  if (specs.length === 0) throw new UsageError("--explore BENCH=RUN.jsonl is required (once per training split)");
  const folds = Number(flags.folds);
  if (!Number.isInteger(folds) || folds < 2)
    throw new UsageError(`--folds must be an integer ≥ 2 (got ${String(flags.folds)})`);
  const trees = Number(flags.trees);
  if (!Number.isInteger(trees) || trees < 1 || trees > 200)
    throw new UsageError(`--trees must be an integer in 1..200 (got ${String(flags.trees)})`);
  const { BENCHES, officialScore } = await import("../../evals/score.js");
  const { readJsonl } = await import("../../training/labels.js");
  const { answerModel } = await import("../../nodes/offline/answer-model.js");
  const { decideStop, stopModel } = await import("../../nodes/routers/stop-policy.js");
  const t = await import("../../training/next-route.js");
  const { foldOf } = await import("../../training/stop-policy.js");
  const verifier = answerModel();
  if (!verifier?.ranker)
    throw new UsageError(
      "no verifier model with a ranker (nodes/offline/models/answer-verifier.json): the replay needs one",
    );
  if (!stopModel())
    throw new UsageError("no stop policy (nodes/routers/models/stop-policy.json): the route order is learned under it");
  const stop = (done: readonly unknown[]) =>
    decideStop(done as import("../../graph/state.js").TraceDecision[], verifier)?.stop ?? false;
  const read = async (flag: string, list: string[]) => {
    const out: import("../../training/next-route.js").NextRouteQuestion[] = [];
    for (const spec of list) {
      const m = /^(\w+)=(.+)$/.exec(spec);
      if (!m || !(BENCHES as readonly string[]).includes(m[1]!))
        throw new UsageError(`--${flag} takes BENCH=RUN.jsonl with BENCH one of ${BENCHES.join(", ")} (got "${spec}")`);
      const bench = m[1] as (typeof BENCHES)[number];
      const isCorrect: import("../../training/labels.js").AnswerCheck = (record, answer) => {
        const s = officialScore(
          bench,
          { ...record, question: String(record.question ?? "") },
          { agentic_tablerag_answer: answer },
        );
        return (s.accuracy ?? s.em ?? 0) === 1;
      };
      const records = readJsonl<import("../../training/labels.js").ResultRecord>(m[2]!);
      const qs = await t.nextRouteQuestions(bench, records, isCorrect, verifier, stop);
      const examples = qs.reduce((n, q) => n + q.examples.length, 0);
      const positive = qs.reduce((n, q) => n + q.examples.filter((e) => e.label).length, 0);
      console.log(
        `${bench}: ${qs.length} questions, ${examples} alternatives at re-selections, ${positive} settle the same answer sooner (${m[2]})`,
      );
      out.push(...qs);
    }
    return out;
  };
  const questions = await read("explore", specs);
  const { model, perFold } = t.trainNextRouteModel(questions, { folds, trees: { trees } });
  const benches = [...new Set(questions.map((q) => q.bench))];
  const oof = (q: import("../../training/next-route.js").NextRouteQuestion) => perFold[foldOf(q.group, folds)]!;
  console.log(
    `\nout of fold (${folds} table-grouped folds), against the heuristic's order, both with the stop policy:`,
  );
  const figures: Array<{ threshold: number; bench: string } & import("../../training/next-route.js").OrderFigures> = [];
  for (const threshold of GRID) {
    console.log(`threshold ${threshold}\n  ${t.ORDER_FIGURES_HEADER}`);
    for (const b of benches) {
      const f = await t.simulateOrder(
        questions.filter((q) => q.bench === b),
        oof,
        threshold,
        verifier,
        stop,
      );
      console.log(`  ${t.renderOrderFigures(b, f)}`);
      figures.push({ threshold, bench: b, ...f });
    }
  }
  const threshold =
    GRID.find((th) =>
      benches.every((b) => t.orderWithinBounds(figures.find((f) => f.threshold === th && f.bench === b)!)),
    ) ?? 1;
  console.log(`\nchosen threshold (no split loses a right or accepted right answer, precision kept): ${threshold}`);
  const checks = (flags.check as string[] | undefined) ?? [];
  const checked: Record<string, unknown> = {};
  if (checks.length && threshold < 1) {
    const held = await read("check", checks);
    console.log(`\nthe trained model on ${checks.join(", ")} (replayed):\n  ${t.ORDER_FIGURES_HEADER}`);
    for (const b of [...new Set(held.map((q) => q.bench))]) {
      const f = await t.simulateOrder(
        held.filter((q) => q.bench === b),
        () => model,
        threshold,
        verifier,
        stop,
      );
      console.log(`  ${t.renderOrderFigures(b, f)}`);
      checked[b] = f;
    }
  }
  if (flags.out !== undefined) {
    const out = String(flags.out);
    mkdirSync(dirname(out), { recursive: true });
    const file = {
      ...model,
      threshold,
      trainedOn: {
        runs: specs,
        questions: questions.length,
        examples: questions.reduce((n, q) => n + q.examples.length, 0),
        folds,
        trees,
        outOfFoldAtThreshold: Object.fromEntries(
          figures.filter((f) => f.threshold === threshold).map(({ bench, ...f }) => [bench, f]),
        ),
        ...(checks.length ? { checked } : {}),
        command: `atr train-router next ${argv.join(" ")}`,
      },
    };
    writeFileSync(out, `${JSON.stringify(file)}\n`);
    console.log(`wrote ${out}`);
  }
  return 0;
}

export const NEXT_HELP = ["next:", formatFlagHelp(NEXT_FLAGS)].join("\n");
