import { afterAll, describe, expect, it } from "vitest";
import type { SearchableIndex as OpenedIndex } from "../../../retrievers/open-search.js";
import { buildGuardScope, checkSql } from "../../../retrievers/sql-guard.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { createWriteSql, NoSqlTemplateError, planSql } from "../../../nodes/offline/sql-writer.js";
import type { LinkedValue, SubQueryPlan } from "../../../nodes/types.js";
import type { SchemaEntry } from "../../../indexing/types.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

function answer(
  question: string,
  table: string,
  usable?: Set<number>,
): { rows: unknown[][]; template: string; sql: string } {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  const mentions = findMentions(question, catalog, { avoidWords: askedWords(a) });
  const plan = planSql({ analysis: a, catalog, mentions, ...(usable ? { usable } : {}) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return { rows: fx.run(plan.sql), template: plan.template, sql: plan.sql };
}

describe("planSql templates", () => {
  it("looks up the asked column of the named row", () => {
    expect(answer("how many silver medals did russia win?", "medals").rows).toEqual([["21"]]);
    expect(answer("who won in beijing?", "races").rows).toEqual([["Marilynn Jones"]]);
  });

  it("counts rows under mentions and numeric conditions (summary rows excluded)", () => {
    expect(answer("how many races were held in south korea?", "races").rows).toEqual([[2]]);
    expect(answer("how many races were held after 2001?", "races").rows).toEqual([[3]]);
    expect(answer("how many nations are listed?", "medals").rows).toEqual([[6]]);
    expect(answer("how many nations won more than 20 gold medals?", "medals").rows).toEqual([[3]]);
  });

  it("keeps every tied row of an argmax and orders by the named column", () => {
    const r = answer("which year had the highest prize?", "races");
    expect(r.template).toBe("argmax");
    expect(r.rows).toEqual([["2003"], ["2004"]]);
    expect(answer("which nation won the least bronze medals?", "medals").rows).toEqual([["South Korea"]]);
  });

  it("sums and averages numbers stored as text", () => {
    expect(answer("what is the total prize money?", "races").rows).toEqual([[6700]]);
    expect(answer("what is the average count of gold medals?", "medals").rows[0]![0]).toBeCloseTo(26.333, 2);
  });

  it("compares two named rows: which, more or less, difference", () => {
    expect(answer("who won more gold medals, china or russia?", "medals").rows).toEqual([["China"]]);
    expect(answer("which nation had fewer silver medals, germany or great britain?", "medals").rows).toEqual([
      ["Germany"],
    ]);
    expect(answer("did germany win more or less bronze medals than russia?", "medals").rows).toEqual([["less"]]);
    expect(answer("how many more gold medals did china win than russia?", "medals").rows).toEqual([[28]]);
  });

  it("reads a finishing place as a row condition, not as the first row", () => {
    expect(answer("when did a rider last finish 1st?", "races2").rows).toEqual([["July 1, 2001"]]);
    // "was the first race": an ordinal before another noun is no finishing place.
    expect(answer("when was the first race kim lee rode?", "races2").sql).not.toContain("position");
  });

  it("reads 'the most' over a year column as the most frequent year, not the latest", () => {
    const r = answer("which year had the most races?", "races");
    expect(r.template).toBe("group-count");
    expect(answer("which winner had the most races?", "races").rows).toEqual([["Kim Lee"]]);
  });

  it("lists every row when the question asks for two of them", () => {
    expect(answer("what two venues did kim lee win at?", "races").rows).toEqual([["Busan, South Korea"], ["Tokyo"]]);
  });

  it("selects both values of one column named with and / or", () => {
    expect(answer("how many gold medals did germany and russia win combined?", "medals").rows).toEqual([[39]]);
    expect(answer("how many races were held in tokyo or beijing?", "races").rows).toEqual([[2]]);
  });

  it("reads 'no <amount>' on a column of counts as zero or blank", () => {
    expect(answer("how many games had no attendance?", "games").rows).toEqual([[0]]);
    expect(answer("which nation won no bronze medals?", "medals2").rows).toEqual([["Chile"]]);
  });

  it("reads 'average' as the name of an Average column rather than AVG()", () => {
    expect(answer("who has the highest average?", "batting").rows).toEqual([["Bo Park"]]);
    expect(answer("how many players have an average over 30?", "batting").rows).toEqual([[2]]);
    // Without such a column, "average" still averages.
    expect(answer("what is the average count of gold medals?", "medals").template).toBe("avg");
  });

  it("groups rows by the month of a date column for 'which month … the most'", () => {
    const r = answer("which month had the most games?", "games");
    expect(r.template).toBe("group-count");
    expect(r.rows).toEqual([["September"]]);
  });

  it("reads 'the first year' as the earliest year, 'listed first' as the table's order", () => {
    expect(answer("what was the first year in which a player was drafted?", "drafts").rows).toEqual([["1998"]]);
    expect(answer("what year is listed first?", "drafts").rows).toEqual([["2003"]]);
  });

  it("reads 'the top N' on the rank column, else on the table's order", () => {
    expect(answer("in total, how many gold medals went to the top 3 nations?", "medals").rows).toEqual([[110]]);
    expect(answer("which nations were in the top 2?", "medals").rows).toEqual([["China"], ["United States"]]);
    expect(answer("how many of the top 2 races were won by kim lee?", "races").rows).toEqual([[1]]);
  });

  it("does not also take a condition's number as a cell value", () => {
    // "44.25" is a cell: "over 31.5" must compare, not select the row whose average is 31.5.
    expect(answer("how many players have an average over 31.5?", "batting").rows).toEqual([[1]]);
  });

  it("compares places on the position column", () => {
    expect(answer("how many times did a rider finish above 3rd place?", "races2").rows).toEqual([[3]]);
    expect(answer("how many times did a rider finish 2nd or worse?", "races2").rows).toEqual([[2]]);
  });

  it("compares values that name several rows by their row counts, unless an amount column is named", () => {
    expect(answer("how many more races did kim lee win than ana smith?", "races2").rows).toEqual([[2]]);
    expect(answer("how many more gold medals did china win than russia?", "medals").rows).toEqual([[28]]);
  });

  it("bounds dates by a full date when the question names the day", () => {
    expect(answer("how many races were held before july 15, 2001?", "races2").rows).toEqual([[3]]);
    expect(answer("how many races were held after june 17, 2001?", "races2").rows).toEqual([[2]]);
    // A bound that is itself a cell is a bound, not the row to count.
    expect(answer("how many races did kim lee ride after june 3, 2001?", "races2").rows).toEqual([[2]]);
  });

  it("reads 'the next highest X after A' on X, not on the table order", () => {
    // Averages: Ann Lee 31.5, Bo Park 44.25, Cy Young 28.0 (the table row after Bo Park is Cy Young).
    expect(answer("after bo park, who has the next highest average?", "batting").rows).toEqual([["Ann Lee"]]);
    expect(answer("after cy young, who has the next lowest average?", "batting").rows).toEqual([["Ann Lee"]]);
  });

  it("counts years by rows, never by summing a year column", () => {
    expect(answer("how many years did kim lee win?", "races").rows).toEqual([[2]]);
  });

  it("compares a clock time with a time column in seconds", () => {
    expect(answer("how many races were won in less than 3:48?", "races").rows).toEqual([[2]]);
  });

  it("selects won / lost / tied rows by the outcome column", () => {
    expect(answer("how many games did they win?", "games").rows).toEqual([[2]]);
    expect(answer("how many losses did they have?", "games").rows).toEqual([[2]]);
    expect(answer("how many games did they not win?", "games").rows).toEqual([[3]]);
    expect(answer("which opponent did they play in their first loss?", "games").rows).toEqual([["Duke"]]);
    expect(answer("on which date was the last tie?", "games").rows).toEqual([["September 23"]]);
  });

  it("reads first, last, next and previous rows by _row", () => {
    expect(answer("who was the first winner?", "races").rows).toEqual([["Kim Lee"]]);
    expect(answer("which venue was last?", "races").rows).toEqual([["Beijing"]]);
    expect(answer("which venue came after tokyo?", "races").rows).toEqual([["Beijing"]]);
    expect(answer("what nation is listed before germany?", "medals").rows).toEqual([["Great Britain"]]);
  });

  it("answers 'same … as', 'other than' and 'A or B' questions", () => {
    expect(answer("which nation won the same number of silver medals as china?", "medals").rows).toEqual([["Russia"]]);
    // A question that does not ask for a list gets the first matching row.
    expect(answer("other than kim lee, who won a race?", "races").rows.map((r) => r[0])).toEqual(["Ana Smith"]);
    expect(answer("did kim lee win in 2002 or 2003?", "races").rows).toEqual([["2003"]]);
  });

  it("answers yes/no questions by co-occurrence or comparison", () => {
    expect(answer("did kim lee win in tokyo?", "races").rows).toEqual([["yes"]]);
    expect(answer("did ana smith win in tokyo?", "races").rows).toEqual([["no"]]);
    expect(answer("did germany win more gold medals than russia?", "medals").rows).toEqual([["no"]]);
  });

  it("computes change, percentage change, average and values over year columns of a report table", () => {
    expect(
      answer("What was the percentage change for in-game net bookings from 2018 to 2019?", "report").rows[0]![0],
    ).toBeCloseTo(-19.914, 2);
    expect(answer("What was the change in net bookings from 2018 to 2019?", "report").rows).toEqual([[-874]]);
    expect(answer("What was the average net bookings for 2019 and 2018?", "report").rows).toEqual([[6825]]);
    expect(answer("What was the operating loss in 2019?", "report").rows).toEqual([["$(120)"]]);
    expect(answer("What was the percentage change in net bookings?", "report").rows[0]![0]).toBeCloseTo(-12.035, 2);
    expect(answer("What was the change in operating loss between 2018 and 2019?", "report").rows).toEqual([[-200]]);
  });

  it("reads month and finishing-place conditions that name no cell", () => {
    expect(answer("how many races were won in the month of june?", "races2").rows).toEqual([[2]]);
    expect(answer("how many times did kim lee place first?", "races2").rows).toEqual([[1]]);
  });

  it("filters by an exact quantity", () => {
    expect(answer("which nations won only 10 silver medals?", "medals").rows).toEqual([["Germany"], ["South Korea"]]);
  });

  it("uses only the usable columns", () => {
    const r = answer("how many silver medals did russia win?", "medals", new Set([1, 2]));
    expect(r.sql).not.toMatch(/silver/);
  });

  it("writes statements the SQL guard admits", () => {
    const schema = fx.tables.get("medals")!;
    const scope = buildGuardScope({
      tables: [schema],
      allowedColumns: schema.columns.map((c) => ({ tableId: "medals", column: c.name })),
      linkedValues: [],
    });
    for (const q of [
      "did germany win more or less bronze medals than russia?",
      "which nation won the least bronze medals?",
      "what nation is listed before germany?",
      "how many nations won more than 20 gold medals?",
    ]) {
      expect(checkSql(answer(q, "medals").sql, scope.scope)).toEqual([]);
    }
  });
});

describe("createWriteSql (the strategy)", () => {
  const index = { db: fx.db, tables: fx.tables } as unknown as OpenedIndex;
  const writeSql = createWriteSql(index);
  const entry = (column: string): SchemaEntry => ({
    tableId: "medals",
    column,
    type: "integer",
    examples: "",
    text: column,
  });
  const plan = (q: string): SubQueryPlan => {
    const a = analyzeQuestion(q);
    return {
      subQuery: q,
      requiredModalities: "table",
      expectedOperator: a.operator,
      needGlobalTableView: false,
      entityMentions: [],
      uncertainty: 0,
      analysis: a as unknown as Record<string, unknown>,
    };
  };
  const base = (q: string, bindings: LinkedValue[], columns = ["Nation", "Silver", "Gold"]) => ({
    query: q,
    subQuery: q,
    plan: plan(q),
    originalQuestion: q,
    allowedColumns: columns.map(entry),
    tables: [fx.tables.get("medals")!],
    bindings,
    expectedAnswerType: "",
    evidence: "",
    prompt: "",
  });

  it("puts every required binding verbatim in the outer WHERE and passes the guard", async () => {
    const q = "how many silver medals did the russians win?";
    const binding: LinkedValue = {
      entity: "russians",
      tableId: "medals",
      column: "Nation",
      matchedValue: "Russia",
      confidence: 1,
      fallbackLevel: 0,
    };
    const sql = await writeSql(base(q, [binding]));
    expect(sql).toContain(`"nation" = 'Russia'`);
    expect(fx.run(sql)).toEqual([["21"]]);
    const schema = fx.tables.get("medals")!;
    const scope = buildGuardScope({
      tables: [schema],
      allowedColumns: ["Nation", "Silver", "Gold"].map((column) => ({ tableId: "medals", column })),
      linkedValues: [binding],
    });
    expect(checkSql(sql, scope.scope)).toEqual([]);
  });

  it("renders fuzzy bindings as LIKE", async () => {
    const binding: LinkedValue = {
      entity: "korea",
      tableId: "medals",
      column: "Nation",
      matchedValue: "Korea",
      confidence: 0.3,
      fallbackLevel: 2,
    };
    const sql = await writeSql(base("how many gold medals did korea win?", [binding]));
    expect(sql).toContain(`"nation" LIKE '%Korea%'`);
    expect(fx.run(sql)).toEqual([["13"]]);
  });

  it("fails closed when C lacks a column the decomposer's plan reads", async () => {
    const q = "how many silver medals did russia win?";
    const input = base(q, [], ["Nation", "Gold"]);
    const a = analyzeQuestion(q);
    a.grounding = {
      tableId: "medals",
      mentions: findMentions(q, fx.catalog("medals")),
      hinted: true,
      columns: ["Nation", "Silver"],
    };
    input.plan = { ...input.plan, analysis: a as unknown as Record<string, unknown> };
    await expect(writeSql(input)).rejects.toThrow(/allowed columns lack Silver/);
  });

  it("throws a named error when no template fits", async () => {
    await expect(writeSql(base("tell me about it", [], ["Nation"]))).rejects.toBeInstanceOf(NoSqlTemplateError);
  });
});

describe("templates with required bindings (HYBRID route)", () => {
  const binding = (column: string, value: string, tableId = "races"): LinkedValue => ({
    entity: value,
    tableId,
    column,
    matchedValue: value,
    confidence: 1,
    fallbackLevel: 0,
  });
  function bound(question: string, table: string, linked: LinkedValue[]): { rows: unknown[][]; violations: string[] } {
    const a = analyzeQuestion(question);
    const catalog = fx.catalog(table);
    const schema = fx.tables.get(table)!;
    const mentions = findMentions(question, catalog, { avoidWords: askedWords(a) });
    const bindings = linked.map((b) => ({
      columnIndex: schema.columns.findIndex((c) => c.name === b.column),
      value: b.matchedValue!,
      fuzzy: false,
    }));
    const plan = planSql({ analysis: a, catalog, mentions, bindings })!;
    const scope = buildGuardScope({
      tables: [schema],
      allowedColumns: schema.columns.map((c) => ({ tableId: table, column: c.name })),
      linkedValues: linked,
    });
    return { rows: fx.run(plan.sql), violations: checkSql(plan.sql, scope.scope) };
  }

  it("keeps 'same … as' and option choices admissible with bound values", () => {
    expect(
      bound("which nation won the same number of silver medals as china?", "medals", [
        binding("Nation", "China", "medals"),
      ]),
    ).toEqual({ rows: [["Russia"]], violations: [] });
    expect(
      bound("did kim lee win in 2002 or 2003?", "races", [
        binding("Winner", "Kim Lee"),
        binding("Year", "2002"),
        binding("Year", "2003"),
      ]),
    ).toEqual({ rows: [["2003"]], violations: [] });
  });

  it("keeps next-row and comparison templates admissible with bound values", () => {
    expect(bound("which venue came after tokyo?", "races", [binding("Venue", "Tokyo")])).toEqual({
      rows: [["Beijing"]],
      violations: [],
    });
    expect(
      bound("did germany win more or less bronze medals than russia?", "medals", [
        binding("Nation", "Germany", "medals"),
        binding("Nation", "Russia", "medals"),
      ]),
    ).toEqual({ rows: [["less"]], violations: [] });
  });
});
