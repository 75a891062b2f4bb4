/**
 * A finished batch as a LangSmith experiment (`atr run … --langsmith_dataset NAME`):
 * 1. the dataset NAME is created, or read when it exists; its examples are the run's questions —
 *    inputs { question, question_id, table_id }, reference outputs = every other field of the
 *    question (the gold answer and what the scorer groups by), metadata.question_key = the key the
 *    scorer joins on. New questions are added, changed ones updated, the others left as they are;
 * 2. one experiment (a LangSmith project with reference_dataset_id) named after the run's
 *    experiment, its metadata = the run's configuration, hash, prompt versions and commit
 *    (evals/run-metadata.ts), so two ablations line up in LangSmith's experiment comparison;
 * 3. one run per answered question, linked to its example, with the record's answer, routes and
 *    real latency (start = end − latency_ms);
 * 4. feedback on each run: the official metric(s) of the benchmark (evals/score.ts — WTQ accuracy;
 *    TAT-QA em, f1, scale; HybridQA em, f1), plus `answer_verified` when the record says.
 * Every call is awaited on a client without background batching, with a bounded timeout and
 * retries, so the process ends when the upload does (or fails, with the reason). The endpoint and
 * key are checked once before the run answers anything (`planExperiment`).
 */
import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { canonicalJson } from "../indexing/canonical-json.js";
import { questionKey, type QuestionRecord } from "./dataset.js";
import { resolveBench } from "./report-bench.js";
import { experimentMetadata, questionRunOptions, type ExperimentInfo } from "./run-metadata.js";
import { routeSummary } from "./route-summary.js";
import { scoreResults, type Bench } from "./score.js";
import { forEachConcurrently } from "./worker-pool.js";

/** The fields a question sends to the system; everything else in a question record is reference output. */
const INPUT_FIELDS = ["question", "question_id", "table_id"] as const;

export function exampleOf(question: QuestionRecord): {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, unknown>;
} {
  const inputs: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(question)) {
    if ((INPUT_FIELDS as readonly string[]).includes(k)) {
      if (v !== undefined && v !== null && v !== "") inputs[k] = v;
    } else outputs[k] = v;
  }
  return { inputs, outputs, metadata: { question_key: questionKey(question) } };
}

export interface ExperimentUpload {
  client: Client;
  datasetName: string;
  /** The questions of this run (the file, after --limit), in file order. */
  questions: QuestionRecord[];
  /** The results file's records (every answered question, resumed ones included). */
  records: Array<Record<string, unknown>>;
  bench: Bench;
  info: ExperimentInfo;
  questionsPath: string;
  resultsPath: string;
  /** Concurrent requests for runs and feedback. Default 8. */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface ExperimentResult {
  datasetId: string;
  experimentId: string;
  experimentName: string;
  examples: { created: number; updated: number; unchanged: number };
  runs: number;
  feedback: number;
  /** Official metric means (0–100) as uploaded. */
  official: Record<string, number>;
}

/** Creates or reads the dataset, then adds new and updates changed examples; returns example ids by question key. */
async function syncDataset(
  upload: ExperimentUpload,
): Promise<{ datasetId: string; exampleIds: Map<string, string>; counts: ExperimentResult["examples"] }> {
  const { client, datasetName } = upload;
  const dataset = (await client.hasDataset({ datasetName }))
    ? await client.readDataset({ datasetName })
    : await client.createDataset(datasetName, {
        description: `ATR questions from ${upload.questionsPath} (atr run --langsmith_dataset)`,
        metadata: { source_file: upload.questionsPath, bench: upload.bench },
      });
  const existing = new Map<string, { id: string; inputs: unknown; outputs: unknown }>();
  for await (const example of client.listExamples({ datasetId: dataset.id })) {
    const key = (example.metadata as Record<string, unknown> | undefined)?.question_key;
    if (typeof key === "string" && !existing.has(key))
      existing.set(key, { id: example.id, inputs: example.inputs, outputs: example.outputs });
  }
  const exampleIds = new Map<string, string>();
  const creates = [];
  const updates = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const question of upload.questions) {
    const key = questionKey(question);
    if (seen.has(key)) continue;
    seen.add(key);
    const example = exampleOf(question);
    const found = existing.get(key);
    if (!found) {
      const id = crypto.randomUUID();
      exampleIds.set(key, id);
      creates.push({
        id,
        dataset_id: dataset.id,
        inputs: example.inputs,
        reference_outputs: example.outputs,
        metadata: example.metadata,
      });
    } else {
      exampleIds.set(key, found.id);
      if (
        canonicalJson(found.inputs) === canonicalJson(example.inputs) &&
        canonicalJson(found.outputs) === canonicalJson(example.outputs)
      )
        unchanged++;
      else
        updates.push({
          id: found.id,
          dataset_id: dataset.id,
          inputs: example.inputs,
          outputs: example.outputs,
          metadata: example.metadata,
        });
    }
  }
  for (let i = 0; i < creates.length; i += 100) await client.createExamples(creates.slice(i, i + 100));
  for (let i = 0; i < updates.length; i += 100) await client.updateExamples(updates.slice(i, i + 100));
  return { datasetId: dataset.id, exampleIds, counts: { created: creates.length, updated: updates.length, unchanged } };
}

