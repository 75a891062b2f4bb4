import { describe, expect, it } from "vitest";
import { CrossEncoderReranker } from "../../retrievers/cross-encoder.js";
import { rerank } from "../../retrievers/rerank.js";
import { buildTinyCrossEncoder } from "../fixtures/tiny-models.js";
import { buildTinyIndex, CLUBS } from "../fixtures/tiny-index.js";

describe("local cross-encoder reranker (tiny model built by the test)", () => {
  it("scores [query, passage] pairs and reorders the dense candidates", async () => {
    const ce = await CrossEncoderReranker.load(buildTinyCrossEncoder(["alpha"]));
    const candidates = ["beta club", "alpha club", "alpha alpha city"].map((text, i) => ({
      entry: i,
      text,
      dense: 1 - i / 10,
    }));
    const hits = await rerank(ce, "which club", candidates, 3);
    expect(hits.map((h) => h.entry)).toEqual([2, 1, 0]);
    expect(hits[2]!.score).toBe(0);
  });

  it("serves as the reranker of an opened index", async () => {
    const folder = buildTinyCrossEncoder(["paris"]);
    const index = await buildTinyIndex([CLUBS], []);
    const search = await index.open({ reranker: folder });
    const rows = await search.rows("club", 1, { tableId: "clubs" });
    expect(rows[0]!.entry.values.City).toBe("Paris");
    index.db.close();
  });
});
