/**
 * Post-retrieval chunk selection (reference §4.6), schema restore (§2.3 step 3) and the text
 * evidence rendering (§2.4).
 */
import type { DocChunk, TableSchema } from "../indexing/types.js";
import { tableNameVariants } from "../indexing/identifiers.js";

export interface ChunkSelectionOptions {
  /** Chunks kept (reference: 5). */
  keep?: number;
  /** The question's table hint. */
  tableHint?: string;
}

function matchesHint(chunk: DocChunk, hint: string, variants: string[]): boolean {
  const source = chunk.source.toLowerCase();
  if (variants.some((v) => v !== "" && source.includes(v))) return true;
  return chunk.tableId !== undefined && chunk.tableId.toLowerCase() === hint.toLowerCase();
}

/**
 * From the reranked documents: de-duplicate by (source, text); take the first `keep`; if none is a
 * text chunk, the last slot takes the first text chunk of the remainder; if a hint exists and no
 * selected chunk matches it, the last slot (or an empty list) takes the first matching chunk.
 */
export function selectChunks(hits: readonly DocChunk[], options: ChunkSelectionOptions = {}): DocChunk[] {
  const keep = options.keep ?? 5;
  const seen = new Set<string>();
  const unique: DocChunk[] = [];
  for (const c of hits) {
    const key = `${c.source}\u0000${c.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(c);
  }
  const selected = unique.slice(0, keep);
  if (selected.length > 0 && !selected.some((c) => c.type === "text")) {
    const text = unique.slice(keep).find((c) => c.type === "text");
    if (text) selected[selected.length - 1] = text;
  }
  const hint = options.tableHint?.trim();
  if (hint) {
    const variants = tableNameVariants(hint).map((v) => v.toLowerCase());
    if (!selected.some((c) => matchesHint(c, hint, variants))) {
      const match = unique.find((c) => matchesHint(c, hint, variants));
      if (match) {
        if (selected.length === 0) selected.push(match);
        else selected[selected.length - 1] = match;
      }
    }
  }
  return selected;
}

/** Schema of the first table chunk (in list order) whose table the index knows; null if none. */
export function restoreSchema(
  chunks: readonly DocChunk[],
  tables: ReadonlyMap<string, TableSchema>,
): TableSchema | null {
  for (const c of chunks) {
    if (c.type === "table" && c.tableId !== undefined) return tables.get(c.tableId) ?? null;
  }
  return null;
}

/** `[Source: <file>]` + newline + chunk text, blocks separated by blank lines. */
export function renderTextEvidence(chunks: readonly DocChunk[]): string {
  return chunks.map((c) => `[Source: ${c.source}]\n${c.text}`).join("\n\n");
}
