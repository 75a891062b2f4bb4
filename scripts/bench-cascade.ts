/**
 * LLM calls per question with and without the offline-first cascade (docs/CASCADE.md), with a
 * scripted chat model that answers every LLM step correctly (tests/fixtures/gold-model.ts: it reads
 * the gold answers of the questions file; the graph never does). For each split and router it runs
 * every question twice through the real graph — LLM-only (every component on the gold model) and
 * `cascade` — and prints two tables: mean LLM calls per router with and without the cascade, and
 * per split the cascade's share answered with zero LLM calls, by the one-call prompted tier
 * ("findings") and by the LLM loop, its official score and calls beside the LLM-only run, and how
 * many answers differ.
 *
 *   npm run bench:cascade -- [--benches wtq,tatqa,hybridqa] [--split dev] [--index_root /tmp/atr-idx] \
 *     [--limit N] [--routers heuristic,learned,llm] [--router_model_path training/models/routes-explore] \
 *     [--router_benches hybridqa] [--out FILE.json]
 *
 * Every router runs on the --router_benches splits; the other splits run the heuristic router only.
 * The index of a split is <index_root>/<bench>-<split> (built there when missing). Reads
 * ../shared/data, so it is a benchmark script, not part of the unit suite. Re-run it after a change
 * to the offline verifier: the zero-call share is what the offline verifier accepts.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadQuestions, type QuestionRecord } from "../evals/dataset.js";
import { BENCHES, officialScore, type Bench } from "../evals/score.js";
import { answerQuestion, type AnswerResult } from "../graph/answer.js";
import { registerProvider } from "../graph/backbones.js";
import type { ConfigurableInput, RouterType } from "../graph/configuration.js";
import { closeResources } from "../graph/resources.js";
import { buildIndex } from "../indexing/build-index.js";
import { openIndex } from "../indexing/open-index.js";
import { createGoldModel } from "../tests/fixtures/gold-model.js";
import type { ScriptedChatModel } from "../tests/fixtures/scripted-model.js";

const { values } = parseArgs({
  options: {
    benches: { type: "string", default: "wtq,tatqa,hybridqa" },
    split: { type: "string", default: "dev" },
    data_dir: { type: "string", default: "../shared/data" },
    index_root: { type: "string", default: "/tmp/atr-bench-cascade" },
    limit: { type: "string" },
    routers: { type: "string", default: "heuristic,learned,llm" },
    router_benches: { type: "string", default: "hybridqa" },
    router_model_path: { type: "string", default: "training/models/routes-explore" },
    out: { type: "string" },
  },
});
const benches = values.benches!.split(",").map((b) => b.trim()) as Bench[];
for (const b of benches)
  if (!(BENCHES as readonly string[]).includes(b))
    throw new Error(`--benches takes ${BENCHES.join(", ")} (got "${b}")`);
const routers = values.routers!.split(",").map((r) => r.trim()) as RouterType[];
const routerBenches = new Set(values.router_benches!.split(",").map((b) => b.trim()));
if (
  routers.includes("learned") &&
  !existsSync(join(values.router_model_path!, "router.json")) &&
  !existsSync(join(values.router_model_path!, "config.json"))
) {
  throw new Error(`--routers learned: no router model in ${values.router_model_path} (--router_model_path DIR)`);
}

interface RunSummary {
  bench: Bench;
  router: RouterType;
  cascade: boolean;
  questions: number;
  meanLlmCalls: number;
  /** Share of questions answered with no LLM call at all. */
  zeroCallShare: number;
  /** Cascade: share per answering tier. */
  tiers?: Record<string, number>;
  /** Cascade: share answered with at most 2 LLM calls. */
  atMostTwoShare?: number;
  score: number;
  errors: number;
  msPerQuestion: number;
  /** Mean LLM calls per question by node. */
  callsPerNode: Record<string, number>;
}

const pct = (k: number, n: number) => Math.round((k / n) * 1000) / 10;

/** One question of a run, kept in --out for paired comparisons. */
interface PerQuestion {
  id: string;
  answer: string;
  right: boolean;
  calls: number;
  tier?: string;
}

async function run(
  bench: Bench,
  questions: readonly QuestionRecord[],
  indexPath: string,
  router: RouterType,
  cascade: boolean,
): Promise<{ summary: RunSummary; answers: string[]; perQuestion: PerQuestion[] }> {
  const configurable: ConfigurableInput = {
    indexPath,
    backbone: `gold-${bench}/model`,
    routerType: router,
    cascade,
    ...(router === "learned" ? { routerModelPath: values.router_model_path! } : {}),
  };
  let calls = 0;
  let zero = 0;
  let atMostTwo = 0;
  let score = 0;
  let errors = 0;
  const answers: string[] = [];
  const perQuestion: PerQuestion[] = [];
  const byNode: Record<string, number> = {};
  const tiers: Record<string, number> = {};
  const started = performance.now();
  for (const record of questions) {
    const input = {
      question: String(record.question),
      question_id: String(record.question_id ?? ""),
      ...(record.table_id ? { table_id: String(record.table_id) } : {}),
    };
    let r: AnswerResult | undefined;
    try {
      r = await answerQuestion(input, { configurable });
    } catch (error) {
      errors++;
      console.error(`${input.question_id}: ${(error as Error).message}`);
    }
    const answer = r?.answer ?? "error";
    answers.push(answer);
    calls += r?.usage.llmCalls ?? 0;
    for (const [node, u] of Object.entries(r?.usage.byNode ?? {}))
      if (u.llmCalls > 0) byNode[node] = (byNode[node] ?? 0) + u.llmCalls;
    if (r && r.usage.llmCalls === 0) zero++;
    if (r && r.usage.llmCalls <= 2) atMostTwo++;
    if (r?.tier) tiers[r.tier] = (tiers[r.tier] ?? 0) + 1;
    const right = Object.values(officialScore(bench, record, { agentic_tablerag_answer: answer }))[0] ?? 0;
    score += right;
    perQuestion.push({
      id: input.question_id,
      answer,
      right: right === 1,
      calls: r?.usage.llmCalls ?? 0,
      ...(r?.tier ? { tier: r.tier } : {}),
    });
  }
  const n = questions.length;
  const summary: RunSummary = {
    bench,
    router,
    cascade,
    questions: n,
    meanLlmCalls: Math.round((calls / n) * 1000) / 1000,
    zeroCallShare: pct(zero, n),
    ...(cascade
      ? {
          tiers: Object.fromEntries(Object.entries(tiers).map(([k, v]) => [k, pct(v, n)])),
          atMostTwoShare: pct(atMostTwo, n),
        }
      : {}),
    score: Math.round((score / n) * 10000) / 100,
    errors,
    msPerQuestion: Math.round((performance.now() - started) / n),
    callsPerNode: Object.fromEntries(Object.entries(byNode).map(([k, v]) => [k, Math.round((v / n) * 100) / 100])),
  };
  return { summary, answers, perQuestion };
}

