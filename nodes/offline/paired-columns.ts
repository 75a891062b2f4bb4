/**
 * Two columns of one kind of value in two roles — Home / Away, From / To, Player 1 / Player 2. "How many
 * matches did City play?" names City in either column, so it selects the rows of both; "… play at home?"
 * names one of them, so it selects that column's rows alone, whichever column the cell was first found in.
 */
import { headerMatch, isNumericColumn } from "./columns.js";
import type { EntityMention } from "./mentions.js";
import type { CatalogColumn, TableCatalog } from "./table-catalog.js";
import { normaliseText } from "../../text/normalise.js";
import { REPORTING_WORDS } from "../../text/column-words.js";

/** Two role columns share at least this share of their distinct values. */
const MIN_SHARED = 0.5;

/** Question words, which name no role ("who" relates to any Name column). */
const QUESTION_WORD = /^(?:who|whom|whose|what|which|where|when|how)$/;

/** Header words of the other side of a row's subject. */
const OTHER_SIDE = /^(?:opponent|opposit|opposition|against|vs|versus|rival)/;

/** Words of winning and losing, which say which role a value has. */
const WIN_WORD = /^(?:win|wins|won|winning|winner|lose|loses|lost|losing|loser|beat|beaten|defeat|defeated|victor)$/;

/** Share of the two columns' distinct values that both hold (Jaccard). */
function sharedShare(a: CatalogColumn, b: CatalogColumn): number {
  let shared = 0;
  for (const v of a.distinct.keys()) if (b.distinct.has(v)) shared++;
  return shared / (a.distinct.size + b.distinct.size - shared);
}

/**
 * Two roles of one row are mostly two things: a team does not play itself, a ride may end where it started
 * (a district sharing its region's name on most rows is no second role).
 */
function seldomSameRow(a: CatalogColumn, b: CatalogColumn): boolean {
  return a.norm.filter((v, r) => v !== "" && v === b.norm[r]).length <= a.norm.length / 4;
}

/**
 * A column of names in a role: text, two values at least, no dates (an "Entered" and an "Exited" date are no
 * pair), not the other side of the row's subject ("Opposition" beside a player's "County").
 */
function isRoleColumn(c: CatalogColumn): boolean {
  return (
    !isNumericColumn(c) &&
    c.distinct.size >= 2 &&
    c.schema.type !== "date" &&
    c.raw.filter((v) => /\d/.test(v)).length < c.raw.length / 2 &&
    !c.headerWords.some((h) => OTHER_SIDE.test(h))
  );
}

/** The other text columns holding mostly the same values as `c` in other roles (each with two values at least). */
function partners(catalog: TableCatalog, c: CatalogColumn): CatalogColumn[] {
  if (!isRoleColumn(c)) return [];
  return catalog.columns.filter(
    (d) => d !== c && isRoleColumn(d) && sharedShare(c, d) >= MIN_SHARED && seldomSameRow(c, d),
  );
}

const START_HEADERS = ["from", "origin", "start", "departure", "depart"];
const END_HEADERS = ["to", "destination", "end", "arrival", "arrive"];
const HOME_HEADERS = ["home", "host", "hosts"];
const AWAY_HEADERS = ["away", "visitor", "visitors", "visiting", "guest", "guests"];
/**
 * Words that say which role a value has: which end of a journey a place is ("rides that started at Quay" of From /
 * To), which side of a fixture a team is ("matches United hosted" of Home / Away).
 */
const ROLE_WORDS: Readonly<Record<string, readonly string[] | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    from: START_HEADERS,
    start: START_HEADERS,
    started: START_HEADERS,
    starting: START_HEADERS,
    depart: START_HEADERS,
    departed: START_HEADERS,
    departing: START_HEADERS,
    leave: START_HEADERS,
    left: START_HEADERS,
    leaving: START_HEADERS,
    to: END_HEADERS,
    end: END_HEADERS,
    ended: END_HEADERS,
    ending: END_HEADERS,
    arrive: END_HEADERS,
    arrived: END_HEADERS,
    arriving: END_HEADERS,
    host: HOME_HEADERS,
    hosts: HOME_HEADERS,
    hosted: HOME_HEADERS,
    hosting: HOME_HEADERS,
    visit: AWAY_HEADERS,
    visits: AWAY_HEADERS,
    visited: AWAY_HEADERS,
    visiting: AWAY_HEADERS,
  },
);

/** Verbs of a fixture's sides ("hosted", "visits"). */
const SIDE_VERB = /^(?:host|visit)(?:s|ed|ing)?$/;

/** The verb of the other side: "hosted" → "visited". */
function otherSide(verb: string): string {
  return verb.startsWith("host") ? verb.replace(/^host/, "visit") : verb.replace(/^visit/, "host");
}

/** True when the question's other words name the column (a whole header word: "home" of Home; "started" of From). */
function named(words: readonly string[], c: CatalogColumn): boolean {
  return (
    headerMatch(words, c, false) > 0.5 ||
    words.some((w) => ROLE_WORDS[w]?.some((h) => c.headerWords.includes(h))) ||
    // ("who reports to Ben Ode?" of Name and Manager: Ben as the manager.)
    words.some((w) => REPORTING_WORDS[w]?.some((h) => c.headerWords.includes(h)))
  );
}

/**
 * Each exact cell mention whose value also stands in its column's one partner: the partner's rows when only
 * the partner is named, else the rows of both (the column stays the first; its predicate becomes the rows).
 */
export function widenToPairedColumns(
  words: readonly string[],
  mentions: readonly EntityMention[],
  catalog: TableCatalog,
): EntityMention[] {
  return mentions.map((m) => {
    // (Winning names one role: "how many times did X win?" of Winner / Runner-up.)
    if (m.kind !== "exact" || m.positive !== undefined || m.columnNamed || words.some((w) => WIN_WORD.test(w)))
      return m;
    const c = catalog.columns[m.columnIndex]!;
    const key = normaliseText(m.value);
    const pair = partners(catalog, c).filter((d) => d.distinct.has(key));
    if (pair.length !== 1) return m;
    const d = pair[0]!;
    const spanWords = new Set(m.text.split(" "));
    const start = words.indexOf(m.text.split(" ")[0]!);
    const others = words
      .filter((w) => !spanWords.has(w) && !QUESTION_WORD.test(w))
      // ("which teams visited Rovers?": the object of a fixture's verb has the other side; Rovers hosted.)
      .map((w) => (SIDE_VERB.test(w) && words.indexOf(w) < start ? otherSide(w) : w));
    const [namesC, namesD] = [named(others, c), named(others, d)];
    // (The mention's own role named, or both: the link's choice stands.)
    if (namesC) return m;
    const dRows = d.distinct.get(key)!;
    if (namesD) return { ...m, column: d.schema.name, columnIndex: d.index, value: d.raw[dRows[0]!]!, rows: dRows };
    return { ...m, rows: [...new Set([...m.rows, ...dRows])].sort((x, y) => x - y) };
  });
}
