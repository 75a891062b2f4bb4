/**
 * Where a table stops being "small". A small table is read whole when a question needs it (its
 * rows embedded in View 4, its values pooled and its catalogue built in memory), which costs time
 * and memory in proportion to its rows; a large table is reached only through what the build
 * computed for it (statistics and lexical indexes in tables.sqlite, see indexing/table-stats.ts),
 * so a question over it costs the same whatever its size. Every table of the WTQ, TAT-QA and
 * HybridQA splits is small (at most 2,234 rows).
 */
export const LARGE_TABLE_ROWS = 5000;

export function isLargeTable(rowCount: number): boolean {
  return rowCount > LARGE_TABLE_ROWS;
}
