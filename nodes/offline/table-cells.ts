/**
 * Reading and computing over the cells of financial-report style tables (TAT-QA and the like),
 * where a value sits at (row label, period column): "What was the change in service revenue between
 * 2020 and 2021?" reads two cells of one row and subtracts them; "… as a percentage of …" divides.
 * This is the arithmetic of the fusion prompt (reference §8.2: percentage change, absolute change
 * with sign, average, ratio, sum), done on cells located by the question's words.
 *
 * The grid model is generic:
 * - a column is described by its header plus the values of the leading header-like rows (rows whose
 *   first cell is empty, e.g. a "2019 | 2018" row under a merged "Years ended" header);
 * - a row is described by its text cells plus the last section row above it (a row whose only
 *   non-empty cell is its first, e.g. "2019:");
 * - the question's years pick columns (or sections), its other words pick rows.
 */
import { boundedMemo } from "../../indexing/bounded-memo.js";
import { parseNumber } from "../../indexing/column-types.js";
import {
  LIST_SEPARATOR,
  type Scale,
  asPercent,
  formatNumber,
  joinList,
  scaleFromEvidence,
  withScale,
} from "./answer-format.js";
import { type EvidenceRow, keyStems, questionPart } from "./evidence.js";
import { MONTH_NAMES, MONTH_PATTERN, ORDINAL_PATTERN, ordinalValue } from "../../text/lexicons.js";
import type { TablePassages } from "./table-context.js";

export interface Grid {
  tableId: string;
  columns: string[];
  /** Every row's cells in column order ("" for empty). */
  rows: string[][];
}

/** Groups parsed evidence rows into one grid per table, columns in first-seen order. */
export function gridsFromRows(rows: EvidenceRow[]): Grid[] {
  const byTable = new Map<string, { columns: string[]; rows: Map<number, Map<string, string>> }>();
  for (const r of rows) {
    let g = byTable.get(r.tableId);
    if (!g) byTable.set(r.tableId, (g = { columns: [], rows: new Map() }));
    const cells = g.rows.get(r.rowIdx) ?? new Map<string, string>();
    for (const c of r.cells) {
      if (!g.columns.includes(c.column)) g.columns.push(c.column);
      cells.set(c.column, c.value);
    }
    g.rows.set(r.rowIdx, cells);
  }
  return [...byTable].map(([tableId, g]) => ({
    tableId,
    columns: g.columns,
    rows: [...g.rows].sort((a, b) => a[0] - b[0]).map(([, cells]) => g.columns.map((c) => cells.get(c) ?? "")),
  }));
}

/** A year: "2019", "FY2019", and the fiscal short forms "FY19", "F19", "FY 19". */
const YEAR = /\bf(?:y)?\s?'?([0-3]\d)\b|(?:\b|(?<=fy))(19[5-9]\d|20[0-4]\d)\b/gi;

function yearsIn(text: string): number[] {
  return [...text.matchAll(YEAR)].map((m) => (m[1] !== undefined ? 2000 + Number(m[1]) : Number(m[2])));
}

/** Is the cell a number (not a year)? Remembered: every reading of the evidence asks it of the same cells. */
const isNumberCell = boundedMemo(8192, (v: string): boolean => {
  const t = v.trim();
  return t !== "" && parseNumber(t.replace(/\s+/g, "")) !== null && !/^(19[5-9]\d|20[0-4]\d):?$/.test(t);
});

interface Described {
  grid: Grid;
  colText: string[];
  colYears: number[][];
  /** Indices of data rows (not header-like, not section rows). */
  dataRows: number[];
  rowText: string[];
  rowYears: number[][];
  /** The section row above each row ("" when none). */
  rowSection: string[];
  /** The scale the table's own header declares ("$ million", "2019 €m", "(In thousands)"), "" when none. */
  tableScale: Scale;
  /** The first scale any of its cells declares (a unit cell in a data row: "$ MILLION | Q1 | Q2"), "" when none. */
  cellsScale: Scale;
}

/**
 * The grid with "Total" written into the empty label of a table's or section's last row whose every
 * number is the sum of the labelled rows right above it ("| | 710 | 670 |" under two regions):
 * reports often leave their total rows unlabelled, and a question names them "the total".
 */
function withTotalLabels(grid: Grid): Grid {
  let rows = grid.rows;
  grid.rows.forEach((row, r) => {
    if ((row[0] ?? "").trim() !== "") return;
    // (the last row of the table or of its section: an unlabelled row inside a section is a subtotal
    // the section's own Total row follows)
    const next = grid.rows[r + 1];
    if (next && !((next[0] ?? "").trim() !== "" && next.slice(1).every((v) => v.trim() === ""))) return;
    const cols = row.map((_, c) => c).filter((c) => c > 0 && isNumberCell(row[c]!));
    if (cols.length === 0) return;
    const block: string[][] = [];
    for (let above = r - 1; above >= 0; above--) {
      const cells = grid.rows[above]!;
      if ((cells[0] ?? "").trim() === "" || cols.some((c) => !isNumberCell(cells[c] ?? ""))) break;
      block.push(cells);
    }
    if (block.length < 2) return;
    const value = (cell: string) => parseNumber(cell.replace(/\s+/g, ""))!;
    const sums = cols.every((c) => {
      const sum = block.reduce((acc, cells) => acc + value(cells[c]!), 0);
      return Math.abs(value(row[c]!) - sum) <= Math.max(0.051, Math.abs(sum) * 0.001);
    });
    if (!sums) return;
    if (rows === grid.rows) rows = grid.rows.map((x) => [...x]);
    rows[r]![0] = "Total";
  });
  return rows === grid.rows ? grid : { ...grid, rows };
}

function describe(grid: Grid): Described {
  const colText = grid.columns.map((c) => (/^col_\d+$/.test(c) ? "" : c));
  let start = 0;
  // Leading header-like rows: no number cell except years ("2019 | 2018" under "Fiscal year"); the
  // first cell may carry a unit note ("(in millions of €)") or a period caption ("December 31,").
  while (start < grid.rows.length) {
    const row = grid.rows[start]!;
    const rest = row.slice(1).filter((v) => v.trim() !== "");
    const headerLike =
      rest.length > 0 &&
      !isNumberCell(row[0] ?? "") &&
      rest.every((v) => !isNumberCell(v) || /^(19|20)\d\d$/.test(v.trim())) &&
      ((row[0] ?? "").trim() === "" || rest.some((v) => yearsIn(v).length > 0));
    if (!headerLike) break;
    row.forEach((v, c) => (colText[c] = `${colText[c]} ${v}`.trim()));
    start++;
  }
  const dataRows: number[] = [];
  const rowText: string[] = [];
  const rowYears: number[][] = [];
  const rowSection: string[] = [];
  let section = "";
  grid.rows.forEach((row, r) => {
    rowText[r] = "";
    rowYears[r] = [];
    rowSection[r] = section;
    if (r < start) return;
    const filled = row.map((v, c) => [v.trim(), c] as const).filter(([v]) => v !== "");
    // A section row: one text cell, in the first column or spanning the row ("As of December 31, 2018").
    if (
      filled.length === 1 &&
      (filled[0]![1] === 0 || (!isNumberCell(filled[0]![0]) && yearsIn(filled[0]![0]).length > 0))
    ) {
      section = filled[0]![0];
      return;
    }
    const label = row.filter((v) => v.trim() !== "" && !isNumberCell(v)).join(" ");
    // Footnote marks ("Other assets(1)", "(1,2)") are not words of the label.
    rowText[r] = joinNegations(`${label.replace(/\(\d{1,2}(?:,\s*\d{1,2})*\)/g, " ")} ${section}`.trim());
    rowYears[r] = yearsIn(section);
    rowSection[r] = section;
    dataRows.push(r);
  });
  rollForwardYears(grid, colText, dataRows, rowYears);
  // Header cells as markdown cells, so a bare unit cell ("| $ million |") reads as one.
  const header = `| ${[...grid.columns, ...colText].join(" | ")} |`;
  return {
    grid,
    colText: colText.map(joinNegations),
    colYears: colText.map(yearsIn),
    dataRows,
    rowText,
    rowYears,
    rowSection,
    tableScale: scaleFromEvidence(header),
    cellsScale: scaleFromEvidence(grid.rows.map((row) => `| ${row.join(" | ")} |`).join("\n")),
  };
}

