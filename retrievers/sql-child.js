// @ts-check
/**
 * The process that `ProcessSqlExecutor` (retrievers/sql-executor.ts) forks: one read-only connection
 * to the tables.sqlite named in ATR_SQL_CHILD, fed statements over IPC, answering each with the
 * outcome of `runReadOnly`. The parent kills it with SIGKILL at the time limit. It exits when the
 * parent goes away.
 */
import Database from "better-sqlite3";
import { runReadOnly } from "./sql-statement-runner.js";

/** @type {{ path: string, maxRows: number, timeoutMs: number }} */
const cfg = JSON.parse(process.env.ATR_SQL_CHILD ?? "{}");
const send = (/** @type {unknown} */ message) => process.send?.(message);

/** @type {import("better-sqlite3").Database | null} */
let db = null;
let openError = "";
try {
  db = new Database(cfg.path, { readonly: true, fileMustExist: true });
} catch (e) {
  openError = `cannot open ${cfg.path}: ${String((e && /** @type {Error} */ (e).message) || e)}`;
}
process.on("disconnect", () => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group: the parent decides (`atr run` finishes the
// questions in flight, whose statements run here); this child ends with the parent's IPC channel.
process.on("SIGINT", () => undefined);
send({ ready: true });
process.on("message", (/** @type {{ id: number, sql: string }} */ m) => {
  const out = db ? runReadOnly(db, m.sql, cfg.maxRows, cfg.timeoutMs) : { ok: false, error: openError };
  send({ id: m.id, out });
});
