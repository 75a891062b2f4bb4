/**
 * Table → passage bridge for the offline backbone (HybridQA-style questions: "What is the estimated
 * population of the hometown of the first African American winner?"). The question's words select
 * the table row it describes — through the row's cells and, more weakly, the passages its cells
 * link to — and the titles of those linked passages name what the next sub-query is about:
 * "… ? (about: Ashley Coleman; Manchester, New Hampshire)". Retrieval then finds those passages and
 * the extractive reader reads the answer from them.
 */
import type Database from "better-sqlite3";
import { quoteIdent } from "../../indexing/sql-store.js";
import type { Passage, TableSchema } from "../../indexing/types.js";
import { ROW_ID_COLUMN } from "../../indexing/types.js";
import { tablesForHint } from "../schema-scope.js";
import { keyStems } from "./evidence.js";

export interface BridgeIndex {
  db: Database.Database;
  tables: Map<string, TableSchema>;
  passages: readonly Passage[];
}

export interface BridgeOptions {
  /** Weight of a word found only in a row's linked passages (cells weigh 1). Default 0.3. */
  passageWeight?: number;
  /** Titles named in the sub-query at most. Default 4. */
  maxTitles?: number;
}

interface TableLinks {
  rows: Array<{ cells: Set<string>; passages: Passage[]; passageStems: Set<string> }>;
}

/** Builds the bridge over an index; tables are read once, on first use. */
export function createBridge(index: BridgeIndex, options: BridgeOptions = {}): (question: string, tableHint?: string) => string | undefined {
  const passageWeight = options.passageWeight ?? 0.3;
  const maxTitles = options.maxTitles ?? 4;
  const byTable = new Map<string, Passage[]>();
  for (const p of index.passages) if (p.tableId && p.cells?.length) byTable.set(p.tableId, [...(byTable.get(p.tableId) ?? []), p]);
  const cache = new Map<string, TableLinks>();

  const linksOf = (table: TableSchema): TableLinks => {
    let links = cache.get(table.tableId);
    if (links) return links;
    const cols = table.columns.map((c) => quoteIdent(c.rawPhysical)).join(", ");
    const raw = index.db.prepare(`SELECT ${quoteIdent(ROW_ID_COLUMN)} AS r, ${cols} FROM ${quoteIdent(table.physical)} ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`).raw().all() as unknown[][];
    const passages = byTable.get(table.tableId) ?? [];
    links = {
      rows: raw.map((row) => {
        const r = Number(row[0]);
        const linked = passages.filter((p) => p.cells!.some(([pr]) => pr === r));
        return {
          cells: keyStems(row.slice(1).map((v) => String(v ?? "")).join(" ")),
          passages: linked,
          passageStems: keyStems(linked.map((p) => p.text.slice(0, 600)).join(" ")),
        };
      }),
    };
    cache.set(table.tableId, links);
    return links;
  };

  return (question, tableHint) => {
    if (!tableHint) return undefined;
    const id = tablesForHint(tableHint, index.tables)[0];
    const table = id ? index.tables.get(id) : undefined;
    if (!table || !byTable.has(table.tableId)) return undefined;
    const { rows } = linksOf(table);
    if (rows.length === 0) return undefined;
    const q = keyStems(question);
    const df = new Map<string, number>();
    for (const row of rows) for (const s of row.cells) df.set(s, (df.get(s) ?? 0) + 1);
    const idf = (s: string) => Math.log(1 + (rows.length + 1) / ((df.get(s) ?? 0) + 0.5));
    let best = -1;
    let bestScore = 0;
    rows.forEach((row, i) => {
      let score = 0;
      for (const s of q) {
        if (row.cells.has(s)) score += idf(s);
        else if (row.passageStems.has(s)) score += passageWeight * idf(s);
      }
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best < 0 || rows[best]!.passages.length === 0) return undefined;
    const titles = [...new Set(rows[best]!.passages.map((p) => (p.title ?? "").trim()).filter((t) => t !== ""))].slice(0, maxTitles);
    return titles.length ? `${question} (about: ${titles.join("; ")})` : undefined;
  };
}