/** A balance row's label: "Outstanding at December 31, 2020", "Balance as of June 30, 2021", "Unvested at end of 2020". */
const BALANCE_LABEL = /\b(?:at|as of|as at|balance|outstanding|beginning|end)\b/i;

/**
 * A roll-forward table (a balance, its movements, the next balance: "Outstanding at December 31,
 * 2020 | Granted | Exercised | Outstanding at December 31, 2021") dates its movement rows by the
 * balance they lead to: "granted in 2021" is the Granted row above the 2021 balance. Only for tables
 * without period columns, with at least two dated balance rows (each dated by its own label); rows
 * after the last one stay undated.
 */
function rollForwardYears(grid: Grid, colText: string[], dataRows: number[], rowYears: number[][]): void {
  if (colText.some((t) => yearsIn(t).length > 0)) return;
  const label = (r: number) => grid.rows[r]![0] ?? "";
  const balances = dataRows.filter((r) => BALANCE_LABEL.test(label(r)) && yearsIn(label(r)).length === 1);
  if (balances.length < 2) return;
  for (const r of balances) if (rowYears[r]!.length === 0) rowYears[r] = yearsIn(label(r));
  for (let i = 1; i < balances.length; i++) {
    const year = yearsIn(label(balances[i]!))[0]!;
    for (const r of dataRows)
      if (r > balances[i - 1]! && r < balances[i]! && rowYears[r]!.length === 0 && yearsIn(label(r)).length === 0)
        rowYears[r] = [year];
  }
}

/** Amounts per share or per unit ("Basic earnings per share", "cents per share") carry no scale word. */
const PER_UNIT = /\bper (?:\w+ )?(?:share|unit|employee|customer)\b|\b(?:cents|pence)\b/i;

/**
 * The scale of the amounts in row r, from the evidence the value comes from: a unit the row's label
 * or its section declares ("Revenue ($M)"), none for per-share amounts, else the table header's
 * unit, else what the surrounding evidence (passages) declares.
 */
function rowScale(d: Described, r: number, fallback: Scale): Scale {
  const label = d.grid.rows[r]!.filter((v) => v.trim() !== "" && !isNumberCell(v)).join(" ");
  for (const text of [label, d.rowSection[r] ?? ""]) {
    const declared = scaleFromEvidence(text);
    if (declared) return declared;
  }
  if (PER_UNIT.test(d.rowText[r] ?? "")) return "";
  return d.tableScale || fallback;
}

/**
 * The described grids of a list of evidence rows, by the list's identity: the verifier, its features
 * and the cell reader ask of the same remembered rows (answer-checks.ts `evidenceRows`) for every
 * candidate answer. The lists are read, never changed, once built.
 */
const describedByRows = new WeakMap<readonly EvidenceRow[], Described[]>();
function describedGrids(rows: EvidenceRow[]): Described[] {
  let out = describedByRows.get(rows);
  if (!out) describedByRows.set(rows, (out = gridsFromRows(rows).map((g) => describe(withTotalLabels(g)))));
  return out;
}

/** Whether the rows include a report table: period (year) columns or period sections. */
export function hasPeriodTable(rows: EvidenceRow[]): boolean {
  return describedGrids(rows).some(
    (d) => d.colYears.filter((y) => y.length > 0).length >= 2 || d.rowYears.some((y) => y.length > 0),
  );
}

export type CellOperation = "lookup" | "list" | "difference" | "percent_change" | "average" | "sum" | "ratio";

/** The operation a question asks of table cells. */
export function cellOperation(question: string): CellOperation {
  // "Weighted-average X" names a row or column, not an average to compute; so does "the average X"
  // right after a change word ("the change in the average price per share").
  const q = question
    .toLowerCase()
    .replace(/\bweighted[- ]average\b/g, "weighted")
    .replace(/\b(change|difference|increase|decrease) in (the )?average\b/g, "$1 in $2avg");
  if (
    /(?:\bpercent(age)?|%) (change|increase|decrease|growth|decline)\b|\b(change|increase|decrease|growth|decline) in percent(age)?\b|\byear[- ]on[- ]year percent/.test(
      q,
    )
  )
    return "percent_change";
  if (
    /\bratio\b|\bproportion\b|\bas a (percentage|percent|proportion|fraction) of\b|\bpercentage of\b|\bwhat percent of\b|\bpercentage constitution\b|\bpercentage .* among\b/.test(
      q,
    )
  )
    return "ratio";
  if (/\baverage\b|\bmean\b/.test(q)) return "average";
  if (/\b(change|difference|increase|decrease|decline|growth|grow|differ|variance)\b/.test(q)) return "difference";
  if (
    /\bsum\b|\bcombined\b|\baltogether\b|\bin total\b/.test(q) ||
    (/\btotal\b/.test(q) &&
      (/\band\b/.test(q) || /\b(19|20)\d\d\s*(to|-|–|through)\s*(19|20)\d\d\b/.test(q)) &&
      !/\brespective/.test(q))
  )
    return "sum";
  if (/\brespective(ly)?\b/.test(q) || yearsIn(q).length >= 2) return "list";
  return "lookup";
}

/** "As of June 30, 2021", "December 31,", "2019": the period part of a header. */
const DATE_WORDS = new RegExp(`\\b(?:as (?:of|at)\\s+)?(?:${MONTH_NAMES.join("|")})\\s*\\d{0,2},?`, "gi");

/** A header without its period words (what it says the values are). */
function withoutDates(header: string): string {
  return header.replace(DATE_WORDS, " ").replace(YEAR, " ");
}

/** Row labels of outflows, which reports often show in brackets. */
const OUTFLOW = /\b(costs?|expenses?|loss(es)?|charges?|payments?|outflows?)\b/i;

/** Words of a signed change from one period to another. */
const CHANGE_WORD = /\b(change|increase|decrease|growth|decline|grow|rise|fall|drop)\b/i;
/** Words of a gap between two amounts, reported as a positive size. */
const GAP_WORD = /\b(difference|differ|gap)\b/i;

/**
 * Whether a difference question asks for a size, not a signed change: "the difference in …"
 * without a change word, or a one-way fall ("how much did … decrease by").
 */
function asksForSize(question: string): boolean {
  if (GAP_WORD.test(question) && !/\b(change|increase)\b/i.test(question)) return true;
  return /\b(decrease|decline|fall|drop)\b/i.test(question) && !/\b(change|increase)\b/i.test(question);
}

/** Question words that name operations or periods, not rows. */
const OPERATION_WORDS = new Set(
  "change difference increase decrease decline growth percentage percent average mean ratio proportion sum total combined respective respectively year years fiscal between from value amount much many what".split(
    " ",
  ),
);

/**
 * A negating prefix joined to its word ("non-vested" → "nonvested"), in row and column texts and in
 * the question alike: otherwise "non-vested shares forfeited" matches the "Vested" row by "vested".
 */
function joinNegations(text: string): string {
  return text.replace(/\b(non|un)-(?=[a-z])/gi, "$1");
}

