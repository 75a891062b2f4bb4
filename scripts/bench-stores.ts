/**
 * `npm run bench:stores [-- --rows 1000000 --tables 10000 --table_rows 100 --per_kind 5
 *   --splits wtq,tatqa,hybridqa --dev_indexes /tmp/atr-idx --pg URL]` — View 5 on SQLite and on
 * PostgreSQL, in one run:
 * 1. a generated table of `--rows` rows and a corpus of `--tables` × `--table_rows` rows
 *    (scripts/scale-data.ts columns): build time (the build with --sql_store writes tables.sqlite,
 *    then COPYs it into PostgreSQL: "SQLite" = the build without the COPY stage, "PostgreSQL" = the
 *    whole build), then answer latency through the graph (offline backbone) on each store, the SQL
 *    step alone (the questions' statements through each store's executor), and whether both stores
 *    gave the same answers;
 * 2. the dev splits answered on both stores (`atr run` on the index, and on a copy whose manifest
 *    names a PostgreSQL schema loaded from the same tables.sqlite), every differing answer listed.
 * Dev indexes: `--dev_indexes DIR` (DIR/<split>-dev or DIR/<split>-index, built by atr build-index),
 * else built here from ../shared/data/<split>/dev. PostgreSQL: `--pg URL`, else ATR_TEST_PG_URL,
 * else a throwaway server started with scripts/pg-test-server.sh (stopped at the end).
 * CPU time (user+sys) is reported beside every wall time, because wall time on a shared machine
 * means little: the bench's own processes (and their children), and the PostgreSQL server's
 * processes when its data directory is known (the throwaway server, or ATR_TEST_PG_DIR).
 * Prints Markdown tables and ends with one JSON line of every figure.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cityOf, dateOf, nameOf, scoreOf, writeScaleTable } from "./scale-data.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ATR = join(ROOT, "bin", "atr.js");

/** user+sys CPU seconds of this process. */
function selfCpuS(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

const TICKS = 100; // USER_HZ on Linux
/** Fields 14–17 of /proc/PID/stat: utime, stime, cutime, cstime (clock ticks). */
function procTimes(pid: string | number): number[] {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text
    .slice(text.lastIndexOf(")") + 2)
    .split(" ")
    .slice(11, 15)
    .map(Number);
}

/** CPU seconds of this process's waited-for children (spawnSync'd `atr run`, build and answer children). */
function childrenCpuS(): number {
  const [, , cu, cs] = procTimes("self");
  return (cu! + cs!) / TICKS;
}

/** CPU seconds of this process's children, live (e.g. the SQLite executor's process) and waited for. */
function allChildrenCpuS(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1]) !== process.pid) continue;
      ticks += procTimes(entry).reduce((a, b) => a + b, 0);
    } catch {
      // the process ended while the list was read
    }
  }
  return ticks / TICKS + childrenCpuS();
}

/** CPU seconds used so far by the PostgreSQL server of `pgDir` (postmaster, its live and its exited backends). */
function serverCpuS(pgDir: string | undefined): number {
  if (!pgDir) return NaN;
  const pid = readFileSync(join(pgDir, "data", "postmaster.pid"), "utf8")
    .split("\n")[0]!
    .trim();
  let ticks = procTimes(pid).reduce((a, b) => a + b, 0);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || entry === pid) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (text.slice(text.lastIndexOf(")") + 2).split(" ")[1] !== pid) continue;
      const [u, st] = procTimes(entry);
      ticks += u! + st!;
    } catch {
      // the process ended while the list was read
    }
  }
  return ticks / TICKS;
}
let PG_DIR = process.env.ATR_BENCH_PG_DIR;
const cpu = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(1));

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** `count` tables of `rows` rows each (t00000…), the columns of scale-data.ts. */
function writeCorpus(dir: string, count: number, rows: number): string[] {
  mkdirSync(dir, { recursive: true });
  const ids: string[] = [];
  for (let t = 0, row = 0; t < count; t++) {
    const id = `t${String(t).padStart(5, "0")}`;
    let text = "id,name,city,score,date\n";
    for (let i = 0; i < rows; i++, row++)
      text += `${i + 1},${nameOf(row)},${cityOf(row)},${scoreOf(row, 1 << 30)},${dateOf(row)}\n`;
    const fd = openSync(join(dir, `${id}.csv`), "w");
    writeSync(fd, text);
    closeSync(fd);
    ids.push(id);
  }
  return ids;
}

