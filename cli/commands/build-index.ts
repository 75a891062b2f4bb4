/** `atr build-index`: build an index directory from a tables folder and a passages folder (reference §10.1). */
import { join } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { stageProgress } from "../progress.js";

const FLAGS: FlagSpecs = {
  excel_dir: { kind: "string", help: "folder of table files (.csv, .xlsx; <id>.json sidecars give titles) [required]" },
  doc_dir: { kind: "string", help: "folder of passage files (.json, .txt, .md); may be empty [required]" },
  save_path: { kind: "string", help: "index directory to create or replace [required]" },
  document_chunk_size: { kind: "number", help: "tokens per document chunk incl. the file-name prefix", default: 512 },
  document_chunk_overlap: { kind: "number", help: "tokens shared by consecutive chunks", default: 64 },
  budget: { kind: "number", help: "cells indexed over all tables (View 4)", default: 10000 },
  per_table_quota: { kind: "number", help: "cells indexed per table at most", default: 50 },
  row_budget: { kind: "number", help: "rows indexed over all tables, 0 = all", default: 0 },
  row_per_table_quota: { kind: "number", help: "rows indexed per table, 0 = all", default: 0 },
  max_row_chars: { kind: "number", help: "row text cap in characters, 0 = none", default: 0 },
  embedding_model: {
    kind: "string",
    help: "local embedding model folder (transformers.js); default: offline embedder",
  },
  bge_dir: { kind: "string", help: "compat: parent folder of bge-m3 (embedding model = <bge_dir>/bge-m3)" },
  input_order: { kind: "string", help: 'JSON file {"tables": [...], "documents": [...]} fixing the file order' },
  sql_store: {
    kind: "string",
    help: "View 5: sqlite (embedded tables.sqlite) or postgres://user@host:port/db (also a PostgreSQL schema; password from PGPASSWORD/.pgpass)",
    default: "sqlite",
  },
  quiet: { kind: "boolean", help: "no progress output, only the summary and problems" },
};

function nonNegativeInt(flags: Record<string, unknown>, name: string): number {
  const v = flags[name] as number;
  if (!Number.isInteger(v) || v < 0) throw new UsageError(`--${name} must be a non-negative integer, got ${v}`);
  return v;
}

export const command: Command = {
  summary: "build an index (tables.sqlite + Views 1–4 + manifest) from tables and passages",
  help: () =>
    [
      "Usage: atr build-index --excel_dir DIR --doc_dir DIR --save_path DIR [flags]",
      "",
      "Loads every .csv and .xlsx sheet of --excel_dir and every passage file of --doc_dir, writes",
      "tables.sqlite (View 5), passages.jsonl, Views 1–4 and manifest.json into --save_path. The build",
      "happens in <save_path>.tmp-<pid> and replaces an existing index only when it completed.",
      "An existing --save_path is replaced only when it is empty or an index whose checksums verify,",
      "and never when it is or holds an input folder. Leftovers of interrupted builds are removed.",
      "Every input file that is skipped or repaired is reported (and listed in manifest.json).",
      "",
      "Flags:",
      formatFlagHelp(FLAGS),
      "",
      "Example:",
      "  atr build-index --excel_dir examples/tables --doc_dir examples/docs --save_path out/example-index",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    for (const name of ["excel_dir", "doc_dir", "save_path"]) {
      if (typeof flags[name] !== "string" || flags[name] === "") throw new UsageError(`--${name} is required`);
    }
    if (flags.embedding_model && flags.bge_dir) throw new UsageError("give --embedding_model or --bge_dir, not both");
    const embeddingModel =
      (flags.embedding_model as string | undefined) ??
      (flags.bge_dir ? join(flags.bge_dir as string, "bge-m3") : undefined);
    const { buildIndex, readInputOrder } = await import("../../indexing/build-index.js");
    const progress = stageProgress({ quiet: flags.quiet === true });
    const started = Date.now();
    let result;
    try {
      result = await buildIndex({
        excelDir: flags.excel_dir as string,
        docDir: flags.doc_dir as string,
        savePath: flags.save_path as string,
        chunkSize: nonNegativeInt(flags, "document_chunk_size"),
        chunkOverlap: nonNegativeInt(flags, "document_chunk_overlap"),
        cellBudget: nonNegativeInt(flags, "budget"),
        cellPerTableQuota: nonNegativeInt(flags, "per_table_quota"),
        rowBudget: nonNegativeInt(flags, "row_budget"),
        rowPerTableQuota: nonNegativeInt(flags, "row_per_table_quota"),
        maxRowChars: nonNegativeInt(flags, "max_row_chars"),
        embeddingModel,
        sqlStore: flags.sql_store as string,
        inputOrder: flags.input_order ? readInputOrder(flags.input_order as string) : undefined,
        onProgress: progress.onProgress,
      });
    } finally {
      progress.finish();
    }
    for (const note of result.cleanup) console.error(`note: ${note}`);
    for (const issue of result.issues) console.error(`${issue.severity}: ${issue.file}: ${issue.problem}`);
    const c = result.manifest.counts;
    const s = result.manifest.settings;
    console.log(
      `Built ${result.dir} in ${((Date.now() - started) / 1000).toFixed(1)}s: ${c.tables} tables (${c.rows} rows), ${c.passages} passages; ` +
        `views: ${c.docChunks} doc chunks, ${c.schemaEntries} schema, ${c.cellEntries} cells, ${c.rowEntries} rows; ` +
        `embedder ${s.embeddingModel} (dim ${s.embeddingDim}).` +
        (result.manifest.sources.skipped.length
          ? ` Skipped ${result.manifest.sources.skipped.length} file(s) or entries, see above.`
          : ""),
    );
    console.log(`Inspect it with: atr inspect-index ${flags.save_path as string}`);
    return 0;
  },
};
