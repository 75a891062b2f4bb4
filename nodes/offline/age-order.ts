/**
 * The row an age superlative names when no column holds the age ("the oldest player", "the second
 * youngest member", "which cyclist is older", "who was born later"): the table lists people, their
 * pages say when each was born ("Ada Lind ( born 4 May 1950 ) is …", "( 1 June 1890 - 2 July 1960 )").
 * The bridge (bridge.ts) orders the rows the question's other words leave tied by that date, as it
 * orders them by a column for "the most wins" (row-order.ts).
 */
import type { Passage } from "../../indexing/types.js";
import { ordinalValue } from "../../text/lexicons.js";
import { stem } from "../../text/stem.js";
import { orderKey, type RowOrderFound } from "./row-order.js";

/** Age words and whether they ask for the earliest birth ("min") or the latest ("max"). */
const AGE_WORDS: ReadonlyMap<string, "min" | "max"> = new Map([
  ["oldest", "min"],
  ["eldest", "min"],
  ["older", "min"],
  ["elder", "min"],
  ["youngest", "max"],
  ["younger", "max"],
]);
/** "born later", "born first": the birth order asked in words. */
const BORN_ORDER: ReadonlyMap<string, "min" | "max"> = new Map([
  ["earlier", "min"],
  ["earliest", "min"],
  ["first", "min"],
  ["later", "max"],
  ["latest", "max"],
  ["last", "max"],
]);

/** The birth order a question asks, with its rank and words, or undefined. */
export function ageOrderOf(
  question: string,
): { direction: "min" | "max"; rank: number; phrase: Set<string> } | undefined {
  const words = question.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  for (let i = 0; i < words.length; i++) {
    const age = AGE_WORDS.get(words[i]!);
    const born = words[i] === "born" ? BORN_ORDER.get(words[i + 1] ?? "") : undefined;
    const direction = age ?? born;
    if (!direction) continue;
    // "the oldest surviving / active / extant …" ages a thing, not a person; "the youngest ever winner" is a
    // record the page states, not an order of the table's rows.
    if (age && /^(surviving|active|extant|existing|standing|continuously|operating|ever)$/.test(words[i + 1] ?? ""))
      return undefined;
    const rank = (i > 0 ? ordinalValue(words[i - 1]!) : undefined) ?? 1;
    return { direction, rank, phrase: new Set(words.slice(i, i + 2).map(stem)) };
  }
  return undefined;
}

/**
 * When a person was born, from the opening of their page: the date after "born", else the first date of
 * the life span in the first parentheses. A sortable key (row-order.ts `orderKey`), or undefined.
 */
export function birthKey(text: string): number | undefined {
  const opening = text.slice(0, 300);
  const paren = /\(([^()]*)\)/.exec(opening);
  if (paren) {
    // "( Swedish : [ … ] ; 2 March 1921 - 8 May 1999 )": the part holding a year.
    for (const part of paren[1]!.split(";")) {
      // A life span is written with a dash ("1 June 1890 - 2 July 1960", "1962-"); a year alone ("the 2004 Games")
      // is no birth.
      const born = /\bborn\b(.*)/i.exec(part);
      const span = /^(.*?\b\d{4})\s*[-–—]/.exec(part);
      const first = born ? born[1]! : span?.[1];
      const key = first !== undefined && /\b\d{4}\b/.test(first) ? orderKey(first, true) : undefined;
      if (key !== undefined) return key;
    }
  }
  const born = /\bborn\b([^.]{0,40})/i.exec(opening);
  return born ? orderKey(born[1]!, true) : undefined;
}

/**
 * The age order over a table's rows: a column whose cells link one dated page each (a column the question
 * names first: "the oldest winning driver" → Winning driver, then the one giving the most dates), and each
 * row's birth key through it (undefined when its cell links no dated page, or several: a team's members).
 * Undefined when the question asks no age order or fewer than two rows give a birth date.
 */
export function rowAgeOrder(
  question: string,
  columns: readonly string[],
  rows: ReadonlyArray<{ rowId: number; passages: readonly Passage[] }>,
): (RowOrderFound & { keys: Array<number | undefined> }) | undefined {
  const asked = ageOrderOf(question);
  if (!asked) return undefined;
  const byColumn = new Map<number, Array<number[]>>();
  rows.forEach((row, i) => {
    for (const p of row.passages) {
      const key = birthKey(p.text);
      if (key === undefined) continue;
      for (const [r, c] of p.cells ?? []) {
        if (r !== row.rowId) continue;
        const dated = byColumn.get(c) ?? rows.map(() => []);
        dated[i]!.push(key);
        byColumn.set(c, dated);
      }
    }
  });
  const asks = new Set((question.toLowerCase().match(/[a-z]+/g) ?? []).map(stem));
  const named = (c: number) => ((columns[c] ?? "").toLowerCase().match(/[a-z]+/g) ?? []).some((w) => asks.has(stem(w)));
  let best: { column: number; keys: Array<number | undefined>; named: boolean; n: number } | undefined;
  for (const [column, dated] of [...byColumn].sort((a, b) => a[0] - b[0])) {
    const keys = dated.map((k) => (k.length === 1 ? k[0] : undefined));
    const n = keys.filter((k) => k !== undefined).length;
    if (n < 2) continue;
    const c = { column, keys, named: named(column), n };
    if (!best || (c.named && !best.named) || (c.named === best.named && n > best.n)) best = c;
  }
  if (!best) return undefined;
  return {
    column: best.column,
    direction: asked.direction,
    rank: asked.rank,
    temporal: true,
    phrase: asked.phrase,
    keys: best.keys,
  };
}
