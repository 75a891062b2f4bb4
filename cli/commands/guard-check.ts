/**
 * `atr guard-check`: show what the SQL guard (retrievers/sql-guard.ts) admits or refuses, and why —
 * for one statement, or (`--batch FILE`, `-` = stdin) for a corpus: one JSON string per input line,
 * one `{"admissible": bool, "violations": [...]}` line out per input line, in order.
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import type { TableSchema } from "../../indexing/types.js";
import type { GuardScope } from "../../retrievers/sql-guard.js";
import type { LinkedValue } from "../../retrievers/types.js";

const FLAGS: FlagSpecs = {
  index_path: { kind: "string", help: "index directory (its tables.sqlite is opened read-only) [required]" },
  table_id: { kind: "string", help: "table in scope (repeat for several) [required]", repeatable: true },
  columns: {
    kind: "string",
    help: "allowed columns, comma-separated logical or physical names, `table.column` to pick the table (default: all)",
  },
  bind: { kind: "string", help: "required exact binding 'column=value' (repeatable)", repeatable: true },
  like: {
    kind: "string",
    help: "required fuzzy binding 'column=value' → column LIKE '%value%' (repeatable)",
    repeatable: true,
  },
  execute: { kind: "boolean", help: "run the SQL (read-only, time-limited) when it is admissible and print the rows" },
  batch: {
    kind: "string",
    help: "check every line of FILE (- = stdin): one JSON string per line, one JSON verdict line out per line",
  },
};

/** Verdict of one --batch input line (a line that is not a JSON string is refused, naming the line). */
function batchVerdict(
  line: string,
  lineNo: number,
  scope: GuardScope,
  checkSql: (sql: string, scope: GuardScope) => string[],
): { admissible: boolean; violations: string[] } {
  let sql: unknown;
  try {
    sql = JSON.parse(line);
  } catch (error) {
    return {
      admissible: false,
      violations: [
        `line ${lineNo} is not JSON: ${(error as Error).message.slice(0, 120)} (write each statement as a JSON string)`,
      ],
    };
  }
  if (typeof sql !== "string")
    return {
      admissible: false,
      violations: [`line ${lineNo} is not a JSON string (write each statement as a JSON string)`],
    };
  const violations = checkSql(sql, scope);
  return { admissible: violations.length === 0, violations };
}

/** Runs --batch: reads lines as they come (stdin may be a pipe), writes one verdict line each; exit 1 if any is refused. */
async function runBatch(
  path: string,
  scope: GuardScope,
  checkSql: (sql: string, scope: GuardScope) => string[],
): Promise<number> {
  const input = path === "-" ? process.stdin : createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    if (path === "-") resolve();
    else
      input
        .once("open", () => resolve())
        .once("error", (error: Error) => reject(new UsageError(`--batch ${path}: ${(error as Error).message}`)));
  });
  await opened;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let refused = 0;
  for await (const line of lines) {
    lineNo++;
    const verdict = batchVerdict(line, lineNo, scope, checkSql);
    if (!verdict.admissible) refused++;
    console.log(JSON.stringify(verdict));
  }
  console.error(`atr guard-check: ${lineNo} statement(s), ${lineNo - refused} admissible, ${refused} refused`);
  return refused > 0 ? 1 : 0;
}

/** Finds the logical column a user named (logical, typed physical or raw physical name; `table.column` picks the table). */
function findColumn(tables: TableSchema[], name: string): { table: TableSchema; column: string } | undefined {
  let wanted = name.trim();
  const dot = wanted.indexOf(".");
  const owner = dot > 0 ? tables.find((t) => t.tableId === wanted.slice(0, dot)) : undefined;
  if (owner) wanted = wanted.slice(dot + 1);
  for (const table of owner ? [owner] : tables) {
    const col = table.columns.find(
      (c) => c.name === wanted || c.physical === wanted.toLowerCase() || c.rawPhysical === wanted.toLowerCase(),
    );
    if (col) return { table, column: col.name };
  }
  return undefined;
}

function parseBinding(tables: TableSchema[], spec: string, fuzzy: boolean): LinkedValue {
  const eq = spec.indexOf("=");
  if (eq <= 0) throw new UsageError(`--${fuzzy ? "like" : "bind"} takes 'column=value', got ${JSON.stringify(spec)}`);
  const found = findColumn(tables, spec.slice(0, eq));
  if (!found)
    throw new UsageError(
      `--${fuzzy ? "like" : "bind"}: no column ${JSON.stringify(spec.slice(0, eq))} in ${tables.map((t) => t.tableId).join(", ")}`,
    );
  const value = spec.slice(eq + 1);
  return {
    entity: value,
    tableId: found.table.tableId,
    column: found.column,
    matchedValue: value,
    confidence: 1,
    fallbackLevel: fuzzy ? 2 : 0,
  };
}