function rowQueryStems(question: string): Set<string> {
  const out = new Set<string>();
  for (const s of keyStems(joinNegations(question.replace(YEAR, " ")))) if (!OPERATION_WORDS.has(s)) out.add(s);
  return out;
}

/**
 * Best data rows for a set of question stems, scored by coverage of both sides. Rows whose label
 * names a date ("Net balances at September 30, 2019") are preferred when the question names the
 * same year, and set back when it names only other years.
 */
const OPENING = /\b(beginning|opening|start)\b/i;
const OPENING_STEMS = keyStems("beginning opening start begin open");

function rankRows(
  d: Described,
  q: Set<string>,
  years: number[] = [],
  wantsTotal = false,
): Array<{ r: number; score: number }> {
  const out: Array<{ r: number; score: number }> = [];
  for (const r of d.dataRows) {
    const rs = keyStems(d.rowText[r]!);
    // "the total personnel expenses": the "Total" row of a table about personnel expenses. The
    // word counts as one more matched stem on both sides (it is a stop word of keyStems); on a tie
    // the named row wins, as "total" may also ask for a sum ("total X in 2019 and 2018").
    const total = wantsTotal && /^\s*total\b/i.test(d.grid.rows[r]![0] ?? "") ? 1 : 0;
    let hit = total;
    for (const s of rs) if (q.has(s)) hit++;
    if (hit === 0) continue;
    const labelYears = yearsIn(d.grid.rows[r]![0] ?? "");
    // The row's own dated label, else its section's date ("As of December 31, 2018").
    const rowDates = labelYears.length ? labelYears : d.rowYears[r]!;
    const dated = years.length && rowDates.length ? (rowDates.some((y) => years.includes(y)) ? 0.1 : -0.1) : 0;
    const qSize = q.size + (wantsTotal ? 1 : 0);
    // Words of a period section ("As of December 31, 2018") that the question leaves out do not
    // make the row a worse match: every row of the section carries them.
    const section = d.rowYears[r]!.length ? keyStems(d.rowSection[r] ?? "") : new Set<string>();
    let size = 0;
    for (const s of rs) if (!section.has(s) || q.has(s)) size++;
    // A balance named without its date ("the change in goodwill") is the closing one: "Goodwill,
    // end of the year" before "Goodwill, beginning of the year" unless the question says which.
    const opening = OPENING.test(d.rowText[r]!) && ![...OPENING_STEMS].some((x) => q.has(x));
    out.push({
      r,
      score:
        hit / Math.max(1, qSize) +
        (0.5 * hit) / Math.max(1, size + total) +
        dated -
        0.01 * total -
        (opening ? 0.05 : 0),
    });
  }
  return out.sort((a, b) => b.score - a.score || a.r - b.r);
}

/** "the first month", "the second quarter", "the first to second month period": ordinals of a period word. */
const ORDINAL_PERIOD = new RegExp(
  `\\b(${ORDINAL_PATTERN}|\\d+(?:st|nd|rd|th))(?:\\s+(?:to|and|through|-)\\s+(?:the\\s+)?(${ORDINAL_PATTERN}|\\d+(?:st|nd|rd|th)))?\\s+(?:months?|quarters?|periods?)\\b`,
  "i",
);
/** A row label that is a date or a date range ("January 1, 2021 – January 31, 2021"), not a named period ("Fourth Quarter"). */
const DATE_LABEL = new RegExp(`\\b(?:${MONTH_PATTERN})\\b`, "i");
const NAMED_PERIOD = new RegExp(`\\b(?:${ORDINAL_PATTERN}|quarter|half|total)\\b`, "i");

/**
 * The rows a question names by their position among the table's dated rows ("the shares bought in
 * the second month" of a table whose rows are "January 1, 2021 – January 31, 2021", …), in the
 * question's order; [] when it names none or the table has fewer than two such rows. Rows whose
 * labels name their own position ("Fourth Quarter") are located by their words instead.
 */
function ordinalPeriodRows(d: Described, question: string): number[] {
  const m = ORDINAL_PERIOD.exec(question);
  if (!m) return [];
  const years = yearsIn(question);
  const periods = d.dataRows.filter((r) => {
    const label = d.grid.rows[r]![0] ?? "";
    const dated = [...yearsIn(label), ...d.rowYears[r]!];
    return (
      DATE_LABEL.test(label) && !NAMED_PERIOD.test(label) && years.every((y) => dated.length === 0 || dated.includes(y))
    );
  });
  if (periods.length < 2) return [];
  const out: number[] = [];
  for (const word of [m[1], m[2]]) {
    const n = word === undefined ? undefined : ordinalValue(word);
    if (n === undefined) continue;
    if (n > periods.length) return [];
    out.push(periods[n - 1]!);
  }
  return out;
}

/** A dash in a value cell ("—", "$ –"): reports write a nil amount so. */
const NIL_CELL = /^[$€£]?\s*[-–—]+\s*%?$/;

function numberAt(d: Described, r: number, c: number): number | null {
  const v = (d.grid.rows[r]?.[c] ?? "").trim();
  if (NIL_CELL.test(v) && d.colYears[c]!.length > 0) return 0;
  return isNumberCell(v) ? parseNumber(v.replace(/\s+/g, "")) : null;
}

/** Columns holding numbers in row r, in table order. */
function numericColumns(d: Described, r: number): number[] {
  return d.grid.columns.map((_, c) => c).filter((c) => numberAt(d, r, c) !== null);
}

export interface CellAnswer {
  answer: string;
  /** 0..1: how well the question's words located the cells. */
  confidence: number;
  operation: CellOperation;
  /**
   * A report table, not a list of entities: the table has period columns or period sections, or the
   * answer is a share of its Total row or column ("… as a percentage of the total …"), a sum of a
   * named section's rows or a reading of period rows named by position ("the second month").
   */
  periodTable: boolean;
}

/** Value of (row, year): the year's column, else the row's own section year. */
function cellForYear(d: Described, r: number, year: number | undefined): number | null {
  const cols = numericColumns(d, r);
  if (year === undefined) return cols.length ? numberAt(d, r, cols[0]!) : null;
  const byYear = cols.filter((c) => d.colYears[c]!.includes(year));
  if (byYear.length) return numberAt(d, r, byYear[0]!);
  return null;
}

/** Row with the same label in the section of `year` (tables with "2019:" / "2018:" sections). */
function rowInSection(d: Described, r: number, year: number): number | undefined {
  if (d.rowYears[r]!.includes(year)) return r;
  const label = d.grid.rows[r]!.filter((v) => v.trim() !== "" && !isNumberCell(v)).join(" ");
  return d.dataRows.find(
    (x) =>
      d.rowYears[x]!.includes(year) &&
      d.grid.rows[x]!.filter((v) => v.trim() !== "" && !isNumberCell(v)).join(" ") === label,
  );
}

function valueAt(d: Described, r: number, year: number | undefined): number | null {
  const direct = cellForYear(d, r, year);
  if (direct !== null) return direct;
  if (year === undefined) return null;
  const s = rowInSection(d, r, year);
  if (s === undefined) return null;
  // A section table: the value column is the one the question's other words name, else the first numeric one.
  return cellForYear(d, s, undefined);
}

/** The raw cell text at (row, year) for lookups (numbers as stored). */
function textAt(d: Described, r: number, year: number | undefined, q: Set<string>): string | undefined {
  let row = r;
  let cols = numericColumns(d, row);
  if (year !== undefined) {
    const byYear = cols.filter((c) => d.colYears[c]!.includes(year));
    if (byYear.length) cols = byYear;
    else {
      const s = rowInSection(d, r, year);
      if (s === undefined) return undefined;
      row = s;
      cols = numericColumns(d, row);
    }
  }
  const c = namedColumn(d, cols, q);
  return c === undefined ? undefined : d.grid.rows[row]![c]!.trim();
}

