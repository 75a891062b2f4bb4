/**
 * "How many home games did we win?", "the first away game", "wins on the road": a fixture list says where each game
 * was played either in a column of its own ("Venue": Home / Away, "H/A": H / A) or by writing the away games'
 * opponents as "at Rovers" ("@ Rovers"), the home games' plainly. The rows of the side asked are selected.
 */
import { isNumericColumn } from "../columns.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import type { QuestionAnalysis } from "../analysis.js";
import type { EntityMention } from "../mentions.js";
import { normaliseText } from "../../../text/normalise.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import { col, sqlString } from "./sql-parts.js";

const GAME = "(?:games?|matches|match|fixtures?|wins?|victories|loss(?:es)?|defeats?|record|opener)";
/** Home games asked: "home games", "at home" (not "the home team", "home town", "home country"). */
const HOME = new RegExp(`\\b(?:home ${GAME}|(?<!not )at home)\\b`);
/** Away games asked: "away games", "on the road", "not at home". */
const AWAY = new RegExp(`\\b(?:away ${GAME}|on the road|road ${GAME}|not at home|away from home)\\b`);

/** The side whose games the question asks; none for both, neither or "home or away?" (a comparison of the sides). */
function sideAsked(a: QuestionAnalysis): "home" | "away" | undefined {
  const q = a.normalized;
  const [home, away] = [HOME.test(q), AWAY.test(q)];
  if (home === away || /\b(?:home or away|away or home)\b/.test(q)) return undefined;
  return home ? "home" : "away";
}

/** A cell saying where a game was played. */
const SIDE_CELL = /^(?:home|away|neutral|h|a|n)$/i;
const HOME_CELL = /^(?:home|h)$/i;

/** A column whose cells say home or away ("Home", "A"), both sides present. */
function sidesColumn(catalog: TableCatalog, ok: (c: CatalogColumn) => boolean): CatalogColumn | undefined {
  return catalog.columns.find((c) => {
    if (!ok(c) || isNumericColumn(c)) return false;
    const cells = c.raw.filter((v) => v !== undefined && v.trim() !== "").map((v) => v.trim());
    const sides = cells.filter((v) => SIDE_CELL.test(v));
    return (
      cells.length >= 2 &&
      sides.length >= 0.8 * cells.length &&
      sides.some((v) => HOME_CELL.test(v)) &&
      sides.some((v) => /^(?:away|a)$/i.test(v))
    );
  });
}

/** An away game's opponent written "at Rovers" or "@ Rovers". */
const AT_CELL = /^(?:at|@)\s*\S/;

/** A text column where some opponents, not all, are written "at X": the away games. */
function atColumn(catalog: TableCatalog, ok: (c: CatalogColumn) => boolean): CatalogColumn | undefined {
  return catalog.columns.find((c) => {
    if (!ok(c) || isNumericColumn(c)) return false;
    const cells = c.raw.filter((v) => v !== undefined && v.trim() !== "").map((v) => v.trim());
    const at = cells.filter((v) => AT_CELL.test(v)).length;
    return cells.length >= 4 && at >= 0.15 * cells.length && at <= 0.85 * cells.length;
  });
}

/** The rows of the side the question asks (home or away games), and the column that says so. */
export function homeAwayPredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  ok: (c: CatalogColumn) => boolean,
): { preds: string[]; columns: Set<number> } {
  const side = sideAsked(a);
  if (!side) return { preds: [], columns: new Set() };
  const home = side === "home";
  const sides = sidesColumn(catalog, ok);
  if (sides) {
    const cells = [...new Set(sides.raw.filter((v) => v !== undefined).map((v) => v.trim()))].filter((v) =>
      home ? HOME_CELL.test(v) : /^(?:away|a)$/i.test(v),
    );
    return { preds: [`TRIM(${col(sides)}) IN (${cells.map(sqlString).join(", ")})`], columns: new Set([sides.index]) };
  }
  const at = atColumn(catalog, ok);
  if (!at) return { preds: [], columns: new Set() };
  const written = `(${d().glob(`TRIM(${col(at)})`, "at *")} OR ${d().glob(`TRIM(${col(at)})`, "@*")})`;
  // (The opponents' column stays a target: "which team did we play in our first home game?")
  return { preds: [home ? `TRIM(${col(at)}) <> '' AND ${d().notTrue(written)}` : written], columns: new Set() };
}

/** Which side a column of teams holds: "Home", "Home team" or "Away", "Visitor", "Road team". */
function sideOfColumn(c: CatalogColumn): "home" | "away" | undefined {
  const words = normaliseText(c.schema.name).split(" ");
  if (words.includes("home")) return "home";
  return words.some((w) => /^(?:away|visitor|visitors|visiting|road|guest|guests)$/.test(w)) ? "away" : undefined;
}

/**
 * "How many home games did Rovers play?" of Home and Visitor columns of teams: the named team is read in the column of
 * the side asked, wherever the linker found it first.
 */
export function teamOnSide(
  a: QuestionAnalysis,
  filters: EntityMention[],
  catalog: TableCatalog,
  usable: Set<number> | undefined,
): EntityMention[] {
  const side = sideAsked(a);
  if (!side) return filters;
  const columns = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && sideOfColumn(c) === side);
  if (columns.length !== 1) return filters;
  const asked = columns[0]!;
  return filters.map((m) => {
    const from = catalog.columns[m.columnIndex]!;
    // (A name found in both sides' columns is one mention over both: it too is read in the side asked.)
    if (m.positive !== undefined || sideOfColumn(from) === undefined) return m;
    const rows = asked.raw.flatMap((v, r) => (v !== undefined && v.trim() === m.value.trim() ? [r] : []));
    return rows.length === 0 ? m : { ...m, column: asked.schema.name, columnIndex: asked.index, rows };
  });
}
