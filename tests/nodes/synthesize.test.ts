import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAnswerModel } from "../../nodes/offline/answer-model.js";
import { StateAnnotation, type Attempt, type State } from "../../graph/state.js";
import { bestScoredCandidate, finalAnswer, synthesize } from "../../nodes/synthesize.js";
import type { NodeResources } from "../../nodes/node-resources.js";
import type { Step } from "../../nodes/types.js";
import { finishSubQuery } from "../../nodes/finish-sub-query.js";
import { plausibleAfter } from "../../nodes/verify.js";

/** A state with every channel at its default, then the given fields. */
function stateWith(fields: Partial<State>): State {
  const defaults: Record<string, unknown> = {};
  for (const [name, channel] of Object.entries(StateAnnotation.spec)) {
    const make = (channel as { initialValueFactory?: () => unknown }).initialValueFactory;
    defaults[name] = make ? make() : undefined;
  }
  return { ...(defaults as State), question: "q", ...fields };
}

function attempt(number: number, answer: string): Attempt {
  return {
    number,
    requestedRoute: "SQL",
    effectiveRoute: "SQL",
    answer,
    evidence: "",
    sqlResult: "",
    sql: "",
    valueLinkerAttempted: false,
    linkedValues: [],
    verdict: null,
    reason: "",
  };
}

/** The verify node's bookkeeping for one sub-query's attempts with these verdicts; returns its Step. */
function runSubQuery(attempts: Array<[string, 0 | 0.5 | 1]>, subQuery = "sq"): Step {
  let state = stateWith({ plan: { subQuery } as State["plan"] });
  for (let i = 0; i < attempts.length; i++) {
    const [answer, verdict] = attempts[i]!;
    const a = attempt(i + 1, answer);
    state = { ...state, plausibleAnswer: plausibleAfter(state, a, verdict) };
    if (verdict === 1 || i === attempts.length - 1) return finishSubQuery(state, a, verdict === 1).steps as Step;
  }
  throw new Error("unreachable");
}

const noResources = {} as NodeResources;

describe("plausible fallback (finalAnswer / synthesize)", () => {
  it("with no accepted step returns the plausible answer, unverified", async () => {
    const steps = [
      runSubQuery([
        ["Paris", 0.5],
        ["Lyon", 0],
      ]),
    ];
    expect(steps[0]).toMatchObject({ failed: true, answer: "Lyon", plausibleAnswer: "Paris" });
    expect(finalAnswer("", steps, true)).toEqual({ answer: "Paris", verified: false });
    const out = await synthesize(stateWith({ steps }), { configurable: {} }, noResources);
    expect(out).toMatchObject({ answer: "Paris", answerVerified: false }); // plausibleFallback defaults to true
  });

  it("prefers the first attempt's plausible answer and takes the latest step that has one", () => {
    const first = runSubQuery(
      [
        ["12", 0.5],
        ["13", 0.5],
      ],
      "How many goals did Ann score?",
    );
    expect(first.plausibleAnswer).toBe("12");
    const second = runSubQuery([["7", 0.5]], "How many goals did Ben score?");
    const third = runSubQuery([["x", 0]], "Who scored more?");
    expect(finalAnswer("", [first, second, third], true).answer).toBe("7");
  });

  it("a retry of an earlier step's question does not displace that step's plausible answer", () => {
    const first = runSubQuery([["Oskar Lind", 0.5]], "Who manages Dunmere FC? (columns: Club, Manager)");
    const retry = runSubQuery([["Castle Road", 0.5]], "Who manages Dunmere FC? (about: Dunmere FC)");
    expect(finalAnswer("", [first, retry], true).answer).toBe("Oskar Lind");
    const nothingFirst = runSubQuery([["Lind", 0]], "Who manages Dunmere FC?");
    expect(finalAnswer("", [nothingFirst, retry], true).answer).toBe("Castle Road");
  });

  it("never returns a verdict-0 answer or an invalid one", () => {
    const steps = [
      runSubQuery([
        ["Lyon", 0],
        ["none", 0.5],
        ["", 0.5],
      ]),
    ];
    expect(steps[0]!.plausibleAnswer).toBeUndefined();
    expect(finalAnswer("", steps, true)).toEqual({ answer: "not found", verified: false });
  });

  it("with plausibleFallback false answers not found", async () => {
    const steps = [runSubQuery([["Paris", 0.5]])];
    expect(finalAnswer("", steps, false)).toEqual({ answer: "not found", verified: false });
    const out = await synthesize(stateWith({ steps }), { configurable: { plausibleFallback: false } }, noResources);
    expect(out).toMatchObject({ answer: "not found", answerVerified: false });
  });

  it("an accepted answer always wins over plausible ones", async () => {
    const accepted = runSubQuery([
      ["Rome", 0.5],
      ["Milan", 1],
    ]);
    expect(accepted).toMatchObject({ failed: false, answer: "Milan" });
    expect(accepted.plausibleAnswer).toBeUndefined();
    const later = runSubQuery([["Paris", 0.5]]);
    expect(finalAnswer("Milan", [accepted, later], true)).toEqual({ answer: "Milan", verified: true });
    expect(finalAnswer("", [accepted, later], true)).toEqual({ answer: "Milan", verified: true });
    const out = await synthesize(
      stateWith({ steps: [accepted, later], bestAnswer: "Milan" }),
      { configurable: {} },
      noResources,
    );
    expect(out).toMatchObject({ answer: "Milan", answerVerified: true });
  });
});

