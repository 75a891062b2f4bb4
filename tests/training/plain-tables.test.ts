/** The synthetic plain-table training data (training/plain-tables.ts): deterministic, gold from the rows, its scorer. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { plainCorpus, plainCorrect, plainCsv } from "../../training/plain-tables.js";

describe("plainCorpus", () => {
  const corpus = plainCorpus(7);

  it("is deterministic per seed, and another seed gives other rows", () => {
    expect(plainCorpus(7)).toEqual(corpus);
    expect(plainCorpus(8).tables[0]!.rows).not.toEqual(corpus.tables[0]!.rows);
    expect(new Set(corpus.questions.map((q) => q.id)).size).toBe(corpus.questions.length);
  });

  it("asks every kind of everyday question, each over a table of the corpus", () => {
    const kinds = new Set(corpus.questions.map((q) => q.kind));
    for (const k of [
      "lookup",
      "count",
      "sum",
      "average",
      "max-min value",
      "argmax",
      "argmin",
      "threshold",
      "date",
      "count2",
    ])
      expect(kinds.has(k), k).toBe(true);
    const ids = new Set(corpus.tables.map((t) => t.id));
    expect(corpus.questions.every((q) => ids.has(q.table))).toBe(true);
  });

  it("computes the gold from the rows (a filtered count, a maximum, the row holding it)", () => {
    const counts = corpus.questions.filter((x) => x.kind === "count" && /^How many \w+ have \w+ /.test(x.question));
    expect(counts.length).toBeGreaterThan(0);
    for (const q of counts) {
      const t = corpus.tables.find((x) => x.id === q.table)!;
      const m = /^How many \w+ have (\w+) (.+)\?$/.exec(q.question)!;
      const col = t.header.findIndex((h) => h.toLowerCase() === m[1]);
      expect(q.gold).toEqual([t.rows.filter((r) => r[col] === m[2]).length]);
    }
    const max = corpus.questions.find((x) => x.kind === "max-min value" && /maximum/.test(x.question));
    expect(max).toBeDefined();
    const t = corpus.tables.find((x) => x.id === max!.table)!;
    const col = t.header.findIndex((h) =>
      h.toLowerCase().startsWith(/maximum (.+)\?/.exec(max!.question)![1]!.split(" ")[0]!),
    );
    expect(max!.gold).toEqual([Math.max(...t.rows.map((r) => r[col] as number))]);
  });

  it("uses no domain of the everyday suites, which stay the check", () => {
    const suites = readdirSync(join(import.meta.dirname, "..", "fixtures")).filter((f) => f.startsWith("everyday"));
    expect(suites.length).toBeGreaterThan(0);
    const everyday = [
      "employees",
      "products",
      "sales",
      "books",
      "stations",
      "flights",
      "students",
      "invoices",
      "hotel",
      "recipes",
      "podcast",
      "gym",
    ];
    for (const t of corpus.tables)
      expect(
        everyday.some((d) => t.id.startsWith(d)),
        t.id,
      ).toBe(false);
  });

  it("writes CSV with quoted commas and empty cells for nulls", () => {
    expect(plainCsv({ id: "x", header: ["a", "b"], rows: [["1, 2", null]] })).toBe('a,b\n"1, 2",\n');
  });
});

describe("plainCorrect", () => {
  it("matches numbers within 0.006, dates by day, strings case-insensitively and lists as sets", () => {
    expect(plainCorrect([1234.5], "1,234.5")).toBe(true);
    expect(plainCorrect([1234.5], "1234.51")).toBe(false);
    expect(plainCorrect(["2019-05-03"], "May 3, 2019")).toBe(true);
    expect(plainCorrect(["2019-05-03"], "2019-05-04")).toBe(false);
    expect(plainCorrect(["Cape Arlow"], "cape arlow")).toBe(true);
    expect(plainCorrect(["A B", "C D"], "C D | A B")).toBe(true);
    expect(plainCorrect(["A B", "C D"], "A B")).toBe(false);
    expect(plainCorrect([3], "not found")).toBe(false);
  });
});
