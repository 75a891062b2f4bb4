import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../indexing/types.js";
import type { Reranker } from "../../retrievers/rerank.js";
import { buildTinyIndex, type TinyIndex } from "../fixtures/tiny-index.js";

const players: RawTable = {
  id: "players",
  file: "players.csv",
  header: ["Player", "Team", "Secret"],
  rows: [
    ["Saint Etienne Dupont", "Alpha FC", "Saint Etienne"],
    ["Marc Leroy", "Saint Etienne", "x"],
    ["Jean Martin", "Beta United", "y"],
  ],
};

describe("schema + cell retrieval for the value linker (§4.7, test_cell_candidate_ranking)", () => {
  let index: TinyIndex;
  beforeAll(async () => {
    index = await buildTinyIndex([players], []);
  });
  afterAll(() => index.db.close());

  it("restricts candidates to C's columns and ranks them against the bare entity", async () => {
    const queries: string[] = [];
    const recording: Reranker = { name: "rec", score: async (q, cs) => (queries.push(q), cs.map((c) => c.dense)) };
    const search = await index.open({ reranker: recording });
    const result = await search.schemaCells("which team is saint etienne", ["Saint-Etienne"], {
      schemaTopK: 1,
      cellTopK: 15,
      tableIds: ["players"],
    });
    expect(result.columns.map((c) => c.column)).toEqual(["Team"]);
    const cands = result.candidates["Saint-Etienne"]!;
    expect(cands[0]).toMatchObject({ column: "Team", value: "Saint Etienne" });
    expect(cands.every((c) => c.column === "Team")).toBe(true);
    // final ranking is against the bare entity
    expect(queries[queries.length - 1]).toBe("Saint-Etienne");
  });

  it("puts a column whose value the question names into C (entity-based schema linking)", async () => {
    const staff: RawTable = {
      id: "staff",
      file: "staff.csv",
      header: ["Name", "Role", "Salary"],
      rows: [
        ["Ann Lee", "Chef", "100"],
        ["Bo Chan", "Cook", "90"],
        ["Cy Roe", "Host", "80"],
        ["Di Poe", "Cook", "85"],
        ["Zoe Quinn", "Chef", "120"],
      ],
    };
    const idx = await buildTinyIndex([staff], []);
    const plain = await idx.open({ schemaValueLinking: false });
    expect((await plain.schema("what is the salary of zoe quinn", 1, { tableIds: ["staff"] }))[0]!.entry.column).toBe(
      "Salary",
    );
    const linked = await (await idx.open()).schema("what is the salary of zoe quinn", 2, { tableIds: ["staff"] });
    expect(linked.map((h) => h.entry.column)).toEqual(["Name", "Salary"]);
    idx.db.close();
  });

  it("never returns a column outside C, whatever the entity", async () => {
    const search = await index.open();
    const result = await search.schemaCells("player team", ["Saint Etienne"], {
      schemaTopK: 2,
      cellTopK: 15,
      tableIds: ["players"],
    });
    const allowed = new Set(result.columns.map((c) => c.column));
    expect(allowed.has("Secret")).toBe(false);
    expect(result.candidates["Saint Etienne"]!.every((c) => allowed.has(c.column))).toBe(true);
  });

  it("returns empty lists for cell_top_k 0 without any cell retrieval, and rejects a negative one", async () => {
    let calls = 0;
    const counting: Reranker = { name: "count", score: async (_q, cs) => (calls++, cs.map((c) => c.dense)) };
    const search = await index.open({ reranker: counting });
    const result = await search.schemaCells("team", ["Alpha FC", "Beta"], { schemaTopK: 2, cellTopK: 0 });
    expect(result.candidates).toEqual({ "Alpha FC": [], Beta: [] });
    expect(calls).toBe(1); // the schema retrieval only
    await expect(search.schemaCells("team", ["x"], { schemaTopK: 2, cellTopK: -1 })).rejects.toThrow(/cell_top_k/);
  });

  it("gives the same candidates whatever order the schema hits come in", async () => {
    const search = await index.open();
    const a = await search.schemaCells("team player", ["Alpha"], {
      schemaTopK: 2,
      cellTopK: 15,
      tableIds: ["players"],
    });
    const b = await search.schemaCells("player team", ["Alpha"], {
      schemaTopK: 2,
      cellTopK: 15,
      tableIds: ["players"],
    });
    expect(new Set(a.columns.map((c) => c.column))).toEqual(new Set(b.columns.map((c) => c.column)));
    expect(a.candidates.Alpha).toEqual(b.candidates.Alpha);
  });
});

describe("scoped cell retrieval recalls the values a question names", () => {
  // 150 look-alike call signs share the question's words "call sign"; the city the question names does not
  const stations: RawTable = {
    id: "stations",
    file: "stations.csv",
    header: ["Call sign", "City"],
    rows: Array.from({ length: 150 }, (_, i) => [
      `K${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i * 7 + Math.floor(i / 26)) % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
      i === 17 ? "Bismarck" : `Town ${i}`,
    ]),
  };
  let index: TinyIndex;
  beforeAll(async () => {
    index = await buildTinyIndex([stations], []);
  });
  afterAll(() => index.db.close());

  it("finds a city named verbatim although dense recall ranks it below every call sign", async () => {
    const question = "name a call sign in bismarck";
    const dense = await (await index.open({ reranker: "none" })).cells(question, 300, { tableIds: ["stations"] });
    expect(dense.findIndex((h) => h.entry.value === "Bismarck")).toBeGreaterThanOrEqual(150);
    // k = 1 recalls 6 candidates by similarity; the named value joins them and wins the rerank
    const top = await (await index.open()).cells(question, 1, { tableIds: ["stations"] });
    expect(top.map((h) => h.entry.value)).toEqual(["Bismarck"]);
  });

  it("hands a value named with one typing error to the reranker beside the dense candidates", async () => {
    const seen: string[] = [];
    const recording: Reranker = {
      name: "rec",
      score: async (_q, cs) => (seen.push(...cs.map((c) => c.key ?? "")), cs.map((c) => c.dense)),
    };
    await (
      await index.open({ reranker: recording })
    ).cells("name a call sign in bisamrck", 5, { tableIds: ["stations"] });
    expect(seen).toHaveLength(31); // 6 × 5 by similarity + the named one
    expect(seen).toContain("Bismarck");
    expect(seen.filter((v) => v.startsWith("Town"))).toEqual([]);
  });
});
