/**
 * The offline-first cascade (graph/cascade.ts, graph/findings-tier.ts) over examples/: an
 * offline-accepted question costs no LLM call and says tier "offline"; otherwise one call answers
 * from the offline findings — accepted without a verifier call when grounded, else judged by the
 * verifier (tier "findings"); an answer judged wrong, or none, runs the LLM loop with the findings
 * in the decomposer's prompt (tier "llm"); the record carries the tier.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBatch, type AnswerFn } from "../../evals/runner.js";
import { answerQuestion } from "../../graph/answer.js";
import { allOffline, formatFindings } from "../../graph/cascade.js";
import { ensureConfiguration } from "../../graph/configuration.js";
import { scriptedBackbone, useExampleIndex } from "../fixtures/example-index.js";
import { ScriptedChatModel, reply } from "../fixtures/scripted-model.js";

const index = useExampleIndex();

// Both questions are of examples/questions.jsonl: the offline tier verifies the first (an SQL
// lookup of a report-table cell) and only finds a plausible answer for the second.
const POPULATION = { question: "What is the population of Brookhaven?", question_id: "ex-03", table_id: "cities" };
const STADIUM = { question: "What is the name of Fenwick City's stadium?", question_id: "ex-01", table_id: "clubs" };

describe("offline-first cascade", () => {
  it("an answer the offline verifier accepts is final: no LLM call, tier offline", async () => {
    const model = new ScriptedChatModel([]); // nothing queued: any call would fail
    // The learned verifier gives this report-cell lookup P ≈ 0.76 (its first attempt); accept from 0.75 in this test.
    const r = await answerQuestion(POPULATION, {
      configurable: { indexPath: index.dir, backbone: scriptedBackbone(model), cascade: true, acceptThreshold: 0.75 },
    });
    expect(model.calls).toHaveLength(0);
    expect(r.tier).toBe("offline");
    expect(r.answerVerified).toBe(true);
    expect(r.answer).toBe("212,000");
    expect(r.usage.llmCalls).toBe(0);
    expect(r.usage.byNode.offline_tier).toMatchObject({ llmCalls: 0 });
    expect(r.trace.verifier_decisions.filter((d) => !d.alternative).at(-1)).toMatchObject({
      accepted: true,
      verdict: 1,
    });
    expect(r.routes.length).toBeGreaterThan(0);
  });

  it("an unaccepted offline tier: one call answers from its findings; grounded and not contradicted offline, it is final (tier findings)", async () => {
    const model = new ScriptedChatModel([reply.fuse("Station Field")]);
    const r = await answerQuestion(STADIUM, {
      configurable: { indexPath: index.dir, backbone: scriptedBackbone(model), cascade: true },
    });
    expect(model.problems).toEqual([]);
    expect(model.calls.map((c) => c.name)).toEqual(["fuse"]);
    const prompt = model.calls[0]!.prompt;
    expect(prompt).toContain(`<question>${STADIUM.question}</question>`);
    expect(prompt).toContain("Station Field"); // the passage the offline attempts read
    expect(prompt).toMatch(
      /Candidate answers of a deterministic first pass[^]*- "Station Field" \((TEXT|SQL|RETRIEVE|HYBRID), verdict 0\.5\)/,
    );
    expect(r).toMatchObject({ tier: "findings", answer: "Station Field", answerVerified: true });
    expect(r.usage.llmCalls).toBe(1);
    expect(r.usage.byNode.findings_answer).toMatchObject({ llmCalls: 1 });
    expect(r.usage.byNode.findings_verify).toBeUndefined();
    expect(r.trace.verifier_decisions.at(-1)).toMatchObject({
      accepted: true,
      verdict: 1,
      produced_answer: "Station Field",
    });
    expect(r.trace.verifier_decisions.at(-1)!.reason).toMatch(/^findings_answer: grounded in the offline evidence/);
  });

  it("an answer not grounded in the findings goes to the verifier (second call); a demoted 1 keeps it unverified, no re-route", async () => {
    const model = new ScriptedChatModel([reply.fuse("Blue Lagoon Arena"), reply.verify(1, "sounds right")]);
    const r = await answerQuestion(STADIUM, {
      configurable: { indexPath: index.dir, backbone: scriptedBackbone(model), cascade: true },
    });
    expect(model.problems).toEqual([]);
    expect(model.calls.map((c) => c.name)).toEqual(["fuse", "verify"]);
    expect(r).toMatchObject({ tier: "findings", answer: "Blue Lagoon Arena", answerVerified: false });
    expect(r.usage.llmCalls).toBe(2);
    expect(r.usage.byNode.findings_verify).toMatchObject({ llmCalls: 1 });
    expect(r.trace.verifier_decisions.at(-1)).toMatchObject({ accepted: false, verdict: 0.5 });
    expect(r.trace.verifier_decisions.at(-1)!.reason).toMatch(/demoted: answer not grounded/);
  });

  it("an answer the verifier judges wrong hands on to the LLM loop, its decomposer seeing the findings and the verdict (tier llm)", async () => {
    const model = new ScriptedChatModel([
      reply.fuse("Blue Lagoon Arena"),
      reply.verify(0, "not supported"),
      reply.decompose(STADIUM.question, { required_modalities: "text" }),
      reply.text("Station Field"),
      reply.verify(1),
    ]);
    const r = await answerQuestion(STADIUM, {
      configurable: {
        indexPath: index.dir,
        backbone: scriptedBackbone(model),
        cascade: true,
        routerType: "fixed",
        forceRoute: "TEXT",
      },
    });
    expect(model.problems).toEqual([]);
    expect(r.tier).toBe("llm");
    expect(r.answer).toBe("Station Field");
    expect(r.usage.llmCalls).toBe(5);
    const prompt = model.callsOf("decompose")[0]!.prompt;
    expect(prompt).toContain("<offline_findings>");
    expect(prompt).toMatch(/Attempt 1: sub-query ".+" via TEXT → answer "Station Field" \(verdict 0\.5/);
    expect(prompt).toContain(
      'Answering from these findings in one step gave "Blue Lagoon Arena"; the verifier judged it 0 (not supported)',
    );
    // The record's trace is the LLM tier's own (its one accepted attempt), not the offline attempts.
    expect(r.trace.verifier_decisions).toHaveLength(1);
    expect(r.trace.verifier_decisions[0]).toMatchObject({ accepted: true, effective_route: "TEXT" });
  });

  it("a prompted tier that finds nothing hands on to the LLM loop without a verifier call", async () => {
    const model = new ScriptedChatModel([
      reply.fuse("not found"),
      reply.decompose(STADIUM.question),
      reply.text("Station Field"),
      reply.verify(1),
    ]);
    const r = await answerQuestion(STADIUM, {
      configurable: {
        indexPath: index.dir,
        backbone: scriptedBackbone(model),
        cascade: true,
        routerType: "fixed",
        forceRoute: "TEXT",
      },
    });
    expect(model.problems).toEqual([]);
    expect(model.calls.map((c) => c.name)).toEqual(["fuse", "decompose", "read_text", "verify"]);
    expect(r).toMatchObject({ tier: "llm", answer: "Station Field", answerVerified: true });
    expect(model.callsOf("decompose")[0]!.prompt).toContain("Answering from these findings in one step found nothing.");
  });

  it("without the cascade the graph starts at decompose and records no tier", async () => {
    const model = new ScriptedChatModel([reply.decompose(POPULATION.question), reply.text("212,000"), reply.verify(1)]);
    const r = await answerQuestion(POPULATION, {
      configurable: {
        indexPath: index.dir,
        backbone: scriptedBackbone(model),
        routerType: "fixed",
        forceRoute: "TEXT",
      },
    });
    expect(r.tier).toBeUndefined();
    expect(r.usage.llmCalls).toBe(3);
    expect(r.usage.byNode.offline_tier).toBeUndefined();
    expect(model.callsOf("decompose")[0]!.prompt).not.toContain("<offline_findings>");
  });

  it("refuses a cascade with no LLM tier", async () => {
    expect(allOffline(ensureConfiguration({ configurable: { verifierBackbone: "openai/x" } }))).toBe(false);
    await expect(answerQuestion(POPULATION, { configurable: { indexPath: index.dir, cascade: true } })).rejects.toThrow(
      /cascade needs an LLM tier/,
    );
  });

  it("writes the tier into the record (atr_stats.tier)", async () => {
    const model = new ScriptedChatModel([]);
    const backbone = scriptedBackbone(model);
    const answer: AnswerFn = (input, options) =>
      answerQuestion(input, {
        configurable: { ...options.configurable, indexPath: index.dir, backbone, cascade: true, acceptThreshold: 0.75 },
      });
    const out = join(mkdtempSync(join(tmpdir(), "atr-cascade-")), "run.jsonl");
    await runBatch({ questions: [POPULATION], answer, outputPath: out, fsync: false });
    const record = JSON.parse(readFileSync(out, "utf8").trim()) as { atr_stats: Record<string, unknown> };
    expect(record.atr_stats).toMatchObject({ tier: "offline", llm_calls: 0, answer_verified: true });
  });

  it("findings keep linked values, SQL and result, strip tags and stay bounded", () => {
    const attempt = {
      number: 1,
      requestedRoute: "HYBRID" as const,
      effectiveRoute: "HYBRID" as const,
      answer: "Oskar <b>Lind</b>",
      evidence: "",
      sqlResult: "[('Oskar Lind',)]",
      sql: "SELECT manager FROM clubs WHERE club = 'Dunmere FC'",
      valueLinkerAttempted: true,
      linkedValues: [
        {
          entity: "Dunmere FC",
          tableId: "clubs",
          column: "Club",
          matchedValue: "Dunmere FC",
          confidence: 1,
          fallbackLevel: 0 as const,
        },
      ],
      verdict: null,
      reason: "",
    };
    const text = formatFindings([
      { subQuery: "Who manages Dunmere FC?", attempt, verdict: 0.5, reason: "not verbatim" },
    ]);
    expect(text).toContain('linked values: "Dunmere FC" = clubs.Club "Dunmere FC"');
    expect(text).toContain("SQL: SELECT manager FROM clubs WHERE club = 'Dunmere FC' → [('Oskar Lind',)]");
    expect(text).toContain('answer "Oskar Lind"');
    const many = formatFindings(
      Array.from({ length: 40 }, () => ({ subQuery: "q".repeat(150), attempt, verdict: 0, reason: "" })),
    );
    expect(many.length).toBeLessThan(3200);
    expect(many).toMatch(/more attempts not shown/);
  });
});
