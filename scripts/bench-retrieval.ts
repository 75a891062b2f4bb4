/**
 * `npm run bench:retrieval [SPLIT_DIR]` — row and cell retrieval on a split (default WTQ dev), beside
 * a plain BM25 baseline over the same entries, in the same run:
 * (a) answer-row recall@10: questions whose gold answer is a cell of the hinted table; a hit when a
 *     row holding a gold item is in `rows(question, 10, {tableId: hint})`.
 * (b) mention recall@15: (question, value) pairs where a cell value of the hinted table (4+
 *     characters) appears in the question (word-bounded, case-folded; values inside a longer
 *     mentioned value are dropped); a hit when `cells(question, 15, {tableIds: [hint]})` — the
 *     scoped cell retrieval the value linker uses — returns a cell with that value. Default cell
 *     budget (10,000 / 50 per table). Also reported: the same over the budgeted cell index only, and
 *     through `schemaCells(question, [mention], {schemaTopK: 5, cellTopK: 15, tableIds: [hint]})`,
 *     the RETRIEVE/HYBRID path (C = 5 schema columns, then candidates ranked against the entity).
 *     Two BM25 baselines over the hinted table: every distinct value (the entries our scoped search
 *     sees) and its budgeted View 4 entries (what the released linker searched).
 * (b′) the same pairs with a typo: two inner letters of the mention's longest word (4+ letters)
 *     swapped in the question; ours and BM25 over every value of the table.
 * (c) Views 1–2: how often the hinted table (its chunks or passages) is in `documents(question, 10)`,
 *     and, for questions answered from a passage (HybridQA `answer_from`), how often a passage chunk
 *     holding the answer is in the top 10 — globally and scoped to the hinted table.
 * Ends with one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadTables } from "../indexing/load-tables.js";
import { buildIndex } from "../indexing/build-index.js";
import { openSearchableIndex as openIndex } from "../retrievers/open-search.js";
import { loadViews } from "../indexing/views.js";
import type { CellEntry, RawTable, RowEntry } from "../indexing/types.js";
import { ViewSearch } from "../retrievers/index-search.js";
import { Bm25Stats, bm25TopK } from "../retrievers/bm25.js";
import { cellText, searchText } from "../indexing/cell-selection.js";
import { LexicalReranker, type Reranker } from "../retrievers/rerank.js";

const split = resolve(process.argv[2] ?? resolve(import.meta.dirname, "../../shared/data/wtq/dev"));
// ATR_BENCH_RERANKER: "lexical" (default), "none", "rrf", "w=<lexical weight>", or a cross-encoder folder
const rerankerSpec = process.env.ATR_BENCH_RERANKER ?? "lexical";
const reranker: string | Reranker =
  rerankerSpec === "rrf"
    ? new LexicalReranker({ fusion: "rrf" })
    : rerankerSpec.startsWith("w=")
      ? new LexicalReranker({ lexicalWeight: Number(rerankerSpec.slice(2)) })
      : rerankerSpec;
const debug = process.env.ATR_BENCH_DEBUG ?? "";

function norm(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The mention with two inner letters of its longest word (4+ letters) swapped; none for mentions without one. */
function withTypo(mention: string): string | undefined {
  const words = mention.match(/\p{L}{4,}/gu);
  if (!words) return undefined;
  const word = words.reduce((a, b) => (b.length > a.length ? b : a));
  const i = Math.floor(word.length / 2) - 1;
  if (word[i] === word[i + 1]) return undefined;
  const typo = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return mention.replace(word, typo);
}

interface Question {
  question: string;
  table_id: string;
  answer: string[];
  answer_from?: string;
}

