import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SchemaEntry, TableSchema } from "../../indexing/types.js";
import {
  augmentSubQuery,
  executionConfidence,
  expectedAnswerType,
  REPAIR_HEADER,
  runConstrainedSql,
  type ConstrainedSqlInput,
} from "../../nodes/constrained-sql.js";
import { newUsageMeter } from "../../nodes/usage-meter.js";
import { sqlScalar } from "../../nodes/sql-evidence.js";
import type { Strategies, WriteSqlInput } from "../../nodes/strategies.js";
import type { LinkedValue, SubQueryPlan } from "../../nodes/types.js";
import { openSqlExecutor } from "../../retrievers/sql-executor.js";
import { CLUBS, STADIUMS, linked, startJsonService, writeFixtureDb } from "../retrievers/sql-fixtures.js";

const executor = openSqlExecutor(writeFixtureDb(), { mode: "inline" });
const tables = new Map<string, TableSchema>([
  ["clubs", CLUBS],
  ["stadiums", STADIUMS],
]);
const entry = (tableId: string, column: string): SchemaEntry => {
  const col = tables.get(tableId)!.columns.find((c) => c.name === column)!;
  return { tableId, column, type: col.type, examples: col.examples.join(", "), text: "" };
};
const C = [entry("clubs", "Club"), entry("clubs", "City"), entry("clubs", "Founded")];
const plan: SubQueryPlan = {
  subQuery: "Which club is based in Saint Etienne?",
  requiredModalities: "table",
  expectedOperator: "lookup",
  needGlobalTableView: false,
  entityMentions: ["Saint Etienne"],
  uncertainty: 0,
};

