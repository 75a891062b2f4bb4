/**
 * A part of a person's name the question asks for ("the pitcher's middle name", "give the champion's full
 * name"): tables write people by their short names ("Ann Roe"), their pages open with
 * the whole one ("Ann Mary Roe ( born 4 May 1970 ) is …"). Used by the described-row reader (reader.ts
 * `askedCell`).
 */
import type { DescribedRow } from "./bridge.js";

/** The name part a question asks for, or undefined. */
export function askedNamePart(question: string): "middle" | "full" | undefined {
  const m = /\b(middle|full)\s+names?\b/i.exec(question);
  return m ? (m[1]!.toLowerCase() as "middle" | "full") : undefined;
}

/** Name words: capitalised, or the small words names keep ("de", "van", "bin"). */
const NAME_WORD = /^(?:\p{Lu}[\p{L}\p{M}'’.-]*|de|da|di|del|dos|van|von|der|la|le|bin|al)$/u;
/** Generational suffixes a page writes after the surname ("Ann Roe III"). */
const SUFFIX = /^(?:jr\.?|sr\.?|ii|iii|iv)$/i;

/**
 * The whole name a page opens with for a short name written in a cell, or undefined: the opening has the
 * cell's first and last words around more of its own ("Ann Mary Roe" for "Ann Roe"), or the page says
 * the person is known as the cell ("Joan Ada Bell , known professionally as Jo Bell , is …").
 */
export function fullNameOnPage(cell: string, text: string): { full: string; middle: string[] } | undefined {
  const opening = /^\s*([^(),;]+?)\s*(?:\(|,|\bis\b|\bwas\b)/.exec(text)?.[1];
  if (!opening) return undefined;
  const words = opening.split(/\s+/);
  if (words.length < 2 || words.length > 6 || !words.every((w) => NAME_WORD.test(w) || SUFFIX.test(w)))
    return undefined;
  const core = SUFFIX.test(words.at(-1)!) ? words.slice(0, -1) : words;
  const short = cell
    .replace(/\s*\([^()]*\)\s*$/, "")
    .trim()
    .split(/\s+/);
  const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "base" }) === 0;
  if (short.length >= 2 && core.length > short.length && same(core[0]!, short[0]!) && same(core.at(-1)!, short.at(-1)!))
    return { full: opening, middle: core.slice(1, -1) };
  const known = new RegExp(
    `\\bknown\\s+(?:professionally\\s+|simply\\s+|better\\s+)?as\\s+${escape(short.join(" "))}\\b`,
    "i",
  );
  return known.test(text.slice(0, 300)) ? { full: opening, middle: [] } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The asked part of the name of the row's person: read from the page of the first cell whose page opens
 * with that cell's whole name (`preferred`, the cell the question asks for, first); undefined when the
 * question asks for no name part or no cell's page gives one.
 */
export function rowNamePart(question: string, row: DescribedRow, preferred?: string): string | undefined {
  const part = askedNamePart(question);
  if (!part) return undefined;
  const order = row.values
    .map((value, i) => ({ value, i }))
    .sort((a, b) => Number(b.value === preferred) - Number(a.value === preferred));
  for (const { value, i } of order) {
    if (value.trim() === "") continue;
    const page = row.passages.find((p) => p.cells?.some(([r, c]) => r === row.rowId && c === i));
    const name = page ? fullNameOnPage(value, page.text) : undefined;
    if (!name) continue;
    if (part === "full") return name.full;
    if (name.middle.length > 0) return name.middle.join(" ");
  }
  return undefined;
}
