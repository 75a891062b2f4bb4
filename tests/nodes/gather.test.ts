/** gather: hint-scoped document retrieval first, global fill-in, and recorded retrieval errors. */
import { describe, expect, it } from "vitest";
import { StateAnnotation, type State } from "../../graph/state.js";
import type { DocChunk, Hit } from "../../indexing/types.js";
import { gather } from "../../nodes/gather.js";
import type { NodeResources } from "../../nodes/node-resources.js";
import type { DocumentSearchOptions, IndexSearch } from "../../retrievers/types.js";
import { CLUBS, plan } from "../fixtures/plans.js";

const chunk = (id: number, type: "text" | "table", source: string, tableId?: string): Hit<DocChunk> => ({
  entry: { id, type, source, text: `chunk ${id}`, ...(tableId ? { tableId } : {}) },
  score: 1,
});

function state(tableId: string | undefined): State {
  const defaults = Object.fromEntries(
    Object.entries(StateAnnotation.spec).map(([k, ch]) => [
      k,
      (ch as unknown as { initialValueFactory?: () => unknown }).initialValueFactory?.(),
    ]),
  );
  return {
    ...(defaults as unknown as State),
    question: "Who founded Alpha FC?",
    table_id: tableId,
    plan: plan({ subQuery: "Who founded Alpha FC?" }),
  };
}

function resources(documents: IndexSearch["documents"]): NodeResources {
  const search = { documents } as unknown as IndexSearch;
  return {
    index: async () => ({ dir: "/fake", tables: new Map([["clubs", CLUBS]]), search }),
    strategies: async () => {
      throw new Error("gather calls no strategy");
    },
    sqlExecutor: async () => {
      throw new Error("gather runs no SQL");
    },
  };
}

const config = { configurable: { indexPath: "mem:fake" } };

describe("gather", () => {
  it("puts the hinted table's chunks and linked passages before the global hits", async () => {
    const calls: Array<DocumentSearchOptions | undefined> = [];
    const documents: IndexSearch["documents"] = async (_q, _k, options) => {
      calls.push(options);
      return options?.tableIds
        ? [chunk(7, "text", "clubs.json", "clubs"), chunk(8, "table", "clubs.csv", "clubs")]
        : [
            chunk(1, "text", "other.json"),
            chunk(2, "table", "other.csv", "other"),
            chunk(7, "text", "clubs.json", "clubs"),
          ];
    };
    const update = await gather(state("clubs"), config, resources(documents));
    expect(calls).toEqual([{ tableIds: ["clubs"] }, undefined]);
    expect((update.chunks as DocChunk[]).map((c) => c.id)).toEqual([7, 8, 1, 2]);
    expect((update.schema as { tableId: string } | null)?.tableId).toBe("clubs");
  });

  it("searches globally only when there is no hint", async () => {
    const calls: Array<DocumentSearchOptions | undefined> = [];
    const documents: IndexSearch["documents"] = async (_q, _k, options) => (
      calls.push(options),
      [chunk(1, "text", "a.json")]
    );
    await gather(state(undefined), config, resources(documents));
    expect(calls).toEqual([undefined]);
  });

  it("records a retrieval error instead of hiding it, and goes on with no chunks", async () => {
    const documents: IndexSearch["documents"] = async () => {
      throw new Error("vector file unreadable");
    };
    const update = await gather(state("clubs"), config, resources(documents));
    expect(update.chunks).toEqual([]);
    expect(update.errors).toEqual(["gather: document retrieval failed: vector file unreadable"]);
  });
});
