/**
 * Headers people shorten, read from the table itself: an initialism ("PPG" for points per game, "YTD")
 * and a letter with a number ("R2" for round 2, "Q3", "Wk 4"). A question spells them out, so the
 * question is rewritten with the header's own token where its words spell one of the table's headers:
 * "how many points per game does X average" → "how many ppg does X average", "what did X shoot in round 2"
 * → "what did X shoot in r2"; "a Q and A" of a "Q&A" header → "a q&a". Nothing is looked up in a word list: the candidates are the table's headers.
 */
import { NUMBER_WORDS, ordinalValue } from "../../text/lexicons.js";
import type { TableCatalog } from "./table-catalog.js";

/** Small words an initialism may keep a letter for ("points per game", "year to date"). */
const CONNECTORS = new Set(["per", "of", "to", "for", "and", "in", "on", "at", "by", "the", "a"]);

/** The initialisms of a table's headers: all-capital tokens of 2–5 letters ("PPG", "GA", "YTD"), lower-cased. */
function initialismsOf(catalog: TableCatalog): string[] {
  const out = new Set<string>();
  for (const c of catalog.columns)
    for (const t of c.schema.name.split(/[^A-Za-z]+/)) if (/^[A-Z]{2,5}$/.test(t)) out.add(t.toLowerCase());
  return [...out];
}

/** The letter pairs of a table's headers joined by an ampersand ("Q&A" → ["q", "a"]). */
function ampersandsOf(catalog: TableCatalog): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  for (const c of catalog.columns)
    for (const m of c.schema.name.matchAll(/(?<![A-Za-z])([A-Za-z])\s?&\s?([A-Za-z])(?![A-Za-z])/g))
      out.set(`${m[1]}${m[2]}`.toLowerCase(), [m[1]!.toLowerCase(), m[2]!.toLowerCase()]);
  return [...out.values()];
}

/** Letter-and-number tokens of a table's headers ("R1" → { letters: "r", n: 1 }), by their lower-cased token. */
function numberedOf(catalog: TableCatalog): Map<string, { letters: string; n: number }> {
  const out = new Map<string, { letters: string; n: number }>();
  for (const c of catalog.columns) {
    const m = /^\s*([A-Za-z]{1,3})\.?\s?(\d{1,2})\s*$/.exec(c.schema.name);
    if (m) out.set(`${m[1]!.toLowerCase()}${m[2]}`, { letters: m[1]!.toLowerCase(), n: Number(m[2]) });
  }
  return out;
}

/** The number a question word stands for ("2", "two"), else undefined. */
function numberOf(w: string): number | undefined {
  if (/^\d{1,2}$/.test(w)) return Number(w);
  return Object.hasOwn(NUMBER_WORDS, w) ? NUMBER_WORDS[w] : undefined;
}

/**
 * The question with its spelled-out shorthands replaced by the table's header tokens (lower case,
 * words separated by single spaces, as the analysis normalises them); the question itself when the
 * table has no such header or the question spells none.
 */
export function expandHeaderShorthand(question: string, catalog: TableCatalog): string {
  // ("a Q and A" of a "Q&A" header, "R and D" of "R&D": two letters joined by an ampersand.)
  for (const [a, b] of ampersandsOf(catalog))
    question = question.replace(new RegExp(`\\b${a} and ${b}\\b`, "gi"), `${a}&${b}`);
  const initialisms = initialismsOf(catalog);
  const numbered = numberedOf(catalog);
  if (initialisms.length === 0 && numbered.size === 0) return question;
  const tokens = question.split(/\s+/).filter((t) => t !== "");
  const word = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, "");
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = word(tokens[i]!);
    // "round 2", "the second round", "week four" → the "R2"/"W4" header when the table has one.
    const next = i + 1 < tokens.length ? word(tokens[i + 1]!) : "";
    const after = /[^A-Za-z0-9]+$/.exec(tokens[i + 1] ?? "")?.[0] ?? "";
    const spelled = [...numbered].find(
      ([, h]) => w.length > h.letters.length && w.startsWith(h.letters) && numberOf(next) === h.n,
    );
    if (spelled) {
      out.push(`${spelled[0]}${after}`);
      i++;
      continue;
    }
    const ordinal = [...numbered].find(
      ([, h]) => ordinalValue(w) === h.n && next.length > h.letters.length && next.startsWith(h.letters),
    );
    if (ordinal) {
      out.push(`${ordinal[0]}${after}`);
      i++;
      continue;
    }
    // "points per game" → "ppg": the initials of consecutive words (connectors may give their letter, the
    // first and last word may not be connectors), two-letter initialisms only from two longer words.
    let matched = false;
    for (const ini of initialisms) {
      // (Whole words only: "PO-24148 ordered" spells no "PO".)
      const span = tokens.slice(i, i + ini.length).map((t) => t.toLowerCase().replace(/[?.!,;:]+$/, ""));
      if (span.length < ini.length || span.some((s) => !/^[a-z]+$/.test(s))) continue;
      if (span.map((s) => s[0]).join("") !== ini) continue;
      if (CONNECTORS.has(span[0]!) || CONNECTORS.has(span[span.length - 1]!)) continue;
      if (ini.length === 2 && span.some((s) => s.length < 4)) continue;
      const tail = /[^A-Za-z0-9]+$/.exec(tokens[i + ini.length - 1]!)?.[0] ?? "";
      out.push(`${ini}${tail}`);
      i += ini.length - 1;
      matched = true;
      break;
    }
    if (!matched) out.push(tokens[i]!);
  }
  return out.join(" ");
}