/** Of the value columns, the one whose description carries most of the question's words ("High", "Low", "Amount"). */
function namedColumn(d: Described, cols: number[], q: Set<string>): number | undefined {
  return cols
    .map((c) => ({ c, hit: [...keyStems(d.colText[c]!)].filter((s) => q.has(s)).length }))
    .sort((a, b) => b.hit - a.hit || a.c - b.c)[0]?.c;
}

/** The scale of one column's values: its own unit note ("(Shares in thousands)"), none per share, else the row's. */
function columnScale(d: Described, r: number, c: number, fallback: Scale): Scale {
  const own = scaleFromEvidence(`| ${d.colText[c]} |`);
  if (own) return own;
  if (PER_UNIT.test(d.colText[c]!)) return "";
  return rowScale(d, r, fallback);
}

/** Whether the row's values in the years (all its values when none is named) are percentages. */
function percentRow(d: Described, r: number, years: number[]): boolean {
  // With no year named, the row's period columns: a column comparing two years ("2019 vs 2018":
  // "-130 bps") is a change, not one of the values.
  const cols = numericColumns(d, r).filter((c) =>
    years.length === 0 ? d.colYears[c]!.length === 1 : years.some((y) => d.colYears[c]!.includes(y)),
  );
  return cols.length > 0 && cols.every((c) => /%/.test(d.grid.rows[r]![c]!));
}

/** Splits "A and B" / "A to B" row phrases of a two-row question. */
function twoRowPhrases(question: string): [string, string] | undefined {
  const q = question.replace(YEAR, " ").replace(/[?.]/g, " ");
  const m =
    /\b(?:of|between|for|in)\s+(?:the\s+)?(.+?)\s+(?:and|to|over|versus|vs\.?|compared to)\s+(?:the\s+)?(.+?)(?:\s+(?:in|for|during|at|as of|as at)\b|$)/i.exec(
      q,
    );
  if (!m) return undefined;
  return [m[1]!.trim(), m[2]!.trim()];
}

/**
 * The part and the whole of a ratio question that names them with other words than "A and B":
 * "the percentage constitution of A in B", "what percentage of B does A make up", "A as a
 * proportion of B". Periods are left out of the phrases (the column comes from the year).
 */
