/**
 * `atr train-router stop`: trains the stop policy (nodes/routers/stop-policy.ts) on exploration runs
 * of the training splits, prints the attempts-saved vs accuracy curve of the out-of-fold scores per
 * split, chooses the threshold (no split loses more than --max_loss points) and writes the model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";

export const STOP_FLAGS: FlagSpecs = {
  explore: {
    kind: "string",
    help: "BENCH=RUN.jsonl, once per training split: an exploration run (`atr run --accept_threshold 1 --verifier_features all --emit_trace`)",
    repeatable: true,
  },
  out: { kind: "string", help: "model file to write (the shipped one: nodes/routers/models/stop-policy.json)" },
  max_loss: { kind: "number", help: "accuracy points each split may lose to stopping (out of fold)", default: 0.2 },
  acceptance_safe: {
    kind: "boolean",
    help: "stop only where the question-level acceptor cannot accept, or accepts the answer kept",
  },
  folds: { kind: "number", help: "table-grouped folds for the out-of-fold scores", default: 4 },
  trees: { kind: "number", help: "boosted trees of the scorer", default: 100 },
  label: {
    kind: "string",
    help: 'what P estimates: "safe" (stopping loses no right answer and changes no acceptance) or "same" (the same answer, accepted as it would be)',
    default: "same",
  },
  check: {
    kind: "string",
    help: "BENCH=RUN.jsonl: replay these exploration runs (e.g. the dev splits) with the trained model at its thresholds",
    repeatable: true,
  },
  curve: { kind: "string", help: "write the curve (every threshold × split) as JSON here" },
};

const GRID = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99, 0.995];

export async function stopCommand(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, STOP_FLAGS);
  const specs = (flags.explore as string[] | undefined) ?? [];
  if (specs.length === 0) throw new UsageError("--explore BENCH=RUN.jsonl is required (once per training split)");
  const out = flags.out === undefined ? undefined : String(flags.out);
  const maxLoss = Number(flags.max_loss);
  if (!(maxLoss >= 0)) throw new UsageError(`--max_loss must be a number ≥ 0 (got ${String(flags.max_loss)})`);
  const folds = Number(flags.folds);
  if (!Number.isInteger(folds) || folds < 2)
    throw new UsageError(`--folds must be an integer ≥ 2 (got ${String(flags.folds)})`);
  const trees = Number(flags.trees);
  if (!Number.isInteger(trees) || trees < 1 || trees > 200)
    throw new UsageError(`--trees must be an integer in 1..200 (got ${String(flags.trees)})`);
  const { BENCHES, officialScore } = await import("../../evals/score.js");
  const { readJsonl } = await import("../../training/labels.js");
  const { wtqTrainCanons } = await import("../../training/wtq-canon.js");
  const { answerModel } = await import("../../nodes/offline/answer-model.js");
  const t = await import("../../training/stop-policy.js");
  const verifier = answerModel();
  if (!verifier?.ranker)
    throw new UsageError(
      "no verifier model with a ranker (nodes/offline/models/answer-verifier.json): the replay needs one",
    );
  const label = String(flags.label);
  if (label !== "safe" && label !== "same") throw new UsageError(`--label must be safe or same (got ${label})`);
  const read = async (flag: string, list: string[]) => {
    const out: import("../../training/stop-policy.js").StopQuestion[] = [];
    for (const spec of list) {
      const m = /^(\w+)=(.+)$/.exec(spec);
      if (!m || !(BENCHES as readonly string[]).includes(m[1]!))
        throw new UsageError(`--${flag} takes BENCH=RUN.jsonl with BENCH one of ${BENCHES.join(", ")} (got "${spec}")`);
      const bench = m[1] as (typeof BENCHES)[number];
      const isCorrect: import("../../training/labels.js").AnswerCheck = (record, answer) => {
        // wtq/train records have no answer_canon: label them by the typed gold, as the verifier's training does
        const canon =
          bench === "wtq" && !Array.isArray(record.answer_canon) && Array.isArray(record.answer)
            ? wtqTrainCanons((record.answer as unknown[]).map(String))
            : null;
        const s = officialScore(
          bench,
          { ...record, question: String(record.question ?? ""), ...(canon ? { answer_canon: canon } : {}) },
          { agentic_tablerag_answer: answer },
        );
        return (s.accuracy ?? s.em ?? 0) === 1;
      };
      const records = readJsonl<import("../../training/labels.js").ResultRecord>(m[2]!);
      const qs = await t.stopQuestions(bench, records, isCorrect, verifier);
      const prefixes = qs.reduce((n, q) => n + q.prefixes.length, 0);
      const same = qs.reduce((n, q) => n + q.prefixes.filter((e) => e.same).length, 0);
      console.log(
        `${bench}: ${qs.length} questions, ${prefixes} prefixes, ${same} change nothing when stopped (${m[2]})`,
      );
      out.push(...qs);
    }
    return out;
  };
  const questions = await read("explore", specs);
  const { model, outOfFold } = t.trainStopModel(questions, { folds, trees: { trees }, label });
  const safe = flags.acceptance_safe === true;
  const benches = [...new Set(questions.map((q) => q.bench))];
  const subset = (b: string) => {
    const idx = questions.map((q, i) => (q.bench === b ? i : -1)).filter((i) => i >= 0);
    return { qs: idx.map((i) => questions[i]!), p: idx.map((i) => outOfFold[i]!) };
  };
  const curve: Array<Record<string, unknown>> = [];
  console.log(`\nout of fold (${folds} table-grouped folds)${safe ? ", acceptance-safe stops only" : ""}:`);
  for (const threshold of GRID) {
    console.log(`threshold ${threshold}\n  ${t.FIGURES_HEADER}`);
    for (const b of benches) {
      const { qs, p } = subset(b);
      const f = t.simulateStops(qs, p, threshold, safe);
      console.log(`  ${t.renderFigures(b, f)}`);
      curve.push({ threshold, bench: b, ...f });
    }
  }
  const chosen = t.chooseThresholds(questions, outOfFold, GRID, maxLoss, safe);
  const fields = t.thresholdFields(chosen);
  const byKind = (e: import("../../training/stop-policy.js").StopExample) => chosen[t.kindOf(e)]!;
  console.log(
    `\nchosen thresholds per kind of evidence (no split loses more than ${maxLoss} points of right or accepted-right answers, precision kept): ${JSON.stringify(chosen)}`,
  );
  console.log(`  ${t.FIGURES_HEADER}`);
  const atChosen = Object.fromEntries(
    benches.map((b) => {
      const { qs, p } = subset(b);
      const f = t.simulateStops(qs, p, byKind, safe);
      console.log(`  ${t.renderFigures(b, f)}`);
      return [b, f];
    }),
  );
  const checks = (flags.check as string[] | undefined) ?? [];
  if (checks.length) {
    const { stopProbability } = await import("../../nodes/routers/stop-policy.js");
    const held = await read("check", checks);
    console.log(`\nthe trained model on ${checks.join(", ")} (replayed):\n  ${t.FIGURES_HEADER}`);
    for (const b of [...new Set(held.map((q) => q.bench))]) {
      const qs = held.filter((q) => q.bench === b);
      const p = qs.map((q) => q.prefixes.map((e) => stopProbability(model, e.features)));
      console.log(`  ${t.renderFigures(b, t.simulateStops(qs, p, byKind, safe))}`);
    }
  }
  if (flags.curve !== undefined) writeFileSync(String(flags.curve), `${JSON.stringify(curve, null, 1)}\n`);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    const file = {
      ...model,
      ...fields,
      ...(safe ? { acceptanceSafe: true } : {}),
      trainedOn: {
        label,
        runs: specs,
        questions: questions.length,
        prefixes: questions.reduce((n, q) => n + q.prefixes.length, 0),
        folds,
        trees,
        maxLoss,
        outOfFoldAtThresholds: atChosen,
        command: `atr train-router stop ${argv.join(" ")}`,
      },
    };
    writeFileSync(out, `${JSON.stringify(file)}\n`);
    console.log(`wrote ${out}`);
  }
  return 0;
}

export const STOP_HELP = ["stop:", formatFlagHelp(STOP_FLAGS)].join("\n");
