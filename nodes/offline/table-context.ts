/**
 * Context the offline readers may consult beyond the evidence they are handed: the passages that
 * go with the tables the evidence shows. Financial reports declare the scale of their amounts
 * ("amounts in thousands") in a paragraph that the five selected chunks often leave out; a computed
 * amount needs that scale to be scored right. Only the scale is read from this context.
 */
import type { Passage } from "../../indexing/types.js";

/** The passages that go with one table (its report's paragraphs), "" when it has none. */
export type TablePassages = (tableId: string) => string;

/**
 * Evidence text → extra text (passages of the tables named in it); `ofTable` gives one table's own
 * passages, so that a value read from a table takes the scale its own report declares, not the scale
 * of another report whose chunks were retrieved beside it.
 */
export type ScaleContext = ((evidence: string) => string) & { ofTable?: TablePassages };

/** Table ids named in evidence: `Table name: …`, `[Table …, row …]`, `[Source: <id>.<ext>]`. */
export function tableIdsIn(evidence: string): string[] {
  const ids = new Set<string>();
  for (const m of evidence.matchAll(/^Table name:\s*(.+)$/gm)) ids.add(m[1]!.trim());
  for (const m of evidence.matchAll(/\[Table (.+?), row \d+\]/g)) ids.add(m[1]!.trim());
  for (const m of evidence.matchAll(/\[Source:\s*(.+?)\.(?:csv|json|txt|md|xlsx)\]/g)) ids.add(m[1]!.trim());
  for (const m of evidence.matchAll(/Table:\s*([^|\n]+?)\s*\|\s*Column:/g)) ids.add(m[1]!.trim());
  return [...ids];
}

/** A ScaleContext over an index's passages (grouped once by table id). */
export function passageScaleContext(passages: readonly Passage[]): ScaleContext {
  const byTable = new Map<string, string>();
  for (const p of passages) {
    if (!p.tableId) continue;
    byTable.set(p.tableId, `${byTable.get(p.tableId) ?? ""}\n${p.text}`);
  }
  const context: ScaleContext = (evidence) =>
    tableIdsIn(evidence)
      .map((id) => byTable.get(id) ?? "")
      .filter((t) => t !== "")
      .join("\n");
  context.ofTable = (tableId) => byTable.get(tableId) ?? "";
  return context;
}
