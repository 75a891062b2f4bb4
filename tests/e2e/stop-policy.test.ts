/**
 * The stop policy through the real graph (offline backbone): after an attempt the verifier did not
 * accept, `stopPolicy: "learned"` ends re-routing (and the question) where the policy says so, the
 * trace records why, and `stopPolicy: "never"` tries every route as before.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import { closeResources } from "../../graph/resources.js";
import { buildIndex } from "../../indexing/build-index.js";
import { setStopModel, type StopModel } from "../../nodes/routers/stop-policy.js";

const CREW = `Name,Base,Role,Hours
Ida Berg,Tromso,pilot,410
Jon Moe,Bergen,engineer,385
Kari Lie,Tromso,pilot,512
Lars Dahl,Narvik,steward,298
Mia Holm,Bergen,pilot,450
`;
let root = "";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-stop-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "tables", "crew.csv"), CREW);
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
}, 60_000);

afterEach(() => setStopModel(undefined));
afterAll(async () => {
  await closeResources();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A model whose P is sigmoid(bias): stop always (bias 9, threshold 0.5) or never (threshold 1). */
const constant = (threshold: number): StopModel => ({
  format: "atr-stop-policy-v1",
  scorer: { kind: "logistic", weights: { bias: 9 } },
  threshold,
  trainedOn: {},
});

const QUESTION = "which pilot based in tromso has the most hours?";
const ask = (configurable: Record<string, unknown> = {}) =>
  answerQuestion(
    { question: QUESTION, table_id: "crew" },
    { configurable: { indexPath: join(root, "index"), backbone: "offline", ...configurable } },
  );
const attempts = (r: Awaited<ReturnType<typeof ask>>) =>
  r.trace.verifier_decisions.filter((d) => !d.alternative && d.candidate === undefined);

describe("the stop policy in the graph", () => {
  it("--stop_policy never tries every route; a policy that always stops ends after the first unaccepted attempt and says why", async () => {
    const never = await ask({ stopPolicy: "never" });
    const all = attempts(never);
    expect(all.some((d) => d.accepted)).toBe(false); // the question needs re-routing without the policy
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(never.trace.stopped_by).toBeUndefined();

    setStopModel(constant(0.5));
    const stopped = await ask();
    expect(attempts(stopped)).toHaveLength(1);
    expect(attempts(stopped)[0]!.effective_route).toBe(all[0]!.effective_route);
    expect(stopped.trace.stopped_by).toMatch(/^stop policy: P\(final answer found\) 1\.000 ≥ 0\.5 after 1 attempt/);
    expect(stopped.steps.at(-1)?.stoppedBy).toBe(stopped.trace.stopped_by);
    // the answer is the ranker's choice over the one attempt: that attempt's answer
    expect(stopped.answer).toBe(attempts(stopped)[0]!.produced_answer);
  }, 60_000);

  it("a policy that never reaches its threshold changes nothing: the same attempts and answer as never", async () => {
    const never = await ask({ stopPolicy: "never" });
    setStopModel(constant(1));
    const learned = await ask();
    expect(attempts(learned).map((d) => [d.effective_route, d.produced_answer])).toEqual(
      attempts(never).map((d) => [d.effective_route, d.produced_answer]),
    );
    expect(learned.answer).toBe(never.answer);
    expect(learned.trace.stopped_by).toBeUndefined();
  }, 60_000);

  it("exploration runs (accept_threshold 1) try every route whatever the policy", async () => {
    setStopModel(constant(0.5));
    const r = await ask({ acceptThreshold: 1 });
    expect(attempts(r).length).toBeGreaterThanOrEqual(4);
    expect(r.trace.stopped_by).toBeUndefined();
  }, 60_000);
});
