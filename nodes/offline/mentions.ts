/**
 * Entity mentions: spans of the question that name a cell value of the table, found by matching
 * question n-grams against the table's values — exact (after normalisation), partial (the span is a
 * whole-word part of a cell, "smith" → "Marilynn Smith") and fuzzy (one or two typing errors,
 * "ashfiend" → "Ashfield"). Longest, most specific spans win; spans never overlap.
 */
import { expandContractions, type QuestionAnalysis } from "./analysis.js";
import { HEADER_WORDS, STOP_WORDS } from "../../text/stop-words.js";
import { sameRawText, type CatalogColumn, type TableCatalog } from "./table-catalog.js";
import { normaliseText } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { agentNouns, MEASURE_CUES, relatedHeaderWords, REPORTING_WORDS } from "../../text/column-words.js";
import { editDistance } from "../../retrievers/edit-distance.js";
import {
  calendarShortForms,
  isMeasureUnit,
  monthNumber,
  singularForms,
  superlativeDirection,
  COUNTRY_CODES,
  countryNameAt,
  COUNTRY_NAMES,
  demonymCountry,
  COMPASS_CELLS,
  COMPASS_POINT,
  GENDER_CELLS,
  irregularForms,
  ordinalValue,
} from "../../text/lexicons.js";
import {
  CAPACITY_WORDS,
  FILLED_WORDS,
  FLAG_OPPOSITES,
  flagRows,
  FULL_PHRASE,
  isFlagColumn,
  NEGATIONS,
  NOT_FINISHED,
  POSITIVE_MEASURE_WORDS,
  ZERO_MEASURE_WORDS,
} from "./flag-columns.js";
import { isIdentifierColumn, isOwnNumberColumn } from "./columns.js";
import { numberHasContext } from "./number-mentions.js";

/** Words after "have a red card" that close its clause (a value or a bound would follow a measure instead). */
const TALLY_CLAUSE_END = /^(?:in|this|last|so|yet|during|since|all|and|or|but)$/;

/** A noun of a role or a doer: goalkeeper, defender, forward, guitarist. */
const ROLE_NOUN = /[a-z]{3}(?:er|or|ist|ian|ard)s?$/;

export interface EntityMention {
  /** The question span as normalised text. */
  text: string;
  /** Logical column name and header position of the matched cell. */
  column: string;
  columnIndex: number;
  /** The matched cell's original text, verbatim (what a SQL binding must use). */
  value: string;
  kind: "exact" | "partial" | "fuzzy";
  /** 0..1: how sure the match is (exact 1, partial by coverage, fuzzy ≤ 0.7). */
  score: number;
  /** Token span [start, end) in the normalised question. */
  start: number;
  end: number;
  /** Rows holding the value. */
  rows: number[];
  /**
   * The rows whose number in the column is above zero (true: "delayed" of "Delay (min)"), or zero or empty
   * (false: "not delayed"), not one cell's value.
   */
  positive?: boolean;
  /**
   * A number whose neighbour word names its column ("2 bedrooms" of Bedrooms), or the finishers of a results
   * column: condition-links.ts keeps the link.
   */
  columnNamed?: boolean;
}

export interface FindMentionsOptions {
  /** Longest span in words. Default 8. */
  maxSpan?: number;
  /** Partial matches hitting more distinct cells than this are too generic to ground. Default 4. */
  maxPartialCells?: number;
  /** Words the question asks about or counts ("how many songs"): never a partial or fuzzy mention alone. */
  avoidWords?: readonly string[];
}

/** Words that are never a mention on their own (question words, generic table words). */
const GENERIC = new Set([
  ...STOP_WORDS,
  "year",
  "years",
  "team",
  "teams",
  "game",
  "games",
  "season",
  "player",
  "players",
  "country",
  "time",
  "times",
  "first",
  "last",
  "next",
  "previous",
  "top",
  "bottom",
  "place",
  "points",
  "point",
  "date",
  "name",
  "won",
  "win",
  "wins",
  "lost",
  "number",
  "total",
  "record",
  "rank",
  "score",
  "result",
  "position",
  "new",
  "old",
  "long",
  "high",
  "low",
  "open",
  "left",
  "right",
  "up",
  "down",
  "out",
  "off",
  "back",
  "home",
  "away",
  "see",
  "get",
  "got",
  "can",
  "will",
  "would",
  "should",
  "could",
  "after",
  "before",
  "than",
  "listed",
  "list",
  "table",
  "chart",
]);

/** A column of counts: whole numbers from 0 up, some 0 ("Late Payments": 0, 2, 0, 1). */
function isTally(c: CatalogColumn): boolean {
  const values = c.num.filter((n): n is number => n !== null);
  return values.length > 0 && values.includes(0) && values.every((n) => Number.isInteger(n) && n >= 0);
}

function headerWordSet(catalog: TableCatalog): Set<string> {
  const s = new Set<string>();
  for (const c of catalog.columns) for (const w of c.headerWords) s.add(w);
  return s;
}

function isContent(tokens: string[], headerWords: Set<string>): boolean {
  const content = tokens.filter((t) => !GENERIC.has(t));
  if (content.length === 0) return false;
  // A lone header word ("gold", "points") refers to the column, not a value.
  if (tokens.length === 1 && headerWords.has(stem(tokens[0]!))) return false;
  return true;
}

/**
 * A generic word that is a whole cell of a column with a handful of values names that category
 * ("how many tickets are still open" of a Status column holding open / closed / pending).
 */
function categoryValue(catalog: TableCatalog, span: string[]): boolean {
  // (A status of common words, "on time" or "in stock", is the whole cell of such a column.)
  if (span.length > 1)
    return (
      span.length <= 3 &&
      catalog.columns.some((c) => c.distinct.size >= 2 && c.distinct.size <= 6 && c.distinct.has(span.join(" ")))
    );
  const w = span[0]!;
  // (A longer function word may still be a status: "which tasks are done?" of a Status column holding "Done".)
  // ("total", "number" stay header words: a Total row is no status.)
  if (span.length !== 1 || w.length < 3 || (STOP_WORDS.has(w) && (w.length < 4 || HEADER_WORDS.has(w)))) return false;
  // The word as a header spells it names that column; a header that only shares its stem ("Opened",
  // a date) does not make "open" a column's name, and a date column's header spelled whole ("Closed") names when,
  // while a Status holding "Closed" says which rows are.
  if (catalog.columns.some((c) => c.schema.type !== "date" && normaliseText(c.schema.name).split(" ").includes(w)))
    return false;
  return catalog.columns.some((c) => c.distinct.has(w) && c.distinct.size >= 2 && c.distinct.size <= 6);
}