export function ratioPhrases(question: string): [string, string] | undefined {
  const q = question
    .replace(YEAR, " ")
    .replace(/\(in percentage\)|[?.]/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  const tidy = (p: string) =>
    p
      .replace(/^(?:the|a|an)\s+/i, "")
      .replace(/\s+(?:in|for|during|at|as of|as at|of|fiscal|fiscal year|year|years)$/i, "")
      .replace(/\s+(?:in|for|during|at|as of|as at|of|fiscal|fiscal year|year|years)$/i, "")
      .trim();
  const inWhole = /\b(?:percentage|proportion|ratio|share|portion) constitution of (.+?) (?:in|of|to) (.+)$/i.exec(q);
  if (inWhole) return [tidy(inWhole[1]!), tidy(inWhole[2]!)];
  const ofWhole =
    /\bwhat (?:percentage|percent|proportion|portion|share|fraction) of (.+?) (?:does|do|did|is|are|was|were) (.+?)(?: (?:form|make|account|constitute|represent|comprise)\b.*)?$/i.exec(
      q,
    );
  if (ofWhole) return [tidy(ofWhole[2]!), tidy(ofWhole[1]!)];
  const asShare =
    /^(?:what|how much)\s+(?:is|was|are|were)\s+(.+?) as an? (?:percentage|percent|proportion|ratio|fraction|share) of (.+)$/i.exec(
      q,
    );
  if (asShare) return [tidy(asShare[1]!), tidy(asShare[2]!)];
  return undefined;
}

/** The cells of a ratio's part and whole (`ratioPhrases`), each in its own row, in the year's column. */
function ratioOperands(
  d: Described,
  question: string,
  years: number[],
): { a: number; b: number; rows: [number, number] } | undefined {
  const phrases = ratioPhrases(question);
  if (!phrases) return undefined;
  const whole = phrases[1];
  const r2 = rankRows(d, rowQueryStems(whole), years, /\btotal\b/i.test(whole))[0];
  // The part inside the whole's own section ("online sales in gross margin by channel", a row
  // that several sections hold): of the parts that match as well as the best, the one in that section.
  const parts = rankRows(d, rowQueryStems(phrases[0]), years);
  const inWhole =
    r2 && d.rowSection[r2.r]
      ? parts.find((p) => p.score >= parts[0]!.score * 0.9 && d.rowSection[p.r] === d.rowSection[r2.r])
      : undefined;
  const r1 = inWhole ?? parts[0];
  if (!r1 || !r2 || r1.r === r2.r) return undefined;
  const a = valueAt(d, r1.r, years[0]);
  const b = valueAt(d, r2.r, years[0]);
  if (a === null || b === null) return undefined;
  // A part the report shows in brackets ("Depreciation | (111)") is an amount spent: its share of
  // the whole is a size.
  const bracketed = /^[$€£]?\s*\(.*\)$/.test(cellTextAt(d, r1.r, years[0]).trim());
  return { a: bracketed ? Math.abs(a) : a, b, rows: [r1.r, r2.r] };
}

/**
 * "The sum of all X": the rows of the section X names ("X:" above them), without its Total rows, in
 * the year's column (else each row's first value column). Undefined unless the question's words all
 * name one section and it holds at least two values.
 */
function sectionValues(
  d: Described,
  question: string,
  years: number[],
): { values: number[]; cells: string[] } | undefined {
  const phrase = /\b(?:sum|total) of all (?:the )?(.+?)(?:\s+(?:in|for|at|as of|as at|during)\b.*)?\s*\??$/i.exec(
    question.replace(YEAR, " "),
  )?.[1];
  if (!phrase) return undefined;
  const want = rowQueryStems(phrase);
  if (want.size === 0) return undefined;
  const sections = [...new Set(d.dataRows.map((r) => d.rowSection[r]!).filter((x) => x !== ""))];
  const named = sections.filter((x) => {
    const stems = keyStems(joinNegations(x));
    return [...want].every((w) => stems.has(w));
  });
  if (named.length !== 1) return undefined;
  const members = d.dataRows.filter(
    (r) => d.rowSection[r] === named[0] && !/^\s*total\b/i.test(d.grid.rows[r]![0] ?? ""),
  );
  if (members.length < 2) return undefined;
  // No year named: the first column that holds a value in every row of the section.
  const column =
    years.length === 0
      ? numericColumns(d, members[0]!).find((c) => members.every((r) => numberAt(d, r, c) !== null))
      : undefined;
  if (years.length === 0 && column === undefined) return undefined;
  const values: number[] = [];
  const cells: string[] = [];
  for (const r of members) {
    const v = column !== undefined ? numberAt(d, r, column) : valueAt(d, r, years[0]);
    if (v === null) return undefined;
    values.push(v);
    cells.push(column !== undefined ? d.grid.rows[r]![column]! : cellTextAt(d, r, years[0]));
  }
  return { values, cells };
}

/** The raw text of the cell at (row, year), "" when there is none. */
function cellTextAt(d: Described, r: number, year: number | undefined): string {
  const cols = numericColumns(d, r);
  // A row of the year's own section (or roll-forward period) holds the year's value in its first value column.
  const c =
    year === undefined
      ? cols[0]
      : (cols.find((x) => d.colYears[x]!.includes(year)) ?? (d.rowYears[r]!.includes(year) ? cols[0] : undefined));
  return c === undefined ? "" : d.grid.rows[r]![c]!;
}

/** Descriptions of the row's columns for the given years (their unit: "%", "$'000"). */
function periodColumnText(d: Described, r: number, years: number[]): string[] {
  return numericColumns(d, r)
    .filter((c) => years.some((y) => d.colYears[c]!.includes(y)))
    .map((c) => d.colText[c]!);
}

/**
 * Periods an average or sum runs over: every year of a named range ("from 2017 to 2019",
 * "2017-2019", "between 2017 and 2019") that has a column, or, when no year is named, every
 * period column of the row. Undefined when the question names the years one by one.
 */
function aggregatePeriods(d: Described, r: number, question: string, years: number[]): number[] | undefined {
  const rowYears = [...new Set(numericColumns(d, r).flatMap((c) => d.colYears[c]!))].sort((x, y) => y - x);
  if (years.length === 0) return rowYears;
  // Three or more years named one by one ("for 2017, 2018 and 2019"): those with a column.
  if (years.length >= 3) return rowYears.filter((y) => years.includes(y));
  const range =
    /\b(?:from|between)?\s*(?:fiscal\s+|fy\s*)?(19\d\d|20\d\d)\s*(?:to|-|–|through|and)\s*(?:fiscal\s+|fy\s*)?(19\d\d|20\d\d)\b/i.exec(
      question,
    );
  if (!range || years.length !== 2) return undefined;
  // "… for 2018 and 2019" names two years; "between 2017 and 2019" / "from 2017 to 2019" a range.
  if (/\band\b/i.test(range[0]) && !/\bbetween\b/i.test(range[0])) return undefined;
  const [lo, hi] = [Math.min(...years), Math.max(...years)];
  return rowYears.filter((y) => y >= lo && y <= hi);
}

const SCALE_SIZE: Record<Exclude<Scale, "">, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** What an amount stated in `stated` is in the table's `table` scale: 5 million in thousands is 5 × 1,000. */
function scaleRatio(stated: Scale | undefined, table: Scale): number {
  return stated && table ? SCALE_SIZE[stated] / SCALE_SIZE[table] : 1;
}

/** "How many years did …", "From 2019 to 2021, how many of the years was …". */
const PERIOD_COUNT = /(?:^|,)\s*how many (?:of the )?(?:years|periods)\b/i;

/** "In which year …", "Which years does the table …", "What years are reported …". */
const PERIOD_QUESTION = /\b(which|what) (?:are the )?(years?|periods?|fiscal years?)\b/i;

/** (year, value) of the row's period columns, one per year, in table order. */
function periodValues(d: Described, r: number): Array<{ year: number; value: number }> {
  const out: Array<{ year: number; value: number }> = [];
  for (const c of numericColumns(d, r)) {
    const ys = d.colYears[c]!;
    if (ys.length !== 1 || out.some((o) => o.year === ys[0])) continue;
    out.push({ year: ys[0]!, value: numberAt(d, r, c)! });
  }
  return out;
}

/**
 * Questions about the periods of a report table: the years it covers ("Which years does the table
 * provide information for …"), the year where a row is highest or lowest ("In which year were
 * receivables higher?"), the years past a threshold ("In which year was net income below 250,000
 * thousands?") and how many there are ("How many years did … exceed $5,000 million?"). The
 * threshold is compared in the table's own units; one stated in another scale ("more than 2
 * million" of a table in thousands) is converted to them.
 */
function answerPeriods(
  question: string,
  rows: EvidenceRow[],
  scaleOf: (d: Described) => Scale,
): CellAnswer | undefined {
  const q = question.toLowerCase();
  const count = /^\s*how many\b/.test(q) || PERIOD_COUNT.test(q);
  const threshold =
    /\b(less|lower|fewer|smaller|below|under|more|greater|higher|larger|above|over|exceed\w*)\s*(?:than)?\s*\$?\s*(-?[\d,]*\.?\d+)(?:\s*(thousand|million|billion)s?\b)?/.exec(
      q,
    );
  const highest = /\b(high|larg|great|big|most|more|maxim)\w*\b/.test(q);
  const lowest = /\b(low|small|least|less|fewer|minim)\w*\b/.test(q);
  const stems = rowQueryStems(question.replace(/\$?\s*-?[\d,]*\.?\d+\s*(thousands?|millions?|billions?|%)?/gi, " "));
  let best: CellAnswer | undefined;
  for (const d of describedGrids(rows)) {
    const periodTable = d.colYears.some((y) => y.length > 0);
    if (!periodTable) continue;
    if (!threshold && !count && !highest && !lowest) {
      // The years the table covers, in table order.
      const years = [...new Set(d.colYears.flat())];
      if (years.length < 2 || !/\b(years|periods)\b/.test(q)) continue;
      const answer = joinList(years.map(String));
      if (!best) best = { answer, confidence: 1, operation: "list", periodTable };
      continue;
    }
    const top = rankRows(d, stems, [], /\btotal\b/.test(q))[0];
    if (!top) continue;
    const values = periodValues(d, top.r);
    if (values.length < 2) continue;
    let picked: number[];
    if (threshold) {
      const limit = Number(threshold[2]!.replace(/,/g, "")) * scaleRatio(threshold[3] as Scale | undefined, scaleOf(d));
      const below = /^(less|lower|fewer|smaller|below|under)/.test(threshold[1]!);
      picked = values.filter((v) => (below ? v.value < limit : v.value > limit)).map((v) => v.year);
    } else {
      const sorted = [...values].sort((x, y) => (highest && !lowest ? y.value - x.value : x.value - y.value));
      picked = [sorted[0]!.year];
    }
    const answer = count ? String(picked.length) : picked.length ? joinList(picked.map(String)) : undefined;
    const confidence = Math.min(1, top.score);
    if (answer !== undefined && (!best || confidence > best.confidence))
      best = { answer, confidence, operation: count ? "lookup" : "list", periodTable };
  }
  return best;
}

/** The two things a list question names: "the respective sales and purchases for 2019" → sales, purchases. */
function listPhrases(question: string): [string, string] | undefined {
  const q = question
    .replace(YEAR, " ")
    .replace(/[?.]/g, " ")
    .replace(/\brespective(ly)?\b/gi, " ")
    .replace(/\s+/g, " ");
  const m =
    /^\s*(?:what|how much|how many)\s+(?:is|are|was|were)\s+(?:the\s+)?(?:company's\s+)?(?:values?\s+of\s+(?:the\s+)?(?:company's\s+)?)?(.+?)\s+and\s+(?:the\s+)?(.+?)(?:\s+(?:in|for|during|at|as of|as at|of|that|which)\b|\s*$)/i.exec(
      q,
    );
  return m ? [m[1]!.trim(), m[2]!.trim()] : undefined;
}

/**
 * The cells of a two-item list question without two years: two columns the phrases name in the
 * located row ("the high and low prices"), else two rows in the year's column ("sales and purchases").
 */
function namedPair(d: Described, question: string, top: number, year: number | undefined): string[] | undefined {
  const phrases = listPhrases(question);
  if (!phrases) return undefined;
  const row = year !== undefined ? (rowInSection(d, top, year) ?? top) : top;
  const cols = numericColumns(d, row);
  const pick = (phrase: string) => {
    const ps = keyStems(phrase);
    const scored = cols
      .map((c) => ({ c, hit: [...keyStems(d.colText[c]!)].filter((x) => ps.has(x)).length }))
      .filter((x) => x.hit > 0);
    return scored.sort((x, y) => y.hit - x.hit || x.c - y.c)[0]?.c;
  };
  const c1 = pick(phrases[0]);
  const c2 = pick(phrases[1]);
  if (c1 !== undefined && c2 !== undefined && c1 !== c2)
    return [d.grid.rows[row]![c1]!.trim(), d.grid.rows[row]![c2]!.trim()];
  const r1 = rankRows(d, rowQueryStems(phrases[0]))[0];
  const r2 = rankRows(d, rowQueryStems(phrases[1]))[0];
  if (!r1 || !r2 || r1.r === r2.r) return undefined;
  const q = rowQueryStems(question);
  const a = textAt(d, r1.r, year, q);
  const b = textAt(d, r2.r, year, q);
  return a !== undefined && b !== undefined ? [a, b] : undefined;
}

