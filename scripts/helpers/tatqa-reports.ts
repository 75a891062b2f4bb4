/**
 * A TAT-QA-style split read as the benchmark scripts read it, bypassing the index: each question's
 * whole table (as evidence rows and as markdown) and its report's passages. Shared by
 * scripts/tatqa-cells.ts, scripts/tatqa-spans.ts and scripts/train-reading-choice.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadTables } from "../../indexing/load-tables.js";
import type { EvidenceRow } from "../../nodes/offline/evidence.js";

/** The fields of a TAT-QA question the scripts read. */
export interface TatQuestion {
  question_id: string;
  question: string;
  table_id: string;
  answer: string[];
  answer_type: string;
  answer_from: string;
  scale: string;
}

/** One report: its table as evidence rows and as markdown, and its passages' texts. */
export interface Report {
  tableId: string;
  rows: EvidenceRow[];
  markdown: string;
  passages: string[];
}

/** The passages' texts of one report (passages/<table id>.json of the split folder). */
export function reportPassages(dir: string, tableId: string): string[] {
  return (JSON.parse(readFileSync(join(dir, "passages", `${tableId}.json`), "utf8")) as Array<{ text: string }>).map(
    (p) => p.text,
  );
}

/** The reports of a split folder (tables/, passages/), by table id; an unknown id is an error naming the folder. */
export function splitReports(dir: string, script: string): (tableId: string) => Report {
  const tables = new Map(loadTables(join(dir, "tables")).tables.map((t) => [t.id, t]));
  return (tableId) => {
    const t = tables.get(tableId);
    if (!t) throw new Error(`${script}: no table ${tableId} in ${join(dir, "tables")}`);
    const rows = t.rows.map((r, i) => ({
      tableId: t.id,
      rowIdx: i,
      cells: r.map((value, c) => ({ column: t.header[c]!, value })),
    }));
    const passages = reportPassages(dir, tableId);
    const markdown = [t.header, ...t.rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
    return { tableId: t.id, rows, markdown, passages };
  };
}
