/**
 * The HTML report's data and static HTML without a browser: official scoring and paired counts,
 * traces and evidence carried per question, markup escaped everywhere it is written, the
 * benchmark detected from the gold file, and the CLI's errors. (tests/evals/report-chromium.test.ts
 * loads a real page in Chromium.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectBench } from "../../evals/report-bench.js";
import { buildReportData, capStrings } from "../../evals/report-data.js";
import { escapeHtml, jsonForScript } from "../../evals/report-escape.js";
import { renderReportHtml } from "../../evals/report-html.js";
import { runCli } from "../fixtures/run-cli.js";

const EVIL = `<script>alert(1)</script>`;

const gold = [
  {
    question_id: "q1",
    question: `What is ${EVIL}?`,
    answer: ["Oak Hall"],
    answer_canon: ["Oak Hall"],
    answer_canon_type: "string",
  },
  { question_id: "q2", question: "How many?", answer: ["3"], answer_canon: ["3.0"], answer_canon_type: "number" },
  {
    question_id: "q3",
    question: "Which year?",
    answer: ["1990"],
    answer_canon: ["1990.0"],
    answer_canon_type: "number",
  },
];

function record(id: string, answer: string, extra: Record<string, unknown> = {}) {
  const q = gold.find((g) => g.question_id === id)!;
  return {
    ...q,
    agentic_tablerag_answer: answer,
    atr_stats: {
      latency_ms: 100,
      llm_calls: 2,
      tokens: 50,
      first_requested_route: "SQL",
      first_effective_route: "SQL",
      final_route: "SQL",
      attempts: 1,
      escalations: 0,
      answer_verified: true,
    },
    ...extra,
  };
}

const trace = {
  atr_trace: {
    question_id: "q1",
    verifier_decisions: [
      {
        sub_query: `Which hall ${EVIL}`,
        attempt: 1,
        requested_route: "HYBRID",
        effective_route: "TEXT",
        verdict: 0,
        accepted: false,
        reason: "no grounding",
        produced_answer: `<img src=x onerror=alert(2)>`,
        sql: `SELECT "a" FROM "t" WHERE b = '${EVIL}'`,
        sql_refused: ["DROP TABLE t → not a SELECT"],
        schema: { tableId: "halls", columns: [{ name: "Hall" }, { name: "City" }] },
        history_H: [],
        linked_values: [{ column: "Hall", value: "Oak Hall" }],
      },
      {
        sub_query: `Which hall ${EVIL}`,
        attempt: 2,
        requested_route: "SQL",
        effective_route: "SQL",
        verdict: 1,
        accepted: true,
        reason: "SQL result",
        produced_answer: "Oak Hall",
        sql: "SELECT 1",
      },
    ],
  },
  atr_evidence: { table_id: "halls", rows: [3], passage: `<b>${EVIL}</b>` },
};

describe("buildReportData", () => {
  it("scores with the official scorer, pairs two runs and keeps traces and evidence", async () => {
    const a = [record("q1", "Oak Hall", trace), record("q2", "4"), record("q3", "1990")];
    const b = [record("q1", "Elm Hall"), record("q2", "3"), record("q3", "1991")];
    const data = await buildReportData({
      runs: [
        { label: "a", path: "a.jsonl", records: a },
        { label: "b", path: "b.jsonl", records: b },
      ],
      gold: { path: "g.jsonl", questions: gold, bench: "wtq" },
    });
    expect(data.metric).toBe("accuracy");
    expect(data.runs[0]!.official!.accuracy).toBeCloseTo(66.67, 1);
    expect(data.runs[1]!.official!.accuracy).toBeCloseTo(33.33, 1);
    expect(data.runs[1]!.paired).toEqual({ better: 1, worse: 2 });
    expect(data.runs[1]!.changedAnswers).toBe(3);
    expect(data.questions.map((q) => q.runs.map((r) => r.score))).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    const q1 = data.questions[0]!.runs[0]!;
    expect(q1.trace).toHaveLength(2);
    expect(q1.trace![0]).toMatchObject({
      requested: "HYBRID",
      effective: "TEXT",
      verdict: 0,
      accepted: false,
      table: "halls",
      columns: ["Hall", "City"],
      sqlRefused: ["DROP TABLE t → not a SELECT"],
    });
    expect(q1.trace![0]!.extra).toEqual({ linked_values: [{ column: "Hall", value: "Oak Hall" }] });
    expect(q1.evidence).toEqual({ atr_evidence: trace.atr_evidence });
    expect(data.runs[0]!.breakdowns!.final_route!.SQL).toMatchObject({ n: 3 });
    expect(data.runs[0]!.cost.llmCalls.total).toBe(6);
  });

  it("without gold: no scores, rows from both runs, a missing record is marked", async () => {
    const data = await buildReportData({
      runs: [
        { label: "a", path: "a", records: [record("q1", "x")] },
        { label: "b", path: "b", records: [record("q2", "y")] },
      ],
    });
    expect(data.metric).toBeUndefined();
    expect(data.questions.map((q) => q.id)).toEqual(["q1", "q2"]);
    expect(data.questions[0]!.runs[1]!.missing).toBe(true);
    expect(data.questions[0]!.runs[0]!.score).toBeUndefined();
  });

  it("keeps the traces of the first maxTraces questions only", async () => {
    const records = [record("q1", "a", trace), record("q2", "b", trace), record("q3", "c", trace)];
    const data = await buildReportData({ runs: [{ label: "a", path: "a", records }], maxTraces: 1 });
    expect(data.questions.map((q) => [Boolean(q.runs[0]!.trace), Boolean(q.runs[0]!.traceOmitted)])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  it("caps long strings and long lists", () => {
    const capped = capStrings({ s: "x".repeat(5000), l: Array.from({ length: 80 }, (_, i) => i) }) as {
      s: string;
      l: unknown[];
    };
    expect(capped.s.length).toBeLessThan(2100);
    expect(capped.s).toMatch(/3000 more characters\)$/);
    expect(capped.l).toHaveLength(51);
  });
});

describe("escaping", () => {
  it("escapes HTML and makes JSON safe inside a script element", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
    const json = jsonForScript({ q: `</script><!-- ${EVIL} \u2028` });
    expect(json).not.toMatch(/[<>]/);
    expect(JSON.parse(json)).toEqual({ q: `</script><!-- ${EVIL} \u2028` });
  });

  it("writes no untrusted markup into the page: labels, routes, groups and data are escaped", async () => {
    const evilGold = gold.map((g) => ({ ...g, answer_canon_type: EVIL }));
    const records = [record("q1", EVIL, { ...trace, atr_stats: { ...record("q1", "").atr_stats, final_route: EVIL } })];
    const data = await buildReportData({
      runs: [{ label: EVIL, path: `/tmp/${EVIL}.jsonl`, records }],
      gold: { path: "g", questions: evilGold, bench: "wtq" },
      title: EVIL,
    });
    const html = renderReportHtml(data);
    // Exactly two script elements: the JSON data block and the page script.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
});

describe("detectBench", () => {
  it("tells the benchmark by its fields, else by the path", () => {
    expect(detectBench(gold)).toBe("wtq");
    expect(detectBench([{ question: "q", answer: ["1"], scale: "million" }])).toBe("tatqa");
    expect(detectBench([{ question: "q", answer: ["x"], answer_node: [] }])).toBe("hybridqa");
    expect(detectBench([{ question: "q", answer: ["x"] }], "/data/hybridqa/dev/questions.jsonl")).toBe("hybridqa");
    expect(detectBench([{ question: "q", answer: ["x"] }], "examples/questions.jsonl")).toBeUndefined();
  });
});

describe("atr report (CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "atr-report-cli-"));
  const run = join(dir, "run.jsonl");
  writeFileSync(run, [record("q1", "Oak Hall"), record("q2", "3")].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const plainGold = join(dir, "mine.jsonl");
  writeFileSync(plainGold, JSON.stringify({ question_id: "q1", question: "x", answer: ["Oak Hall"] }) + "\n");

  it("writes the page beside the run by default and prints its path", async () => {
    const r = await runCli(["report", run]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(join(dir, "run.html"));
    expect(readFileSync(join(dir, "run.html"), "utf8")).toContain("No gold file given");
    expect(r.err).toContain("not scored (no --gold)");
  });

  it("refuses what it cannot do, naming the file or flag", async () => {
    expect((await runCli(["report"])).code).toBe(2);
    expect((await runCli(["report", run, run, run])).err).toMatch(/one or two runs, not 3/);
    expect((await runCli(["report", join(dir, "nope.jsonl")])).err).toMatch(/nope\.jsonl: no such results file/);
    const undetected = await runCli(["report", run, "--gold", plainGold]);
    expect(undetected.code).toBe(2);
    expect(undetected.err).toMatch(/mine\.jsonl.*pass --bench/);
    const told = await runCli(["report", run, "--gold", plainGold, "--bench", "wtq", "--out", join(dir, "o.html")]);
    expect(told.code, told.err).toBe(0);
    expect((await runCli(["report", run, "--bench", "wtq"])).err).toMatch(/--bench needs --gold/);
  });
});
