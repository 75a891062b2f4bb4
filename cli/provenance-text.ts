/**
 * The evidence of an answer as `atr ask` prints it: per attempt behind the answer, the cells used
 * (grouped by table row), the SQL that ran with its first result rows and the rows it read, and
 * the passage sentences. Row numbers are 0-based data rows (View 4's rowIdx, SQL `_row`).
 */
import type { Provenance } from "../nodes/types.js";

const RESULT_ROWS_SHOWN = 5;
const ROWS_SHOWN = 20;

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Indented lines describing the evidence; one line saying there is none when the list is empty. */
export function provenanceLines(provenance: readonly Provenance[]): string[] {
  if (provenance.length === 0)
    return ['  (no evidence recorded: the answer is "not found" or was not read from a source)'];
  const out: string[] = [];
  for (const p of provenance) {
    out.push(`  from ${p.route}, attempt ${p.attempt} of "${clip(p.subQuery, 100)}"`);
    if (p.tables.length > 0) out.push(`    table${p.tables.length > 1 ? "s" : ""}: ${p.tables.join(", ")}`);
    const rows = new Map<string, string[]>();
    for (const c of p.cells) {
      const key = `${c.tableId} row ${c.row}`;
      rows.set(key, [...(rows.get(key) ?? []), `${c.column} = ${clip(c.value, 60)}`]);
    }
    for (const [row, cells] of rows) out.push(`    ${row}: ${cells.join(" · ")}`);
    if (p.sql) {
      out.push(`    SQL: ${clip(p.sql.query, 400)}`);
      const shown = p.sql.resultRows.slice(0, RESULT_ROWS_SHOWN).map((r) => JSON.stringify(r));
      const more = p.sql.resultRowCount > shown.length ? ` … (${p.sql.resultRowCount} rows)` : "";
      out.push(`      result: ${shown.length > 0 ? shown.join(", ") : "(no rows)"}${more}`);
      if (p.sql.rows.length > 0) {
        const listed = p.sql.rows.slice(0, ROWS_SHOWN).join(", ");
        out.push(`      rows read: ${listed}${p.sql.rowCount > ROWS_SHOWN ? ` … (${p.sql.rowCount} rows)` : ""}`);
      }
      if (p.sql.rowsUnavailable) out.push(`      (row numbers: ${p.sql.rowsUnavailable})`);
    }
    for (const s of p.passages) out.push(`    passage ${s.id} (${s.file}): "${clip(s.sentence, 240)}"`);
  }
  return out;
}