/** Uploads the batch as an experiment (see the file comment). Throws on the first failed request. */
export async function recordExperiment(upload: ExperimentUpload): Promise<ExperimentResult> {
  const { client, info } = upload;
  const log = upload.log ?? (() => {});
  const { datasetId, exampleIds, counts } = await syncDataset(upload);
  log(
    `dataset ${upload.datasetName}: ${counts.created} examples added, ${counts.updated} updated, ${counts.unchanged} unchanged`,
  );

  // Score against the questions of the dataset; records of other questions are left out.
  const inDataset = upload.records.filter((r) => exampleIds.has(questionKey(r)));
  const score = await scoreResults({ bench: upload.bench, gold: upload.questions, predictions: inDataset });
  const officialByKey = new Map(score.perQuestion.filter((q) => !q.missing).map((q) => [q.key, q.official]));

  const metadata = {
    ...experimentMetadata(info),
    bench: upload.bench,
    tags: info.tags,
    questions_file: upload.questionsPath,
    results_file: upload.resultsPath,
  };
  const started = new Date();
  let project;
  let experimentName = info.experiment;
  for (let attempt = 0; ; attempt++) {
    try {
      project = await client.createProject({
        projectName: experimentName,
        referenceDatasetId: datasetId,
        metadata,
        description: `atr run, config ${info.configHash}`,
      });
      break;
    } catch (error) {
      // The name is taken (the same --experiment twice): a suffix, as LangSmith's evaluate() does.
      if (
        attempt < 3 &&
        /conflict|409|already exists/i.test(String((error as Error)?.name) + String((error as Error)?.message))
      ) {
        experimentName = `${info.experiment}-${crypto.randomUUID().slice(0, 6)}`;
        continue;
      }
      throw error;
    }
  }
  log(`experiment ${experimentName} (${project.id})`);

  let runs = 0;
  let feedback = 0;
  const seen = new Set<string>();
  const answered = inDataset.filter((r) => {
    const key = questionKey(r);
    return !seen.has(key) && (seen.add(key), true);
  });
  await forEachConcurrently(answered, upload.concurrency ?? 8, async (record) => {
    const key = questionKey(record);
    const stats = (record.atr_stats && typeof record.atr_stats === "object" ? record.atr_stats : {}) as Record<
      string,
      unknown
    >;
    const route = routeSummary(record);
    const end = Date.now();
    const latency = typeof stats.latency_ms === "number" ? stats.latency_ms : 0;
    const options = questionRunOptions(info, record);
    const run = new RunTree({
      name: options.runName,
      run_type: "chain",
      inputs: exampleOf(record as QuestionRecord).inputs,
      project_name: experimentName,
      reference_example_id: exampleIds.get(key),
      start_time: end - latency,
      tags: options.tags,
      extra: { metadata: options.metadata },
      client,
      tracingEnabled: true,
    });
    const error = typeof record.error === "string" ? record.error : undefined;
    await run.end(
      {
        answer: record.agentic_tablerag_answer,
        answer_verified: stats.answer_verified,
        first_requested_route: route.firstRequested,
        final_route: route.final,
        attempts: route.attempts,
        llm_calls: stats.llm_calls,
        tokens: stats.tokens,
      },
      error,
      end,
    );
    await run.postRun();
    runs++;
    const scores: Record<string, number> = { ...(officialByKey.get(key) ?? {}) };
    if (typeof stats.answer_verified === "boolean") scores.answer_verified = stats.answer_verified ? 1 : 0;
    for (const [metric, value] of Object.entries(scores)) {
      await client.createFeedback(run.id, metric, {
        score: value,
        sessionId: project.id,
        feedbackSourceType: "model",
        sourceInfo: { scorer: `atr ${upload.bench} official metric`, config_hash: info.configHash },
      });
      feedback++;
    }
  });
  await client.updateProject(project.id, {
    metadata: { ...metadata, official: score.official, questions: answered.length },
    endTime: new Date(Math.max(Date.now(), started.getTime())).toISOString(),
  });
  await client.awaitPendingTraceBatches();
  return {
    datasetId,
    experimentId: project.id,
    experimentName,
    examples: counts,
    runs,
    feedback,
    official: score.official,
  };
}