/** The manifest without `sqlStore`: the same build served from its tables.sqlite only. */
function sqliteTwin(pgIndex: string, liteIndex: string): void {
  cpSync(pgIndex, liteIndex, { recursive: true });
  const path = join(liteIndex, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  delete manifest.sqlStore;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

async function childBuild(
  kind: "table" | "corpus",
  n: number,
  perTable: number,
  root: string,
  url: string,
): Promise<Record<string, unknown>> {
  const { buildIndex } = await import("../indexing/build-index.js");
  const data = join(root, "tables");
  const docs = join(root, "docs");
  if (kind === "table") writeScaleTable(data, "people", n);
  else writeCorpus(data, n, perTable);
  mkdirSync(docs, { recursive: true });
  const t0 = performance.now();
  const c0 = selfCpuS();
  const s0 = serverCpuS(PG_DIR);
  let sqlDone = 0;
  let copyDone = 0;
  let sqlCpu = 0;
  let copyCpu = 0;
  const { manifest } = await buildIndex({
    excelDir: data,
    docDir: docs,
    savePath: join(root, "index-pg"),
    sqlStore: url,
    onProgress: (stage) => {
      if (stage === "sql") [sqlDone, sqlCpu] = [performance.now(), selfCpuS()];
      if (stage === "postgres") [copyDone, copyCpu] = [performance.now(), selfCpuS()];
    },
  });
  const total = (performance.now() - t0) / 1000;
  const copy = (copyDone - sqlDone) / 1000;
  const totalCpu = selfCpuS() - c0;
  const copyClientCpu = copyCpu - sqlCpu;
  sqliteTwin(join(root, "index-pg"), join(root, "index-lite"));
  return {
    rows: manifest.counts.rows,
    tables: manifest.counts.tables,
    build_sqlite_s: +(total - copy).toFixed(1),
    build_pg_s: +total.toFixed(1),
    copy_s: +copy.toFixed(1),
    build_sqlite_cpu_s: +(totalCpu - copyClientCpu).toFixed(1),
    build_pg_cpu_s: +totalCpu.toFixed(1),
    copy_client_cpu_s: +copyClientCpu.toFixed(1),
    copy_server_cpu_s: +(serverCpuS(PG_DIR) - s0).toFixed(1),
  };
}

interface Q {
  question: string;
  table_id?: string;
  sql: string;
}

function questionsFor(kind: "table" | "corpus", n: number, perTable: number, perKind: number): Q[] {
  const out: Q[] = [];
  for (let i = 0; i < perKind; i++) {
    const t = kind === "corpus" ? (i * 7919) % n : 0;
    const physical = kind === "corpus" ? `t${String(t).padStart(5, "0")}` : "people";
    const row = kind === "corpus" ? t * perTable + (i % perTable) : Math.floor(((i + 0.5) * n) / perKind);
    const hint = kind === "corpus" ? { table_id: physical } : {};
    const city = cityOf(row);
    const name = nameOf(row).replace(/'/g, "''");
    out.push({
      question: `What is the score of ${nameOf(row)}?`,
      ...hint,
      sql: `SELECT "score" FROM "${physical}" WHERE "name" = '${name}'`,
    });
    out.push({
      question: `How many people are from ${city}?`,
      ...hint,
      sql: `SELECT COUNT(*) FROM "${physical}" WHERE "city" = '${city}'`,
    });
    out.push({
      question: `What is the total score of people from ${city}?`,
      ...hint,
      sql: `SELECT SUM("score") FROM "${physical}" WHERE "city" = '${city}'`,
    });
    out.push({
      question: i % 2 === 0 ? "Who has the highest score?" : "Who has the lowest score?",
      ...hint,
      sql: `SELECT "name" FROM "${physical}" ORDER BY "score" ${i % 2 === 0 ? "DESC" : "ASC"}, "_row" LIMIT 1`,
    });
  }
  return out;
}

async function childAnswer(
  kind: "table" | "corpus",
  n: number,
  perTable: number,
  root: string,
  perKind: number,
  url: string,
): Promise<Record<string, unknown>> {
  const { answerQuestion } = await import("../graph/answer.js");
  const { closeResources, closeCachedIndexes, getSqlExecutor } = await import("../graph/resources.js");
  const { ensureConfiguration } = await import("../graph/configuration.js");
  const questions = questionsFor(kind, n, perTable, perKind);
  const stores = { sqlite: join(root, "index-lite"), postgres: join(root, "index-pg") };
  const out: Record<string, unknown> = {};
  const answers: Record<string, string[]> = { sqlite: [], postgres: [] };
  for (const [store, dir] of Object.entries(stores)) {
    const configurable = { indexPath: dir, ...(store === "postgres" ? { sqlStore: url } : {}) };
    await answerQuestion(
      { question: questions[0]!.question, ...(questions[0]!.table_id ? { table_id: questions[0]!.table_id } : {}) },
      { configurable },
    ); // warm-up
    const ms: number[] = [];
    const c0 = selfCpuS();
    const k0 = allChildrenCpuS();
    const s0 = serverCpuS(PG_DIR);
    for (const q of questions) {
      const s = performance.now();
      const r = await answerQuestion(
        { question: q.question, ...(q.table_id ? { table_id: q.table_id } : {}) },
        { configurable },
      );
      ms.push(performance.now() - s);
      answers[store]!.push(r.answer);
    }
    out[`${store}_cpu_ms_per_q`] = Math.round(((selfCpuS() - c0) * 1000) / questions.length);
    // SQLite's executor runs statements in its own process (the hard time limit): its CPU is the store's share
    out[`${store}_executor_cpu_ms_per_q`] = Math.round(((allChildrenCpuS() - k0) * 1000) / questions.length);
    out[`${store}_server_cpu_ms_per_q`] = Math.round(((serverCpuS(PG_DIR) - s0) * 1000) / questions.length);
    const executor = await getSqlExecutor(ensureConfiguration({ configurable }));
    const sqlMs: number[] = [];
    for (const q of questions) {
      const e = await executor.execute(q.sql);
      if (!e.ok) throw new Error(`${store}: ${q.sql}: ${e.result}`);
      sqlMs.push(e.ms);
    }
    out[`${store}_p50_ms`] = Math.round(percentile(ms, 50));
    out[`${store}_p95_ms`] = Math.round(percentile(ms, 95));
    out[`${store}_sql_p50_ms`] = +percentile(sqlMs, 50).toFixed(1);
    out[`${store}_sql_p95_ms`] = +percentile(sqlMs, 95).toFixed(1);
    await closeResources();
    closeCachedIndexes();
  }
  const differing = questions
    .map((q, i) => ({ q: q.question, sqlite: answers.sqlite![i], postgres: answers.postgres![i] }))
    .filter((d) => d.sqlite !== d.postgres);
  return { ...out, questions: questions.length, same_answers: questions.length - differing.length, differing };
}

function runChild(args: string[]): Record<string, unknown> {
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`${args.slice(0, 3).join(" ")} failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

/** `atr run` over one questions file; question_id → answer. */
function runAtr(
  questions: string,
  index: string,
  outDir: string,
  env: NodeJS.ProcessEnv,
): { answers: Map<string, string>; s: number; cpu_s: number; server_cpu_s: number } {
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  const c0 = childrenCpuS();
  const s0 = serverCpuS(PG_DIR);
  const r = spawnSync(
    process.execPath,
    [
      ATR,
      "run",
      "--data_file_path",
      questions,
      "--index_path",
      index,
      "--save_file_path",
      join(outDir, "run.jsonl"),
      "--no_progress",
      "--max_workers",
      "2",
    ],
    { encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 1 << 26 },
  );
  if (r.status !== 0) throw new Error(`atr run over ${index} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  const cpu_s = childrenCpuS() - c0;
  const server_cpu_s = serverCpuS(PG_DIR) - s0;
  const file = r.stdout.trim().split("\n").pop()!;
  const answers = new Map<string, string>();
  for (const line of readFileSync(file, "utf8").trim().split("\n")) {
    const rec = JSON.parse(line) as { question_id: string; agentic_tablerag_answer?: string; error?: string };
    answers.set(rec.question_id, rec.error ? `ERROR ${rec.error}` : String(rec.agentic_tablerag_answer ?? ""));
  }
  return { answers, s: (performance.now() - t0) / 1000, cpu_s, server_cpu_s };
}

async function devSplit(
  split: string,
  devIndexes: string | undefined,
  root: string,
  url: string,
): Promise<Record<string, unknown>> {
  const data = resolve(ROOT, "..", "shared", "data", split, "dev");
  const questions = join(data, "questions.jsonl");
  if (!existsSync(questions)) throw new Error(`no ${questions}: the dev splits live in ../shared/data/<split>/dev`);
  let lite = devIndexes
    ? [`${split}-dev`, `${split}-index`].map((n) => join(devIndexes, n)).find((d) => existsSync(d))
    : join(root, `${split}-lite`);
  if (!lite) throw new Error(`--dev_indexes ${devIndexes}: neither ${split}-dev nor ${split}-index is there`);
  if (!devIndexes)
    execFileSync(
      process.execPath,
      [
        ATR,
        "build-index",
        "--excel_dir",
        join(data, "tables"),
        "--doc_dir",
        join(data, "passages"),
        "--save_path",
        lite,
        "--quiet",
      ],
      { stdio: "inherit" },
    );
  // The PostgreSQL twin: the same files, View 5 COPYed from the same tables.sqlite, the manifest naming the schema.
  const { copySqliteToPostgres, newSchemaName, redactUrl } = await import("../indexing/pg-store.js");
  const pgIndex = join(root, `${split}-pg`);
  cpSync(lite, pgIndex, { recursive: true });
  const schema = newSchemaName(pgIndex);
  const t0 = performance.now();
  await copySqliteToPostgres(join(pgIndex, "tables.sqlite"), url, schema);
  const copy_s = (performance.now() - t0) / 1000;
  const manifestPath = join(pgIndex, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  manifest.sqlStore = { kind: "postgres", url: redactUrl(url), schema };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  lite = resolve(lite);
  const a = runAtr(questions, lite, join(root, `${split}-run-lite`), {});
  const b = runAtr(questions, pgIndex, join(root, `${split}-run-pg`), {
    PGPASSWORD: decodeURIComponent(new URL(url).password),
  });
  const differing = [...a.answers]
    .filter(([id, ans]) => b.answers.get(id) !== ans)
    .map(([id, ans]) => ({ question_id: id, sqlite: ans, postgres: b.answers.get(id) ?? "(missing)" }));
  return {
    split,
    questions: a.answers.size,
    same_answers: a.answers.size - differing.length,
    sqlite_run_s: +a.s.toFixed(1),
    postgres_run_s: +b.s.toFixed(1),
    sqlite_cpu_s: +a.cpu_s.toFixed(1),
    postgres_cpu_s: +b.cpu_s.toFixed(1),
    postgres_server_cpu_s: +b.server_cpu_s.toFixed(1),
    copy_s: +copy_s.toFixed(1),
    differing,
  };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: "string", default: "1000000" },
    tables: { type: "string", default: "10000" },
    table_rows: { type: "string", default: "100" },
    per_kind: { type: "string", default: "5" },
    splits: { type: "string", default: "wtq,tatqa,hybridqa" },
    dev_indexes: { type: "string" },
    pg: { type: "string" },
  },
});

if (positionals[0] === "child-build") {
  const [, kind, n, perTable, root, url] = positionals;
  console.log(JSON.stringify(await childBuild(kind as "table" | "corpus", Number(n), Number(perTable), root!, url!)));
} else if (positionals[0] === "child-answer") {
  const [, kind, n, perTable, root, perKind, url] = positionals;
  console.log(
    JSON.stringify(
      await childAnswer(kind as "table" | "corpus", Number(n), Number(perTable), root!, Number(perKind), url!),
    ),
  );
} else {
  let url = values.pg ?? process.env.ATR_TEST_PG_URL ?? "";
  let stopDir: string | undefined;
  if (url === "") {
    const env = execFileSync("bash", [join(ROOT, "scripts", "pg-test-server.sh"), "start"], { encoding: "utf8" });
    url = /ATR_TEST_PG_URL='([^']+)'/.exec(env)![1]!;
    stopDir = /ATR_TEST_PG_DIR='([^']+)'/.exec(env)![1]!;
  }
  // the server's CPU is counted only when its data directory is known (children inherit the variable)
  PG_DIR = stopDir ?? (values.pg === undefined ? process.env.ATR_TEST_PG_DIR : undefined);
  if (PG_DIR) process.env.ATR_BENCH_PG_DIR = PG_DIR;
  else delete process.env.ATR_BENCH_PG_DIR;
  const root = mkdtempSync(join(tmpdir(), "atr-bench-stores-"));
  const results: Record<string, unknown> = {
    rows: Number(values.rows),
    tables: Number(values.tables),
    table_rows: Number(values.table_rows),
  };
  try {
    const cases = [
      ...(Number(values.rows) > 0
        ? [
            {
              kind: "table" as const,
              n: Number(values.rows),
              label: `table of ${Number(values.rows).toLocaleString("en")} rows`,
            },
          ]
        : []),
      ...(Number(values.tables) > 0
        ? [
            {
              kind: "corpus" as const,
              n: Number(values.tables),
              label: `${Number(values.tables).toLocaleString("en")} tables × ${values.table_rows} rows`,
            },
          ]
        : []),
    ];
    // the dev splits first: the acceptance figure (same answers) comes before the long builds
    const dev: Array<Record<string, unknown>> = [];
    for (const split of values.splits.split(",").filter(Boolean)) {
      console.error(`${split} dev: answering on both stores…`);
      dev.push(await devSplit(split, values.dev_indexes, root, url));
      console.error(JSON.stringify(dev.at(-1)));
    }
    results.dev = dev;
    if (dev.length > 0) {
      console.log(
        "\n| dev split | questions | same answers | run s SQLite (CPU s) | run s PostgreSQL (CPU s + server CPU s) | COPY s |",
      );
      console.log("|---|---:|---:|---:|---:|---:|");
      for (const d of dev)
        console.log(
          `| ${d.split} | ${d.questions} | ${d.same_answers} | ${d.sqlite_run_s} (${d.sqlite_cpu_s}) | ${d.postgres_run_s} (${d.postgres_cpu_s} + ${cpu(d.postgres_server_cpu_s as number)}) | ${d.copy_s} |`,
        );
      for (const d of dev)
        for (const x of d.differing as Array<Record<string, string>>)
          console.log(
            `- ${d.split} ${x.question_id}: SQLite ${JSON.stringify(x.sqlite)} · PostgreSQL ${JSON.stringify(x.postgres)}`,
          );
    }
    const rows: string[] = [];
    for (const c of cases) {
      const dir = join(root, c.kind);
      console.error(`${c.label}: building (SQLite, then COPY into PostgreSQL)…`);
      const built = runChild(["child-build", c.kind, String(c.n), values.table_rows, dir, url]);
      console.error(`${c.label}: answering on both stores…`);
      const answered = runChild(["child-answer", c.kind, String(c.n), values.table_rows, dir, values.per_kind, url]);
      results[c.kind] = { ...built, ...answered };
      const b = built as Record<string, number>;
      const a = answered as Record<string, number>;
      rows.push(
        `| ${c.label} | ${b.build_sqlite_s} (${b.build_sqlite_cpu_s}) | ${b.build_pg_s} (${b.build_pg_cpu_s} + server ${cpu(b.copy_server_cpu_s!)}); COPY ${b.copy_s} | ${a.sqlite_p50_ms} / ${a.sqlite_p95_ms} (${a.sqlite_cpu_ms_per_q} + executor ${a.sqlite_executor_cpu_ms_per_q}) | ${a.postgres_p50_ms} / ${a.postgres_p95_ms} (${a.postgres_cpu_ms_per_q} + server ${cpu(a.postgres_server_cpu_ms_per_q!)}) | ${a.sqlite_sql_p50_ms} / ${a.sqlite_sql_p95_ms} | ${a.postgres_sql_p50_ms} / ${a.postgres_sql_p95_ms} | ${a.same_answers}/${a.questions} |`,
      );
      console.error(rows.at(-1));
      rmSync(dir, { recursive: true, force: true });
    }
    if (rows.length > 0) {
      console.log(
        "| case | build s SQLite (CPU s) | build s PostgreSQL (CPU s) | answer p50 / p95 ms SQLite (CPU ms per question) | answer p50 / p95 ms PostgreSQL (CPU ms per question) | SQL step p50 / p95 ms SQLite | SQL step p50 / p95 ms PostgreSQL | same answers |",
      );
      console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of rows) console.log(r);
    }
    console.log(JSON.stringify(results));
  } finally {
    rmSync(root, { recursive: true, force: true });
    if (stopDir) execFileSync("bash", [join(ROOT, "scripts", "pg-test-server.sh"), "stop", stopDir]);
  }
}