/**
 * Whether the two phrases of "the ratio of total A to total B" each name an item row whole (every
 * word of the phrase in its label), two rows other than the Total row: "total" then asks for the
 * items' own totals, not for a share of the table's Total row.
 */
function twoItemRows(d: Described, question: string): boolean {
  const phrases = twoRowPhrases(question);
  if (!phrases) return false;
  const rows = phrases.map((p) => {
    const want = rowQueryStems(p);
    const top = rankRows(d, want)[0];
    if (!top || want.size === 0 || /^\s*total\b/i.test(d.grid.rows[top.r]![0] ?? "")) return undefined;
    const label = keyStems(d.rowText[top.r]!);
    return [...want].every((w) => label.has(w)) ? top.r : undefined;
  });
  return rows[0] !== undefined && rows[1] !== undefined && rows[0] !== rows[1];
}

/**
 * "X as a percentage of the total Y", "what percentage of total Y were X": the best-matching item
 * row over the Total row, in the year's column (else the first value column).
 */
function shareOfTotal(
  d: Described,
  q: Set<string>,
  years: number[],
  question: string,
  partRow?: number,
): [number, number] | undefined {
  const isTotal = (r: number) => /^\s*total\b/i.test(d.grid.rows[r]![0] ?? "");
  const part = partRow !== undefined ? { r: partRow } : rankRows(d, q, years).find((x) => !isTotal(x.r));
  if (!part) return undefined;
  // "… beyond 5 years in the total of all leases": the total is the row's own Total
  // column when the words after "total" name the located row itself.
  const totalOf = /\btotal\s+(.+?)(?:\s+(?:in|for|at|of|during|as|is|are|was|were)\b|[?.]|$)/i.exec(question)?.[1];
  const totalStems = totalOf ? rowQueryStems(totalOf) : new Set<string>();
  const rowStems = keyStems(d.rowText[part.r]!);
  if (totalStems.size > 0 && [...totalStems].every((x) => rowStems.has(x))) {
    const cols = numericColumns(d, part.r);
    const totalCol = cols.find((c) => /\btotal\b/i.test(d.colText[c]!));
    // Every word counts here, periods too ("more than 5 years" names a column).
    const words = keyStems(question);
    const partCol = cols
      .filter((c) => c !== totalCol)
      .map((c) => {
        const stems = [...keyStems(d.colText[c]!)];
        const hit = stems.filter((x) => words.has(x) && !totalStems.has(x)).length;
        return { c, hit, share: hit / Math.max(1, stems.length) };
      })
      .filter((x) => x.hit > 0)
      .sort((x, y) => y.hit - x.hit || y.share - x.share || x.c - y.c)[0]?.c;
    if (totalCol !== undefined && partCol !== undefined) {
      const a = numberAt(d, part.r, partCol);
      const b = numberAt(d, part.r, totalCol);
      if (a !== null && b !== null) return [a, b];
    }
  }
  const total = rankRows(d, q, years, true).find((x) => isTotal(x.r));
  if (!total) return undefined;
  // The column the question names ("unrealized gains": at least half of its header's words), else
  // the year's, else the first value column.
  const named = numericColumns(d, part.r).find((c) => {
    const stems = [...keyStems(withoutDates(d.colText[c]!))];
    return stems.length > 0 && stems.filter((x) => q.has(x)).length * 2 >= stems.length;
  });
  const at = (r: number) => {
    if (named === undefined) return valueAt(d, r, years[0]);
    const t = textAt(d, r, years[0], q);
    return t === undefined ? null : parseNumber(t.replace(/\s+/g, ""));
  };
  const a = at(part.r);
  const b = at(total.r);
  return a !== null && b !== null ? [a, b] : undefined;
}

/** "What items are listed in the table?", "What were the components under X?", "What does X consist of?" */
const ROW_LIST =
  /^\s*(?:what|which)\s+(?:(?:are|were)\s+)?(?:the\s+)?(?:(?!(?:do|does|did|is|are|was|were)\b)\w+\s+){0,2}?(?:items|components|countries|regions|categories|segments|elements)\b.*\b(?:listed|shown|included|presented|in the table|under|consists?|comprises?|made up)\b/i;

/** A row label without a footnote mark glued to it ("Amounts owed by subsidiaries1") or a trailing dot. */
function cleanLabel(label: string): string {
  return label
    .replace(/(?<=[a-z)])\d$/, "")
    .replace(/\s*\.$/, "")
    .trim();
}

/**
 * The labels of the rows a row-list question asks for: the rows of the section it names ("under
 * Property, plant and equipment, gross", "what do amounts due inside a year consist
 * of"), else every labelled row of the table, without Total rows and unlabelled subtotals.
 */
function answerRowList(question: string, rows: EvidenceRow[]): CellAnswer | undefined {
  if (!ROW_LIST.test(question)) return undefined;
  const named =
    /\bunder (?:the )?(.+?)\s*[?.]?\s*$/i.exec(question)?.[1] ??
    /\b(?:does|do|did)\s+(?:the\s+)?(.+?)\s+(?:consist|comprise|include)\b/i.exec(question)?.[1];
  let best: CellAnswer | undefined;
  for (const d of describedGrids(rows)) {
    const labelOf = (r: number) => cleanLabel(d.grid.rows[r]![0] ?? "");
    let picked: number[];
    let confidence = 1;
    if (named) {
      // The section row whose words the phrase covers best. Plain words, not key stems: "within"
      // and "after" tell "due within one year" from "due after one year".
      const plainWords = (t: string) =>
        new Set((t.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !/^(the|a|an|of|and|for)$/.test(w)));
      const want = plainWords(named);
      let section = "";
      let score = 0;
      for (const r of d.dataRows) {
        const sec = d.rowSection[r] ?? "";
        if (!sec) continue;
        const ss = plainWords(sec);
        const common = [...want].filter((x) => ss.has(x)).length;
        const hit = common / Math.max(1, want.size) + (0.1 * common) / Math.max(1, ss.size);
        if (hit > score) [section, score] = [sec, hit];
      }
      if (score < 0.5) continue;
      confidence = Math.min(1, score);
      // The section's items end at its total (a Total row or an unlabelled sum): rows after it
      // ("Less depreciation", the net amount) are no longer its components.
      const members = d.dataRows.filter((r) => d.rowSection[r] === section);
      const end = members.findIndex((r) => labelOf(r) === "" || /^total\b/i.test(labelOf(r)));
      picked = end < 0 ? members : members.slice(0, end);
    } else picked = d.dataRows;
    const labels = picked.map(labelOf).filter((l) => l !== "" && !/^total\b/i.test(l) && !isNumberCell(l));
    if (labels.length < 2) continue;
    if (!best || confidence > best.confidence)
      best = { answer: joinList(labels), confidence, operation: "list", periodTable: true };
  }
  return best;
}

/** "Which obligation has the highest total?", "In which currency was the total the smallest in 2019?" */
const WHICH_ROW = /^\s*(?:in\s+)?which\s+(?!years?\b|periods?\b)\w+/i;
const MOST = /\b(highest|largest|greatest|biggest|most|maximum)\b/i;
const LEAST = /\b(lowest|smallest|least|fewest|minimum)\b/i;

/**
 * The row label with the highest (lowest) value in the column the question names: a year's
 * column, else the column whose header holds most of the question's words, else the first value
 * column. Total rows and unlabelled subtotals are not candidates.
 */