/** A client that sends each request itself (no background batches to flush), with bounded waits. */
export function experimentClient(options: { apiUrl?: string; apiKey?: string; timeoutMs?: number } = {}): Client {
  return new Client({
    ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    autoBatchTracing: false,
    timeout_ms: options.timeoutMs ?? 20_000,
    // langsmith 0.12 fixes the retries of this caller at 4 whatever callerOptions say.
    callerOptions: { maxConcurrency: 8 },
  });
}

const DEFAULT_API_URL = "https://api.smith.langchain.com";

/**
 * One plain request, 10 s at most and no retry (the client retries 4 times with backoff, ~25 s,
 * too long for a first check): the endpoint answers and accepts the key.
 */
async function checkReachable(apiUrl: string, apiKey: string, datasetName: string): Promise<void> {
  const url = `${apiUrl.replace(/\/+$/, "")}/datasets?${new URLSearchParams({ limit: "1", name: datasetName })}`;
  let status: number;
  try {
    const res = await fetch(url, {
      headers: { "x-api-key": apiKey, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    status = res.status;
    await res.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new Error(
      `--langsmith_dataset: LangSmith at ${apiUrl} did not answer (${(error as Error).message}${cause ? `: ${cause}` : ""}); check LANGSMITH_ENDPOINT`,
    );
  }
  if (status === 401 || status === 403)
    throw new Error(
      `--langsmith_dataset: LangSmith at ${apiUrl} refused the API key (HTTP ${status}); check LANGSMITH_API_KEY`,
    );
  if (status >= 400)
    throw new Error(`--langsmith_dataset: LangSmith at ${apiUrl} answered HTTP ${status} to a dataset lookup`);
}

export interface ExperimentPlan {
  datasetName: string;
  bench: Bench;
  /** Uploads the finished run; the log lines say what was created. */
  upload(run: {
    records: Array<Record<string, unknown>>;
    info: ExperimentInfo;
    resultsPath: string;
    log?: (line: string) => void;
  }): Promise<ExperimentResult>;
}

/**
 * Checks, before any question is answered, that the upload can happen — an API key, a scorer for
 * the questions, gold answers to score, and one request (without retries) that reaches LangSmith
 * and is accepted — so a long run does not end in a refused upload.
 * `env` is the CLI's environment (LANGSMITH_API_KEY / LANGCHAIN_API_KEY, LANGSMITH_ENDPOINT).
 */
export async function planExperiment(options: {
  datasetName: string;
  bench?: string;
  questions: QuestionRecord[];
  questionsPath: string;
  env: NodeJS.ProcessEnv;
}): Promise<ExperimentPlan> {
  const { datasetName, questions, questionsPath, env } = options;
  if (datasetName.trim() === "") throw new Error("--langsmith_dataset needs a dataset name");
  const apiKey = env.LANGSMITH_API_KEY ?? env.LANGCHAIN_API_KEY;
  if (!apiKey)
    throw new Error("--langsmith_dataset needs LANGSMITH_API_KEY (and LANGSMITH_ENDPOINT for a self-hosted LangSmith)");
  const withoutAnswer = questions.filter((q) => q.answer === undefined || q.answer === null).length;
  if (withoutAnswer > 0)
    throw new Error(
      `--langsmith_dataset scores the run, but ${withoutAnswer} question(s) of ${questionsPath} have no "answer" field`,
    );
  const bench = resolveBench(options.bench, questions, questionsPath);
  const apiUrl = env.LANGSMITH_ENDPOINT ?? env.LANGCHAIN_ENDPOINT;
  await checkReachable(apiUrl ?? DEFAULT_API_URL, apiKey, datasetName);
  return {
    datasetName,
    bench,
    upload: (run) =>
      recordExperiment({
        client: experimentClient({ apiKey, ...(apiUrl ? { apiUrl } : {}) }),
        datasetName,
        questions,
        records: run.records,
        bench,
        info: run.info,
        questionsPath,
        resultsPath: run.resultsPath,
        log: run.log,
      }),
  };
}
