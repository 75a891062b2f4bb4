/** `atr search`: look inside an index by hand — one view, one query, the reranked top k. */
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";

const VIEWS = ["passages", "tables", "schema", "cells", "rows"] as const;
type View = (typeof VIEWS)[number];
const DEFAULT_K: Record<View, number> = { passages: 10, tables: 10, schema: 5, cells: 15, rows: 10 };

const FLAGS: FlagSpecs = {
  view: { kind: "string", help: `which view: ${VIEWS.join("|")}`, default: "passages" },
  index_path: { kind: "string", help: "index directory (built by `atr build-index`)" },
  table_id: {
    kind: "string",
    help: "scope to a table id (required for rows; repeatable for the other views)",
    repeatable: true,
  },
  k: { kind: "number", help: "results to print (defaults: passages/tables 10, schema 5, cells 15, rows 10)" },
  reranker: { kind: "string", help: "lexical | none | a local cross-encoder model folder", default: "lexical" },
  embedding_model: { kind: "string", help: "model folder, if the index was built with one elsewhere" },
  json: { kind: "boolean", help: "print one JSON object per hit" },
};

export const command: Command = {
  summary: "search one view of an index (passages, tables, schema, cells, rows)",
  help: () =>
    [
      'Usage: atr search --view passages|tables|schema|cells|rows --index_path DIR "query" [--table_id ID] [--k N]',
      "",
      "Runs the same recall × 6 → rerank retrieval the graph uses and prints the hits with their scores.",
      "Rows are searched within one table (--table_id); the other views may be scoped to tables",
      "(passages: those in files named after the tables, as in HybridQA and TAT-QA).",
      "",
      "Flags:",
      formatFlagHelp(FLAGS),
      "",
      "Examples:",
      '  atr search --view rows --index_path out/wtq --table_id 204_602 "players born after 1977"',
      '  atr search --view cells --index_path out/wtq --table_id 204_602 "saint etienne" --k 5',
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    const view = flags.view as string;
    if (!(VIEWS as readonly string[]).includes(view))
      throw new UsageError(`--view must be one of ${VIEWS.join(", ")}, not "${view}"`);
    if (typeof flags.index_path !== "string") throw new UsageError("--index_path is required");
    const query = positionals.join(" ").trim();
    if (query === "")
      throw new UsageError(
        'give the query as an argument, e.g. atr search --view passages --index_path DIR "who founded Alpha FC"',
      );
    const k = flags.k === undefined ? DEFAULT_K[view as View] : Number(flags.k);
    if (!Number.isInteger(k) || k < 1) throw new UsageError(`--k must be a positive integer, not ${flags.k}`);
    const tableIds = (flags.table_id as string[] | undefined) ?? [];
    if (view === "rows" && tableIds.length !== 1) throw new UsageError("--view rows needs exactly one --table_id");

    const { openSearchableIndex: openIndex } = await import("../../retrievers/open-search.js");
    const index = await openIndex(flags.index_path, {
      reranker: flags.reranker as string,
      embeddingModelPath: flags.embedding_model as string | undefined,
    });
    try {
      // An unknown id would only print "(no hits)": name it instead.
      const unknown = tableIds.filter((id) => !index.tables.has(id));
      if (unknown.length > 0) {
        const known = [...index.tables.keys()];
        throw new UsageError(
          `--table_id ${unknown.join(", ")}: not a table of ${flags.index_path} (tables: ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … ${known.length - 20} more` : ""})`,
        );
      }
      const s = index.search;
      const scope = tableIds.length > 0 ? { tableIds } : {};
      type Shown = { score: number; entry: { text: string } & Record<string, unknown> };
      const hits = (view === "passages"
        ? await s.documents(query, k, { type: "text", ...scope })
        : view === "tables"
          ? await s.documents(query, k, { type: "table", ...scope })
          : view === "schema"
            ? await s.schema(query, k, scope)
            : view === "cells"
              ? await s.cells(query, k, scope)
              : await s.rows(query, k, { tableId: tableIds[0]! })) as unknown as Shown[];
      if (hits.length === 0) console.log("(no hits)");
      hits.forEach((h, i) => {
        if (flags.json) {
          console.log(JSON.stringify({ rank: i + 1, score: h.score, ...h.entry }));
          return;
        }
        const where = [
          h.entry.tableId,
          h.entry.source,
          h.entry.rowIdx !== undefined ? `row ${h.entry.rowIdx}` : undefined,
        ]
          .filter((x) => x !== undefined)
          .join(" · ");
        const text = String(h.entry.text).replace(/\s*\n\s*/g, " ⏎ ");
        console.log(
          `${String(i + 1).padStart(2)}. ${h.score.toFixed(4)}  ${where ? `[${where}] ` : ""}${text.length > 300 ? `${text.slice(0, 297)}…` : text}`,
        );
      });
      return 0;
    } finally {
      index.close();
    }
  },
};
