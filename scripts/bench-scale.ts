/**
 * `npm run bench:scale [-- --sizes 10000,100000,1000000 --corpus 10000 --per_kind 10 --root DIR]` — what a
 * question costs as tables grow. For each generated table (`id, name, city, score, date`,
 * scripts/scale-data.ts) and for a corpus of many small tables: index build time (wall and CPU),
 * index size, open time, warm per-question p50/p95 for lookup, count, aggregate and superlative
 * questions through the graph (offline backbone, default configuration) — and, reported apart, lookups
 * naming their row with one letter wrong ("typo") and rows named by position ("structural": first,
 * last, n-th) — peak RSS of the building
 * and of the answering process, and how many answers equal the SQL computed directly over the
 * generated data. Each build and each answering session runs in its own child process (so RSS is
 * per stage). Latencies are wall-clock; the CPU time per question (this process and its SQL
 * executor process) is given beside them (on a shared machine the wall time includes waiting for a core). Prints a Markdown table and ends with one JSON line of every figure.
 * `--corpus ''` skips the corpus (`--sizes 1000000 --corpus ''`: the 1M table only). `--root DIR` keeps each case's
 * index in DIR/<case> and, when it is already built there, only answers (its build figures are the first build's).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { cityOf, CITY_COUNT, nameOf, writeScaleTable, writeSmallCorpus } from "./scale-data.js";

type Kind = "lookup" | "count" | "aggregate" | "superlative" | "typo" | "structural";
/** The issue's four kinds: p50 / p95 over all questions are over these (typo and structural are reported apart). */
const TIMED_KINDS: readonly Kind[] = ["lookup", "count", "aggregate", "superlative"];
interface Question {
  kind: Kind;
  question: string;
  table_id?: string;
  /** SQL over the generated table (tables.sqlite, physical names = the CSV's) giving the answer. */
  sql: string;
  params: unknown[];
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

/** CPU seconds of this process and of its live child processes (the SQL executor runs in one; Linux /proc). */
function cpuSeconds(): number {
  const u = process.resourceUsage();
  let children = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid) children += (Number(fields[11]) + Number(fields[12])) / 100;
    }
  } catch {
    // no /proc: own CPU only
  }
  return (u.userCPUTime + u.systemCPUTime) / 1e6 + children;
}

/** The questions of one session: `perKind` of each kind (spread over the rows), deterministic. */
function questionsFor(rows: number, perKind: number, tableIds?: string[]): Question[] {
  const out: Question[] = [];
  const table = (i: number) => (tableIds ? tableIds[(i * 7919) % tableIds.length]! : "people");
  for (let i = 0; i < perKind; i++) {
    // corpus: small table t holds rows of the global row counter; pick row 0 of the chosen table
    const tid = table(i);
    const row = tableIds ? smallTableFirstRow(Number(tid.slice(1))) : Math.floor(((i + 0.5) * rows) / perKind);
    const physical = tableIds ? tid : "people";
    out.push({
      kind: "lookup",
      question: `What is the score of ${nameOf(row)}?`,
      ...(tableIds ? { table_id: tid } : {}),
      sql: `SELECT score FROM "${physical}" WHERE name = ?`,
      params: [nameOf(row)],
    });
    const city = cityOf(tableIds ? row : i * 13);
    out.push({
      kind: "count",
      question: `How many people are from ${city}?`,
      ...(tableIds ? { table_id: tid } : {}),
      sql: `SELECT COUNT(*) FROM "${physical}" WHERE city = ?`,
      params: [city],
    });
    out.push({
      kind: "aggregate",
      question: `What is the total score of people from ${city}?`,
      ...(tableIds ? { table_id: tid } : {}),
      sql: `SELECT SUM(score) FROM "${physical}" WHERE city = ?`,
      params: [city],
    });
    const sup =
      i % 2 === 0
        ? { q: "Who has the highest score?", sql: `SELECT name FROM "${physical}" ORDER BY score DESC LIMIT 1` }
        : { q: "Who has the lowest score?", sql: `SELECT name FROM "${physical}" ORDER BY score ASC LIMIT 1` };
    out.push({
      kind: "superlative",
      question: sup.q,
      ...(tableIds ? { table_id: tid } : {}),
      sql: sup.sql,
      params: [],
    });
    // a lookup whose name has one letter wrong (no generated name holds a "q": it names no other row)
    out.push({
      kind: "typo",
      question: `What is the score of ${misspelt(nameOf(row))}?`,
      ...(tableIds ? { table_id: tid } : {}),
      sql: `SELECT score FROM "${physical}" WHERE name = ?`,
      params: [nameOf(row)],
    });
    // rows named by their position: the first, the last, the n-th
    const nth = tableIds ? 2 : Math.floor(((i + 0.3) * rows) / perKind) + 1;
    const structural = [
      { q: "What is the name in the first row?", sql: `SELECT name FROM "${physical}" ORDER BY _row LIMIT 1` },
      { q: "What is the name in the last row?", sql: `SELECT name FROM "${physical}" ORDER BY _row DESC LIMIT 1` },
      { q: `What is the name in row ${nth}?`, sql: `SELECT name FROM "${physical}" WHERE _row = ${nth - 1}` },
    ][i % 3]!;
    out.push({
      kind: "structural",
      question: structural.q,
      ...(tableIds ? { table_id: tid } : {}),
      sql: structural.sql,
      params: [],
    });
  }
  return out;
}

