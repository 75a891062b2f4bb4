import { describe, expect, it } from "vitest";
import type { CellEntry, SchemaEntry } from "../../indexing/types.js";
import type { LinkValueInput, LinkValueOutput } from "../../nodes/strategies.js";
import { bindingClause, linkValues, needsReroute } from "../../nodes/value-linker.js";
import { failure } from "../fixtures/plans.js";

const col = (column: string, tableId = "clubs"): SchemaEntry => ({
  tableId,
  column,
  type: "text",
  examples: "",
  text: column,
});
const cell = (column: string, value: unknown, tableId = "clubs") =>
  ({ tableId, column, value, freq: 1, text: `column: ${column} | value: ${String(value)}` }) as CellEntry;

function linker(replies: Array<LinkValueOutput | Error>) {
  const calls: LinkValueInput[] = [];
  return {
    calls,
    linkValue: async (input: LinkValueInput) => {
      calls.push(input);
      const r = replies.shift() ?? new Error("no reply queued");
      if (r instanceof Error) throw r;
      return r;
    },
  };
}

const NO_MATCH: LinkValueOutput = { matchedValue: "no_match", matchedColumn: "", confidence: 0 };
const Q = "Where is Saint-Etienne located?";

describe("candidate validation and acceptance (§16 test_value_linker_candidates)", () => {
  const columns = [col("Club"), col("City")];
  it("accepts a value with its column, or a value alone when its column is unique", async () => {
    for (const reply of [
      { matchedValue: "Saint Etienne", matchedColumn: "Club", confidence: 1 },
      { matchedValue: "Saint Etienne", matchedColumn: "", confidence: 0.8 },
    ]) {
      const s = linker([reply]);
      const [v] = await linkValues({
        entities: ["Saint Etienne"],
        subQuery: Q,
        columns,
        candidates: { "Saint Etienne": [cell("Club", "Saint Etienne")] },
        history: [],
        failureScope: "question",
        strategies: s,
      });
      expect(v).toMatchObject({ column: "Club", matchedValue: "Saint Etienne", fallbackLevel: 0 });
      expect(bindingClause(v!)).toBe("Club = 'Saint Etienne'");
    }
  });

  it("refuses out-of-list values, wrong columns, ambiguous value-only replies and malformed confidences", async () => {
    const candidates = { e: [cell("Club", "Saint Etienne"), cell("City", "Saint Etienne")] };
    const bad: LinkValueOutput[] = [
      { matchedValue: "Lyon", matchedColumn: "", confidence: 1 },
      { matchedValue: "Saint Etienne", matchedColumn: "Secret", confidence: 1 },
      { matchedValue: "Saint Etienne", matchedColumn: "", confidence: 1 },
      { matchedValue: "Saint Etienne", matchedColumn: "Club", confidence: Number.NaN },
      { matchedValue: "Saint Etienne", matchedColumn: "Club", confidence: 2 },
      { matchedValue: "Saint Etienne", matchedColumn: "Club", confidence: null as unknown as number },
    ];
    for (const reply of bad) {
      const [v] = await linkValues({
        entities: ["e"],
        subQuery: Q,
        columns,
        candidates,
        history: [],
        failureScope: "question",
        strategies: linker([reply]),
      });
      expect(v!.matchedValue).toBeNull();
      expect(bindingClause(v!)).toBe("");
    }
    const [ok] = await linkValues({
      entities: ["e"],
      subQuery: Q,
      columns,
      candidates,
      history: [],
      failureScope: "question",
      strategies: linker([{ matchedValue: "Saint Etienne", matchedColumn: "City", confidence: 1 }]),
    });
    expect(ok).toMatchObject({ column: "City", fallbackLevel: 0 });
  });

  it("drops candidates outside C and malformed ones without calling the model", async () => {
    const s = linker([]);
    const [v] = await linkValues({
      entities: ["e"],
      subQuery: Q,
      columns,
      candidates: {
        e: [
          cell("Secret", "Saint Etienne"),
          null,
          {},
          cell("Club", null),
          cell("Club", "  "),
          cell("Club", ["x"]),
          cell("Club", true),
        ],
      },
      history: [],
      failureScope: "question",
      strategies: s,
    });
    expect(s.calls).toHaveLength(0);
    expect(v!.matchedValue).toBeNull();
  });

  it("stringifies numeric candidates (0 included, duplicates merged)", async () => {
    const s = linker([{ matchedValue: "0", matchedColumn: "", confidence: 1 }]);
    const [v] = await linkValues({
      entities: ["zero"],
      subQuery: Q,
      columns: [col("City")],
      candidates: { zero: [cell("City", 0), cell("City", 0)] },
      history: [],
      failureScope: "question",
      strategies: s,
    });
    expect(v).toMatchObject({ column: "City", matchedValue: "0", fallbackLevel: 0 });
    expect(s.calls[0]!.candidates).toHaveLength(1);
  });

  it("fuzzy never guesses between columns holding the same value; a blank entity never matches", async () => {
    const history = [failure(Q, "HYBRID")];
    const candidates = {
      "Saint-Etienne": [cell("Club", "Saint Etienne"), cell("City", "Saint Etienne")],
      " ": [cell("City", "Lyon")],
    };
    const out = await linkValues({
      entities: ["Saint-Etienne", " "],
      subQuery: Q,
      columns,
      candidates,
      history,
      failureScope: "question",
      strategies: linker([NO_MATCH, NO_MATCH]),
    });
    expect(out.map((v) => v.matchedValue)).toEqual([null, null]);
  });
});

