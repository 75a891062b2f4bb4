/**
 * The stop policy and the route order, replayed on exploration runs (training/route-replay.ts; no
 * graph run): per split, the loop in the heuristic's order without and with the learned stop policy
 * (nodes/routers/stop-policy.ts, the shipped model), each fixed first route with the policy, the best
 * first route per question with the policy (a perfect first-route chooser: the fewest attempts among
 * the first routes whose final answer is as right as the heuristic's — the headroom of a learned route
 * order), and, with --model DIR, a learned router's order with the policy.
 *
 *   npx tsx scripts/bench-router-stop.ts --explore wtq=RUN.jsonl [--explore tatqa=… --explore hybridqa=…] [--model DIR]
 *
 * Reads exploration runs (../shared data answers), so it is a benchmark script, not part of the unit suite.
 */
import { parseArgs } from "node:util";
import { BENCHES, officialScore, type Bench } from "../evals/score.js";
import { answerModel } from "../nodes/offline/answer-model.js";
import { createLearnedRouter } from "../nodes/routers/learned.js";
import { decideStop } from "../nodes/routers/stop-policy.js";
import type { Route } from "../nodes/types.js";
import type { TraceDecision } from "../graph/state.js";
import { readJsonl, type ResultRecord } from "../training/labels.js";
import {
  firstThen,
  heuristicChooser,
  policyChooser,
  replayQuestion,
  splitExploration,
  type RouteChooser,
  type StopCheck,
} from "../training/route-replay.js";

const { values } = parseArgs({ options: { explore: { type: "string", multiple: true }, model: { type: "string" } } });
if (!values.explore?.length) throw new Error("give --explore BENCH=RUN.jsonl (once per split)");
const verifier = answerModel();
if (!verifier) throw new Error("no verifier model (nodes/offline/models/answer-verifier.json): the replay needs one");
const learned = values.model ? await createLearnedRouter(values.model) : undefined;
const stop: StopCheck = (done) => decideStop(done as TraceDecision[], verifier)?.stop ?? false;

interface Tally {
  right: number;
  attempts: number;
  better: number;
  worse: number;
}
const tally = (): Tally => ({ right: 0, attempts: 0, better: 0, worse: 0 });
const ROUTE_ORDER: Route[] = ["SQL", "TEXT", "RETRIEVE", "HYBRID"];

for (const spec of values.explore) {
  const m = /^(\w+)=(.+)$/.exec(spec);
  if (!m || !(BENCHES as readonly string[]).includes(m[1]!))
    throw new Error(`--explore takes BENCH=RUN.jsonl with BENCH one of ${BENCHES.join(", ")} (got "${spec}")`);
  const bench = m[1] as Bench;
  const records = readJsonl<ResultRecord>(m[2]!);
  const rows: Record<string, Tally> = {};
  const add = (name: string, right: boolean, attempts: number, baseRight: boolean) => {
    const t = (rows[name] ??= tally());
    t.right += right ? 1 : 0;
    t.attempts += attempts;
    if (right && !baseRight) t.better++;
    if (!right && baseRight) t.worse++;
  };
  let n = 0;
  for (const record of records) {
    const decisions = (record.atr_trace?.verifier_decisions ?? []) as unknown as TraceDecision[];
    const first = decisions[0];
    if (!first || first.attempt !== 1) continue;
    n++;
    const isRight = (answer: string) => {
      const s = officialScore(
        bench,
        { ...record, question: String(record.question ?? "") },
        { agentic_tablerag_answer: answer },
      );
      return (s.accuracy ?? s.em ?? 0) === 1;
    };
    const run = async (choose: RouteChooser, withStop: boolean) => {
      const o = await replayQuestion(decisions, choose, verifier, withStop ? stop : undefined);
      return { right: o.answer !== "" && isRight(o.answer), attempts: o.attempts };
    };
    const base = await run(heuristicChooser(first), false);
    add("heuristic order, never stop", base.right, base.attempts, base.right);
    const h = await run(heuristicChooser(first), true);
    add("heuristic order, stop policy", h.right, h.attempts, base.right);
    const { routes } = splitExploration(decisions);
    const byFirst = new Map<Route, { right: boolean; attempts: number }>();
    for (const r of ROUTE_ORDER) {
      if (!routes.includes(r)) continue;
      const o = await run(firstThen(r, routes), true);
      byFirst.set(r, o);
      add(`${r} first, stop policy`, o.right, o.attempts, base.right);
    }
    // the perfect first route: as right as the heuristic order without stopping if any is, in the fewest attempts
    const pool = [...byFirst.values()].filter((o) => o.right === base.right);
    const best = (pool.length ? pool : [...byFirst.values()]).reduce((a, b) => (b.attempts < a.attempts ? b : a));
    add("best first route per question (oracle), stop policy", best.right, best.attempts, base.right);
    if (learned) {
      const o = await run(policyChooser(learned, first), true);
      add(`learned order (${values.model}), stop policy`, o.right, o.attempts, base.right);
    }
  }
  console.log(`\n${bench} (${n} questions, ${m[2]}):`);
  console.log(
    "| order · stop | right % | attempts/q | better / worse vs heuristic, never |\n| --- | ---: | ---: | ---: |",
  );
  for (const [name, t] of Object.entries(rows))
    console.log(
      `| ${name} | ${((100 * t.right) / n).toFixed(2)} | ${(t.attempts / n).toFixed(2)} | ${t.better} / ${t.worse} |`,
    );
}
