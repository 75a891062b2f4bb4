/**
 * A table over LARGE_TABLE_ROWS is reached through its build-time statistics and indexes: the
 * offline catalogue read from them says what the in-memory catalogue of the same rows says, value
 * and row search find what the question names, and opening the index reads nothing row by row.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildIndex } from "../../indexing/build-index.js";
import { LARGE_TABLE_ROWS } from "../../indexing/table-size.js";
import { bestPairs } from "../../indexing/cell-selection.js";
import { openSqlStore, storedTable } from "../../indexing/sql-store.js";
import { askedWords, findMentions } from "../../nodes/offline/mentions.js";
import { analyzeQuestion } from "../../nodes/offline/analysis.js";
import { planContext } from "../../nodes/offline/plans/registry.js";
import { superlativeFrequency } from "../../nodes/offline/plans/superlative.js";
import { catalogFromRows, loadCatalog, sameRawText } from "../../nodes/offline/table-catalog.js";
import { openSearchableIndex, type SearchableIndex } from "../../retrievers/open-search.js";
import { rowRecall } from "../../retrievers/row-search.js";
import { ftsAnyOf, rowsFtsTable } from "../../indexing/table-stats.js";
import { normaliseText } from "../../text/normalise.js";

const N = LARGE_TABLE_ROWS + 1500;
const FIRST = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo"];
const LAST = [
  "Abbott",
  "Brennan",
  "Castillo",
  "Dorsey",
  "Ekwueme",
  "Fontaine",
  "Gallagher",
  "Horvath",
  "Ibsen",
  "Jovanovic",
  "Kowalski",
];
const CITIES = ["Port Alder", "Brackwater", "Carrow", "Dunmere", "East Fenwick"];
const rowOf = (i: number) => [
  String(i + 1),
  `${FIRST[i % 8]} ${LAST[Math.floor(i / 8) % 11]} ${i}`,
  CITIES[i % 5]!,
  String(1000 + ((i * 37) % 5000)),
  `20${String(10 + (i % 10))}-0${1 + (i % 9)}-1${i % 10}`,
];

let root: string;
let index: SearchableIndex;
let rows: string[][];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-large-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  rows = Array.from({ length: N }, (_, i) => rowOf(i));
  rows.push(["", "Total", "", "9999999", ""]);
  writeFileSync(
    join(root, "tables", "people.csv"),
    ["id,name,city,score,date", ...rows.map((r) => r.join(","))].join("\n") + "\n",
  );
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
  index = await openSearchableIndex(join(root, "index"));
}, 120_000);
afterAll(() => {
  index?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("large tables", () => {
  it("embed no row entries and keep the statistics in tables.sqlite", () => {
    expect(index.manifest.counts.rows).toBe(N + 1);
    expect(index.manifest.counts.rowEntries).toBe(0);
    expect(index.db.prepare("SELECT COUNT(*) FROM _column_stats WHERE table_id = 'people'").pluck().get()).toBe(5);
    expect(index.db.prepare("SELECT COUNT(*) FROM _values WHERE table_id = 'people' AND col = 1").pluck().get()).toBe(
      N + 1,
    );
  });

  it("chunk only the first LARGE_TABLE_ROWS rows into Views 1–2 (the rest are searched through tables.sqlite)", () => {
    const ids = index.views.docIds({ type: "table" });
    const texts = ids.map((id) => index.views.docs.get(id).text).join("\n");
    expect(texts).toContain(`| ${rows[LARGE_TABLE_ROWS - 1]!.join(" | ")} |`);
    expect(texts).not.toContain(`| ${rows[LARGE_TABLE_ROWS]!.join(" | ")} |`);
    expect(texts).not.toContain(rows[N - 10]![1]);
  });

  it("the catalogue from the build-time statistics agrees with the in-memory one", () => {
    const schema = index.tables.get("people")!;
    const large = loadCatalog(index.db, schema);
    const full = catalogFromRows(schema, rows);
    expect(large.rowCount).toBe(full.rowCount);
    expect([...large.summaryRows]).toEqual([...full.summaryRows]);
    expect([...large.headerRows]).toEqual([...full.headerRows]);
    expect([...large.columnYears]).toEqual([...full.columnYears]);
    large.columns.forEach((c, i) => {
      const f = full.columns[i]!;
      expect([c.numericShare, c.yearShare, c.timeShare]).toEqual([f.numericShare, f.yearShare, f.timeShare]);
      expect(c.distinct.size).toBe(f.distinct.size);
    });
    // rows past the in-memory sample are read from tables.sqlite
    const name = large.columns[1]!;
    expect(name.raw[N - 3]).toBe(rows[N - 3]![1]);
    expect(name.norm[N - 3]).toBe(full.columns[1]!.norm[N - 3]);
    expect(large.columns[3]!.num[N - 3]).toBe(full.columns[3]!.num[N - 3]);
    // array methods visit the in-memory sample (the first LARGE_TABLE_ROWS rows) only, as they did through the proxy
    const sample = full.columns[1]!.raw.slice(0, LARGE_TABLE_ROWS);
    expect(name.raw.length).toBe(LARGE_TABLE_ROWS);
    expect(name.raw.filter((v) => v.endsWith("7"))).toEqual(sample.filter((v) => v.endsWith("7")));
    expect([...name.raw]).toEqual(sample);
    expect(name.raw.some((v) => v === rows[N - 3]![1])).toBe(false);
    expect(large.columns[3]!.num.map((v) => v)).toEqual(full.columns[3]!.num.slice(0, LARGE_TABLE_ROWS));
    // do rows hold one text? the index answers as reading the rows would (in the sample, past it, outside the table)
    const city = large.columns[2]!;
    const carrow = full.columns[2]!.distinct.get("carrow")!;
    const mixed = [carrow[0]!, N - 2, ...carrow.slice(1)];
    for (const some of [
      carrow,
      [...carrow].reverse(),
      mixed,
      [...mixed].reverse(),
      [N - 3, N - 3],
      [N - 3],
      [],
      [N + 7, -1],
      [N + 7, 2],
      [0, 2.5],
    ]) {
      expect(sameRawText(city, some)).toBe(sameRawText(full.columns[2]!, some));
      expect(sameRawText(city, some)).toBe(new Set(some.map((r) => city.raw[r])).size <= 1);
    }
    expect(carrow.length).toBeGreaterThan(1);
    expect(sameRawText(city, carrow)).toBe(true);
    expect(sameRawText(city, mixed)).toBe(rows[N - 2]![2] === rows[carrow[0]!]![2]);
    const key = full.columns[1]!.norm[N - 3]!;
    expect(name.distinct.get(key)).toEqual(full.columns[1]!.distinct.get(key));
    expect(large.columns[2]!.distinct.get("carrow")).toEqual(full.columns[2]!.distinct.get("carrow"));
    expect(large.tokenIndex.get("kowalski")).toEqual(full.tokenIndex.get("kowalski"));
    expect(large.tokenIndex.get("nowhere")).toBeUndefined();
    const typoWords = [...large.tokenIndex.keys()];
    expect(typoWords).toEqual(expect.arrayContaining(["kowalski", "brackwater"]));
    expect(typoWords.every((w) => w.length >= 5 && !/\d/.test(w))).toBe(true);
  });

  it("a value that is one number is found by its text, not through the FTS index (which it is left out of)", async () => {
    const schema = index.tables.get("people")!;
    const large = loadCatalog(index.db, schema);
    const full = catalogFromRows(schema, rows);
    // row N - 4 has the id N - 3, and row N - 3 a name ending with that number ("… Kowalski 6497")
    const word = String(N - 3);
    const keys = [...large.tokenIndex.get(word)!];
    expect(keys).toEqual([...full.tokenIndex.get(word)!]);
    expect(keys).toEqual(expect.arrayContaining([`0:${word}`, `1:${normaliseText(rows[N - 3]![1]!)}`]));
    const inFts = (w: string) =>
      index.db.prepare("SELECT COUNT(*) FROM _values_fts WHERE _values_fts MATCH ?").pluck().get(`"${w}"`);
    expect(inFts(word)).toBe(1); // the name only
    expect(index.db.prepare("SELECT COUNT(*) FROM _values WHERE norm = ?").pluck().get(word)).toBeGreaterThan(0);
    expect(inFts("kowalski")).toBeGreaterThan(0);
    const cells = await index.search.cells(`person number ${word}`, 5, { tableIds: ["people"] });
    expect(cells.map((h) => `${h.entry.column}=${h.entry.value}`)).toContain(`id=${word}`);
  });

  it("the cell budget reads only the columns whose cells can beat its choice, and chooses as if it read all", () => {
    const stats = index.db
      .prepare(
        "SELECT col, distinct_count, max_freq, unvalued_rows, max_chars, digits_only FROM _column_stats ORDER BY col",
      )
      .all() as Array<Record<string, number>>;
    // id: unique, digits only (the totals row's is empty); name: unique; city: five values; score: digits; date
    expect(stats.map((r) => [r.max_freq, r.digits_only])).toEqual([
      [1, 1],
      [1, 0],
      [N / 5, 0],
      [expect.any(Number), 1],
      [expect.any(Number), 0],
    ]);
    expect(stats[2]!.distinct_count).toBe(5);
    expect(stats.every((r) => r.unvalued_rows === (r.col === 1 || r.col === 3 ? 0 : 1))).toBe(true); // the totals row's empty cells
    expect(stats[1]!.max_chars).toBe(Math.max(...rows.map((r) => r[1]!.length)));
    const store = openSqlStore(join(root, "index", "tables.sqlite"));
    try {
      const schema = index.tables.get("people")!;
      const stored = storedTable(store, schema, (c) => c);
      const read: number[] = [];
      const spied = (c: number) => (read.push(c), stored.distinctCells(c));
      const all = bestPairs(stored.raw, 50, stored.distinctCells);
      const bounded = bestPairs(stored.raw, 50, spied, stored.columnBounds);
      expect(bounded.best).toEqual(all.best);
      expect(bounded.count).toBeGreaterThanOrEqual(50);
      expect(all.count).toBeGreaterThan(bounded.count);
      // the five cities (1,300 rows each) come first; ids and scores (digits) cannot beat them and are not read
      expect(read[0]).toBe(2);
      expect(read).not.toContain(0);
      expect(read).not.toContain(3);
    } finally {
      store.close();
    }
  });

  it("finds the mentions the in-memory catalogue finds", () => {
    const schema = index.tables.get("people")!;
    const large = loadCatalog(index.db, schema);
    const full = catalogFromRows(schema, rows);
    for (const q of [
      `What is the score of ${rows[N - 10]![1]}?`,
      "How many people live in Carrow?",
      "Who from East Fenwick has the highest score?",
      "scores of people in Brakwater",
    ]) {
      expect(findMentions(q, large)).toEqual(findMentions(q, full));
    }
  });

  it("scoped cell search and row search find the named value and row beyond the first rows", async () => {
    const target = rows[N - 10]!;
    const cells = await index.search.cells(target[1]!, 3, { tableIds: ["people"] });
    expect(cells[0]!.entry).toMatchObject({ column: "name", value: target[1] });
    const found = await index.search.rows(`score of ${target[1]}`, 3, { tableId: "people" });
    expect(found[0]!.entry).toMatchObject({ rowIdx: N - 10, values: { name: target[1], score: target[3] } });
    const schema = await index.search.schema(`score of ${target[1]}`, 3, { tableIds: ["people"] });
    expect(schema.map((h) => h.entry.column)).toContain("name");
  });

  it("a repeated row search is answered from the last searches, by table, k and query", async () => {
    const target = rows[N - 20]!;
    const first = await index.search.rows(`score of ${target[1]}`, 3, { tableId: "people" });
    const prepare = vi.spyOn(index.db, "prepare");
    const again = await index.search.rows(`score of ${target[1]}`, 3, { tableId: "people" });
    expect(prepare).not.toHaveBeenCalled();
    expect(again).toEqual(first);
    again[0]!.score = -1; // a caller's change stays its own
    expect((await index.search.rows(`score of ${target[1]}`, 3, { tableId: "people" }))[0]!.score).toBe(
      first[0]!.score,
    );
    const other = await index.search.rows(`score of ${rows[N - 30]![1]}`, 3, { tableId: "people" });
    expect(prepare).toHaveBeenCalled();
    expect(other[0]!.entry.rowIdx).toBe(N - 30);
    expect(await index.search.rows(`score of ${target[1]}`, 1, { tableId: "people" })).toHaveLength(1);
    prepare.mockRestore();
  });

  it("row recall ranks a frequent word's rows among its first ones only, and the rows of rarer words first", () => {
    const db = index.db!;
    const fts = rowsFtsTable(0);
    const plain = (words: string[], n: number) =>
      db
        .prepare(`SELECT rowid FROM "${fts}" WHERE "${fts}" MATCH ? ORDER BY rank LIMIT ?`)
        .pluck()
        .all(ftsAnyOf(words)!, n) as number[];
    const target = rows[N - 40]!;
    const named = target[1]!.toLowerCase().split(" ");
    // no word over the bound: what FTS5 ranks over every match
    for (const words of [["carrow"], ["port", "alder", "people"], [...named, "carrow"]])
      expect(rowRecall(db, fts, words, 30)).toEqual(plain(words, 30));
    // each city is held by 1,300 rows: over a bound of 200 they are frequent
    const city = rowRecall(db, fts, ["carrow"], 30, 200);
    expect(city).toHaveLength(30);
    const carrowRows = rows.flatMap((r, i) => (r[2] === "Carrow" ? [i] : []));
    expect(city.every((id) => carrowRows.slice(0, 200).includes(id))).toBe(true);
    // the row a rare word names comes first, the frequent word's rows fill the rest
    const rare = String(N - 40);
    const holders = plain([rare], 100);
    expect(holders.length).toBeGreaterThan(0);
    const both = rowRecall(db, fts, [rare, "carrow"], 10, 200);
    expect(both).toHaveLength(10);
    expect(both.slice(0, holders.length)).toEqual(holders);
    expect(both.slice(holders.length).every((id) => carrowRows.includes(id))).toBe(true);
    // a word no row holds, or none at all
    expect(rowRecall(db, fts, ["zzzqx"], 10, 200)).toEqual([]);
    expect(rowRecall(db, fts, [], 10, 200)).toEqual([]);
  });

  it("the most frequent value is not asked of a column whose statistics say every value is unique", () => {
    const schema = index.tables.get("people")!;
    const large = loadCatalog(index.db, schema);
    const full = catalogFromRows(schema, rows);
    expect(large.columns.map((c) => c.maxFreq)).toEqual([1, 1, 1300, expect.any(Number), expect.any(Number)]);
    expect(full.columns.every((c) => c.maxFreq === undefined)).toBe(true);
    const plan = (catalog: typeof large, question: string) => {
      const analysis = analyzeQuestion(question);
      const mentions = findMentions(question, catalog, { avoidWords: askedWords(analysis) });
      return superlativeFrequency.build(planContext({ analysis, catalog, mentions }));
    };
    // over unique names the grouping could only return a tie of ones: no plan on the large table
    expect(plan(full, "Which name is the most common?")?.sql).toMatch(/GROUP BY "name__raw"/);
    expect(plan(large, "Which name is the most common?")).toBeNull();
    // a column with repeated values still gets it
    expect(plan(large, "Which city is the most common?")?.sql).toMatch(/GROUP BY "city__raw"/);
  });
});