describe("fallback ladder and history (§16 test_value_linker_history)", () => {
  const columns = [col("City")];
  const candidates = { "Saint-Etienne": [cell("City", "Saint Etienne")] };
  const run = (
    history: ReturnType<typeof failure>[],
    scope: "question" | "subquery" = "subquery",
    cands: Record<string, CellEntry[]> = candidates,
  ) => {
    const s = linker([NO_MATCH, NO_MATCH]);
    return linkValues({
      entities: ["Saint-Etienne"],
      subQuery: Q,
      columns,
      candidates: cands,
      history,
      failureScope: scope,
      strategies: s,
    }).then((v) => ({ v: v[0]!, calls: s.calls.length, all: v }));
  };

  it("fresh → level 1 (unmatched)", async () => {
    expect((await run([])).v).toMatchObject({ fallbackLevel: 1, matchedValue: null });
  });
  it("another sub-query's linker failure: level 1 per sub-query, level 2 question-wide", async () => {
    const h = [failure("other", "HYBRID"), failure(Q, "SQL")];
    expect((await run(h, "subquery")).v.fallbackLevel).toBe(1);
    expect((await run(h, "question")).v).toMatchObject({ fallbackLevel: 2, matchedValue: "Saint Etienne" });
  });
  it("one linker failure (HYBRID requested, TEXT effective) → fuzzy level 2", async () => {
    const { v } = await run([failure(Q, "HYBRID", "TEXT")]);
    expect(v).toMatchObject({ fallbackLevel: 2, matchedValue: "Saint Etienne", confidence: 0.3 });
    expect(bindingClause(v)).toBe("City LIKE '%Saint Etienne%'");
  });
  it("two linker failures → level 3 reroute; one failure and no candidates → level 3", async () => {
    const two = await run([failure(Q, "HYBRID"), failure(Q, "RETRIEVE", "RETRIEVE", { step: 2 })]);
    expect(two.v.fallbackLevel).toBe(3);
    expect(needsReroute(two.all)).toBe(true);
    expect((await run([failure(Q, "HYBRID")], "subquery", {})).v.fallbackLevel).toBe(3);
  });
  it("HYBRID + TEXT failures → fuzzy level 2, no reroute, exactly one model call", async () => {
    const r = await run([failure(Q, "HYBRID"), failure(Q, "RETRIEVE", "TEXT", { step: 2 })]);
    expect(r.v).toMatchObject({ fallbackLevel: 2, matchedValue: "Saint Etienne" });
    expect(r.calls).toBe(1);
  });
  it("an earlier sub-query's TEXT failure blocks the reroute (question-wide check)", async () => {
    const r = await run([failure("earlier", "TEXT"), failure(Q, "HYBRID", "HYBRID", { step: 2 })], "subquery", {});
    expect(r.v.fallbackLevel).toBe(1);
    expect(needsReroute(r.all)).toBe(false);
  });
  it("the effective route decides the TEXT check", async () => {
    const base = [failure(Q, "HYBRID"), failure(Q, "RETRIEVE", "RETRIEVE", { step: 2 })];
    expect(
      (await run([...base, failure("x", "HYBRID", "TEXT", { valueLinkerAttempted: false })], "subquery", {})).v
        .fallbackLevel,
    ).toBe(1);
    expect(
      (await run([...base, failure("x", "TEXT", "HYBRID", { valueLinkerAttempted: false })], "subquery", {})).v
        .fallbackLevel,
    ).toBe(3);
  });
  it("a failing model call falls to the ladder", async () => {
    const s = {
      linkValue: async () => {
        throw new Error("boom");
      },
    };
    const [v] = await linkValues({
      entities: ["Saint-Etienne"],
      subQuery: Q,
      columns,
      candidates,
      history: [failure(Q, "HYBRID")],
      failureScope: "question",
      strategies: s,
    });
    expect(v!.fallbackLevel).toBe(2);
  });
});
