/**
 * The checks the offline verifier makes of an answer, each a small pure function over the verifier's
 * input: is it the SQL result, is it read at the table cells the question names, does the evidence
 * holding it cover the question, is it the filter entity, does its column carry what is asked… The
 * rule verdict (verifier.ts) and the learned verifier's features (answer-features.ts) both use them.
 */
import { type AnswerKind, headerSuitsKind, numericValue } from "./answer-kind.js";
import { isSentinel, splitList, withoutScale } from "./answer-format.js";
import {
  type EvidenceRow,
  aboutTitles,
  keyStems,
  parseBlocks,
  parseMarkdownRows,
  parseRows,
  questionPart,
  rowBlockRows,
  sentences,
  withoutColumnNote,
} from "./evidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { CELL_CONFIDENCE, type Bridge } from "./reader.js";
import { tableIdsIn } from "./table-context.js";
import { answerFromCells } from "./table-cells.js";
import { parseSqlRows } from "./sql-result.js";
import { boundedMemo } from "../../indexing/bounded-memo.js";
import { isGrounded } from "../grounding.js";
import { sqlScalar } from "../sql-evidence.js";
import type { VerifyInput } from "../strategies.js";

/**
 * The last few results of a check by its inputs: the rule verdict and the learned verifier's
 * features ask the same questions of the same evidence (and the attempts of a sub-query share their
 * passages), so each is computed once. Results are read, never changed, by their callers.
 */
const MEMO_SIZE = 16;
function remembered<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  const hit = memo.get(key);
  if (hit !== undefined || memo.has(key)) return hit as T;
  const value = compute();
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, value);
  return value;
}
const rowsMemo = new Map<string, EvidenceRow[]>();
const cellsMemo = new Map<string, ReturnType<typeof answerFromCells>>();
const supportMemo = new Map<string, number>();

export function close(a: number, b: number): boolean {
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 && Math.abs(a - b) / scale <= 0.01;
}

/** §8.4 grounding without computed numbers: a TEXT/RETRIEVE answer must be read, not derived. */
export function groundedIn(answer: string, evidence: string): boolean {
  return isGrounded(answer, evidence, { allowComputed: false });
}

/** Whether the SQL result contains (or computes) the answer. */
export function fromSql(answer: string, sqlResult: string): boolean {
  if (!sqlResult || isSentinel(sqlResult)) return false;
  const scalar = sqlScalar(sqlResult);
  if (scalar !== undefined && normaliseForContainment(String(scalar)) === normaliseForContainment(answer)) return true;
  const value = numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, ""));
  const rows = parseSqlRows(sqlResult);
  const cells = rows ? rows.flat() : [];
  if (value !== null) {
    for (const c of cells) {
      const n = typeof c === "number" ? c : numericValue(String(c ?? ""));
      if (n !== null && close(n, value)) return true;
    }
  }
  const items = splitList(answer).map(normaliseForContainment);
  return (
    items.length > 0 && items.every((item) => cells.some((c) => normaliseForContainment(String(c ?? "")) === item))
  );
}

/**
 * How much of the question the best evidence unit holding the answer covers (0..1): passage
 * sentences and table rows that contain the answer, scored by idf-weighted question words.
 */
export function supportOf(question: string, subQuery: string, answer: string, evidence: string): number {
  return remembered(supportMemo, `${question}\u0000${subQuery}\u0000${answer}\u0000${evidence}`, () =>
    computeSupport(question, subQuery, answer, evidence),
  );
}

/**
 * The evidence units support is measured over — passage sentences (with their passage's subject) and
 * table rows — with their stems, the normalised texts that may hold an answer, and the stems'
 * document frequencies. They depend on the evidence alone, and every candidate answer of an attempt
 * (and the rule verdict and the features) asks about the same evidence.
 */