function answerExtremeRow(question: string, rows: EvidenceRow[]): CellAnswer | undefined {
  if (!WHICH_ROW.test(question)) return undefined;
  const most = MOST.test(question);
  if (most === LEAST.test(question)) return undefined;
  const years = [...new Set(yearsIn(question))];
  const words = keyStems(question.replace(YEAR, " "));
  let best: CellAnswer | undefined;
  for (const d of describedGrids(rows)) {
    const candidates = d.dataRows.filter((r) => {
      const label = d.grid.rows[r]![0] ?? "";
      return label.trim() !== "" && !isNumberCell(label) && !/^\s*total\b/i.test(label);
    });
    if (candidates.length < 2) continue;
    const cols = [...new Set(candidates.flatMap((r) => numericColumns(d, r)))].sort((x, y) => x - y);
    const inYear = years.length ? cols.filter((c) => years.some((y) => d.colYears[c]!.includes(y))) : cols;
    if (inYear.length === 0) continue;
    const scored = inYear.map((c) => ({
      c,
      hit: [...keyStems(withoutDates(d.colText[c]!))].filter((x) => words.has(x)).length,
    }));
    const col = scored.sort((x, y) => y.hit - x.hit || x.c - y.c)[0]!.c;
    const values = candidates
      .map((r) => ({ r, v: numberAt(d, r, col) }))
      .filter((x): x is { r: number; v: number } => x.v !== null);
    if (values.length < 2) continue;
    values.sort((x, y) => (most ? y.v - x.v : x.v - y.v));
    if (values[0]!.v === values[1]!.v) continue;
    const answer = cleanLabel(d.grid.rows[values[0]!.r]![0]!);
    const confidence = years.length || scored[0]!.hit > 0 ? 1 : 0.6;
    // Only a report table's reading is handed to the readers as a report-table one: on a plain
    // table the SQL plans answer "which … has the highest …".
    const periodTable = d.colYears.some((y) => y.length > 0) || d.rowYears.some((y) => y.length > 0);
    if (!best || confidence > best.confidence) best = { answer, confidence, operation: "lookup", periodTable };
  }
  return best;
}

/**
 * Computes the answer of a period/row question from table cells, or undefined when the cells
 * cannot be located. `evidence` supplies the declared scale ("in thousands"), appended to bare
 * numbers read or computed from the cells; `passagesOf` gives a table's own passages, whose
 * declaration (or none) then wins over the evidence's.
 */