/** A writer that returns queued SQL and records every input it was given. */
function scriptedWriter(replies: Array<string | Error>) {
  const inputs: WriteSqlInput[] = [];
  const fail = async (): Promise<never> => {
    throw new Error("not scripted");
  };
  const strategies: Strategies = {
    name: "scripted",
    decompose: fail,
    chooseRoute: fail,
    linkValue: fail,
    readText: fail,
    readRows: fail,
    fuse: fail,
    verify: fail,
    synthesize: fail,
    async writeSql(input) {
      inputs.push(input);
      const next = replies.shift();
      if (next === undefined) throw new Error("writer called more often than scripted");
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return { strategies, inputs };
}

function run(
  replies: Array<string | Error>,
  overrides: Partial<ConstrainedSqlInput> = {},
  bindings: LinkedValue[] = [linked("City", "Saint Etienne")],
) {
  const writer = scriptedWriter(replies);
  const promise = runConstrainedSql({
    subQuery: plan.subQuery,
    plan,
    originalQuestion: "Which club plays in Saint Etienne?",
    allowedColumns: C,
    restoredTableId: "clubs",
    fallbackTableIds: [],
    tables,
    bindings,
    evidence: "Table: clubs | Column: Club (text) | Examples: Alpha FC",
    strategies: writer.strategies,
    executor,
    ...overrides,
  });
  return { promise, inputs: writer.inputs };
}

const GOOD = "SELECT club FROM clubs WHERE city = 'Saint Etienne'";
const MISSING = "missing exact WHERE binding: city = 'Saint Etienne' as a mandatory equality predicate";

describe("runConstrainedSql", () => {
  it("accepts admissible SQL and returns the rows with confidence 1", async () => {
    const { promise, inputs } = run([GOOD]);
    const out = await promise;
    expect(out).toMatchObject({
      answer: '[{"club":"Alpha FC"}]',
      confidence: 1,
      sql: GOOD,
      sqlResult: '[{"club":"Alpha FC"}]',
    });
    expect(inputs).toHaveLength(1);
    expect(sqlScalar(out.answer)).toBe("Alpha FC");
  });

  it("builds the constraint prompt with physical names, bindings, answer type, evidence and scope lines", async () => {
    const long = `${"x".repeat(900)}TAIL`;
    const { promise, inputs } = run([GOOD], { evidence: long });
    await promise;
    const prompt = inputs[0]!.prompt;
    expect(prompt.startsWith(plan.subQuery)).toBe(true);
    expect(prompt).toContain('- clubs.club ("Club", text)');
    expect(prompt).toContain('- clubs.founded ("Founded", integer; original text in clubs.founded__raw)');
    expect(prompt).toContain("Value bindings:\n- city = 'Saint Etienne'");
    expect(prompt).toContain("Expected answer type: name or title");
    expect(prompt).toContain(`${"x".repeat(800)}…`);
    expect(prompt).not.toContain("TAIL");
    expect(prompt).toContain("Allowed tables: clubs");
    expect(prompt).toContain("Target table: clubs");
    expect(prompt).not.toContain(REPAIR_HEADER);
    expect(inputs[0]!.bindings).toEqual([linked("City", "Saint Etienne")]);
    expect(inputs[0]!.repair).toBeUndefined();
  });

  it("asks the writer for the store's dialect: SQLite by default, PostgreSQL when View 5 is on PostgreSQL", async () => {
    const sqlite = run([GOOD]);
    await sqlite.promise;
    expect(sqlite.inputs[0]!.prompt).toContain("read-only SELECT statement in SQLite syntax");
    expect(sqlite.inputs[0]!.dialect).toBe("sqlite");
    // The same rows behind an executor that says it is PostgreSQL (the dialect comes from the store).
    const postgres = run([GOOD], { executor: Object.assign(Object.create(executor), { dialect: "postgres" }) });
    const out = await postgres.promise;
    expect(postgres.inputs[0]!.prompt).toContain("read-only SELECT statement in PostgreSQL syntax");
    expect(postgres.inputs[0]!.dialect).toBe("postgres");
    expect(out.answer).toBe('[{"club":"Alpha FC"}]');
  });

  it("repairs a violating reply: second prompt has the repair block and never says 'unconstrained'", async () => {
    const bad = "SELECT club FROM clubs WHERE city LIKE '%Etienne%'";
    const { promise, inputs } = run([bad, GOOD]);
    const out = await promise;
    expect(out).toMatchObject({ answer: '[{"club":"Alpha FC"}]', confidence: 1 });
    expect(out.attempts.map((a) => a.violations)).toEqual([[MISSING], []]);
    const second = inputs[1]!.prompt;
    expect(second).toContain(
      `${REPAIR_HEADER}\nRejected SQL: ${bad}\nViolations: ${MISSING}\nGenerate a new SQL query without relaxing C or V*.`,
    );
    expect(second.toLowerCase()).not.toContain("unconstrained");
    expect(inputs[1]!.repair).toEqual({ sql: bad, violations: [MISSING] });
  });

  it("repairs a derived-table bypass, listing the missing binding", async () => {
    const bypass =
      "SELECT club FROM (SELECT club, 'Saint Etienne' AS city FROM clubs) AS d WHERE city = 'Saint Etienne'";
    const { promise, inputs } = run([bypass, GOOD]);
    const out = await promise;
    expect(out.confidence).toBe(1);
    expect(inputs[1]!.prompt).toContain(MISSING);
  });

  it("a binding that never appears fails closed after exactly two writer calls", async () => {
    const { promise, inputs } = run(["SELECT club FROM clubs", "SELECT club FROM clubs WHERE city != 'Saint Etienne'"]);
    const out = await promise;
    expect(inputs).toHaveLength(2);
    expect(out).toMatchObject({ answer: "not found", confidence: 0, sqlResult: "" });
    expect(sqlScalar(out.answer)).toBeUndefined();
  });

  it.each([
    ["a write", "DELETE FROM clubs WHERE city = 'Saint Etienne'", "only one read-only SELECT query is allowed"],
    ["an ATTACH", "ATTACH DATABASE '/tmp/x.db' AS x", "only one read-only SELECT query is allowed"],
    ["a PRAGMA", "PRAGMA table_info(clubs)", "only one read-only SELECT query is allowed"],
    ["stacked statements", `${GOOD}; DROP TABLE clubs`, "exactly one SQL statement is required"],
    [
      "a column outside C",
      "SELECT secret FROM clubs WHERE city = 'Saint Etienne'",
      "column/source constraint resolution failed: clubs.secret is not an allowed column",
    ],
    ["a dropped value predicate", "SELECT club FROM clubs", MISSING],
  ])("refuses %s, repairs once, and the sentinel never becomes the answer", async (_name, bad, violation) => {
    const { promise, inputs } = run([bad, bad]);
    const out = await promise;
    expect(out.attempts.map((a) => a.violations)).toEqual([[violation], [violation]]);
    expect(inputs[1]!.prompt).toContain(`Violations: ${violation}`);
    expect(out).toMatchObject({ answer: "not found", confidence: 0, sqlResult: "" });
    expect(sqlScalar(out.answer)).toBeUndefined();
    // Nothing was written: the table still has its rows.
    expect((await executor.execute("SELECT COUNT(*) AS n FROM clubs")).result).toBe('[{"n":3}]');
  });

  it("each repair replaces the previous block", async () => {
    const first = "SELECT club FROM clubs";
    const second = "SELECT secret FROM clubs WHERE city = 'Saint Etienne'";
    const { promise, inputs } = run([first, second, GOOD], { maxAttempts: 3 });
    expect((await promise).confidence).toBe(1);
    const third = inputs[2]!.prompt;
    expect(third.split(REPAIR_HEADER)).toHaveLength(2);
    expect(third).toContain(`Rejected SQL: ${second}`);
    expect(third).not.toContain(`Rejected SQL: ${first}`);
  });

  it("an empty execution gets the empty-result note; empty twice fails closed", async () => {
    const empty = "SELECT club FROM clubs WHERE city = 'Saint Etienne' AND founded = 1800";
    const { promise, inputs } = run([empty, empty]);
    const out = await promise;
    expect(out.attempts.map((a) => [a.confidence, a.result])).toEqual([
      [0.3, "[]"],
      [0.3, "[]"],
    ]);
    expect(inputs[1]!.prompt).toContain(
      "NOTE: the previous SQL's execution was empty or failed; produce a different query that still satisfies every constraint.",
    );
    expect(inputs[1]!.prompt).not.toContain(REPAIR_HEADER);
    expect(out).toMatchObject({ answer: "not found", confidence: 0, sqlResult: "" });
  });

  it("pre-check failures return not found without calling the writer", async () => {
    const cases: Array<[Partial<ConstrainedSqlInput>, LinkedValue[], RegExp]> = [
      [{ allowedColumns: [], restoredTableId: undefined }, [], /no allowed columns/],
      [{}, [linked("Secret", "s1")], /linked column is outside C: Secret/],
      [
        { allowedColumns: [...C, entry("stadiums", "City")] },
        [linked("City", "Lyon")],
        /ambiguous linked column table: City/,
      ],
      [
        { allowedColumns: [{ ...C[0]!, tableId: "missing" }], restoredTableId: undefined },
        [],
        /no schema for table missing/,
      ],
      [{ allowedColumns: [{ ...C[0]!, column: "Nope" }] }, [], /allowed column Nope is not a column of table clubs/],
    ];
    for (const [overrides, bindings, reason] of cases) {
      const { promise, inputs } = run([GOOD], overrides, bindings);
      const out = await promise;
      expect(inputs).toHaveLength(0);
      expect(out).toMatchObject({ answer: "not found", confidence: 0, sql: "", sqlResult: "", attempts: [] });
      expect(out.refused).toMatch(reason);
    }
  });

  it("with C empty the restored schema's columns are allowed", async () => {
    const { promise, inputs } = run(["SELECT secret FROM clubs WHERE city = 'Saint Etienne'"], { allowedColumns: [] });
    const out = await promise;
    expect(out.answer).toBe('[{"secret":"s1"}]');
    expect(inputs[0]!.allowedColumns.map((c) => c.column)).toEqual(["Club", "City", "Founded", "Publisher", "Secret"]);
  });

  it("a writer error fails closed and is noted in the meter", async () => {
    const meter = newUsageMeter();
    const { promise } = run([new Error("model down")], { meter });
    expect(await promise).toMatchObject({
      answer: "not found",
      confidence: 0,
      attempts: [{ violations: ["SQL writer failed: model down"] }],
    });
    expect(meter.errors).toEqual(["writeSql failed (not found): model down"]);
  });
});

describe("guarded external service", () => {
  let service: Awaited<ReturnType<typeof startJsonService>>;
  let base = "";
  const replies: unknown[] = [];
  beforeAll(async () => {
    service = await startJsonService(() => {
      const reply = replies.shift();
      return { status: reply === undefined ? 500 : 200, text: JSON.stringify(reply ?? { error: "x" }) };
    });
    base = `${service.base}/get_tablerag_response`;
  });
  afterAll(() => service.close());
  beforeEach(() => {
    service.seen.length = 0;
  });

  it("guards the service's SQL locally, repairs through the service, and returns its result", async () => {
    replies.push(
      {
        sql_str: "SELECT club FROM clubs",
        sql_execution_result: '[["Alpha FC"],["Beta United"],["Gamma City"]]',
        atr_guard_version: 1,
      },
      { sql_str: GOOD, sql_execution_result: '[["Alpha FC"]]', atr_guard_version: 1 },
    );
    const { promise, inputs } = run([], { sqlServiceUrl: base });
    const out = await promise;
    expect(inputs).toHaveLength(0);
    expect(out).toMatchObject({ answer: '[["Alpha FC"]]', confidence: 1, sql: GOOD });
    expect(service.seen.map((q) => q.url)).toEqual([
      "/get_tablerag_response/atr-guarded-v1",
      "/get_tablerag_response/atr-guarded-v1",
    ]);
    expect(service.seen[0]!.body.table_name_list).toEqual(["clubs"]);
    expect(Object.keys(service.seen[0]!.body.constraints as object)).toEqual([
      "allowed_columns",
      "allowed_tables",
      "table_columns",
      "full_table_schemas",
      "linked_values",
    ]);
    expect((service.seen[0]!.body.constraints as { allowed_columns: string[] }).allowed_columns).toEqual([
      "Club",
      "City",
      "Founded",
    ]);
    expect(String(service.seen[1]!.body.query)).toContain(`${REPAIR_HEADER}\nRejected SQL: SELECT club FROM clubs`);
  });

  it("a service failure returns not found at once (no repair)", async () => {
    replies.push({ sql_str: GOOD, sql_execution_result: "[]" }); // no atr_guard_version
    const meter = newUsageMeter();
    const out = await run([], { sqlServiceUrl: base, meter }).promise;
    expect(service.seen).toHaveLength(1);
    expect(out).toMatchObject({ answer: "not found", confidence: 0, sqlResult: "" });
    expect(meter.errors).toEqual([
      expect.stringMatching(/^SQL service failed \(not found\): SQL service reply lacks atr_guard_version/),
    ]);
  });
});

describe("augmentation and answer type", () => {
  it("adds the IMPORTANT hint in priority order, CONTEXT and TYPE NOTE blocks", () => {
    const numericText: SchemaEntry = {
      tableId: "clubs",
      column: "Publisher",
      type: "text",
      examples: "1,200, $3,400",
      text: "",
    };
    const out = augmentSubQuery("What is the percentage change in revenue?", [C[2]!, numericText], tables);
    expect(out.split("\n\n")).toEqual([
      "What is the percentage change in revenue?",
      "IMPORTANT: compute the percent change in SQL as (new - old) / old * 100, keep the sign, and report it in percent; do not return raw rows.",
      "CONTEXT: relevant columns: Founded (integer), Publisher (text)",
      "TYPE NOTE: publisher is stored as text but holds numbers; for arithmetic use CAST(REPLACE(REPLACE(column, ',', ''), '$', '') AS REAL).",
    ]);
    expect(augmentSubQuery("How many clubs are in Lyon?", [])).toContain("IMPORTANT: count with COUNT(*)");
    expect(augmentSubQuery("What is the total difference?", [])).toContain("IMPORTANT: compute new - old");
    expect(augmentSubQuery("Who founded Alpha FC?", [C[0]!])).toBe(
      "Who founded Alpha FC?\n\nCONTEXT: relevant columns: Club (text)",
    );
  });

  it("guesses the expected answer type from the leading words", () => {
    expect(expectedAnswerType("Who coached Alpha FC?")).toBe("person name");
    expect(expectedAnswerType("Which country hosted it?")).toBe("country name");
    expect(expectedAnswerType("Where is Alpha FC based?")).toBe("city or location");
    expect(expectedAnswerType("When was Alpha FC founded?")).toBe("date or year");
    expect(expectedAnswerType("How many clubs are there?")).toBe("integer count");
    expect(expectedAnswerType("How old is the stadium?")).toBe("age or year");
    expect(expectedAnswerType("How much more did A earn than B?")).toBe("numeric difference");
    expect(expectedAnswerType("Which club won?")).toBe("name or title");
    expect(expectedAnswerType("What is the name of the stadium?")).toBe("name or title");
    expect(expectedAnswerType("What is the total capacity?")).toBe("infer from query");
    expect(expectedAnswerType("List the clubs")).toBe("infer from query");
  });

  it("execution confidence follows the root rules", () => {
    expect(executionConfidence('[{"a":1}]')).toBe(1);
    expect(executionConfidence("[]")).toBe(0.3);
    expect(executionConfidence("null")).toBe(0.3);
    expect(executionConfidence('[{"m":null}]')).toBe(0.3);
    expect(executionConfidence('[{"a":')).toBe(0);
    expect(executionConfidence("SQL execution failed: no such column")).toBe(0);
    expect(executionConfidence("")).toBe(0);
    expect(executionConfidence("Alpha FC")).toBe(1);
    expect(executionConfidence('[{"a":1}]', "error")).toBe(0);
  });
});
