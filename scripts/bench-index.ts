/**
 * `npm run bench:index [SPLIT_DIR ...]` — seconds and peak RSS to build each split's index with the
 * offline embedder — the whole `atr build-index` (indexing/build-index.ts): load tables and passages,
 * View 5 (tables.sqlite), Views 1–4, manifest with checksums.
 * Default: the three dev splits under ../shared/data. Each split is built in its own child process
 * so peak RSS is per split. Ends with one JSON line: {"splits":[{split, seconds, peak_rss_mb, …}]}.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildIndex } from "../indexing/build-index.js";
import { vectorBackendName } from "../indexing/vector-index.js";

const DEFAULT_SPLITS = ["wtq", "tatqa", "hybridqa"].map((b) =>
  resolve(import.meta.dirname, `../../shared/data/${b}/dev`),
);

async function buildOne(split: string): Promise<Record<string, unknown>> {
  const out = mkdtempSync(join(tmpdir(), "atr-bench-index-"));
  const t0 = performance.now();
  try {
    const { manifest } = await buildIndex({
      excelDir: join(split, "tables"),
      docDir: join(split, "passages"),
      savePath: join(out, "index"),
    });
    const seconds = (performance.now() - t0) / 1000;
    return {
      split,
      seconds: +seconds.toFixed(2),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      ...manifest.counts,
      vectors: vectorBackendName(),
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
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, "--child", split], {
      encoding: "utf8",
    });
    if (child.status !== 0) {
      console.error(child.stderr);
      results.push({ split, error: `exit ${child.status}` });
      continue;
    }
    const line = child.stdout.trim().split("\n").pop()!;
    const r = JSON.parse(line) as Record<string, unknown>;
    console.error(
      `${split}: ${r.seconds} s, peak RSS ${r.peak_rss_mb} MB (${r.tables} tables, ${r.passages} passages → ${r.docChunks} chunks, ${r.cellEntries} cells, ${r.rowEntries} rows)`,
    );
    results.push(r);
  }
  console.log(JSON.stringify({ splits: results }));
}
