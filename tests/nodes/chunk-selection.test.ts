import { describe, expect, it } from "vitest";
import type { DocChunk } from "../../indexing/types.js";
import { renderTextEvidence, restoreSchema, selectChunks } from "../../nodes/chunk-selection.js";
import { CLUBS } from "../fixtures/plans.js";

let id = 0;
const table = (source: string, tableId: string, text = `t${id}`): DocChunk => ({
  id: id++,
  type: "table",
  source,
  text,
  tableId,
});
const text = (source: string, t = `p${id}`): DocChunk => ({ id: id++, type: "text", source, text: t });

describe("chunk selection (§4.6)", () => {
  it("de-duplicates and keeps the first five", () => {
    const a = text("a.json", "same");
    const hits = [a, { ...a, id: 99 }, text("b"), text("c"), text("d"), text("e"), text("f")];
    expect(selectChunks(hits).map((c) => c.source)).toEqual(["a.json", "b", "c", "d", "e"]);
  });
  it("puts the first text chunk into the last slot when none was selected", () => {
    const hits = [
      table("t1.csv", "t1"),
      table("t2.csv", "t2"),
      table("t3.csv", "t3"),
      table("t4.csv", "t4"),
      table("t5.csv", "t5"),
      text("p.json"),
    ];
    const out = selectChunks(hits);
    expect(out[4]!.source).toBe("p.json");
  });
  it("brings in the hinted table when no selected chunk matches it (may overwrite the text slot)", () => {
    const hits = [
      table("t1.csv", "t1"),
      table("t2.csv", "t2"),
      table("t3.csv", "t3"),
      table("t4.csv", "t4"),
      table("t5.csv", "t5"),
      text("p.json"),
      table("Clubs.csv", "Clubs"),
    ];
    const out = selectChunks(hits, { tableHint: "clubs" });
    expect(out).toHaveLength(5);
    expect(out[4]!.tableId).toBe("Clubs");
  });
  it("restores the schema of the first table chunk and renders evidence", () => {
    const chunks = [text("p.json", "hello"), table("clubs.csv", "clubs", "| Club |")];
    expect(restoreSchema(chunks, new Map([["clubs", CLUBS]]))).toBe(CLUBS);
    expect(restoreSchema([text("p.json")], new Map([["clubs", CLUBS]]))).toBeNull();
    expect(renderTextEvidence(chunks)).toBe("[Source: p.json]\nhello\n\n[Source: clubs.csv]\n| Club |");
  });
});
