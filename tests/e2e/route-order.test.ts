/**
 * The learned route order through the real graph (offline backbone): with `routeOrder: "learned"`
 * (the default), a re-selection the stop policy lets go on takes the route the model prefers instead
 * of the heuristic's; with `routeOrder: "heuristic"`, or a model under its threshold, the heuristic's order.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import { closeResources } from "../../graph/resources.js";
import { buildIndex } from "../../indexing/build-index.js";
import { setNextRouteModel, type NextRouteModel } from "../../nodes/routers/next-route.js";
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
  root = mkdtempSync(join(tmpdir(), "atr-order-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "tables", "crew.csv"), CREW);
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
}, 60_000);

afterEach(() => {
  setStopModel(undefined);
  setNextRouteModel(undefined);
});
afterAll(async () => {
  await closeResources();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A stop policy that never stops (every route runs, so each re-selection is the order's). */
const neverStop: StopModel = {
  format: "atr-stop-policy-v1",
  scorer: { kind: "logistic", weights: { bias: -9 } },
  threshold: 0.99,
  trainedOn: {},
};
/** P(route next) = sigmoid(its weight): RETRIEVE 0.95, the others 0.05. */
const preferRetrieve = (threshold: number): NextRouteModel => ({
  format: "atr-next-route-v1",
  scorer: { kind: "logistic", weights: { bias: -3, "cand=RETRIEVE": 5.944 } },
  threshold,
  trainedOn: {},
});

const QUESTION = "which pilot based in tromso has the most hours?";
const ask = (configurable: Record<string, unknown> = {}) =>
  answerQuestion(
    { question: QUESTION, table_id: "crew" },
    { configurable: { indexPath: join(root, "index"), backbone: "offline", ...configurable } },
  );
const routes = (r: Awaited<ReturnType<typeof ask>>) =>
  r.trace.verifier_decisions.filter((d) => !d.alternative && d.candidate === undefined).map((d) => d.effective_route);

describe("the learned route order in the graph", () => {
  it("takes the model's route at the first re-selection; routeOrder heuristic keeps the heuristic's order", async () => {
    setStopModel(neverStop);
    setNextRouteModel(preferRetrieve(0.5));
    const heuristic = routes(await ask({ routeOrder: "heuristic" }));
    expect(heuristic.length).toBeGreaterThanOrEqual(3);
    expect(heuristic[1]).not.toBe("RETRIEVE"); // the heuristic does not re-select RETRIEVE second here
    const learned = routes(await ask());
    expect(learned[0]).toBe(heuristic[0]);
    expect(learned[1]).toBe("RETRIEVE");
    // the same routes run, RETRIEVE moved forward
    expect([...learned].sort()).toEqual([...heuristic].sort());
  }, 60_000);

  it("a model under its threshold changes nothing", async () => {
    setStopModel(neverStop);
    const heuristic = await ask({ routeOrder: "heuristic" });
    setNextRouteModel(preferRetrieve(0.99));
    const learned = await ask();
    expect(routes(learned)).toEqual(routes(heuristic));
    expect(learned.answer).toBe(heuristic.answer);
  }, 60_000);
});
