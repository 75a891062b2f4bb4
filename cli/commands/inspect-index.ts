/** `atr inspect-index PATH`: verify an index and print its settings, counts and (with --tables) its tables. */
import { join } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";

const FLAGS: FlagSpecs = {
  index_path: { kind: "string", help: "index directory (instead of the PATH argument)" },
  tables: { kind: "boolean", help: "also list every table: rows, columns and their types" },
  json: { kind: "boolean", help: "print the manifest (and tables) as JSON" },
};

export const command: Command = {
  summary: "verify an index and print its settings, counts and tables",
  help: () =>
    [
      "Usage: atr inspect-index PATH [--tables] [--json]   (or --index_path PATH)",
      "",
      "Runs every check answering runs when it opens the index (manifest fields, file sizes, the",
      "tables.sqlite bookkeeping against the counts, the views' counts and vector sizes) and the full",
      "ones (every file's sha256 and line count, SQLite's integrity check, each table's row count,",
      "every view entry read back; with View 5 in PostgreSQL, its schema against tables.sqlite, every",
      "row), then prints the build settings and counts. Exit code 1 when the index fails any of them.",
      "",
      "Flags:",
      formatFlagHelp(FLAGS),
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    const paths = typeof flags.index_path === "string" ? [flags.index_path, ...positionals] : positionals;
    if (paths.length !== 1) throw new UsageError("give exactly one index directory");
    const dir = paths[0]!;
    const { inspectIndex } = await import("../../indexing/open-index.js");
    const { openSqlStore, readTableSchemas, SQLITE_FILE } = await import("../../indexing/sql-store.js");
    const { manifest, violations } = await inspectIndex(dir);
    if (manifest?.sqlStore && violations.length === 0) {
      // View 5 in PostgreSQL: the schema the manifest names must hold this index's tables.
      const [{ openIndex }, { openIndexStore, storeViolations }] = await Promise.all([
        import("../../indexing/open-index.js"),
        import("../../retrievers/sql-store.js"),
      ]);
      const opened = await openIndex(dir);
      const store = openIndexStore(opened);
      try {
        violations.push(...(await storeViolations(store, opened.tables)));
        // answering reads both copies (docs/SCALING-OUT.md): every copied table must hold the same rows
        if (violations.length === 0) {
          const [{ pgContentViolations }, { connectionUrl }] = await Promise.all([
            import("../../indexing/pg-compare.js"),
            import("../../indexing/pg-store.js"),
          ]);
          const url = connectionUrl(manifest.sqlStore);
          violations.push(...(await pgContentViolations(join(dir, SQLITE_FILE), url, manifest.sqlStore.schema)));
        }
      } finally {
        await store.close();
        opened.close();
      }
    }
    if (violations.length > 0 || !manifest) {
      console.error(`${dir} fails verification (${violations.length} problem${violations.length === 1 ? "" : "s"}):`);
      for (const v of violations) console.error(`  - ${v}`);
      console.error("Rebuild it with `atr build-index`.");
      return 1;
    }
    let tables: import("../../indexing/types.js").TableSchema[] = [];
    if (flags.tables) {
      const db = openSqlStore(join(dir, SQLITE_FILE));
      try {
        tables = [...readTableSchemas(db).values()];
      } finally {
        db.close();
      }
    }
    if (flags.json) {
      console.log(JSON.stringify(flags.tables ? { manifest, tables } : { manifest }, null, 2));
      return 0;
    }
    const { settings: s, counts: c, sources } = manifest;
    const lines = [
      `Index ${dir} — format ${manifest.formatVersion}, built ${manifest.createdAt}, verified OK`,
      "",
      "Settings:",
      `  chunks          ${s.documentChunkSize} ${s.chunkUnit}, overlap ${s.documentChunkOverlap}`,
      `  cells           budget ${s.cellBudget}, per table ${s.cellPerTableQuota}`,
      `  rows            budget ${s.rowBudget || "all"}, per table ${s.rowPerTableQuota || "all"}, max chars ${s.maxRowChars || "none"}`,
      `  embedding       ${s.embeddingModel} (dim ${s.embeddingDim})`,
      "",
      "Counts:",
      `  tables ${c.tables}, rows ${c.rows}, passages ${c.passages}`,
      `  doc chunks ${c.docChunks}, schema entries ${c.schemaEntries}, cell entries ${c.cellEntries}, row entries ${c.rowEntries}`,
      "",
      ...(manifest.sqlStore
        ? [`View 5 also in PostgreSQL: ${manifest.sqlStore.url} schema ${manifest.sqlStore.schema}`, ""]
        : []),
      `Sources: ${sources.tables.length} table file(s), ${sources.documents.length} document file(s), ${sources.skipped.length} skipped`,
      ...sources.skipped.map((k) => `  skipped ${k.file}: ${k.reason}`),
    ];
    for (const t of tables) {
      lines.push(
        "",
        `${t.tableId}${t.title ? ` — ${t.title}` : ""}  [${t.physical}, ${t.rowCount} rows, ${t.columns.length} columns, ${t.file}${t.sheet ? ` sheet ${t.sheet}` : ""}]`,
      );
      for (const col of t.columns)
        lines.push(`  ${col.name.padEnd(28)} ${col.type.padEnd(8)} ${col.physical}  e.g. ${col.examples.join(", ")}`);
    }
    console.log(lines.join("\n"));
    return 0;
  },
};
