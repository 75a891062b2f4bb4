/**
 * Speed of the SQL safety layer: guard checks per statement, and executor overhead per query
 * (inline vs persistent worker) over a 10,000-row View 5 fixture. Run: npx tsx scripts/bench-sql.ts
 */
import { openSqlExecutor } from "../retrievers/sql-executor.js";
import { buildGuardScope, checkSql } from "../retrievers/sql-guard.js";
import { CLUBS, STADIUMS, linked, writeFixtureDb } from "../tests/retrievers/sql-fixtures.js";

const scope = buildGuardScope({
  tables: [CLUBS, STADIUMS],
  allowedColumns: [
    ...["Club", "City", "Founded"].map((column) => ({ tableId: "clubs", column })),
    ...["Stadium", "City", "Capacity"].map((column) => ({ tableId: "stadiums", column })),
  ],
  linkedValues: [linked("Club", "Alpha FC", 0, "clubs")],
}).scope;
const queries: Record<string, string> = {
  lookup: "SELECT clubs.city FROM clubs WHERE clubs.club = 'Alpha FC'",
  cte: "WITH a AS (SELECT club, city, founded FROM clubs) SELECT founded FROM a WHERE club = 'Alpha FC' AND founded > 1900 ORDER BY founded DESC LIMIT 1",
  join: "SELECT s.capacity FROM clubs c JOIN stadiums s ON s.city = c.city WHERE c.club = 'Alpha FC' ORDER BY s.capacity DESC LIMIT 1",
  refused: "SELECT secret FROM clubs WHERE club = 'Alpha FC' OR 1 = 1",
};
for (const [name, sql] of Object.entries(queries)) {
  for (let i = 0; i < 200; i++) checkSql(sql, scope);
  const n = 2000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) checkSql(sql, scope);
  console.log(`guard ${name.padEnd(8)} ${((performance.now() - t0) / n).toFixed(3)} ms/check`);
}
const path = writeFixtureDb(undefined, 10_000);
for (const mode of ["inline", "process"] as const) {
  const executor = openSqlExecutor(path, { mode });
  await executor.execute("SELECT 1");
  const n = 1000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await executor.execute("SELECT club FROM clubs WHERE _row = 4242");
  const point = (performance.now() - t0) / n;
  const t1 = performance.now();
  for (let i = 0; i < 50; i++)
    await executor.execute("SELECT city, COUNT(*) AS n FROM clubs GROUP BY city ORDER BY n DESC LIMIT 1");
  const agg = (performance.now() - t1) / 50;
  console.log(
    `executor ${mode.padEnd(6)} point query ${point.toFixed(3)} ms, group-by over 10k rows ${agg.toFixed(2)} ms`,
  );
  await executor.close();
}
const limited = openSqlExecutor(path, { mode: "process", timeoutMs: 100 });
await limited.execute("SELECT 1");
const t2 = performance.now();
const out = await limited.execute("SELECT COUNT(*) FROM clubs a, clubs b, clubs c");
console.log(`process time limit 100 ms: control back after ${(performance.now() - t2).toFixed(0)} ms (${out.result})`);
await limited.close();