const out = mkdtempSync(join(tmpdir(), "atr-bench-retrieval-"));
try {
  await buildIndex({ excelDir: join(split, "tables"), docDir: join(split, "passages"), savePath: join(out, "index") });
  // the tables as the index saw them (same loader), for gold rows and mentioned values
  const { tables } = loadTables(join(split, "tables"));
  const rowStructure = process.env.ATR_BENCH_ROW_STRUCTURE !== "0";
  const opened = await openIndex(
    join(out, "index"),
    typeof reranker === "string" ? { reranker, rowStructure } : { rowStructure },
  );
  const loaded = await loadViews(opened.dir, opened.manifest);
  const search =
    typeof reranker === "string"
      ? opened.viewSearch
      : await ViewSearch.open(loaded, { db: opened.db, tables: opened.tables, reranker, rowStructure });
  const indexOnly = await ViewSearch.open(loaded, {
    db: opened.db,
    tables: opened.tables,
    reranker,
    fullValuePool: false,
  });
  const rowsByTable = new Map<string, RowEntry[]>();
  for (const r of loaded.rows.range(0, loaded.rows.size)) {
    const list = rowsByTable.get(r.tableId) ?? [];
    list.push(r);
    rowsByTable.set(r.tableId, list);
  }
  const budgetedByTable = new Map<string, CellEntry[]>();
  for (const c of loaded.cells.range(0, loaded.cells.size)) {
    const list = budgetedByTable.get(c.tableId) ?? [];
    list.push(c);
    budgetedByTable.set(c.tableId, list);
  }
  const byId = new Map<string, RawTable>(tables.map((t) => [t.id, t]));
  const questions = readFileSync(join(split, "questions.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Question);

  let rowN = 0,
    rowHit = 0,
    rowHitBm25 = 0;
  let menN = 0,
    menHit = 0,
    menHitBm25 = 0,
    menHitBm25Budgeted = 0,
    menHitIndex = 0,
    menHitLinker = 0;
  let typoN = 0,
    typoHit = 0,
    typoHitBm25 = 0;
  let docN = 0,
    docTable = 0,
    pasN = 0,
    pasHit = 0,
    pasHitScoped = 0;
  const t0 = performance.now();
  for (const q of questions) {
    const table = byId.get(q.table_id);
    if (!table) continue;
    // (c) Views 1–2: the hinted table among the top-10 chunks; a passage holding the answer
    docN++;
    const docs = await search.documents(q.question, 10);
    if (docs.some((h) => h.entry.tableId === q.table_id || h.entry.source.replace(/\.[^.]*$/, "") === q.table_id))
      docTable++;
    const answer = norm(String(q.answer?.[0] ?? ""));
    if (q.answer_from === "passage" && answer.length >= 3) {
      pasN++;
      const inText = (hits: typeof docs) =>
        hits.some((h) => h.entry.type === "text" && norm(h.entry.text).includes(answer));
      if (inText(docs)) pasHit++;
      if (inText(await search.documents(q.question, 10, { tableIds: [q.table_id] }))) pasHitScoped++;
    }
    // (a) answer rows
    const gold = new Set((q.answer ?? []).map(norm));
    const goldRows = new Set<number>();
    table.rows.forEach((row, r) => {
      if (row.some((c) => gold.has(norm(c)))) goldRows.add(r);
    });
    const rowTexts = rowsByTable.get(q.table_id) ?? [];
    if (goldRows.size > 0) {
      rowN++;
      const hits = await search.rows(q.question, 10, { tableId: q.table_id });
      if (hits.some((h) => goldRows.has(h.entry.rowIdx))) rowHit++;
      else if (debug.includes("rows"))
        console.error(
          `ROW MISS [${table.rows.length} rows] ${q.question} → ${q.answer.join("; ")} | gold rows ${[...goldRows].slice(0, 5).join(",")} | got ${hits.map((h) => h.entry.rowIdx).join(",")}`,
        );
      const texts = rowTexts.map(searchText);
      const stats = new Bm25Stats(texts);
      const bm = bm25TopK(stats, q.question, texts, 10);
      if (bm.some((h) => goldRows.has(rowTexts[h.id]!.rowIdx))) rowHitBm25++;
    }
    // (b) mentioned values
    const qn = norm(q.question);
    const values = new Map<string, string>();
    const pairs: Array<{ column: string; value: string }> = [];
    const seen = new Set<string>();
    table.rows.forEach((row) =>
      row.forEach((c, i) => {
        const v = c.trim();
        const key = `${i}\u0000${v}`;
        if (v === "" || seen.has(key)) return;
        seen.add(key);
        pairs.push({ column: table.header[i]!, value: v });
        const n = norm(v);
        if (n.length >= 4 && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(n)}($|[^\\p{L}\\p{N}])`, "u").test(qn))
          values.set(n, v);
      }),
    );
    const mentioned = [...values.keys()].filter((n) => ![...values.keys()].some((m) => m !== n && m.includes(n)));
    if (mentioned.length > 0) {
      const hits = await search.cells(q.question, 15, { tableIds: [q.table_id] });
      const idxHits = await indexOnly.cells(q.question, 15, { tableIds: [q.table_id] });
      const texts = pairs.map((p) => cellText({ title: table.title }, p.column, p.value));
      const stats = new Bm25Stats(texts);
      const bm = bm25TopK(stats, q.question, texts, 15).map((h) => norm(pairs[h.id]!.value));
      // BM25 over the budgeted View 4 entries of the table (the released system's cell index)
      const budgeted = budgetedByTable.get(q.table_id) ?? [];
      const budgetedTexts = budgeted.map((c) => c.text);
      const bmBudgeted =
        budgeted.length > 0
          ? bm25TopK(new Bm25Stats(budgetedTexts), q.question, budgetedTexts, 15).map((h) =>
              norm(budgeted[h.id]!.value),
            )
          : [];
      // one-letter typo in the mention (two inner letters of its longest word swapped): surface-form robustness
      for (const m of mentioned) {
        const typo = withTypo(m);
        if (!typo) continue;
        const asked = qn.replace(m, typo);
        typoN++;
        if ((await search.cells(asked, 15, { tableIds: [q.table_id] })).some((h) => norm(h.entry.value) === m))
          typoHit++;
        else if (debug.includes("typo")) console.error(`TYPO MISS ${asked} → "${m}"`);
        if (bm25TopK(stats, asked, texts, 15).some((h) => norm(pairs[h.id]!.value) === m)) typoHitBm25++;
      }
      // the linker's path: C = schema top-5 in the hinted table, candidates per entity (the mention as written)
      const linker = await search.schemaCells(q.question, mentioned, {
        schemaTopK: 5,
        cellTopK: 15,
        tableIds: [q.table_id],
      });
      for (const m of mentioned) {
        if ((linker.candidates[m] ?? []).some((c) => norm(c.value) === m)) menHitLinker++;
        menN++;
        if (hits.some((h) => norm(h.entry.value) === m)) menHit++;
        else if (debug.includes("cells"))
          console.error(`CELL MISS ${q.question} → "${m}" | got ${hits.map((h) => h.entry.value).join(" ; ")}`);
        if (idxHits.some((h) => norm(h.entry.value) === m)) menHitIndex++;
        if (bm.includes(m)) menHitBm25++;
        if (bmBudgeted.includes(m)) menHitBm25Budgeted++;
      }
    }
  }
  const ms = (performance.now() - t0) / questions.length;
  const pct = (a: number, b: number) => (b > 0 ? +((100 * a) / b).toFixed(1) : null);
  console.error(
    `${split}: rows ${rowHit}/${rowN} (BM25 ${rowHitBm25}), mentions ${menHit}/${menN} (index only ${menHitIndex}, BM25 ${menHitBm25}, BM25 over the budgeted index ${menHitBm25Budgeted}), with a typo ${typoHit}/${typoN} (BM25 ${typoHitBm25}); ${ms.toFixed(1)} ms/question; reranker ${search.reranker.name}, vectors ${search.vectorBackend}`,
  );
  console.log(
    JSON.stringify({
      split,
      reranker: search.reranker.name,
      "row_recall@10": pct(rowHit, rowN),
      "row_recall@10_bm25": pct(rowHitBm25, rowN),
      row_questions: rowN,
      "mention_recall@15": pct(menHit, menN),
      "mention_recall@15_index_only": pct(menHitIndex, menN),
      "mention_recall@15_bm25": pct(menHitBm25, menN),
      "mention_recall@15_bm25_budgeted": pct(menHitBm25Budgeted, menN),
      "mention_recall@15_typo": pct(typoHit, typoN),
      "mention_recall@15_typo_bm25": pct(typoHitBm25, typoN),
      typo_mentions: typoN,
      "mention_recall@15_schema_cells": pct(menHitLinker, menN),
      mentions: menN,
      "table_chunks@10": pct(docTable, docN),
      "answer_passage@10": pct(pasHit, pasN),
      "answer_passage@10_scoped": pct(pasHitScoped, pasN),
      passage_questions: pasN,
      ms_per_question: +ms.toFixed(1),
    }),
  );
  opened.close();
} finally {
  rmSync(out, { recursive: true, force: true });
}