/** The name with its family name's third letter replaced by "q" (one letter off). */
function misspelt(name: string): string {
  const [first, family] = name.split(" ") as [string, string];
  return `${first} ${family.slice(0, 2)}q${family.slice(3)}`;
}

/** First global row of small table t (tables have 5 + t % 10 rows, in order). */
function smallTableFirstRow(t: number): number {
  const full = Math.floor(t / 10);
  let row = full * (5 * 10 + 45);
  for (let j = 0; j < t % 10; j++) row += 5 + j;
  return row;
}

/** Numbers compared as numbers (thousands separators dropped, 1e-6 relative), text case-insensitively. */
function sameAnswer(got: string, want: unknown): boolean {
  const g = got.trim().replace(/(\d),(?=\d{3}\b)/g, "$1");
  const w = String(want ?? "").trim();
  const gn = Number(g);
  const wn = Number(w);
  if (g !== "" && w !== "" && Number.isFinite(gn) && Number.isFinite(wn))
    return Math.abs(gn - wn) <= 1e-6 * Math.max(1, Math.abs(wn));
  return g.toLowerCase() === w.toLowerCase();
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function childBuild(kind: "table" | "corpus", n: number, root: string): Promise<Record<string, unknown>> {
  const { buildIndex } = await import("../indexing/build-index.js");
  const data = join(root, "tables");
  const docs = join(root, "docs");
  if (kind === "table") writeScaleTable(data, "people", n);
  else writeSmallCorpus(data, n);
  (await import("node:fs")).mkdirSync(docs, { recursive: true });
  const t0 = performance.now();
  const c0 = cpuSeconds();
  // CPU seconds per build stage: the time since the previous progress event goes to the stage of
  // this one (so "sql" is writing tables.sqlite with its statistics, "manifest" the views' SQLite
  // file and the checksums)
  // (own CPU only: the build runs no child process, and reading /proc on every event would cost more than a small table)
  const ownCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const stages: Record<string, number> = {};
  let since = ownCpu();
  const { manifest } = await buildIndex({
    excelDir: data,
    docDir: docs,
    savePath: join(root, "index"),
    onProgress: (name) => {
      const now = ownCpu();
      stages[name] = +((stages[name] ?? 0) + now - since).toFixed(2);
      since = now;
    },
  });
  return {
    build_stages_cpu_s: stages,
    build_s: +((performance.now() - t0) / 1000).toFixed(1),
    build_cpu_s: +(cpuSeconds() - c0).toFixed(1),
    index_mb: +(dirBytes(join(root, "index")) / 1e6).toFixed(1),
    build_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    rows: manifest.counts.rows,
    tables: manifest.counts.tables,
  };
}

async function childAnswer(
  kind: "table" | "corpus",
  n: number,
  root: string,
  perKind: number,
): Promise<Record<string, unknown>> {
  const { openIndexCached, closeResources, closeCachedIndexes } = await import("../graph/resources.js");
  const { answerQuestion } = await import("../graph/answer.js");
  const dir = join(root, "index");
  const t0 = performance.now();
  await openIndexCached(dir);
  const openMs = performance.now() - t0;
  const db = new Database(join(dir, "tables.sqlite"), { readonly: true });
  const tableIds =
    kind === "corpus"
      ? (db.prepare("SELECT table_id FROM _tables ORDER BY position").pluck().all() as string[])
      : undefined;
  const questions = questionsFor(kind === "table" ? n : CITY_COUNT, perKind, tableIds);
  const configurable = { indexPath: dir };
  // one warm-up question (module loading, first catalogue and vector reads) is not counted
  const warm0 = performance.now();
  await answerQuestion(
    { question: questions[0]!.question, ...(questions[0]!.table_id ? { table_id: questions[0]!.table_id } : {}) },
    { configurable },
  );
  const firstMs = performance.now() - warm0;
  const byKind = new Map<Kind, { ms: number[]; cpu: number[]; right: number }>();
  for (const q of questions) {
    const s = performance.now();
    const c = cpuSeconds();
    const res = await answerQuestion(
      { question: q.question, ...(q.table_id ? { table_id: q.table_id } : {}) },
      { configurable },
    );
    const ms = performance.now() - s;
    const cpu = (cpuSeconds() - c) * 1000;
    const want = db
      .prepare(q.sql)
      .pluck()
      .get(...q.params);
    const k = byKind.get(q.kind) ?? { ms: [], cpu: [], right: 0 };
    k.ms.push(ms);
    k.cpu.push(cpu);
    if (sameAnswer(res.answer, want)) k.right++;
    byKind.set(q.kind, k);
  }
  db.close();
  await closeResources();
  closeCachedIndexes();
  const timed = [...byKind].filter(([k]) => TIMED_KINDS.includes(k)).map(([, v]) => v);
  const all = timed.flatMap((k) => k.ms);
  const allCpu = timed.flatMap((k) => k.cpu);
  return {
    cpu_p50_ms: Math.round(percentile(allCpu, 50)),
    cpu_p95_ms: Math.round(percentile(allCpu, 95)),
    open_ms: Math.round(openMs),
    first_question_ms: Math.round(firstMs),
    p50_ms: Math.round(percentile(all, 50)),
    p95_ms: Math.round(percentile(all, 95)),
    kinds: Object.fromEntries(
      [...byKind].map(([k, v]) => [
        k,
        {
          p50_ms: Math.round(percentile(v.ms, 50)),
          p95_ms: Math.round(percentile(v.ms, 95)),
          cpu_p50_ms: Math.round(percentile(v.cpu, 50)),
          cpu_p95_ms: Math.round(percentile(v.cpu, 95)),
          right: v.right,
          of: v.ms.length,
        },
      ]),
    ),
    answer_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

function runChild(args: string[]): Record<string, unknown> {
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(`${args.join(" ")} failed (exit ${child.status}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sizes: { type: "string", default: "10000,100000,1000000" },
    corpus: { type: "string", default: "10000" },
    per_kind: { type: "string", default: "10" },
    // keep the built cases under this folder (one sub-folder per case) and reuse a case already built there
    root: { type: "string" },
  },
});
if (positionals[0] === "--child-build" || positionals[0] === "child-build") {
  console.log(
    JSON.stringify(await childBuild(positionals[1] as "table" | "corpus", Number(positionals[2]), positionals[3]!)),
  );
} else if (positionals[0] === "child-answer") {
  console.log(
    JSON.stringify(
      await childAnswer(
        positionals[1] as "table" | "corpus",
        Number(positionals[2]),
        positionals[3]!,
        Number(positionals[4]),
      ),
    ),
  );
} else {
  const perKind = Number(values.per_kind);
  const cases: Array<{ kind: "table" | "corpus"; n: number; label: string }> = [
    ...values.sizes
      .split(",")
      .filter(Boolean)
      .map((s) => ({ kind: "table" as const, n: Number(s), label: `table of ${Number(s).toLocaleString("en")} rows` })),
    ...values.corpus
      .split(",")
      .filter(Boolean)
      .map((s) => ({ kind: "corpus" as const, n: Number(s), label: `${Number(s).toLocaleString("en")} small tables` })),
  ];
  const results: Array<Record<string, unknown>> = [];
  for (const c of cases) {
    const keep = values.root ? join(values.root, `${c.kind}-${c.n}`) : undefined;
    const root = keep ?? mkdtempSync(join(tmpdir(), "atr-bench-scale-"));
    const builtFile = join(root, "built.json");
    try {
      let built: Record<string, unknown>;
      if (keep && existsSync(builtFile)) {
        console.error(`${c.label}: reusing the index built in ${root}`);
        built = JSON.parse(readFileSync(builtFile, "utf8")) as Record<string, unknown>;
      } else {
        console.error(`${c.label}: building…`);
        if (keep) rmSync(root, { recursive: true, force: true });
        mkdirSync(root, { recursive: true });
        built = runChild(["child-build", c.kind, String(c.n), root]);
        if (keep) writeFileSync(builtFile, JSON.stringify(built));
      }
      console.error(`${c.label}: answering…`);
      const answered = runChild(["child-answer", c.kind, String(c.n), root, String(perKind)]);
      const r = { case: c.label, ...built, ...answered };
      console.error(JSON.stringify(r));
      results.push(r);
    } finally {
      if (!keep) rmSync(root, { recursive: true, force: true });
    }
  }
  const kinds: Kind[] = [...TIMED_KINDS, "typo", "structural"];
  const lines = [
    "| case | build s (CPU s) | index MB | build RSS MB | open ms | p50 / p95 ms (CPU ms) | " +
      kinds.map((k) => `${k} p50/p95 ms (CPU), right`).join(" | ") +
      " | answer RSS MB |",
    "|---|---:|---:|---:|---:|---:|" + kinds.map(() => "---:").join("|") + "|---:|",
    ...results.map((r) => {
      const k = r.kinds as Record<
        Kind,
        { p50_ms: number; p95_ms: number; cpu_p50_ms: number; cpu_p95_ms: number; right: number; of: number }
      >;
      return `| ${r.case} | ${r.build_s} (${r.build_cpu_s}) | ${r.index_mb} | ${r.build_rss_mb} | ${r.open_ms} | ${r.p50_ms} / ${r.p95_ms} (${r.cpu_p50_ms} / ${r.cpu_p95_ms}) | ${kinds.map((x) => `${k[x].p50_ms}/${k[x].p95_ms} (${k[x].cpu_p50_ms}/${k[x].cpu_p95_ms}), ${k[x].right}/${k[x].of}`).join(" | ")} | ${r.answer_rss_mb} |`;
    }),
  ];
  // where each case's build CPU went (seconds up to each stage's progress events, see childBuild)
  for (const r of results)
    if (r.build_stages_cpu_s)
      lines.push(
        "",
        `${r.case}, build CPU s by stage: ${Object.entries(r.build_stages_cpu_s as Record<string, number>)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );
  console.log(lines.join("\n"));
  console.log(JSON.stringify({ results }));
}
