import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../fixtures/run-cli.js";
import { buildExampleIndex } from "../fixtures/example-index.js";

let index: { dir: string; cleanup(): void };
beforeAll(async () => {
  index = await buildExampleIndex();
});
afterAll(() => index?.cleanup());

const run = runCli;

describe("atr ask", () => {
  it("prints the answer, its evidence (table row, cells, SQL and result) and how it was found", async () => {
    const r = await run(["ask", "Who manages Dunmere FC?", "--index_path", index.dir, "--table_id", "clubs"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Answer: Oskar Lind( \(verified\)| \(not verified: .*\))$/m);
    const evidence = r.out.slice(r.out.indexOf("Evidence"), r.out.indexOf("How it was found:"));
    expect(evidence).toMatch(/^ {4}clubs row 3: Club = Dunmere FC · Manager = Oskar Lind$/m);
    expect(evidence).toMatch(/^ {4}SQL: SELECT .*manager.* FROM "clubs" WHERE "club" = 'Dunmere FC'/m);
    expect(evidence).toMatch(/^ {6}result: \{"manager__raw":"Oskar Lind"\}$/m);
    expect(evidence).toMatch(/^ {6}rows read: 3$/m);
    expect(r.out).toMatch(/^ {2}1\. Who manages Dunmere FC\?/m);
    expect(r.out).toMatch(/^ {5}routes( requested)?: (TEXT|RETRIEVE|SQL|HYBRID)/m);
    // A rejected sub-query's own answer is labelled as such, never shown as if it were the answer.
    expect(r.out).not.toMatch(/^ {2}answer: /m);
  });

  it("--json carries the answer's provenance", async () => {
    const r = await run([
      "ask",
      "Which river runs beside the stadium of the oldest club?",
      "--index_path",
      index.dir,
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      answer: string;
      answerVerified: boolean;
      provenance: Array<{ route: string; passages: Array<{ id: string; sentence: string }> }>;
    };
    expect(out.answer).toBe("River Tamsin");
    expect(typeof out.answerVerified).toBe("boolean");
    expect(out.provenance[0]!.passages[0]).toMatchObject({ id: "club/ashford-rovers" });
    expect(out.provenance[0]!.passages[0]!.sentence).toContain("River Tamsin");
  });

  it("--stream reports every node as it runs and ends with the same answer", async () => {
    const argv = ["ask", "Who manages Dunmere FC?", "--index_path", index.dir, "--table_id", "clubs"];
    const plain = await run(argv);
    const streamed = await run([...argv, "--stream"]);
    expect(streamed.code).toBe(0);
    const lines = streamed.err.split("\n");
    expect(lines[0]).toMatch(/^\[decompose\] Who manages Dunmere FC\?/);
    expect(lines[1]).toMatch(/^\[gather\] 5 chunks, schema clubs$/);
    expect(lines[2]).toMatch(/^\[route\] (TEXT|RETRIEVE|SQL|HYBRID)$/);
    expect(lines.at(-1)).toBe("[synthesize] Oskar Lind");
    expect(streamed.out.split("\n").slice(0, 4)).toEqual(plain.out.split("\n").slice(0, 4));
  });

  it("maps graph flags and emits the trace as JSON", async () => {
    const r = await run([
      "ask",
      "How many clubs were founded before 1900?",
      "--index_path",
      index.dir,
      "--table_id",
      "clubs",
      "--router_type",
      "fixed",
      "--force_route",
      "SQL",
      "--no_escalation",
      "--json",
      "--emit_trace",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      answer: string;
      routes: Array<{ requested: string[] }>;
      trace: { verifier_decisions: Array<{ attempt: number; requested_route: string }> };
    };
    expect(out.routes[0]!.requested).toEqual(["SQL"]);
    expect(out.trace.verifier_decisions.every((d) => d.attempt === 1 && d.requested_route === "SQL")).toBe(true);
  });

  it("refuses a missing question, a missing index and an invalid configuration with exit code 2", async () => {
    expect((await run(["ask", "--index_path", index.dir])).code).toBe(2);
    const saved = process.env.ATR_INDEX_PATH;
    delete process.env.ATR_INDEX_PATH;
    try {
      expect((await run(["ask", "Who?"])).err).toMatch(/--index_path DIR is required/);
    } finally {
      if (saved !== undefined) process.env.ATR_INDEX_PATH = saved;
    }
    const bad = await run(["ask", "Who?", "--index_path", index.dir, "--router_type", "fixed"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/forceRoute/);
    expect((await run(["ask", "Who?", "--index_path", index.dir, "--max_iterations", "3"])).err).toMatch(
      /unknown flag --max_iterations/,
    );
  });
});