describe("final answer by learned P(correct)", () => {
  const noResources = {} as NodeResources;
  const decision = (answer: string, p: number | undefined, verdict: 0 | 0.5 | 1, route: "SQL" | "TEXT" = "SQL") =>
    ({
      produced_answer: answer,
      verdict,
      accepted: verdict === 1,
      effective_route: route,
      requested_route: route,
      sub_query: "q",
      features: { bias: 1 },
      ...(p === undefined ? {} : { p_correct: p }),
    }) as never;
  beforeAll(() => setAnswerModel(null)); // no shipped ranker: the highest P decides
  afterAll(() => setAnswerModel(undefined));

  it("picks the candidate with the highest P over every attempt, earliest on ties, never a contradicted one", () => {
    expect(
      bestScoredCandidate([
        decision("12", 0.3, 0.5),
        decision("Lyon", 0.9, 0),
        decision("14", 0.6, 0.5, "TEXT"),
        decision("15", 0.6, 0.5),
      ]),
    ).toEqual({
      answer: "14",
      pCorrect: 0.6,
      verified: false,
    });
    expect(bestScoredCandidate([decision("not found", 0.9, 0.5), decision("7", 0.8, 1)])).toEqual({
      answer: "7",
      pCorrect: 0.8,
      verified: true,
    });
    expect(bestScoredCandidate([decision("7", undefined, 0.5)])).toBeUndefined();
  });

  it("answers the best-scored candidate with the offline decomposer, marked verified only when accepted", async () => {
    const steps: Step[] = [{ subQuery: "q", answer: "14", failed: true, plausibleAnswer: "12" }];
    const trace = [decision("12", 0.3, 0.5), decision("14", 0.6, 0.5, "TEXT")];
    expect(await synthesize(stateWith({ steps, trace }), { configurable: {} }, noResources)).toMatchObject({
      answer: "14",
      answerVerified: false,
    });
    // a prompted decomposer's sub-queries are hops: the step logic decides
    expect(
      await synthesize(
        stateWith({ steps, trace }),
        { configurable: { decomposerBackbone: "openai/gpt-4o-mini" } },
        noResources,
      ),
    ).toMatchObject({ answer: "12", answerVerified: false });
    // without the plausible fallback an unaccepted best candidate is no answer
    expect(
      (await synthesize(stateWith({ steps, trace }), { configurable: { plausibleFallback: false } }, noResources))
        .answer,
    ).toBe("not found");
  });
});