export const command: Command = {
  summary: "check one SQL statement against the guard: admissible, or every violation",
  help: () =>
    [
      'Usage: atr guard-check --index_path DIR --table_id ID [--columns a,b] [--bind col=value] [--like col=value] [--execute] "SQL"',
      "       atr guard-check --index_path DIR --table_id ID [--columns …] [--bind …] --batch FILE|-",
      "",
      "Runs the same AST guard the SQL and HYBRID routes run before any statement executes: exactly one",
      "read-only SELECT over the given tables, only the allowed columns (physical names; each column's",
      "`<col>__raw` original-text twin and `_row` are allowed too), no SELECT * outside COUNT(*), only",
      "allow-listed functions, and every binding as a mandatory predicate of the outer WHERE.",
      "Prints `admissible` (exit 0) or one violation per line (exit 1).",
      'With --batch: one statement per input line as a JSON string ("SELECT …"), one line out per input line,',
      '{"admissible": true|false, "violations": [...]}, in order; exit 1 when any is refused. Statements over',
      "10,000 characters, nested over 32 parentheses or with over 32 SELECTs are refused by name.",
      "",
      "Flags:",
      formatFlagHelp(FLAGS),
      "",
      "Examples:",
      `  atr guard-check --index_path out/example-index --table_id clubs "SELECT COUNT(*) FROM clubs"`,
      `  atr guard-check --index_path out/example-index --table_id clubs --columns Club,City --bind "City=Lyon" \\`,
      `      "SELECT club FROM clubs WHERE city = 'Lyon' OR 1 = 1"`,
      `  atr guard-check --index_path out/example-index --table_id clubs --bind "City=Carrow" --batch statements.jsonl`,
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    if (typeof flags.index_path !== "string" || flags.index_path === "")
      throw new UsageError("--index_path is required");
    const tableIds = (flags.table_id as string[] | undefined) ?? [];
    if (tableIds.length === 0) throw new UsageError("--table_id is required");
    const batch = typeof flags.batch === "string" ? flags.batch : undefined;
    if (batch !== undefined) {
      if (positionals.length > 0)
        throw new UsageError("--batch reads the statements from FILE (or - for stdin); give no SQL argument");
      if (flags.execute === true)
        throw new UsageError("--execute runs one statement; it cannot be combined with --batch");
    } else if (positionals.length !== 1) throw new UsageError('give the SQL as one quoted argument, e.g. "SELECT …"');

    const { openSqlStore, readTableSchemas, SQLITE_FILE } = await import("../../indexing/sql-store.js");
    const { buildGuardScope, checkSql, renderBinding } = await import("../../retrievers/sql-guard.js");
    const path = join(flags.index_path, SQLITE_FILE);
    const db = openSqlStore(path);
    let schemas: Map<string, TableSchema>;
    try {
      schemas = readTableSchemas(db);
    } finally {
      db.close();
    }
    const tables = tableIds.map((id) => {
      const schema = schemas.get(id);
      if (!schema)
        throw new UsageError(
          `no table ${JSON.stringify(id)} in ${path}; tables: ${[...schemas.keys()].slice(0, 20).join(", ")}`,
        );
      return schema;
    });
    const allowed =
      typeof flags.columns === "string"
        ? flags.columns
            .split(",")
            .filter((c) => c.trim() !== "")
            .map((name) => {
              const found = findColumn(tables, name);
              if (!found)
                throw new UsageError(`--columns: no column ${JSON.stringify(name)} in ${tableIds.join(", ")}`);
              return { tableId: found.table.tableId, column: found.column };
            })
        : tables.flatMap((t) => t.columns.map((c) => ({ tableId: t.tableId, column: c.name })));
    const linked = [
      ...((flags.bind as string[] | undefined) ?? []).map((b) => parseBinding(tables, b, false)),
      ...((flags.like as string[] | undefined) ?? []).map((b) => parseBinding(tables, b, true)),
    ];
    const { scope, errors } = buildGuardScope({ tables, allowedColumns: allowed, linkedValues: linked });
    if (errors.length > 0) {
      for (const e of errors) console.log(`scope error: ${e}`);
      return 1;
    }
    if (batch !== undefined) return runBatch(batch, scope, checkSql);
    const sql = positionals[0]!;
    const violations = checkSql(sql, scope);
    if (violations.length > 0) {
      console.log("refused:");
      for (const v of violations) console.log(`  - ${v}`);
      return 1;
    }
    const bindings = scope.bindings.map((b) => renderBinding(b, scope.tables.length > 1));
    console.log(`admissible${bindings.length > 0 ? ` (bindings present: ${bindings.join(" AND ")})` : ""}`);
    if (flags.execute === true) {
      const { openSqlExecutor } = await import("../../retrievers/sql-executor.js");
      const executor = openSqlExecutor(path);
      try {
        const out = await executor.execute(sql);
        console.log(out.result + (out.truncated ? `\n(first ${out.rowCount} rows)` : ""));
        return out.ok ? 0 : 1;
      } finally {
        await executor.close();
      }
    }
    return 0;
  },
};