/** A header word is the word's participle ("Opened" of "open", "Closed" of "close"). */
function isVerbOfHeader(catalog: TableCatalog, w: string): boolean {
  return catalog.columns.some((c) =>
    normaliseText(c.schema.name)
      .split(" ")
      .some((h) => h === `${w}ed` || h === `${w}d`),
  );
}

/** True when `span` (of exactly `n` tokens, the last content-bearing) is a whole-word part of some cell. */
function inSomeCell(catalog: TableCatalog, span: string[], n: number): boolean {
  if (span.length !== n || GENERIC.has(span[0]!) || GENERIC.has(span[span.length - 1]!)) return false;
  let keys: Set<string> | undefined;
  for (const t of span) {
    const set = catalog.tokenIndex.get(t);
    if (!set) return false;
    keys = keys ? new Set([...keys].filter((k) => set.has(k))) : new Set(set);
  }
  const phrase = ` ${span.join(" ")} `;
  return [...(keys ?? [])].some((k) => ` ${k.slice(k.indexOf(":") + 1)} `.includes(phrase));
}

/** Rank of a column as the home of an entity: text columns first, then leftmost. */
function columnRank(c: CatalogColumn): number {
  return (c.numericShare > 0.5 ? 10 : 0) + c.index * 0.1;
}

/** True when one word is the other plus an English ending ("release" / "released", "song" / "songs"). */
function isInflection(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && /^(s|es|d|ed|ing|er|ers|ly)$/.test(long.slice(short.length));
}

/**
 * Words a question asks about rather than names: the counted noun ("how many songs") and the noun
 * after what/which ("which shows …"). They never form a partial or fuzzy mention on their own.
 */
export function askedWords(a: QuestionAnalysis): string[] {
  const wh = /^(?:what|which)\s+(?:is the |are the |was the |were the )?([a-z]+)/.exec(a.normalized)?.[1];
  // The counted noun is the head of "how many …" (two words at most): "how many stations play jazz standards"
  // counts stations, and "jazz standards" is a value to find.
  return [...a.countNoun.slice(0, 2), ...(wh && !STOP_WORDS.has(wh) ? [wh] : [])];
}

