/**
 * `atr run --langsmith_dataset` against a local stand-in of the LangSmith API (a node http server
 * on 127.0.0.1 with a fake key): two ablations over examples/ become one dataset (created once,
 * examples added once) and two experiments whose runs are linked to the examples and carry the
 * official metric as feedback; the experiments' metadata carries each configuration. Without the
 * flag nothing is sent. With tracing on, or an unreachable endpoint, the process still ends.
 * Changed questions update their examples (recordExperiment directly).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experimentClient, exampleOf, recordExperiment } from "../../evals/langsmith-experiment.js";
import { readResults } from "../../evals/results-file.js";
import { scoreResults } from "../../evals/score.js";
import type { ExperimentInfo } from "../../evals/run-metadata.js";
import { spawnAtr } from "../fixtures/spawn-atr.js";
import { EXAMPLES, useExampleIndex } from "../fixtures/example-index.js";
import { startLangsmithStandIn, type LangsmithStandIn } from "../fixtures/langsmith-stand-in.js";

const atr = (args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000) => spawnAtr(args, env, timeoutMs);

/** A port nothing listens on: a server's port, once the server is closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const index = useExampleIndex();
let dir: string;
let questionsPath: string;
let server: LangsmithStandIn;
const questions = readFileSync(join(EXAMPLES, "questions.jsonl"), "utf8")
  .trim()
  .split("\n")
  .slice(0, 6)
  .map((l) => JSON.parse(l));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atr-langsmith-"));
  questionsPath = join(dir, "questions.jsonl");
  writeFileSync(questionsPath, questions.map((q) => JSON.stringify(q)).join("\n") + "\n");
  server = await startLangsmithStandIn();
});
afterAll(async () => {
  await server?.close();
});

const runArgs = (name: string, extra: string[] = []) => [
  "run",
  "--data_file_path",
  questionsPath,
  "--index_path",
  index.dir,
  "--save_file_path",
  join(dir, `${name}.jsonl`),
  "--no_progress",
  ...extra,
];

describe("atr run --langsmith_dataset (stand-in LangSmith)", () => {
  it("sends nothing without the flag", async () => {
    const run = await atr(runArgs("plain", ["--limit", "2"]), {
      LANGSMITH_ENDPOINT: server.url,
      LANGSMITH_API_KEY: "fake-key",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it("records two ablations as two experiments on one dataset, with the official metric as feedback", async () => {
    const env = { LANGSMITH_ENDPOINT: server.url, LANGSMITH_API_KEY: "fake-key" };
    const a = await atr(
      runArgs("a", ["--langsmith_dataset", "atr-examples", "--bench", "wtq", "--experiment", "exp-default"]),
      env,
    );
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/LangSmith dataset atr-examples: 6 examples added, 0 updated, 0 unchanged/);
    expect(a.stderr).toMatch(/LangSmith experiment exp-default: 6 runs, \d+ feedback scores \(wtq: accuracy [\d.]+\)/);
    const b = await atr(
      runArgs("b", [
        "--langsmith_dataset",
        "atr-examples",
        "--bench",
        "wtq",
        "--experiment",
        "exp-no-escalation",
        "--no_escalation",
      ]),
      env,
    );
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain("0 examples added, 0 updated, 6 unchanged");
    expect(server.unknown).toEqual([]);
    expect(server.requests.every((r) => r.apiKey === "fake-key")).toBe(true);

    // One dataset, created once; six examples, uploaded once.
    expect(server.datasets.map((d) => d.name)).toEqual(["atr-examples"]);
    expect(server.requests.filter((r) => r.method === "POST" && r.path === "/datasets")).toHaveLength(1);
    const datasetId = server.datasets[0]!.id;
    expect(server.examples).toHaveLength(6);
    expect(server.examples.map((e) => e.inputs)).toEqual(
      questions.map((q) => ({ question: q.question, question_id: q.question_id, table_id: q.table_id })),
    );
    expect(server.examples.map((e) => e.outputs)).toEqual(questions.map((q) => ({ answer: q.answer, type: q.type })));
    expect(
      server.examples.every((e) => e.dataset_id === datasetId && typeof e.metadata.question_key === "string"),
    ).toBe(true);

    // Two experiments on the dataset, each carrying its configuration.
    expect(server.sessions.map((s) => s.name)).toEqual(["exp-default", "exp-no-escalation"]);
    const [sa, sb] = server.sessions;
    for (const s of server.sessions) {
      expect(s.reference_dataset_id).toBe(datasetId);
      expect(s.end_time).toBeTruthy();
    }
    const ma = sa!.extra!.metadata as Record<string, unknown>;
    const mb = sb!.extra!.metadata as Record<string, unknown>;
    expect(ma.config_hash).toMatch(/^[0-9a-f]{12}$/);
    expect(mb.config_hash).not.toBe(ma.config_hash);
    expect((ma.config as Record<string, unknown>).noEscalation).toBe(false);
    expect((mb.config as Record<string, unknown>).noEscalation).toBe(true);
    expect(mb.tags).toContain("noEscalation");
    expect(ma).toMatchObject({
      bench: "wtq",
      experiment: "exp-default",
      prompt_versions: expect.any(Object),
      git_commit: expect.any(String),
    });

    // One run per question and experiment, linked to its example.
    for (const session of server.sessions) {
      const runs = server.runs.filter((r) => r.session_name === session.name);
      expect(runs).toHaveLength(6);
      expect(new Set(runs.map((r) => r.reference_example_id))).toEqual(new Set(server.examples.map((e) => e.id)));
      for (const r of runs) {
        expect(r.end_time).toBeTruthy();
        expect((r.outputs as Record<string, unknown>).answer).toEqual(expect.any(String));
      }
    }

    // Feedback: the official accuracy of each record (as `atr score` computes it), on that record's run.
    const records = readResults(a.stdout.trim()).records;
    const score = await scoreResults({ bench: "wtq", gold: questions, predictions: records });
    const runsA = server.runs.filter((r) => r.session_name === "exp-default");
    const exampleByQid = new Map(server.examples.map((e) => [e.inputs.question_id, e.id]));
    for (const q of score.perQuestion) {
      const run = runsA.find((r) => r.reference_example_id === exampleByQid.get(q.question_id));
      const fb = server.feedback.filter((f) => f.run_id === run!.id && f.key === "accuracy");
      expect(fb, q.question_id).toHaveLength(1);
      expect(fb[0]!.score).toBe(q.official.accuracy);
      expect(fb[0]!.session_id).toBe(sa!.id);
    }
    expect(server.feedback.filter((f) => f.key === "accuracy")).toHaveLength(12);
    expect(server.feedback.filter((f) => f.key === "answer_verified").length).toBeGreaterThan(0);
  });

  it("refuses before answering when the upload cannot happen", async () => {
    const noKey = await atr(runArgs("nokey", ["--langsmith_dataset", "x", "--bench", "wtq"]), {
      LANGSMITH_ENDPOINT: server.url,
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/needs LANGSMITH_API_KEY/);
    const noBench = await atr(runArgs("nobench", ["--langsmith_dataset", "x"]), {
      LANGSMITH_ENDPOINT: server.url,
      LANGSMITH_API_KEY: "k",
    });
    expect(noBench.code).toBe(1);
    expect(noBench.stderr).toMatch(/pass --bench/);
    expect(noBench.stderr).not.toMatch(/answered/);
    const refused = await atr(runArgs("refused", ["--langsmith_dataset", "x", "--bench", "wtq"]), {
      LANGSMITH_ENDPOINT: server.url,
      LANGSMITH_API_KEY: "bad-key",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the API key \(HTTP 401\)/);
    expect(refused.stderr).not.toMatch(/answered/);
  });

  it("ends promptly with tracing on, and fails clearly when the endpoint is unreachable", async () => {
    const before = server.sessions.length;
    const traced = await atr(
      runArgs("traced", ["--langsmith_dataset", "atr-examples", "--bench", "wtq", "--limit", "2"]),
      { LANGSMITH_ENDPOINT: server.url, LANGSMITH_API_KEY: "fake-key", LANGSMITH_TRACING: "true" },
    );
    expect(traced.code, traced.stderr).toBe(0);
    expect(server.sessions.length).toBe(before + 1);
    expect(traced.ms).toBeLessThan(60_000);
    // An endpoint that does not answer is found before any question is answered.
    const closed = await closedPort();
    const down = await atr(runArgs("down", ["--langsmith_dataset", "atr-examples", "--bench", "wtq", "--limit", "1"]), {
      LANGSMITH_ENDPOINT: `http://127.0.0.1:${closed}`,
      LANGSMITH_API_KEY: "fake-key",
      LANGSMITH_TRACING: "true",
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`LangSmith at http://127.0.0.1:${closed} did not answer`);
    expect(down.stderr).not.toMatch(/answered/);
    expect(down.ms).toBeLessThan(30_000);
    // One that fails during the upload: the results file is kept and the exit code says so.
    server.failNext("POST /sessions");
    const failed = await atr(
      runArgs("failed", ["--langsmith_dataset", "atr-examples", "--bench", "wtq", "--limit", "1"]),
      { LANGSMITH_ENDPOINT: server.url, LANGSMITH_API_KEY: "fake-key" },
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/LangSmith upload failed \(the results file is complete; rerun with --rerun/);
    expect(readResults(failed.stdout.trim()).records).toHaveLength(1);
  }, 150_000);
});

describe("recordExperiment", () => {
  it("updates the examples of changed questions and adds new ones", async () => {
    const info: ExperimentInfo = {
      experiment: "unit",
      dataset: "d",
      split: "",
      config: {},
      configHash: "000000000000",
      promptVersions: {},
      git: { commit: "c", dirty: false },
      tags: [],
    };
    const qs = [
      { question_id: "u1", question: "Who?", answer: ["A"] },
      { question_id: "u2", question: "What?", answer: ["B"] },
    ];
    const records = qs.map((q) => ({ ...q, agentic_tablerag_answer: "A", atr_stats: { latency_ms: 5 } }));
    const client = experimentClient({ apiUrl: server.url, apiKey: "fake-key" });
    const base = {
      client,
      datasetName: "unit-ds",
      bench: "hybridqa" as const,
      info,
      questionsPath: "q.jsonl",
      resultsPath: "r.jsonl",
    };
    const first = await recordExperiment({ ...base, questions: qs, records });
    expect(first.examples).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(first.official.em).toBe(50);
    const changed = [{ ...qs[0]!, answer: ["A2"] }, qs[1]!, { question_id: "u3", question: "When?", answer: ["C"] }];
    const second = await recordExperiment({
      ...base,
      info: { ...info, experiment: "unit" },
      questions: changed,
      records,
    });
    expect(second.examples).toEqual({ created: 1, updated: 1, unchanged: 1 });
    // The same experiment name twice gets a suffix instead of failing.
    expect(second.experimentName).toMatch(/^unit-[0-9a-f]{6}$/);
    const ds = server.datasets.find((d) => d.name === "unit-ds")!;
    const examples = server.examples.filter((e) => e.dataset_id === ds.id);
    expect(examples.map((e) => e.outputs.answer)).toEqual([["A2"], ["B"], ["C"]]);
    expect(exampleOf(changed[2]!)).toEqual({
      inputs: { question_id: "u3", question: "When?" },
      outputs: { answer: ["C"] },
      metadata: { question_key: "id:u3" },
    });
    // Only two of the three questions have a record: two runs, two EM + two F1 scores.
    expect(second.runs).toBe(2);
    expect(second.feedback).toBe(4);
  });
});
