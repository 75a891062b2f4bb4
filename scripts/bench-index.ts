/**
 * `npm run bench:index [SPLIT_DIR ...]` — seconds and peak RSS to build each split's index with the
 * offline embedder: load tables and passages, write View 5 (tables.sqlite), build Views 1–4.
 * Default: the three dev splits under ../shared/data. Each split is built in its own child process
 * so peak RSS is per split. Ends with one JSON line: {"splits":[{split, seconds, peak_rss_mb, …}]}.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadTables } from "../indexing/load-tables.js";
import { loadPassages } from "../indexing/load-passages.js";
import { writeSqlStore } from "../indexing/sql-store.js";
import { buildViews } from "../indexing/views.js";

const DEFAULT_SPLITS = ["wtq", "tatqa", "hybridqa"].map((b) => resolve(import.meta.dirname, `../../shared/data/${b}/dev`));

async function buildOne(split: string): Promise<Record<string, unknown>> {
  const out = mkdtempSync(join(tmpdir(), "atr-bench-index-"));
  const t0 = performance.now();
  try {
    const { tables } = loadTables(join(split, "tables"));
    const tLoad = performance.now();
    const schemas = writeSqlStore(join(out, "tables.sqlite"), tables);
    const tSql = performance.now();
    const { passages } = loadPassages(join(split, "passages"), { tableIds: new Set(tables.map((t) => t.id)) });
    const loaded = tables.map((raw, i) => ({ raw, schema: schemas[i]! }));
    const tPass = performance.now();
    const r = await buildViews(loaded, passages, {
      chunkSize: 512, chunkOverlap: 64, cellBudget: 10_000, cellPerTableQuota: 50, rowBudget: 0, rowPerTableQuota: 0, maxRowChars: 0,
    }, out);
    const tEnd = performance.now();
    return {
      split,
      seconds: +((tEnd - t0) / 1000).toFixed(2),
      views_seconds: +((tEnd - tPass) / 1000).toFixed(2),
      load_seconds: +((tLoad - t0 + tPass - tSql) / 1000).toFixed(2),
      sqlite_seconds: +((tSql - tLoad) / 1000).toFixed(2),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      tables: tables.length,
      passages: passages.length,
      ...r.counts,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  console.log(JSON.stringify(await buildOne(resolve(args[1]!))));
} else {
  const splits = args.length > 0 ? args.map((a) => resolve(a)) : DEFAULT_SPLITS;
  const results: Array<Record<string, unknown>> = [];
  for (const split of splits) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, "--child", split], { encoding: "utf8" });
    if (child.status !== 0) {
      console.error(child.stderr);
      results.push({ split, error: `exit ${child.status}` });
      continue;
    }
    const line = child.stdout.trim().split("\n").pop()!;
    const r = JSON.parse(line) as Record<string, unknown>;
    console.error(`${split}: ${r.seconds} s, peak RSS ${r.peak_rss_mb} MB (${r.tables} tables, ${r.passages} passages → ${r.docChunks} chunks, ${r.cellEntries} cells, ${r.rowEntries} rows)`);
    results.push(r);
  }
  console.log(JSON.stringify({ splits: results }));
}