const rows: Array<RunSummary & { answersChanged?: number }> = [];
const details: Array<{ bench: Bench; router: RouterType; cascade: boolean; perQuestion: PerQuestion[] }> = [];
const problems: string[] = [];
for (const bench of benches) {
  const splitDir = resolve(values.data_dir!, bench, values.split!);
  const questionsPath = join(splitDir, "questions.jsonl");
  if (!existsSync(questionsPath))
    throw new Error(`no questions file ${questionsPath} (--data_dir, --benches, --split)`);
  let questions = loadQuestions(questionsPath);
  if (values.limit) questions = questions.slice(0, Number(values.limit));
  const indexPath = join(values.index_root!, `${bench}-${values.split}`);
  if (!existsSync(join(indexPath, "manifest.json"))) {
    console.error(`building the index of ${splitDir} into ${indexPath}…`);
    await buildIndex({ excelDir: join(splitDir, "tables"), docDir: join(splitDir, "passages"), savePath: indexPath });
  }
  const index = await openIndex(indexPath);
  const gold: ScriptedChatModel = createGoldModel(bench, questions, index.db);
  // One provider per split: chat models are cached per backbone string for the process.
  registerProvider(`gold-${bench}`, () => gold);
  for (const router of routerBenches.has(bench) ? routers : (["heuristic"] as RouterType[])) {
    const plain = await run(bench, questions, indexPath, router, false);
    const cascade = await run(bench, questions, indexPath, router, true);
    const changed = plain.answers.filter((a, i) => a !== cascade.answers[i]).length;
    rows.push(plain.summary, { ...cascade.summary, answersChanged: changed });
    details.push(
      { bench, router, cascade: false, perQuestion: plain.perQuestion },
      { bench, router, cascade: true, perQuestion: cascade.perQuestion },
    );
    console.error(
      `${bench} ${router}: LLM-only ${plain.summary.meanLlmCalls} calls/question ${JSON.stringify(plain.summary.callsPerNode)}, cascade ${cascade.summary.meanLlmCalls} ${JSON.stringify(cascade.summary.callsPerNode)} (${changed} answers differ)`,
    );
  }
  problems.push(...gold.problems.map((p) => `${bench}: ${p}`));
  index.close();
}
if (problems.length > 0) console.error(`gold model problems: ${problems.slice(0, 5).join(" | ")}`);

const limit = values.limit ? `, first ${values.limit} questions` : "";
console.log(
  `\nMean LLM calls per question, scripted model that answers every step correctly (${values.split}${limit}):\n`,
);
console.log(
  "| split | router | LLM-only calls | cascade calls | cascade ≤ 2 calls | LLM-only score | cascade score | answers changed |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (let i = 0; i < rows.length; i += 2) {
  const [plain, cas] = [rows[i]!, rows[i + 1]!];
  console.log(
    `| ${plain.bench} (${plain.questions}) | ${plain.router} | ${plain.meanLlmCalls} | **${cas.meanLlmCalls}** | ${cas.atMostTwoShare} % | ${plain.score} | ${cas.score} | ${cas.answersChanged} |`,
  );
}
console.log(`\nThe cascade per split (heuristic router) beside an LLM-only run with the same scripted model:\n`);
console.log(
  "| split | LLM-only: calls · score | cascade: calls · score | 0 calls (offline tier) | prompted tier (1–2 calls) | LLM loop | answers changed | errors |",
);
console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (let i = 0; i < rows.length; i += 2) {
  const [plain, cas] = [rows[i]!, rows[i + 1]!];
  if (plain.router !== "heuristic") continue;
  const t = cas.tiers ?? {};
  console.log(
    `| ${plain.bench} (${plain.questions}) | ${plain.meanLlmCalls} · ${plain.score} | **${cas.meanLlmCalls}** · ${cas.score} | ${cas.zeroCallShare} % | ${t.findings ?? 0} % | ${t.llm ?? 0} % | ${cas.answersChanged} | ${plain.errors + cas.errors} |`,
  );
}
if (values.out)
  writeFileSync(
    values.out,
    `${JSON.stringify({ split: values.split, limit: values.limit ?? null, rows, details }, null, 2)}\n`,
  );
await closeResources();
