/**
 * A person's birth or death the question asks for ("When was the keeper born ?", "In what year did the
 * founder die ?", "the pianist's date of birth"), read from the opening brackets of the page of the
 * row's person: pages write a life as "Ann Roe ( born 4 May 1970 in Lyon ) is …" or "Ann Roe ( 4 May
 * 1901 – 9 June 1980 ) was …", often with no sentence saying "born" or "died" again, so the passage
 * reader's best sentence may be another's. Used by the described-row reader (reader.ts `askedCell`).
 */
import type { DescribedRow } from "./bridge.js";
import { MONTH_NAMES, PEOPLE_NOUNS } from "../../text/lexicons.js";

const PEOPLE = new Set(PEOPLE_NOUNS);

export type LifeEvent = "birth" | "death";
export type LifePart = "year" | "month" | "date";

const MONTHS = MONTH_NAMES.map((m) => m[0]!.toUpperCase() + m.slice(1)).join("|");
/** One date as pages write it: "4 May 1970", "May 4 , 1970", "May 1970", "c. 1509", "1970". */
const DATE = `(?:(?:c\\s*\\.\\s*|circa\\s+)?(?:\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{3,4}|(?:${MONTHS})\\s+\\d{1,2}\\s*,\\s*\\d{3,4}|(?:${MONTHS})\\s+\\d{3,4}|\\d{3,4}))`;
const BORN = new RegExp(`\\bborn\\s+(?:on\\s+|in\\s+)?(${DATE})`);
const SPAN = new RegExp(`(${DATE})\\s*[-–—]\\s*(${DATE})`);

/**
 * The life event and the part of its date a question asks for, or undefined: "when / what year / what
 * month … born ?" ending the question, or "the date / year / month of birth / death", "birth date".
 * Not "the album by the singer born in May": there the event names the row.
 */
export function askedLifeDate(question: string): { event: LifeEvent; part: LifePart } | undefined {
  const q = question.toLowerCase();
  const named =
    /\b(date|year|month|day)\s+of\s+(birth|death)\b/.exec(q) ?? /\b(birth|death)\s*(date|year|month|day)\b/.exec(q);
  let event: LifeEvent | undefined;
  let unit: string | undefined;
  if (named) {
    const [a, b] = [named[1]!, named[2]!];
    event = a === "birth" || b === "birth" ? "birth" : "death";
    unit = a === "birth" || a === "death" ? b : a;
  } else {
    const end = /\b(born|die|died)\s*\??\s*$/.exec(q);
    const opening = /^\s*(?:in\s+)?(?:when|what\s+(year|month|date|day))\b/.exec(q);
    if (!end || !opening) return undefined;
    event = end[1] === "born" ? "birth" : "death";
    unit = opening[1] ?? "date";
  }
  const part: LifePart = unit === "year" ? "year" : unit === "month" ? "month" : "date";
  return { event, part };
}

/**
 * The birth and death dates the page of `cell` gives in the brackets of its lead, the words before its
 * first "is" / "was" ("Ann Roe ( born 4 May 1970 ) is …", "Ann Roe ( 1901 – 1980 ) was …"); only when
 * the lead names the cell's person: its name before the brackets keeps the cell's first and last words,
 * or the lead says the person is known as the cell. Not "Roe Racing ( … )" for "Ann Roe ( … )".
 */
export function lifeDatesOnPage(cell: string, text: string): Partial<Record<LifeEvent, string>> {
  const lead = /^(.{1,400}?)\s(?:is|was|are|were)\s/.exec(text)?.[1] ?? "";
  const open = lead.indexOf("(");
  if (open < 0 || !namesCell(lead.slice(0, open), lead, cell)) return {};
  for (const bracket of lead.slice(open).match(/\(([^()]*)\)/g) ?? []) {
    const span = SPAN.exec(bracket);
    if (span) return { birth: span[1]!.trim(), death: span[2]!.trim() };
    const born = BORN.exec(bracket);
    if (born) return { birth: born[1]!.trim() };
  }
  return {};
}

function namesCell(name: string, lead: string, cell: string): boolean {
  const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const short = words(cell.replace(/\s*\([^()]*\)\s*$/, ""));
  const full = words(name);
  if (short.length === 0 || full.length === 0 || full.length > 8) return false;
  if (short[0] === full[0] && short.at(-1) === full.at(-1)) return true;
  const known = /\bknown\s+(?:professionally\s+|simply\s+|better\s+)?as\s+([^(),]+)/.exec(lead)?.[1];
  return known !== undefined && words(known).join(" ") === short.join(" ");
}

/** The asked part of a date as a page writes it ("4 May 1970" → "1970", "May", or itself). */
export function datePart(date: string, part: LifePart): string | undefined {
  if (part === "date") return date;
  if (part === "year") return /\b\d{3,4}\b/.exec(date)?.[0];
  return new RegExp(`\\b(?:${MONTHS})\\b`).exec(date)?.[0];
}

/**
 * The asked birth or death of the row's person: read from the page of the first cell whose own page opens
 * with a life in brackets that gives it, the cells whose header a question word names first, then those
 * of a person's header ("Owner", "Driver"), then `preferred` (the cell the question asks for);
 * undefined when the question asks for no life date or no cell's page gives one.
 */
export function rowLifeDate(question: string, row: DescribedRow, preferred?: string): string | undefined {
  const asked = askedLifeDate(question);
  if (!asked) return undefined;
  const words = new Set(question.toLowerCase().match(/\p{L}+/gu) ?? []);
  const named = (header: string) => (header.toLowerCase().match(/\p{L}+/gu) ?? []).some((w) => words.has(w));
  const person = (header: string) =>
    (header.toLowerCase().match(/\p{L}+/gu) ?? []).some((w) => PEOPLE.has(w) || PEOPLE.has(w.replace(/s$/, "")));
  const rank = (value: string, i: number) =>
    (named(row.columns[i] ?? "") ? 4 : 0) + (person(row.columns[i] ?? "") ? 2 : 0) + (value === preferred ? 1 : 0);
  const order = row.values.map((value, i) => ({ value, i })).sort((a, b) => rank(b.value, b.i) - rank(a.value, a.i));
  for (const { value, i } of order) {
    if (value.trim() === "") continue;
    const page = row.passages.find((p) => p.cells?.some(([r, c]) => r === row.rowId && c === i));
    const date = page ? lifeDatesOnPage(value, page.text)[asked.event] : undefined;
    const answer = date ? datePart(date, asked.part) : undefined;
    if (answer) return answer;
  }
  return undefined;
}
