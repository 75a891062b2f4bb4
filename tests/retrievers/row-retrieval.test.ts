import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../indexing/types.js";
import type { Reranker } from "../../retrievers/rerank.js";
import { buildTinyIndex, type TinyIndex } from "../fixtures/tiny-index.js";

const WORDS = [
  "amber",
  "basalt",
  "cobalt",
  "dune",
  "ember",
  "fjord",
  "garnet",
  "harbor",
  "indigo",
  "jasper",
  "kelp",
  "lagoon",
];
const query = WORDS.join(" ");

// 12 target rows: row i shares 12 − i words with the query; 120 distractor rows share all 12 (more similar)
const target: RawTable = {
  id: "target",
  file: "target.csv",
  header: ["Words"],
  rows: WORDS.map((_, i) => [WORDS.slice(0, 12 - i).join(" ")]),
};
const distractors: RawTable = {
  id: "distractors",
  file: "distractors.csv",
  header: ["Words"],
  rows: Array.from({ length: 120 }, (_, i) => [`${query} ${i}`]),
};

describe("row retrieval scoped to one table (test_row_retrieval)", () => {
  let index: TinyIndex;
  afterAll(() => index?.db.close());

  it("returns 10 rows of the target table only, in similarity order", async () => {
    index = await buildTinyIndex([distractors, target], []);
    const search = await index.open();
    const hits = await search.rows(query, 10, { tableId: "target" });
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => h.entry.tableId === "target")).toBe(true);
    expect(hits.map((h) => h.entry.rowIdx)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("asks the reranker about exactly min(10 × 6, 12) = 12 candidates", async () => {
    const sizes: number[] = [];
    const counting: Reranker = {
      name: "count",
      score: async (_q, cs) => (sizes.push(cs.length), cs.map((c) => c.dense)),
    };
    const search = await index.open({ reranker: counting });
    await search.rows(query, 10, { tableId: "target" });
    expect(sizes).toEqual([12]);
  });

  it("adds structural candidates: the row after the one a question names, the first and last rows", async () => {
    const races: RawTable = {
      id: "races",
      file: "races.csv",
      header: ["Race", "Winner", "Points"],
      rows: Array.from({ length: 40 }, (_, i) => [
        `Grand Prix ${["Monaco", "Spa", "Monza", "Suzuka"][i % 4]} ${i}`,
        `Driver ${i}`,
        String(10 + ((i * 7) % 40)),
      ]),
    };
    const idx = await buildTinyIndex([races], []);
    const search = await idx.open();
    const after = await search.rows("who won the race after grand prix spa 13?", 10, { tableId: "races" });
    expect(after.map((h) => h.entry.rowIdx)).toContain(14);
    const first = await search.rows("who won the first grand prix?", 10, { tableId: "races" });
    expect(first.map((h) => h.entry.rowIdx)).toContain(0);
    const most = await search.rows("which driver had the most points?", 10, { tableId: "races" });
    const maxRow = races.rows.reduce((best, r, i) => (Number(r[2]) > Number(races.rows[best]![2]) ? i : best), 0);
    expect(most.map((h) => h.entry.rowIdx)).toContain(maxRow);
    const header: RawTable = {
      id: "fin",
      file: "fin.csv",
      header: ["col_0", "col_1", "col_2"],
      rows: [
        ["", "2019", "2018"],
        ["Revenue", "1,200", "1,100"],
        ...Array.from({ length: 20 }, (_, i) => [`Item ${i}`, String(i * 10), String(i * 9)]),
      ],
    };
    const fin = await buildTinyIndex([header], []);
    const inYear = await (await fin.open()).rows("in which year was item 7 below 80?", 10, { tableId: "fin" });
    expect(inYear.map((h) => h.entry.rowIdx)).toContain(0);
    fin.db.close();
    const off = await idx.open({ rowStructure: false });
    expect(
      (await off.rows("who won the first grand prix?", 3, { tableId: "races" })).map((h) => h.entry.rowIdx),
    ).not.toContain(0);
    idx.db.close();
  });
});