interface SupportUnit {
  stems: Set<string>;
  /** Normalised texts of the unit; the unit holds an answer one of them contains. */
  texts: string[];
  /** A sentence's passage subject (normalised); undefined for a table row. */
  subject?: string;
}
/** A block's sentence units: the attempts and SQL candidates of a sub-query share most blocks of their evidence. */
const blockUnits = boundedMemo(256, (text: string): readonly SupportUnit[] => {
  const units: SupportUnit[] = [];
  const subject = sentences(text)[0] ?? "";
  const subjectNorm = normaliseForContainment(subject);
  for (const s of sentences(
    text
      .split("\n")
      .filter((l) => !/^\s*\||^\s*\[Table /.test(l) && !/^\s+\S+.*:\s/.test(l))
      .join("\n"),
  )) {
    units.push({ stems: keyStems(`${s} ${subject}`), texts: [normaliseForContainment(s)], subject: subjectNorm });
  }
  return units;
});
/** A table row's unit: its cells' columns and values. */
const rowUnit = (row: EvidenceRow): SupportUnit => ({
  stems: keyStems(row.cells.map((c) => `${c.column} ${c.value}`).join(" ")),
  texts: row.cells.map((c) => normaliseForContainment(c.value)),
});
/** The row units of a markdown block's remembered rows (blockRows): its rows' stems are derived once. */
const unitsOfRows = new WeakMap<readonly EvidenceRow[], readonly SupportUnit[]>();
const markdownRowUnits = (rows: readonly EvidenceRow[]): readonly SupportUnit[] => {
  let units = unitsOfRows.get(rows);
  if (!units) unitsOfRows.set(rows, (units = rows.map(rowUnit)));
  return units;
};
const supportUnits = boundedMemo(32, (evidence: string): { units: SupportUnit[]; df: Map<string, number> } => {
  const units: SupportUnit[] = [];
  const blocks = parseBlocks(evidence);
  for (const block of blocks) units.push(...blockUnits(block.text));
  // the table rows: `[Table …, row …]` rows when the evidence has any, else every block's markdown rows (parseRows)
  const lined = rowBlockRows(evidence);
  if (lined.length > 0) units.push(...lined.map(rowUnit));
  else for (const b of blocks) units.push(...markdownRowUnits(rowsOfBlock(b)));
  const df = new Map<string, number>();
  for (const u of units) for (const s of u.stems) df.set(s, (df.get(s) ?? 0) + 1);
  return { units, df };
});

function computeSupport(question: string, subQuery: string, answer: string, evidence: string): number {
  const target = normaliseForContainment(answer);
  if (target === "") return 0;
  // Passages the sub-query names as linked from the described row ("(about: A; B)", bridge.ts):
  // the row, not the passage, matches the question's description, so their sentences count double.
  const linked = new Set(
    aboutTitles(subQuery)
      .map((t) => normaliseForContainment(t))
      .filter((t) => t !== ""),
  );
  const { units, df } = supportUnits(evidence);
  const held = units.filter((u) => u.texts.some((t) => t.includes(target)));
  if (held.length === 0) return 0;
  const q = keyStems(questionPart(subQuery) || question);
  const idf = (s: string) => Math.log(1 + (units.length + 1) / ((df.get(s) ?? 0) + 0.5));
  const answerStems = keyStems(answer);
  let total = 0;
  for (const s of q) if (!answerStems.has(s)) total += idf(s);
  if (total === 0) return 1;
  let best = 0;
  for (const u of held) {
    let m = 0;
    for (const s of q) if (!answerStems.has(s) && u.stems.has(s)) m += idf(s);
    const isLinked = u.subject !== undefined && linked.has(u.subject);
    best = Math.max(best, Math.min(1, (isLinked ? 2 : 1) * (m / total)));
  }
  return best;
}

/** True when the answer is just an entity the (sub-)question names, i.e. the filter value. */
export function isFilterEntity(answer: string, input: VerifyInput): boolean {
  const a = normaliseForContainment(answer);
  if (a.length < 2 || numericValue(answer) !== null) return false;
  const mentions = input.plan.entityMentions.map(normaliseForContainment);
  if (mentions.includes(a)) return true;
  // ("how hard is Bracken Point?" → Hard: a cell of a column the statement does not filter on only shares a
  // word with the question.)
  if (input.sql && !selectsFilteredColumn(input.sql)) return false;
  // the question's words only: the bridge note names the described row's linked passages, which may hold the answer
  return ` ${normaliseForContainment(questionPart(input.subQuery))} `.includes(` ${a} `);
}

/** The statement selects one plain column that its WHERE clause also names (or selects no plain column). */
function selectsFilteredColumn(sql: string): boolean {
  const m = /^\s*SELECT\s+(?:DISTINCT\s+)?("[^"]+")\s+FROM\s+"[^"]+"\s+WHERE\s+([\s\S]*)$/i.exec(sql);
  return !m || m[2]!.includes(m[1]!);
}

/** The SELECT list of a statement and whether it computes (aggregates or arithmetic). */
export function selectList(sql: string): { columns: string[][]; computed: boolean; hasWhere: boolean } | undefined {
  const m = /^\s*(?:WITH\b[\s\S]*?\)\s*)?SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(sql);
  if (!m) return undefined;
  const list = m[1]!;
  const computed = /\b(COUNT|SUM|AVG|TOTAL|MAX|MIN|ROUND|ABS|CAST)\s*\(|[-+*/]\s*[("\d]/i.test(list);
  const columns = [...list.matchAll(/"([^"]+)"/g)].map((c) =>
    c[1]!
      .replace(/__raw$/, "")
      .split(/_+/)
      .filter((w) => w !== ""),
  );
  return { columns, computed, hasWhere: /\bWHERE\b/i.test(sql.slice(m.index + m[0].length)) };
}

/**
 * Why an SQL answer, although it is the SQL result, does not answer the question: a several-item
 * answer to a single-answer question; a count over the whole table although the question names
 * entities; a looked-up column that shares no word with the question and does not hold the asked
 * kind (e.g. a name column for "what was the position …"). Undefined when none applies.
 */
export function sqlShapeProblem(input: VerifyInput, kind: AnswerKind, itemCount: number): string | undefined {
  const analysis = input.plan.analysis as { listAnswer?: boolean; targetHints?: string[] } | undefined;
  if (itemCount > 1 && analysis?.listAnswer === false)
    return `the SQL returned ${itemCount} values for a single-answer question`;
  if (!input.sql) return undefined;
  const select = selectList(input.sql);
  if (!select) return undefined;
  if (select.computed) {
    // Beside passages, "how many …" mostly asks for a number some passage or cell states: a count of
    // the whole table, or of the one row an entity names, is rarely it (HybridQA dev: 1 of 18 right).
    const counted = /\bCOUNT\s*\(\s*\*\s*\)/i.test(input.sql) && !/\bGROUP BY\b/i.test(input.sql);
    if (
      input.plan.requiredModalities !== "table" &&
      counted &&
      (!select.hasWhere || (numericValue(input.answer) ?? 0) <= 1)
    ) {
      return "a count of table rows, but beside passages the number asked for is usually stated, not counted";
    }
    if (
      !select.hasWhere &&
      input.plan.entityMentions.length > 0 &&
      /\bCOUNT\s*\(/i.test(input.sql) &&
      !/\bGROUP BY\b/i.test(input.sql)
    ) {
      return "the SQL counts the whole table although the question names entities to filter on";
    }
    return undefined;
  }
  // The looked-up column must carry what the question asks for (its target words, e.g. "position"
  // in "what was the position of the top scorer"), not merely the words that select the row.
  // With passages beside the tables (modality not "table"), a question may select a row by its
  // words and ask for something only a passage holds: the column must then carry the question's
  // target words ("position" in "what was the position of the top scorer"). Over tables alone the
  // column names vary too much ("film" for "movie") for this check to pay. "name"/"date"/"location"
  // stand for who/when/where (the kind check).
  if (input.plan.requiredModalities === "table") return undefined;
  // The wh-phrase's noun names the target; later hint words may describe the row ("top scorer").
  const wh = whNoun(input.subQuery);
  const allHints = wh.length ? wh : (analysis?.targetHints ?? []).slice(0, 1);
  const hints = allHints.filter((h) => !/^(name|date|location)$/.test(h));
  if (allHints.length === 0 && kind !== "person" && kind !== "place" && kind !== "year" && kind !== "date")
    return undefined;
  const question = keyStems(hints.join(" "));
  for (const words of select.columns) {
    const stems = keyStems(words.join(" "));
    if ([...stems].some((s) => question.has(s)) || headerSuitsKind(words, kind)) return undefined;
  }
  return select.columns.length
    ? `the answer column "${select.columns[0]!.join(" ")}" is not what the question asks for`
    : undefined;
}

/** Every table row of the evidence: `[Table …, row …]` blocks and markdown table rows. */
export function evidenceRows(evidence: string): EvidenceRow[] {
  return remembered(rowsMemo, evidence, () => parseEvidenceRows(evidence));
}

/**
 * A markdown block's rows ("<source length>:<source><table lines>"), remembered by its table lines:
 * the attempts of a sub-query and an attempt's SQL candidates put the same chunks in their evidence,
 * with other text (an SQL result) after them.
 */
const blockRows = boundedMemo(256, (key: string): EvidenceRow[] => {
  const colon = key.indexOf(":");
  const cut = colon + 1 + Number(key.slice(0, colon));
  return parseMarkdownRows(key.slice(cut), key.slice(colon + 1, cut));
});
/**
 * The lines of a block parseMarkdownRows reads (trimmed table rows and "Table name:" lines); any
 * run of other lines only ends a table there, so it becomes one empty line: the same rows, read
 * from the same key whatever else the block holds.
 */
function tableLines(text: string): string {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("|") || /^Table name:\s*(.+)$/.test(line)) out.push(line);
    else if (out.length === 0 || out[out.length - 1] !== "") out.push("");
  }
  return out.join("\n");
}
const rowsOfBlock = (b: { source: string; text: string }) =>
  blockRows(`${b.source.length}:${b.source}${tableLines(b.text)}`);
/** A number per remembered list of rows (by identity), for the key of the rows an evidence holds. */
const listIds = new WeakMap<readonly EvidenceRow[], number>();
let lastListId = 0;
const listId = (rows: readonly EvidenceRow[]) => {
  let id = listIds.get(rows);
  if (id === undefined) listIds.set(rows, (id = ++lastListId));
  return id;
};

/**
 * The rows of an evidence text, as the earlier list of the same rows when there is one: the SQL
 * candidates of an attempt differ in their result, not in their rows, and the table readers
 * remember their work per list (table-cells.ts `describedGrids`). Results are read, never changed.
 */
const rowsByContent = new Map<string, EvidenceRow[]>();
function parseEvidenceRows(evidence: string): EvidenceRow[] {
  // `[Table …, row …]` rows count only when the evidence holds one
  const blocks = /\[Table [^\]]+, row \d+\]/.test(evidence) ? parseRows(evidence).filter((r) => r.tableId !== "") : [];
  const lists = parseBlocks(evidence).map(rowsOfBlock);
  const rows = [...blocks, ...lists.flat()];
  if (rows.length === 0) return rows;
  const key = `${blocks.length ? JSON.stringify(blocks) : ""}\u0000${lists.map(listId).join(",")}`;
  return remembered(rowsByContent, key, () => rows);
}

/** The evidence's report-table cells, located by the question, when they give this answer. */
export function fromCells(answer: string, input: VerifyInput): { operation: string; confidence: number } | undefined {
  const question = input.subQuery || input.question;
  const cells = remembered(cellsMemo, `${question}\u0000${input.evidence}`, () =>
    answerFromCells(question, evidenceRows(input.evidence), input.evidence),
  );
  if (!cells || !cells.periodTable || cells.confidence < CELL_CONFIDENCE) return undefined;
  const same = normaliseForContainment(withoutScale(cells.answer)) === normaliseForContainment(withoutScale(answer));
  return same ? { operation: cells.operation, confidence: cells.confidence } : undefined;
}

/** The noun of "what/which (is the) <noun> …" ("position" in "what was the position in college of …"). */
export function whNoun(question: string): string[] {
  const m = /\b(?:what|which)\s+(?:is\s+|was\s+|are\s+|were\s+)?(?:the\s+)?([a-z][a-z-]+)/i.exec(question);
  const noun = m?.[1]?.toLowerCase();
  return noun && !/^(is|was|are|were|did|does|do|has|have|had|of|one|kind|type|name)$/.test(noun) ? [noun] : [];
}

/** "Which club …", "who …": a named thing, unless the noun asks for a number, year or rank. */
export function asksForName(question: string, kind: AnswerKind): boolean {
  if (kind !== "entity" && kind !== "person" && kind !== "place") return false;
  const m = /^\s*(?:which|who|whom)\b\s*([a-z-]+)?/i.exec(question);
  if (!m) return false;
  // (Records are often numbered: "which order …" is answered by an order number; so are places in a building, a
  // station or a book: "which floor is room 302 on?" → 3.)
  return !/^(year|years|season|seasons|date|time|day|month|week|edition|round|game|match|episode|number|no|rank|place|position|score|grade|level|term|one|of|is|was|are|were|order|orders|invoice|invoices|ticket|tickets|booking|bookings|transaction|transactions|receipt|receipts|account|accounts|id|floor|floors|room|rooms|platform|platforms|gate|gates|bed|beds|table|tables|seat|seats|lane|lanes|page|pages|chapter|chapters|track|tracks|unit|units|flat|flats|apartment|apartments|bay|court|pitch|locker|desk|stage|heat|lap|laps|bus|route|channel|exit|door|ward|block|section|row|aisle|shelf|slot|quarter|period|version|size|age)$/i.test(
    m[1] ?? "is",
  );
}

/**
 * RETRIEVE: the column of the cell that holds the answer (in the evidence rows) should carry the
 * question's target words or suit the asked kind; otherwise the reader took a value from the
 * wrong column (e.g. the club for "what is the nickname of the club …"). Undefined when fine.
 */
export function rowColumnProblem(input: VerifyInput, answer: string, kind: AnswerKind): string | undefined {
  const hints = ((input.plan.analysis as { targetHints?: string[] } | undefined)?.targetHints ?? []).filter(
    (h) => !/^(name|date|location)$/.test(h),
  );
  if (hints.length === 0) return undefined;
  const target = keyStems(hints.join(" "));
  const a = normaliseForContainment(answer);
  const columns = new Set<string>();
  for (const row of evidenceRows(input.evidence))
    for (const c of row.cells) if (normaliseForContainment(c.value) === a) columns.add(c.column);
  if (columns.size === 0) return undefined;
  for (const column of columns) {
    const words = column.split(/[\s_›]+/).filter((w) => w !== "");
    if ([...keyStems(column)].some((s) => target.has(s)) || headerSuitsKind(words, kind)) return undefined;
  }
  return `the answer comes from column "${[...columns][0]}", not the asked "${hints.join(" ")}"`;
}

/** How many evidence rows hold one of the question's entity mentions as a cell value. */
export function rowsNamingMentions(input: VerifyInput): number {
  const mentions = new Set(input.plan.entityMentions.map(normaliseForContainment).filter((m) => m !== ""));
  if (mentions.size === 0) return 0;
  return parseRows(input.evidence).filter((row) =>
    row.cells.some((c) => mentions.has(normaliseForContainment(c.value))),
  ).length;
}

/** Does the sub-query describe a table row whose cells link to passages (bridge.ts)? */
export function describesLinkedRow(input: VerifyInput, bridge: Bridge | undefined): boolean {
  return /\(about:/.test(input.subQuery) || bridgedQuery(input, bridge) !== input.subQuery;
}

/** The sub-query with the titles of the passages linked from the described row, as the TEXT reader used it. */
export function bridgedQuery(input: VerifyInput, bridge: Bridge | undefined): string {
  if (!bridge || /\(about:/.test(input.subQuery)) return input.subQuery;
  for (const id of tableIdsIn(input.evidence)) {
    const q = bridge(withoutColumnNote(input.subQuery) || input.question, id);
    if (q) return q;
  }
  return input.subQuery;
}