export function answerFromCells(
  question: string,
  rows: EvidenceRow[],
  evidence = "",
  options: { rowRank?: number; passagesOf?: TablePassages } = {},
): CellAnswer | undefined {
  // The decomposer's notes ("(columns: col_1, 2019)") name retrieval columns, not the asked row.
  question = questionPart(question);
  // rowRank > 0: the same reading at the next-best located row (reader-candidates.ts alternatives).
  const rowRank = options.rowRank ?? 0;
  // (the evidence's declared scale, read when a located value needs it)
  let declared: Scale | undefined;
  const evidenceScale = () => (declared ??= scaleFromEvidence(evidence));
  // The scale a report declares in its own passages, when the table has passages: the evidence
  // may also hold other reports' chunks, whose declarations say nothing about this table.
  const scaleOf = (d: Described): Scale => {
    const own = options.passagesOf?.(d.grid.tableId) ?? "";
    return own ? d.cellsScale || scaleFromEvidence(own) : evidenceScale();
  };
  // Period questions ("in which year …") and filtered counts ("how many … above 5,000") ask about
  // the table's shape, not about one located value: SQL and the row reader answer those.
  if (PERIOD_QUESTION.test(question) || PERIOD_COUNT.test(question))
    return rowRank > 0 ? undefined : answerPeriods(question, rows, scaleOf);
  // Questions whose answer is row labels: the rows listed, the row with the highest value.
  if (ROW_LIST.test(question) || WHICH_ROW.test(question)) {
    const labels = answerRowList(question, rows) ?? answerExtremeRow(question, rows);
    if (labels || ROW_LIST.test(question)) return rowRank > 0 ? undefined : labels;
  }
  if (/\bin which\b|\bwhen\b/i.test(question)) return undefined;
  if (
    /\b(more|less|greater|fewer|higher|lower|above|below|over|under|exceed\w*|at least|at most)\b(\s+than)?\s+\$?[\d,.]+(?![\d,.]*\s*(?:years?|months?|days?)\b)/i.test(
      question,
    )
  )
    return undefined;
  const operation = cellOperation(question);
  const years = [...new Set(yearsIn(question))];
  const q = rowQueryStems(question);
  if (q.size === 0 && !/\btotal\b/i.test(question)) return undefined;
  let best: CellAnswer | undefined;
  for (const d of describedGrids(rows)) {
    const scale = () => scaleOf(d);
    const ranked = rankRows(d, q, years, /\btotal\b/i.test(question));
    // A period row named by its position ("the second month") is the located row (of two, the later).
    const byOrdinal = rowRank === 0 ? ordinalPeriodRows(d, question) : [];
    if (byOrdinal.length) ranked.unshift({ r: byOrdinal.at(-1)!, score: 1 });
    if (ranked.length <= rowRank) continue;
    const top = ranked[rowRank]!;
    const confidence = Math.min(1, top.score);
    let answer: string | undefined;
    const twoYears = years.length >= 2 ? [years[0]!, years[1]!] : undefined;
    let scaleRow = top.r;
    /** The scale of the operands' own column, when it declares one. */
    let cellScale: Scale | undefined;
    /**
     * The reading used the report's own structure — a share of its Total row or column, the rows of a
     * named section, period rows named by position: a report table even without period columns.
     */
    let reportReading = byOrdinal.length > 0;
    // A ratio whose row already holds percentages ("Cost of revenue | 43% | 50%") is read, or
    // averaged and summed as the question says, not divided again.
    const op: CellOperation =
      operation === "ratio" && percentRow(d, top.r, years)
        ? /\b(average|mean)\b/i.test(question)
          ? "average"
          : /\b(total|sum|combined)\b/i.test(question) && years.length !== 1
            ? "sum"
            : years.length >= 2
              ? "list"
              : "lookup"
        : operation;
    if (op === "lookup") {
      answer = textAt(d, top.r, years[0], q);
      if (answer !== undefined) answer = withScale(answer, rowScale(d, top.r, scale()));
    } else if (op === "list") {
      const pair = years.length <= 1 ? namedPair(d, question, top.r, years[0]) : undefined;
      const items =
        pair ?? (years.length ? years : [undefined]).map((y) => textAt(d, top.r, y, q)).filter((v): v is string => !!v);
      // A named pair keeps equal values ("$3,795 | $3,795"): each item answers its own name.
      if (items.length)
        answer = withScale(
          items.length === 1 ? items[0]! : pair ? pair.join(LIST_SEPARATOR) : joinList(items),
          rowScale(d, top.r, scale()),
        );
    } else {
      // Two operands: the same row in two periods, or two rows in one period.
      // a = the later period (or first-named row), b = the earlier period (or second-named row).
      let a: number | null = null;
      let b: number | null = null;
      let firstNamedIsA = true;
      /** Operands are two periods (signed change, new − old), not two rows or columns (a gap). */
      let byPeriod = false;
      /** Average and sum over more than two periods ("from 2017 to 2019", no period named). */
      let many: number[] | undefined;
      /** Cells read, for their unit ("%"). */
      const used: string[] = [];
      const section = op === "sum" || op === "average" ? sectionValues(d, question, years) : undefined;
      if (section) {
        many = section.values;
        reportReading = true;
        used.push(...section.cells);
      } else if (op === "average" || op === "sum") {
        const periods = aggregatePeriods(d, top.r, question, years);
        if (periods && periods.length > 2) {
          const values = periods.map((y) => valueAt(d, top.r, y));
          if (values.every((v): v is number => v !== null)) many = values;
          used.push(
            d.grid.rows[top.r]![0]!,
            ...periods.map((y) => cellTextAt(d, top.r, y)),
            ...periodColumnText(d, top.r, periods),
          );
        }
      }
      // "the ratio of total A to total B": the two items' totals, a reading of the report's structure too.
      const itemTotals = op === "ratio" && !twoYears && /\btotal\b/i.test(question) && twoItemRows(d, question);
      if (itemTotals) reportReading = true;
      const share =
        op === "ratio" && !twoYears && /\bpercent(age)?\b.*\btotal\b/i.test(question) && !itemTotals
          ? shareOfTotal(d, q, years, question, byOrdinal[0])
          : undefined;
      const parts = op === "ratio" && !twoYears && !share ? ratioOperands(d, question, years) : undefined;
      if (many) {
        a = many[0]!;
        b = many[1]!;
      } else if (share) {
        [a, b] = share;
        reportReading = true;
      } else if (parts) {
        ({ a, b } = parts);
        scaleRow = parts.rows[0];
        used.push(...parts.rows.map((r) => cellTextAt(d, r, years[0])));
      } else if (byOrdinal.length === 2) {
        // "between the first and second month": two period rows, in the column the question names;
        // a change runs from the first-named to the second-named.
        const [r1, r2] = byOrdinal as [number, number];
        const c = namedColumn(d, numericColumns(d, r2), q);
        if (c !== undefined) {
          a = numberAt(d, r2, c);
          b = numberAt(d, r1, c);
          byPeriod = true;
          firstNamedIsA = false;
          scaleRow = r2;
          cellScale = columnScale(d, r2, c, scale());
          used.push(d.grid.rows[r1]![c]!, d.grid.rows[r2]![c]!, d.colText[c]!);
        }
      } else if (twoYears) {
        a = valueAt(d, top.r, Math.max(...twoYears));
        b = valueAt(d, top.r, Math.min(...twoYears));
        firstNamedIsA = twoYears[0]! >= twoYears[1]!;
        byPeriod = true;
        used.push(
          d.grid.rows[top.r]![0]!,
          cellTextAt(d, top.r, twoYears[0]),
          cellTextAt(d, top.r, twoYears[1]),
          ...periodColumnText(d, top.r, twoYears),
        );
      } else {
        const phrases = twoRowPhrases(question);
        if (phrases) {
          // Two columns named in the question ("the high and low prices"), in the located row.
          const row = years[0] !== undefined ? (rowInSection(d, top.r, years[0]) ?? top.r) : top.r;
          const cols = numericColumns(d, row);
          const pick = (phrase: string) => {
            const ps = keyStems(phrase);
            const scored = cols
              .map((c) => ({ c, hit: [...keyStems(d.colText[c]!)].filter((x) => ps.has(x)).length }))
              .filter((x) => x.hit > 0);
            return scored.sort((x, y) => y.hit - x.hit)[0]?.c;
          };
          const c1 = pick(phrases[0]);
          const c2 = pick(phrases[1]);
          if (c1 !== undefined && c2 !== undefined && c1 !== c2) {
            a = numberAt(d, row, c1);
            b = numberAt(d, row, c2);
            // "the change between the third and fourth quarter": two period columns named from old
            // to new; the change is the second-named minus the first-named, with its sign.
            if (CHANGE_WORD.test(question) && !GAP_WORD.test(question)) {
              [a, b] = [b, a];
              byPeriod = true;
            }
            used.push(
              d.grid.rows[row]![0]!,
              d.colText[c1]!,
              d.colText[c2]!,
              d.grid.rows[row]![c1]!,
              d.grid.rows[row]![c2]!,
            );
          }
        }
        if ((a === null || b === null) && phrases && op !== "percent_change") {
          const r1 = rankRows(d, rowQueryStems(phrases[0]))[0];
          const r2 = rankRows(d, rowQueryStems(phrases[1]))[0];
          if (r1 && r2 && r1.r !== r2.r) {
            a = valueAt(d, r1.r, years[0]);
            b = valueAt(d, r2.r, years[0]);
            scaleRow = r1.r;
            used.push(
              d.grid.rows[r1.r]![0]!,
              d.grid.rows[r2.r]![0]!,
              cellTextAt(d, r1.r, years[0]),
              cellTextAt(d, r2.r, years[0]),
            );
          }
        }
        if (a === null || b === null) {
          // One row, its two first period columns: latest first (report tables list 2019 before 2018).
          const cols = numericColumns(d, top.r).filter((c) => d.colYears[c]!.length > 0);
          if (cols.length >= 2) {
            const [c1, c2] = cols.sort((x, y) => Math.max(...d.colYears[y]!) - Math.max(...d.colYears[x]!));
            a = numberAt(d, top.r, c1!);
            b = numberAt(d, top.r, c2!);
            byPeriod = true;
            used.push(d.grid.rows[top.r]![0]!, d.grid.rows[top.r]![c1!]!, d.grid.rows[top.r]![c2!]!);
          }
        }
      }
      if (a === null || b === null) continue;
      let value: number | undefined;
      // A gap between two rows or columns ("the difference between the high and low price") is
      // reported as a positive amount; a change between periods keeps its sign (new − old).
      // "The difference in X between 2018 and 2019" and "how much did X decrease by" ask for a size.
      if (op === "difference") value = byPeriod && !asksForSize(question) ? a - b : Math.abs(a - b);
      else if (op === "percent_change") value = b !== 0 ? ((a - b) / b) * 100 : undefined;
      else if (op === "average") value = many ? many.reduce((x, y) => x + y, 0) / many.length : (a + b) / 2;
      else if (op === "sum") value = many ? many.reduce((x, y) => x + y, 0) : a + b;
      else if (op === "ratio") {
        // "A as a percentage of B" / "ratio of A to B": the first-named operand over the second.
        const [x, y] = firstNamedIsA ? [a, b] : [b, a];
        value = y !== 0 ? x / y : undefined;
        if (value !== undefined && /percent|%/i.test(question)) value *= 100;
      }
      // An average of costs, expenses or losses that the report shows in brackets ("Interest
      // expense | (17,334)") is the average amount spent, given as positive (the brackets are the
      // statement's sign convention for outflows): 3 of the 3 such averages of tatqa/train.
      const operands = used.filter((t) => isNumberCell(t));
      if (
        op === "average" &&
        OUTFLOW.test(d.rowText[scaleRow] ?? "") &&
        value !== undefined &&
        operands.length >= 2 &&
        operands.every((t) => /^[$€£]?\s*\(.*\)\s*%?$/.test(t.trim()))
      )
        value = Math.abs(value);
      if (value === undefined || !Number.isFinite(value)) continue;
      const text = formatNumber(value);
      if (op === "percent_change" || (op === "ratio" && /percent|%/i.test(question))) answer = asPercent(text);
      else if (op === "ratio") answer = text;
      // Differences, averages and sums of percentages ("gross margin %", cells "27.1%") are percentages.
      else if (used.some((t) => /%/.test(t)) || /%|\bpercent(age)?\b/i.test(question)) answer = asPercent(text);
      else answer = withScale(text, cellScale ?? rowScale(d, scaleRow, scale()));
    }
    const periodTable = d.colYears.some((y) => y.length > 0) || d.rowYears.some((y) => y.length > 0) || reportReading;
    if (answer !== undefined && (!best || confidence > best.confidence))
      best = { answer, confidence, operation: op, periodTable };
  }
  return best;
}