/** The question's word tokens with their case kept, aligned with `normaliseText(text).split(" ")` (same steps, no lower-casing). */
function caseTokens(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\[[^\]]{0,8}\]/g, " ")
    .replace(/[\u2018\u2019'`\u00b4]/g, "")
    .replace(/[^A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+/g, " ")
    .trim()
    .split(" ")
    .filter((t) => t !== "");
}

/**
 * "blood type O+" of a column holding O+ and O-, one "o" once normalised: where the question writes the value
 * with a sign (+, -, #, *) attached, the rows whose cell is written so. Otherwise (or when no cell is) `rows`.
 */
function rowsWithSign(c: CatalogColumn, rows: number[], question: string, key: string): number[] {
  if (rows.length < 2 || c.sameRaw || sameRawText(c, rows)) return rows;
  const words = key.split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])([+#*-]*)${words.join("\\s+")}([+#*-]*)(?![\\p{L}\\p{N}])`, "iu");
  const found = pattern.exec(question);
  if (!found || (found[1] === "" && found[2] === "")) return rows;
  const written = found[0].toLowerCase().replace(/\s+/g, " ");
  const kept = rows.filter((r) => c.raw[r]?.trim().toLowerCase().replace(/\s+/g, " ") === written);
  return kept.length > 0 ? kept : rows;
}

/** Finds the table values the question names. */
export function findMentions(
  question: string,
  catalog: TableCatalog,
  options: FindMentionsOptions = {},
): EntityMention[] {
  const maxSpan = options.maxSpan ?? 8;
  const maxPartial = options.maxPartialCells ?? 4;
  const text = expandContractions(question);
  const tokens = normaliseText(text)
    .split(" ")
    .filter((t) => t !== "");
  // Possessives ("Okafor's salary") name the bare value: "okafors" is also tried as "okafor".
  const bare = normaliseText(text.replace(/(?<=[a-z])['\u2019]s\b/gi, ""))
    .split(" ")
    .filter((t) => t !== "");
  const possessive = bare.length === tokens.length ? bare : tokens;
  // A capitalised word inside the question ("the Home category") is a value even when it is a generic word.
  const cased = caseTokens(text);
  const proper = (s: number, n: number) =>
    cased.length === tokens.length && s > 0 && cased.slice(s, s + n).every((t) => /^[A-Z]/.test(t));
  const headerWords = headerWordSet(catalog);
  const avoid = new Set((options.avoidWords ?? []).map((w) => normaliseText(w)));
  const covered = new Array<boolean>(tokens.length).fill(false);
  const out: EntityMention[] = [];
  const free = (s: number, e: number) => covered.slice(s, e).every((c) => !c);
  const take = (m: EntityMention) => {
    // A value found only in header rows ("2019" above the amounts) names a column, not a row.
    if (m.rows.every((r) => catalog.headerRows.has(r))) return;
    out.push(m);
    for (let i = m.start; i < m.end; i++) covered[i] = true;
  };
  // One question word naming cells of a column (a demonym, a gender word, a yes/no header).
  const mentionOf = (s: number, c: CatalogColumn, rows: number[], kind: "exact" | "partial" = "exact", n = 1) => ({
    text: tokens.slice(s, s + n).join(" "),
    column: c.schema.name,
    columnIndex: c.index,
    value: c.raw[rows[0]!]!,
    kind,
    score: kind === "exact" ? 1 : 0.8,
    start: s,
    end: s + n,
    rows,
  });
  const takeWord = (s: number, c: CatalogColumn, rows: number[], kind: "exact" | "partial", n = 1) =>
    take(mentionOf(s, c, rows, kind, n));

  // ("after 19:00" is a bound on a time of day, not the cell "19:00" nor "£19.00".)
  for (const m of text.matchAll(/\b(?:after|before|by|later than|earlier than)\s+(\d{1,2}):(\d\d)\b/gi))
    for (let i = 1; i < tokens.length; i++)
      if (tokens[i - 1] === m[1] && tokens[i] === m[2]) covered[i] = covered[i - 1] = true;
  // ("how hard is the trail?": the measure a "how" asks for, not the cell "Hard".)
  for (let i = 1; i < tokens.length; i++)
    if (tokens[i - 1] === "how" && Object.hasOwn(MEASURE_CUES, tokens[i]!)) covered[i] = true;
  // 1. Exact spans, longest first.
  for (let n = Math.min(maxSpan, tokens.length); n >= 1; n--) {
    for (let s = 0; s + n <= tokens.length; s++) {
      if (!free(s, s + n)) continue;
      const span = tokens.slice(s, s + n);
      const numeric = n === 1 && /^\d+(\.\d+)?$/.test(span[0]!);
      if (!numeric && !isContent(span, headerWords) && !proper(s, n) && !categoryValue(catalog, span)) continue;
      // ("how many tickets did Bramble open?" of an Opened column: the verb of a did-question names its
      // participle's column, not the status cell "Open"; "which tickets does Sam have open?" keeps the cell.)
      if (
        n === 1 &&
        s === tokens.length - 1 &&
        !proper(s, n) &&
        !/^(?:have|has|had|is|are|was|were|still|left)$/.test(tokens[s - 1] ?? "") &&
        tokens.slice(0, s).some((t) => /^(?:did|does|do)$/.test(t)) &&
        isVerbOfHeader(catalog, span[0]!)
      )
        continue;
      let key = span.join(" ");
      let hits = catalog.columns.filter((c) => c.distinct.has(key));
      // (The question's own word, where a cell of another form of it is linked: "rainy" of "Rain".)
      let written: string | undefined;
      const alt = possessive.slice(s, s + n).join(" ");
      if (hits.length === 0 && alt !== key) {
        key = alt;
        hits = catalog.columns.filter((c) => c.distinct.has(key));
      }
      // "how many vaccinations", "the toyotas": a plural of a category cell (a value on several rows) names it.
      const last = span[n - 1]!;
      // ("birches" of Birch; "meal expenses" of a Meals category: the singular names the plural's cells too.)
      // (A three-letter noun only as the head of what is asked: "the cheapest bag", "which bag" of Bags.)
      const shortHead = last.length === 3 && s > 0 && /^(?:which|what|each|every|per)$|[a-z]est$/.test(tokens[s - 1]!);
      if (hits.length === 0 && !numeric && (last.length >= 4 || shortHead)) {
        // ("go running" of Run, "went swimming" of Swim, "hiking" of Hike: the activity a category names.)
        const base = last.slice(0, -3);
        const activity =
          n === 1 && /^[a-z]{3,}ing$/.test(last)
            ? [/([^aeiou])\1$/.test(base) ? base.slice(0, -1) : base, `${base}e`]
            : [];
        const forms = /[^s]s$/.test(last)
          ? singularForms(last)
          : n === 1 && !/s$/.test(last) && !COUNTRY_NAMES.has(`${last}s`)
            ? [`${last}s`, `${last}es`, ...activity]
            : [];
        // (Of a plural, the one row too: "how many staplers do we have?" of a Stapler item.)
        const least = /s$/.test(last) ? 1 : 2;
        for (const form of forms) {
          const other = [...span.slice(0, -1), form].join(" ");
          // (Not a cell that repeats its header: "prime ministers" of a Prime Minister column's inner header row.)
          const category = catalog.columns.filter(
            (c) => (c.distinct.get(other)?.length ?? 0) >= least && normaliseText(c.schema.name) !== other,
          );
          if (category.length > 0) {
            [key, hits] = [other, category];
            break;
          }
        }
      }

      // ("who works remotely?" of an Office column's "Remote": the adjective of an adverb.)
      if (hits.length === 0 && n === 1 && /^[a-z]{4,}ly$/.test(last)) {
        const adjective = last.slice(0, -2);
        const adjHits = catalog.columns.filter((c) => c.distinct.has(adjective));
        if (adjHits.length > 0) [key, hits] = [adjective, adjHits];
      }
      // ("how many rainy days?" of a Conditions column's "Rain", "sunny" of "Sun": a noun's adjective.)
      if (hits.length === 0 && n === 1 && /^[a-z]{3,}y$/.test(last)) {
        const noun = last.slice(0, -1).replace(/([^aeiou])\1$/, "$1");
        const nounHits = catalog.columns.filter((c) => (c.distinct.get(noun)?.length ?? 0) >= 2);
        if (nounHits.length > 0) [key, hits, written] = [noun, nounHits, last];
      }
      // ("what share of deals did we lose?" of a Stage column's "Lost": a did-question's verb names its past form;
      // "did Ann cancel?" of "Cancelled", "did it ship?" of "Shipped": with the last consonant doubled too.)
      const doubled = /[^aeiou][aeiou][^aeiouwxy]$/.test(last) ? [`${last}${last.at(-1)}ed`] : [];
      if (hits.length === 0 && n === 1 && tokens.slice(0, s).some((t) => /^(?:did|do|does)$/.test(t)))
        for (const past of [...irregularForms(last), `${last}ed`, `${last}d`, ...doubled]) {
          const pastHits = catalog.columns.filter((c) => c.distinct.has(past) && c.distinct.size <= 6);
          if (pastHits.length > 0) {
            [key, hits, written] = [past, pastHits, last];
            break;
          }
        }
      // ("the furthest I cycled" of an Activity column's "Cycle", "we ran" of "Run": the past verb a pronoun does
      // names the category its base form spells.)
      if (hits.length === 0 && n === 1 && s > 0 && /^(?:i|we|you|he|she|they)$/.test(tokens[s - 1]!))
        for (const base of pastBases(last)) {
          const baseHits = catalog.columns.filter((c) => c.distinct.has(base) && c.distinct.size <= 8);
          if (baseHits.length > 0) {
            [key, hits, written] = [base, baseHits, last];
            break;
          }
        }
      // ("on Tuesday" of a Day column written "Tue", "in September" of "Sept".)
      if (hits.length === 0 && n === 1)
        for (const short of calendarShortForms(last)) {
          const shortHits = catalog.columns.filter((c) => c.distinct.has(short));
          if (shortHits.length > 0) {
            [key, hits] = [short, shortHits];
            break;
          }
        }
      hits.sort((a, b) => columnRank(a) - columnRank(b));
      if (hits.length === 0) continue;
      // "after oklahoma state": a longer phrase that is part of a cell ("at Oklahoma State") names that
      // cell, not the shorter exact value ("Oklahoma").
      if (
        !numeric &&
        (inSomeCell(catalog, tokens.slice(s, s + n + 1), n + 1) ||
          inSomeCell(catalog, tokens.slice(Math.max(0, s - 1), s + n), n + 1))
      )
        continue;
      // A bare number matches only when it is specific: a year-like/multi-digit value or a rare cell.
      // ("bib 8" of Pos and Bib columns both holding 8: the column its neighbour word names.)
      // ("at no. 1" of a "Weeks at No. 1" header: the number is the header's words, no cell.)
      if (
        numeric &&
        catalog.columns.some(
          (h) => h.headerWords.includes(span[0]!) && h.headerWords.includes(stem(tokens[s - 1] ?? "")),
        )
      )
        continue;
      // ("the flight to Berlin" of From and To columns both holding Berlin: the column the word before names;
      // "who reports to Tessa Kahn?" of Name and Reports To: the words before.)
      const spelledBefore = (h: CatalogColumn) => {
        const k = h.headerWords.length;
        return k <= s && h.headerWords.every((w, i) => stem(tokens[s - k + i]!) === w);
      };
      // ("who reports to Ben Ode?" of Name and Manager: the column a verb before the value relates to.)
      const verbBefore = tokens[s - 1] === "to" || tokens[s - 1] === "by" ? tokens[s - 2] : tokens[s - 1];
      const relatedBefore = (h: CatalogColumn) =>
        verbBefore !== undefined && h.headerWords.some((w) => (REPORTING_WORDS[verbBefore] ?? []).includes(w));
      const c =
        (numeric && hits.find((h) => numberHasContext(tokens, s, h))) ||
        (hits.length > 1 && hits.find(spelledBefore)) ||
        (hits.length > 1 && hits.find(relatedBefore)) ||
        hits[0]!;
      const rows = rowsWithSign(c, c.distinct.get(key)!, text, key);
      if (numeric && span[0]!.length < 4 && !numberHasContext(tokens, s, c)) continue;
      // ("records from 2023" of an "id" column that happens to hold 2023 beside a column of dates: a year, not a
      // record number.)
      if (
        numeric &&
        /^(?:1[89]|20)\d\d$/.test(span[0]!) &&
        isIdentifierColumn(c) &&
        !numberHasContext(tokens, s, c) &&
        catalog.columns.some((x) => x.schema.type === "date")
      )
        continue;
      // ("on 16 October", "October 16": a day of a date, not the cell "16".)
      if (numeric && span[0]!.length <= 2 && [tokens[s - 1], tokens[s + 1]].some((t) => t && monthNumber(t))) continue;
      take({
        text: written ?? key,
        column: c.schema.name,
        columnIndex: c.index,
        value: c.raw[rows[0]!]!,
        kind: "exact",
        score: 1,
        start: s,
        end: s + n,
        rows,
        ...(numeric && numberHasContext(tokens, s, c) ? { columnNamed: true } : {}),
      });
    }
  }

  // 1b. Demonyms ("the germans", "how many americans") name their country's cells; a country's name ("from Norway")
  // names the cells that write only its code ("Ola Berg (NOR)") in a table that never writes the name.
  for (let s = 0; s < tokens.length; s++) {
    if (covered[s]) continue;
    const named = countryNameAt(tokens, s);
    const country = named?.country ?? demonymCountry(tokens[s]!);
    if (!country) continue;
    // ("the Tour de France": an event's name, not the country.)
    if (named && (!free(s, s + named.n) || tokens[s - 1] === "de")) continue;
    const writesName = (c: CatalogColumn) =>
      [...c.distinct.keys()].some((norm) => ` ${norm} `.includes(` ${country} `));
    if (named && catalog.columns.some(writesName)) continue;
    let found: { c: CatalogColumn; rows: number[]; whole: boolean } | undefined;
    const columns = [...catalog.columns].sort((x, y) => columnRank(x) - columnRank(y));
    // The country's name in a cell ("Italy", "Italy (ITA)"), else a cell that is one of its codes ("ITA"), else a
    // cell that ends with one in brackets ("Ola Berg (NOR)").
    const codes = COUNTRY_CODES[country] ?? [];
    // (Not in the country's own table, "Austria Davis Cup team": "Vienna (AUT)" there is a home venue.)
    const ownTable = ` ${normaliseText(catalog.schema.title ?? "")} `.includes(` ${country} `);
    const tests = [
      (norm: string) => !named && (norm === country || norm.startsWith(`${country} `) || norm.endsWith(` ${country}`)),
      (norm: string) => codes.includes(norm),
      (norm: string, raw: string) =>
        !ownTable && codes.some((k) => norm.endsWith(` ${k}`) && raw.trim().endsWith(`(${k.toUpperCase()})`)),
    ];
    for (const test of tests) {
      for (const c of columns) {
        const rows: number[] = [];
        let whole = true;
        for (const [norm, rs] of c.distinct) {
          if (test(norm, c.raw[rs[0]!] ?? "")) {
            rows.push(...rs);
            whole &&= norm === country || codes.includes(norm);
          }
        }
        if (rows.length > 0) {
          // (Exact only as one whole cell: a statement binds one value.)
          whole &&= sameRawText(c, rows);
          found = { c, rows: rows.sort((x, y) => x - y), whole };
          break;
        }
      }
      if (found) break;
    }
    // (The country's whole cell is as sure as the name would be: "French" → France, "Americans" → USA.)
    if (found) takeWord(s, found.c, found.rows, found.whole ? "exact" : "partial", named?.n ?? 1);
  }

  // 1c. "how many women", "the fastest man": a gender word names its cells of a gender column (2–3 values: F/M, Female/Male).
  for (let s = 0; s < tokens.length; s++) {
    const cells = covered[s] ? undefined : GENDER_CELLS[tokens[s]!];
    const c = cells && catalog.columns.find((x) => x.distinct.size <= 3 && cells.some((v) => x.distinct.has(v)));
    const value = c && cells.find((v) => c.distinct.has(v));
    if (c && value) takeWord(s, c, c.distinct.get(value)!, "partial");
  }

  // 1c'. "days when the wind was from the north": a compass word names its point in a column of compass points.
  for (let s = 0; s < tokens.length; s++) {
    const point = covered[s] ? undefined : COMPASS_CELLS[tokens[s]!];
    const c =
      point &&
      catalog.columns.find((x) => x.distinct.has(point) && [...x.distinct.keys()].every((v) => COMPASS_POINT.test(v)));
    if (c && point) takeWord(s, c, c.distinct.get(point)!, "exact");
  }

  // 1d. "how many claims have no receipt", "remote employees": a word naming a yes/no column selects its
  // yes cells, or its no cells after a negation.
  const flag = (cs: CatalogColumn[]) => (cs.length === 1 && isFlagColumn(cs[0]!) ? cs[0] : undefined);
  // "how many flights were delayed": a participle naming a measure in units ("Delay (min)") selects the rows
  // where it is above zero.
  const takePositive = (s: number) => {
    // ("days did it rain": the verb after "it" names the measure; "dry days": the rain at zero.)
    // ("flights that arrived on time": no delay.)
    const zero = ZERO_MEASURE_WORDS[tokens[s - 1] === "on" && tokens[s] === "time" ? "punctual" : tokens[s]!];
    // ("flights that had a delay", "… with no delay": the noun after a having verb and an article.)
    // (Not a noun compared or valued next: "have a weight below 2 kg", "has a rating of 4.5".)
    // ("days with rain": the noun right after the verb too.)
    const having = (t: string | undefined) => /^(?:had|have|has|with|without)$/.test(t ?? "");
    const had =
      ((/^(?:a|an|any|no)$/.test(tokens[s - 1] ?? "") && having(tokens[s - 2])) || having(tokens[s - 1])) &&
      !tokens
        .slice(s + 1, s + 4)
        .some((t) =>
          /^(?:of|below|above|over|under|less|more|fewer|greater|higher|lower|between|than|at|\d.*)$/.test(t),
        );
    const word =
      zero ??
      POSITIVE_MEASURE_WORDS[tokens[s]!] ??
      (/ed$/.test(tokens[s]!) || tokens[s - 1] === "it" || had ? stem(tokens[s]!) : undefined);
    const negated = zero !== undefined || tokens.slice(Math.max(0, s - 3), s).some((t) => NEGATIONS.has(t));
    // (Else, negated, the word itself: "never late" of a "Late" tally, "did not win any gold" of a Gold column.)
    // ("did it rain", "did it snow": the weather's measure is its fall, "Rainfall (mm)".)
    // ("returned late" of a "Days late" column: the adjective itself when the measure it stands for is not there.)
    const headed = (w: string) =>
      catalog.columns.filter((x) => x.headerWords.includes(w) || x.headerWords.includes(`${w}fall`));
    const byWord = word
      ? headed(word).length > 0 || word === stem(tokens[s]!)
        ? headed(word)
        : headed(stem(tokens[s]!))
      : [];
    // ("arrived late" of "Days late" beside a "Late fee": the one in units.)
    const measured = byWord.length > 1 ? byWord.filter((x) => x.headerWords.some(isMeasureUnit)) : byWord;
    const named =
      byWord.length === 0 && word !== stem(tokens[s]!) && negated
        ? // ("never late" of "Late Payments" too: a tally's header that opens with the word, whole counts from 0.)
          catalog.columns.filter(
            (x) =>
              x.headerWords[0] === stem(tokens[s]!) &&
              (x.headerWords.length === 1 || (x.headerWords.length === 2 && isTally(x))),
          )
        : measured;
    // (Not a word of the measure's own name: "the total days late" asks the "Days late" column, "the average late
    // fee" the "Late fee".)
    const own = (t: string | undefined) =>
      t !== undefined && [...byWord, ...named].some((x) => x.headerWords.includes(stem(t)));
    const c = named.length === 1 && (negated || (!own(tokens[s - 1]) && !own(tokens[s + 1]))) ? named[0]! : undefined;
    // (A measure in units, or a tally a negation zeroes: "never missed" of "Missed Appts" is 0.)
    // (A month in brackets is no unit: "Visits (May)".)
    // ("Rain mm", "Days late": a unit word beside the measure's own is a unit too.)
    const unit = /\(([^)]+)\)/.exec(c?.schema.name ?? "")?.[1];
    const inUnits =
      (unit !== undefined && monthNumber(unit) === undefined) ||
      (c !== undefined && c.headerWords.length > 1 && c.headerWords.some(isMeasureUnit));
    // ("how many books have been returned?" of a "Returned" date column with blanks: its dated rows; not when the
    // question asks the date itself or names a time, whose own condition reads the column.)
    const dated =
      c?.schema.type === "date" &&
      !/^(?:when|what (?:date|day|year|month))\b/.test(tokens.slice(0, 2).join(" ")) &&
      !tokens.some((t) => monthNumber(t) !== undefined || /\d/.test(t));
    if (!c || c.numericShare < 0.5 || !(inUnits || negated || dated)) return;
    const rows = c.num.flatMap((n, r) => ((n ?? 0) > 0 !== negated ? [r] : []));
    if (rows.length === 0 || rows.length === c.raw.length) return;
    take({ ...mentionOf(s, c, rows), positive: !negated });
  };
  for (let s = 0; s < tokens.length; s++) {
    if (covered[s]) continue;
    const token = tokens[s]!;
    // ("sold out" names "Sold Out?" whole, though "Tix Sold" shares a word, and though it is counted; so do
    // "rx only" and "ebike".)
    const pair = [stem(token), stem(tokens[s + 1] ?? "")];
    const whole = flag(
      catalog.columns.filter(
        (x) => x.headerWords.length === 2 && x.headerWords.every((h, i) => h === pair[i] || h === tokens[s + i]),
      ),
    );
    const joined = flag(catalog.columns.filter((x) => x.headerWords.length === 2 && x.headerWords.join("") === token));
    // ("work remotely" names a Remote column; only when no other column shares the word: "30 rebounds" names a
    // Rebounds column, not "Led in Rebounding".)
    // ("how many students failed" of a "Passed?" column: its no cells.)
    // ("unvaccinated", "uninsured": the no cells of the header the rest of the word names.)
    const listed = FLAG_OPPOSITES[token];
    // ("available" of an "Availability" column is the word itself; of an "Occupied" column its opposite.)
    const opposite =
      typeof listed === "string" ||
      (listed && catalog.columns.some((x) => isFlagColumn(x) && x.headerWords.some((h) => listed.includes(h))))
        ? listed
        : /^un[a-z]{4,}/.test(token)
          ? stem(token.slice(2))
          : undefined;
    // ("have insurance" of an "Insured?" column: the noun's stem is the participle's.)
    const words = opposite
      ? [opposite].flat()
      : [stem(token), stem(token.replace(/ly$/, "")), ...(/[a-z]{4}[ae]nce$/.test(token) ? [token.slice(0, -4)] : [])];
    // (An opposite word names its column even when it is a generic word: "open" of a "Done" column.)
    // ("reimbursed" of a "Reimb" column: a header cut short, by at least three letters, names the question's own
    // word it starts; not a related word's: "rides" relates to "passenger", which is no "Passed?".)
    const naming = (ws: readonly string[], cut = false) =>
      (GENERIC.has(token) && opposite === undefined) || token.length < 3
        ? []
        : catalog.columns.filter((x) =>
            x.headerWords.some(
              (h) =>
                ws.includes(h) || (cut && h.length >= 4 && ws.some((w) => w.length >= h.length + 3 && w.startsWith(h))),
            ),
          );
    // ("items that need a prescription" of an "Rx Only?" column: a related word, when the header's own are not there.)
    // (Not a superlative's: "fastest" relates to time, which names no "On Time" flag.)
    const related = superlativeDirection(token) === undefined ? relatedHeaderWords(token) : undefined;
    // ("which subscriptions renew in 2026?": a verb before a time names the date column it shares a stem with,
    // "Renewal Date", not the "Auto-renew" flag.)
    const dated =
      /^(?:in|on|before|after|by|during|this|next|last)$/.test(tokens[s + 1] ?? "") &&
      catalog.columns.some(
        (x) => x.schema.type === "date" && x.headerWords.some((h) => h !== stem(token) && h.startsWith(stem(token))),
      );
    // ("which tasks are done?" of a "Done" column: a header that is the word itself, stop word or not.)
    const own = flag(catalog.columns.filter((x) => normaliseText(x.schema.name) === token));
    const c = dated ? undefined : (whole ?? joined ?? own ?? flag(naming(words, true)) ?? flag(naming(related ?? [])));
    if (!c) {
      takePositive(s);
      continue;
    }
    // ("how many gifts were under £20": the counted noun is the rows, not the "Gift Aid" column it shares a word with.)
    if (c !== whole && c !== joined && avoid.has(token) && c.headerWords.length > 1) continue;
    // ("avg gift amount": a word before a measure's name modifies it; it does not select "Gift Aid?" rows.
    // "cancelled flights" still does: a row noun is no measure.)
    // ("non-billable hours" of a "Billable" column beside Hours: a word that is a yes/no header whole still selects.)
    const next = tokens[s + 1];
    if (
      c !== whole &&
      c !== own &&
      next !== undefined &&
      catalog.columns.some(
        (x) =>
          x !== c &&
          x.numericShare >= 0.8 &&
          // (The rows' own numbers are no measure: "free rooms" of a Room column of 101, 102 ….)
          !isOwnNumberColumn(x) &&
          (x.headerWords.includes(next) || x.headerWords.includes(stem(next))),
      )
    )
      continue;
    // ("out of stock" of an "In Stock" column: its no cells.)
    const outOf = tokens[s - 2] === "out" && tokens[s - 1] === "of";
    const negated =
      (outOf || tokens.slice(Math.max(0, s - 3), s).some((t) => NEGATIONS.has(t))) !==
      (opposite !== undefined && c !== own);
    const rows = flagRows(c)![negated ? 1 : 0];
    if (rows.length > 0) takeWord(s, c, rows, "exact", c === whole ? 2 : 1);
  }

  // 1e'. "members with outstanding fines", "who owes nothing?": a numeric column the word names (its noun or its
  // participle, "Fines Owed"), its rows above zero after "have"/"with", its zero rows before "nothing".
  for (let s = 1; s < tokens.length; s++) {
    if (covered[s]) continue;
    const have = (t: string | undefined) => /^(?:have|has|had|with)$/.test(t ?? "");
    // (A plural noun after the verb, not negated: "do not have any gold medals" is the emptiness conditions'.)
    const some =
      /[^s]s$/.test(tokens[s]!) &&
      (have(tokens[s - 1]) || (/^(?:outstanding|unpaid|any|some)$/.test(tokens[s - 1]!) && have(tokens[s - 2]))) &&
      !tokens.slice(Math.max(0, s - 4), s).some((t) => NEGATIONS.has(t));
    const none = /^(?:nothing|none|zero)$/.test(tokens[s + 1] ?? "");
    if (!some && !none) continue;
    const w = stem(tokens[s]!);
    const named = catalog.columns.filter(
      (c) => c.numericShare >= 0.8 && c.headerWords.some((h) => h === w || h === `${w}d` || h === `${w}ed`),
    );
    if (named.length !== 1) continue;
    const c = named[0]!;
    const rows = c.num.flatMap((x, r) => ((x ?? 0) > 0 !== none ? [r] : []));
    if (rows.length === 0 || rows.length === c.raw.length) continue;
    take({ ...mentionOf(s, c, rows), positive: !none });
  }

  // 1e''. "players who have a red card", "without a yellow card": a tally column whose header the words after "a"
  // spell whole ("Red Cards"), its rows above zero (at zero after "without" or a negation).
  for (let s = 2; s < tokens.length; s++) {
    if (
      !/^(?:a|an|any)$/.test(tokens[s - 1]!) ||
      !/^(?:have|has|had|with|without|got|get|received)$/.test(tokens[s - 2]!)
    )
      continue;
    for (const n of [2, 1]) {
      // (Closing its clause: "had a result of 2.19", "a capacity over 500" are values of a measure.)
      const next = tokens[s + n];
      if (!free(s, s + n) || s + n > tokens.length || (next !== undefined && !TALLY_CLAUSE_END.test(next))) continue;
      const words = tokens.slice(s, s + n).map(stem);
      const named = catalog.columns.filter(
        (c) =>
          c.numericShare >= 0.8 &&
          c.yearShare < 0.5 &&
          c.headerWords.length === n &&
          c.headerWords.every((h, i) => h === words[i] || stem(h) === words[i]),
      );
      if (named.length !== 1) continue;
      const c = named[0]!;
      const none = tokens[s - 2] === "without" || tokens.slice(Math.max(0, s - 5), s - 1).some((t) => NEGATIONS.has(t));
      const rows = c.num.flatMap((x, r) => (x !== null && x > 0 !== none && !catalog.summaryRows.has(r) ? [r] : []));
      if (rows.length === 0 || rows.length === c.raw.length) continue;
      take({ ...mentionOf(s, c, rows, "partial", n), positive: !none, columnNamed: true });
      break;
    }
  }

  // 1e. "did not finish" of DNF, "no contest" of NC: a negated phrase whose initials are a capitalised cell.
  for (let n = 4; n >= 2; n--)
    for (let s = 0; s + n <= tokens.length; s++) {
      const span = tokens.slice(s, s + n);
      if (!free(s, s + n) || !span.every((t) => /^[a-z]+$/.test(t)) || !span.some((t) => t === "not" || t === "no"))
        continue;
      const initials = span.map((t) => t[0]).join("");
      const c = catalog.columns.find((x) => {
        const rows = x.distinct.get(initials);
        return rows !== undefined && /^[A-Z]{2,4}$/.test(x.raw[rows[0]!]?.trim() ?? "");
      });
      if (c) takeWord(s, c, c.distinct.get(initials)!, "exact", n);
    }

  // 1f. "how many runners finished?", "the last rider to finish": the rows of a results column that hold no
  // did-not-finish code (DNF, DNS, DSQ …), when the column has such codes.
  for (let s = 0; s < tokens.length; s++) {
    // (Only as the question's closing words: "finished 8th", "completed 45 laps" are other conditions.)
    const rest = tokens.slice(s + 1).join(" ");
    if (covered[s] || !/^(?:finish|finished|finishers?|completed)$/.test(tokens[s]!) || !/^(?:the race)?$/.test(rest))
      continue;
    if (tokens.slice(Math.max(0, s - 3), s).some((t) => NEGATIONS.has(t))) continue;
    const c = catalog.columns.find((x) => [...x.distinct.keys()].some((v) => NOT_FINISHED.has(v)));
    if (!c) continue;
    const rows = c.raw.flatMap((v, r) => (v.trim() !== "" && !NOT_FINISHED.has(normaliseText(v)) ? [r] : []));
    // (Kept by the link choice: the codes, not a cell the word spells, name the column.)
    if (rows.length > 0) take({ ...mentionOf(s, c, rows, "partial"), columnNamed: true });
  }

  // 1h. "how many episodes had a guest?", "tasks without an owner": a text column the noun after "a"/"an" names,
  // some of whose cells are empty, selects its filled rows (its empty ones after "without", "no" or a negation).
  for (let s = 1; s < tokens.length; s++) {
    const lead = tokens[s - 1]!;
    if (covered[s] || !/^(?:a|an|any)$/.test(lead) || s < 2) continue;
    const verb = tokens[s - 2]!;
    // (Not "have a color of white": the value after "of" is the condition.)
    if (!/^(?:had|has|have|having|with|without|got|get|gets|need|needs)$/.test(verb) || tokens[s + 1] === "of")
      continue;
    const word = stem(tokens[s]!);
    const named = catalog.columns.filter(
      (x) => x.numericShare < 0.5 && !isFlagColumn(x) && x.headerWords.length === 1 && x.headerWords[0] === word,
    );
    if (named.length !== 1) continue;
    const c = named[0]!;
    const empty = verb === "without" || tokens.slice(Math.max(0, s - 5), s - 1).some((t) => NEGATIONS.has(t));
    const rows = c.raw.flatMap((v, r) => ((v.trim() === "") === empty && !catalog.summaryRows.has(r) ? [r] : []));
    if (rows.length === 0 || rows.length === c.raw.length) continue;
    take({ ...mentionOf(s, c, rows, "partial"), columnNamed: true });
  }

  // 1i. "rooms on the 2nd floor", "players in the third round": an ordinal before the one word of a numeric
  // column's header selects the rows holding that number.
  for (let s = 0; s + 1 < tokens.length; s++) {
    const place = ordinalValue(tokens[s]!);
    if (place === undefined || !free(s, s + 2)) continue;
    const word = stem(tokens[s + 1]!);
    // (Not "the first episode to …", "the first time that …": a position the clause after it defines.)
    // (Nor "2nd place": a finishing place, the question analysis's condition.)
    if (/^(?:to|that|which|who|where|when|with|since)$/.test(tokens[s + 2] ?? "") || tokens[s + 1] === "place")
      continue;
    // (A plural header counts things, "Races" of how many; dates and years are no places.)
    const named = catalog.columns.filter(
      (x) =>
        x.numericShare >= 0.8 &&
        x.headerWords.length === 1 &&
        x.headerWords[0] === word &&
        !/[^s]s$/i.test(x.schema.name.trim()) &&
        x.schema.type !== "date" &&
        x.yearShare < 0.5,
    );
    if (named.length !== 1) continue;
    const c = named[0]!;
    const rows = c.num.flatMap((x, r) => (x === place && !catalog.summaryRows.has(r) ? [r] : []));
    if (rows.length > 0) take({ ...mentionOf(s, c, rows, "exact", 2), columnNamed: true });
  }

  // 1g. "how many screenings sold out?", "which classes are full?": with no yes/no column of it, the rows whose
  // filled places (Seats Sold, Booked) reach the column of their capacity.
  for (let s = 0; s < tokens.length; s++) {
    const phrase = FULL_PHRASE.exec(tokens.slice(s, s + 2).join(" "))?.[0];
    // ("full" only closing the question: "full name", "full price" are no such rows.)
    if (!phrase || (phrase === "full" && s !== tokens.length - 1)) continue;
    const n = phrase.split(" ").length;
    if (!free(s, s + n)) continue;
    const numbers = catalog.columns.filter((x) => x.numericShare >= 0.5);
    const filledOnes = numbers.filter((x) => x.headerWords.some((h) => FILLED_WORDS.test(h)));
    const caps = numbers.filter((x) => !filledOnes.includes(x) && x.headerWords.some((h) => CAPACITY_WORDS.test(h)));
    if (filledOnes.length !== 1 || caps.length !== 1) continue;
    const [filled, cap] = [filledOnes[0]!, caps[0]!];
    const rows = filled.num.flatMap((x, r) => (x !== null && cap.num[r] != null && x >= cap.num[r]! ? [r] : []));
    if (rows.length > 0 && rows.length < catalog.rowCount)
      take({ ...mentionOf(s, filled, rows, "partial", n), columnNamed: true });
  }

  // ("over $40,000" is one number: its digit groups are no part of a cell, only the whole number is.)
  for (let i = 1; i < tokens.length; i++)
    if (/^\d{3}$/.test(tokens[i]!) && /^\d+$/.test(tokens[i - 1]!) && text.includes(`${tokens[i - 1]},${tokens[i]}`))
      covered[i] = covered[i - 1] = true;
  // 2. Partial: the span is a contiguous whole-word part of a cell value (names, places).
  for (let n = Math.min(maxSpan, tokens.length); n >= 1; n--) {
    for (let s = 0; s + n <= tokens.length; s++) {
      if (!free(s, s + n)) continue;
      let span = tokens.slice(s, s + n);
      if (!isContent(span, headerWords)) continue;
      if (span.some((t) => /^\d+$/.test(t) && t.length < 3)) continue;
      if (n === 1 && span[0]!.length < 3) continue;
      if (span.every((t) => avoid.has(t) || GENERIC.has(t))) continue;
      // (A unit after a number is the bound's: "longer than 2 hours" is no part of "Small Hours", though it is of a
      // "1 mile" cell.)
      const unitOf = n === 1 && /^\d/.test(tokens[s - 1] ?? "") && isMeasureUnit(span[0]!) ? tokens[s - 1] : undefined;
      const cellsOf = (words: string[]) => {
        let keys: Set<string> | undefined;
        for (const t of words.filter((w) => !GENERIC.has(w))) {
          const set = catalog.tokenIndex.get(t);
          if (!set) return undefined;
          keys = keys ? new Set([...keys].filter((k) => set.has(k))) : new Set(set);
        }
        return keys;
      };
      let keys = cellsOf(span);
      // ("Carol's job title" of Carol Diaz: the possessive's bare name, when the spelled word is in no cell.)
      if (!keys && possessive.slice(s, s + n).join(" ") !== span.join(" ")) {
        span = possessive.slice(s, s + n);
        keys = cellsOf(span);
      }
      if (!keys || keys.size === 0) continue;
      const phrase = ` ${unitOf ?? ""} ${span.join(" ")} `.replace(/^ {2}/, " ");
      const matches = [...keys].filter((k) => ` ${k.slice(k.indexOf(":") + 1)} `.includes(phrase));
      const distinctValues = new Set(matches.map((k) => k.slice(k.indexOf(":") + 1)));
      // ("held in the netherlands" of "Amsterdam, Netherlands", "Utrecht, Netherlands", …: many cells of one column
      // that hold the name as a part are still its rows.)
      // (Words only, in a column of text: "november 2006" or "2011" of a column of dates is a date's to bound.)
      const columns = new Set(matches.map((k) => Number(k.slice(0, k.indexOf(":")))));
      const textColumn = (i: number) =>
        catalog.columns[i]!.schema.type !== "date" && catalog.columns[i]!.numericShare < 0.5;
      // (A name in short cells, written as a name — "Leeds, England" —, not a word of every row or of long notes.)
      const manyParts = () => {
        const c = catalog.columns[[...columns][0]!]!;
        const rows = [...distinctValues].flatMap((v) => c.distinct.get(v) ?? []);
        const words = [...distinctValues].reduce((n, v) => n + v.split(" ").length, 0) / distinctValues.size;
        const first = new RegExp(
          `(?<![\\p{L}\\d])${span[0]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\d])`,
          "iu",
        );
        const named = (raw: string) => {
          const at = first.exec(raw)?.index;
          // (Not a label numbering its rows: "Volume 2", "Stage 4".)
          return at !== undefined && /\p{Lu}/u.test(raw[at]!) && !/^\p{L}+\s+\d/u.test(raw.slice(at));
        };
        return (
          columns.size === 1 &&
          textColumn(c.index) &&
          distinctValues.size <= 40 &&
          span.every((t) => t.length >= 3 && !/\d/.test(t) && monthNumber(t) === undefined) &&
          words <= 4 &&
          rows.length < 0.9 * catalog.rowCount &&
          rows.every((r) => named(c.raw[r] ?? ""))
        );
      };
      if (matches.length === 0 || (distinctValues.size > maxPartial && !manyParts())) continue;
      // Best: the shortest cell (highest coverage), text columns first.
      let best: { c: CatalogColumn; value: string; coverage: number } | undefined;
      for (const k of matches) {
        const c = catalog.columns[Number(k.slice(0, k.indexOf(":")))]!;
        const value = k.slice(k.indexOf(":") + 1);
        const coverage = span.length / value.split(" ").length;
        if (!best || coverage - columnRank(c) * 0.01 > best.coverage - columnRank(best.c) * 0.01)
          best = { c, value, coverage };
      }
      if (!best) continue;
      // A single common word covering a small part of a long cell is noise.
      if (n === 1 && best.coverage < 0.34 && distinctValues.size > 1) continue;
      // Every cell of that column containing the phrase ("south korea" → "Busan, South Korea", "Seoul, South Korea").
      const rows = matches
        .filter((k) => Number(k.slice(0, k.indexOf(":"))) === best!.c.index)
        .flatMap((k) => best!.c.distinct.get(k.slice(k.indexOf(":") + 1))!)
        .sort((x, y) => x - y);
      take({
        text: span.join(" "),
        column: best.c.schema.name,
        columnIndex: best.c.index,
        value: best.c.raw[rows[0]!]!,
        kind: "partial",
        score: Math.min(0.95, 0.5 + 0.45 * best.coverage) / (distinctValues.size > 1 ? 1.5 : 1),
        start: s,
        end: s + n,
        rows,
      });
    }
  }

  // 2b. "how many goalkeepers?" of a Pos column of GK, DF, MF, FW: a noun of a role (defender, forward) whose
  // letters hold, in order and from its first, exactly one code of a column of short capital codes; another word
  // ("houston" of HOU, "florida" of FL) only as its first letters. (Not any word: "different" holds DF.)
  for (let s = 0; s < tokens.length; s++) {
    const t = tokens[s]!;
    if (covered[s] || t.length < 5 || GENERIC.has(t) || headerWords.has(stem(t))) continue;
    const role = t.length >= 6 && ROLE_NOUN.test(t);
    // (A plural is no place: "seasons" does not open with SEA's team.)
    if (!role && /s$/.test(t)) continue;
    const found = catalog.columns.flatMap((c) => {
      const codes = [...c.distinct.keys()];
      if (
        codes.length < 2 ||
        codes.length > 40 ||
        !codes.every((v) => /^[A-Z]{2,3}$/.test(c.raw[c.distinct.get(v)![0]!]!))
      )
        return [];
      const held = codes.filter((v) =>
        role ? v[0] === t[0] && new RegExp(v.split("").join(".*")).test(t) : t.startsWith(v),
      );
      return held.length === 1 ? [{ c, rows: c.distinct.get(held[0]!)! }] : [];
    });
    if (found.length === 1) takeWord(s, found[0]!.c, found[0]!.rows, "exact");
  }

  // 3. Fuzzy: single uncovered content tokens within a small edit distance of a cell token.
  for (let s = 0; s < tokens.length; s++) {
    const t = tokens[s]!;
    // (Nor a verb whose doer is a header: "does X manage" names the Manager column, not a "Sales Manager" cell;
    // nor the request's own verb: "count …" is no "County"; nor a month: "in March" is no "Marsh".)
    if (
      covered[s] ||
      t.length < 5 ||
      monthNumber(t) !== undefined ||
      (s === 0 && /^(?:count|list|name|show|give|find|tell)$/.test(t)) ||
      GENERIC.has(t) ||
      avoid.has(t) ||
      /\d/.test(t) ||
      headerWords.has(stem(t)) ||
      agentNouns(t).some((a) => headerWords.has(a) || headerWords.has(stem(a)))
    )
      continue;
    const max = t.length >= 8 ? 2 : 1;
    let best: { token: string; d: number } | undefined;
    for (const token of catalog.tokenIndex.keys()) {
      // Inflections ("released" ~ "release") are other words, not typing errors.
      if (token.length < 5 || token[0] !== t[0] || stem(token) === stem(t) || isInflection(t, token)) continue;
      const d = editDistance(t, token, max);
      if (d <= max && d > 0 && (!best || d < best.d)) best = { token, d };
    }
    if (!best) continue;
    // Only short cells (names, places): a typo-matched word inside a long note is noise.
    const keys = [...catalog.tokenIndex.get(best.token)!].filter(
      (k) => k.slice(k.indexOf(":") + 1).split(" ").length <= 4,
    );
    if (keys.length === 0) continue;
    const distinctValues = new Set(keys.map((k) => k.slice(k.indexOf(":") + 1)));
    if (distinctValues.size > 2) continue;
    const k = keys.sort((a, b) => a.length - b.length)[0]!;
    const c = catalog.columns[Number(k.slice(0, k.indexOf(":")))]!;
    const value = k.slice(k.indexOf(":") + 1);
    const rows = c.distinct.get(value)!;
    take({
      text: t,
      column: c.schema.name,
      columnIndex: c.index,
      value: c.raw[rows[0]!]!,
      kind: "fuzzy",
      score: 0.6,
      start: s,
      end: s + 1,
      rows,
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The base forms a past verb may have ("cycled" → cycle, "walked" → walk, "jogged" → jog, "ran" → run), or none. */
function pastBases(word: string): readonly string[] {
  if (/^[a-z]{2,}ed$/.test(word)) {
    const stemmed = word.slice(0, -2);
    return [stemmed, `${stemmed}e`, ...(/([^aeiou])\1$/.test(stemmed) ? [stemmed.slice(0, -1)] : [])];
  }
  return irregularForms(word);
}
