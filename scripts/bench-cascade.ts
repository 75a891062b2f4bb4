/**
 * LLM calls per question with and without the offline-first cascade (docs/CASCADE.md), with a
 * scripted chat model that answers every LLM step correctly (tests/fixtures/gold-model.ts: it reads
 * the gold answers of the questions file; the graph never does). Per router (heuristic, llm, and
 * learned when --router_model_path is given) it runs every question twice through the real graph —
 * LLM-only (every component on the gold model) and `cascade` — and reports mean LLM calls, the
 * share answered by the offline tier with zero calls, the official score of both runs and how many
 * answers differ between them.
 *
 *   npx tsx scripts/bench-cascade.ts --bench hybridqa --split dev [--index_path DIR] [--limit N] \
 *     [--routers heuristic,llm,learned --router_model_path DIR] [--out FILE.json]
 *
 * Builds the index of the split into /tmp/atr-bench-cascade/<bench>-<split> when --index_path is
 * not given. Reads ../shared/data, so it is a benchmark script, not part of the unit suite.
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

const { values } = parseArgs({
  options: {
    bench: { type: "string", default: "hybridqa" },
    split: { type: "string", default: "dev" },
    data_dir: { type: "string", default: "../shared/data" },
    index_path: { type: "string" },
    limit: { type: "string" },
    routers: { type: "string", default: "heuristic,llm" },
    router_model_path: { type: "string" },
    out: { type: "string" },
  },
});
const bench = values.bench as Bench;
if (!(BENCHES as readonly string[]).includes(bench)) throw new Error(`--bench must be one of ${BENCHES.join(", ")}`);
const splitDir = resolve(values.data_dir!, bench, values.split!);
const questionsPath = join(splitDir, "questions.jsonl");
if (!existsSync(questionsPath)) throw new Error(`no questions file ${questionsPath} (--data_dir, --bench, --split)`);
let questions = loadQuestions(questionsPath);
if (values.limit) questions = questions.slice(0, Number(values.limit));
const routers = values.routers!.split(",").map((r) => r.trim()) as RouterType[];
if (routers.includes("learned") && !values.router_model_path) throw new Error("--routers learned needs --router_model_path DIR");

const indexPath = values.index_path ?? `/tmp/atr-bench-cascade/${bench}-${values.split}`;
if (!existsSync(join(indexPath, "manifest.json"))) {
  console.error(`building the index of ${splitDir} into ${indexPath}…`);
  await buildIndex({ excelDir: join(splitDir, "tables"), docDir: join(splitDir, "passages"), savePath: indexPath });
}
const index = await openIndex(indexPath);
const gold = createGoldModel(bench, questions, index.db);
registerProvider("gold", () => gold);

interface RunSummary {
  router: RouterType;
  cascade: boolean;
  questions: number;
  meanLlmCalls: number;
  zeroCallShare: number;
  offlineTierShare?: number;
  /** Cascade: share verified by the candidate check (the offline answer, one LLM call). */
  candidateCheckShare?: number;
  score: number;
  errors: number;
  msPerQuestion: number;
  /** Mean LLM calls per question by node. */
  callsPerNode: Record<string, number>;
}

async function run(router: RouterType, cascade: boolean): Promise<{ summary: RunSummary; answers: string[] }> {
  const configurable: ConfigurableInput = {
    indexPath,
    backbone: "gold/model",
    routerType: router,
    cascade,
    ...(router === "learned" ? { routerModelPath: values.router_model_path! } : {}),
  };
  let calls = 0;
  let zero = 0;
  let offline = 0;
  let checked = 0;
  let score = 0;
  let errors = 0;
  const answers: string[] = [];
  const byNode: Record<string, number> = {};
  const started = performance.now();
  for (const record of questions as QuestionRecord[]) {
    const input = { question: String(record.question), question_id: String(record.question_id ?? ""), ...(record.table_id ? { table_id: String(record.table_id) } : {}) };
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
    for (const [node, u] of Object.entries(r?.usage.byNode ?? {})) if (u.llmCalls > 0) byNode[node] = (byNode[node] ?? 0) + u.llmCalls;
    if (r && r.usage.llmCalls === 0) zero++;
    if (r?.tier === "offline") offline++;
    if (r?.tier === "llm" && r.answerVerified && r.usage.llmCalls === (r.usage.byNode.candidate_check?.llmCalls ?? -1)) checked++;
    score += Object.values(officialScore(bench, record, { agentic_tablerag_answer: answer }))[0] ?? 0;
  }
  const n = questions.length;
  const summary: RunSummary = {
    router,
    cascade,
    questions: n,
    meanLlmCalls: Math.round((calls / n) * 1000) / 1000,
    zeroCallShare: Math.round((zero / n) * 1000) / 10,
    ...(cascade ? { offlineTierShare: Math.round((offline / n) * 1000) / 10, candidateCheckShare: Math.round((checked / n) * 1000) / 10 } : {}),
    score: Math.round((score / n) * 10000) / 100,
    errors,
    msPerQuestion: Math.round((performance.now() - started) / n),
    callsPerNode: Object.fromEntries(Object.entries(byNode).map(([k, v]) => [k, Math.round((v / n) * 100) / 100])),
  };
  return { summary, answers };
}

const rows: Array<RunSummary & { answersChanged?: number }> = [];
for (const router of routers) {
  const plain = await run(router, false);
  const cascade = await run(router, true);
  const changed = plain.answers.filter((a, i) => a !== cascade.answers[i]).length;
  rows.push(plain.summary, { ...cascade.summary, answersChanged: changed });
  console.error(`${router}: LLM-only ${plain.summary.meanLlmCalls} calls/question ${JSON.stringify(plain.summary.callsPerNode)}, cascade ${cascade.summary.meanLlmCalls} ${JSON.stringify(cascade.summary.callsPerNode)} (${changed} answers differ)`);
}
if (gold.problems.length > 0) console.error(`gold model problems: ${gold.problems.slice(0, 5).join(" | ")}`);

console.log(`| ${bench}/${values.split} (${questions.length}) | router | cascade | mean LLM calls | zero-call share | offline tier | candidate check | official score | answers changed vs LLM-only | errors |`);
console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(`| | ${r.router} | ${r.cascade ? "on" : "off"} | ${r.meanLlmCalls} | ${r.zeroCallShare} % | ${r.offlineTierShare !== undefined ? `${r.offlineTierShare} %` : "–"} | ${r.candidateCheckShare !== undefined ? `${r.candidateCheckShare} %` : "–"} | ${r.score} | ${r.answersChanged ?? "–"} | ${r.errors} |`);
}
if (values.out) writeFileSync(values.out, `${JSON.stringify({ bench, split: values.split, indexPath, rows }, null, 2)}\n`);
index.close();
await closeResources();
