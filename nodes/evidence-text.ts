/**
 * How the routes render evidence for a prompt (RETRIEVE, SQL and HYBRID share these): allowed
 * columns, matched cell values, table rows and table-chunk markdown.
 */
import type { DocChunk, RowEntry, SchemaEntry } from "../indexing/types.js";
import type { LinkedValue } from "./types.js";
import { isMatched } from "./value-linker.js";

/** Table-chunk markdown budget when no rows are available (reference: 4000 chars). */
export const MARKDOWN_CHARS = 4000;

/** "Table: t | Column: c (type) | Examples: e", one line per allowed column. */
export function schemaInfo(columns: readonly SchemaEntry[]): string {
  return columns
    .map((s) => `Table: ${s.tableId} | Column: ${s.column} (${s.type}) | Examples: ${s.examples}`)
    .join("\n");
}

/** "Entity 'e' → table.column = 'v'" per matched value, or "(no values matched)". */
export function cellInfo(linked: readonly LinkedValue[]): string {
  const lines = linked
    .filter(isMatched)
    .map(
      (v) =>
        `Entity '${v.entity}' → ${v.tableId ? `${v.tableId}.` : ""}${v.column} ${v.fallbackLevel === 2 ? "LIKE" : "="} '${v.matchedValue}'`,
    );
  return lines.length ? lines.join("\n") : "(no values matched)";
}

/** "[Table <id>, row <idx>]" then indented "col: value" lines (empty values skipped), blank-line separated. */
export function renderRows(rows: readonly RowEntry[]): string {
  return rows
    .map((r) => {
      const cells = Object.entries(r.values)
        .filter(([, v]) => v !== undefined && v !== null && String(v).trim() !== "")
        .map(([k, v]) => `  ${k}: ${v}`);
      return [`[Table ${r.tableId}, row ${r.rowIdx}]`, ...cells].join("\n");
    })
    .join("\n\n");
}

/** Table chunks as "[Source: …]" blocks, at most `limit` characters in total. */
export function tableMarkdown(chunks: readonly DocChunk[], limit = MARKDOWN_CHARS): string {
  let out = "";
  for (const ch of chunks) {
    if (ch.type !== "table") continue;
    const block = `${out ? "\n\n" : ""}[Source: ${ch.source}]\n${ch.text}`;
    if (out.length + block.length > limit) {
      out += block.slice(0, Math.max(0, limit - out.length));
      break;
    }
    out += block;
  }
  return out;
}
