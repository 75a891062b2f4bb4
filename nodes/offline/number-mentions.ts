/**
 * Numbers a question names as cells: a short number is a cell only beside a word naming its column ("season 1",
 * "bib number 8", "episode 16" of the rows' number column); otherwise it is a quantity of the question.
 */
import { STOP_WORDS } from "../../text/stop-words.js";
import { stem } from "../../text/stem.js";
import type { CatalogColumn } from "./table-catalog.js";

/**
 * A short number ("7", "12") names a cell only when a neighbouring question word names its column
 * ("season 1", "game 6", "week 12"); otherwise it is a quantity of the question ("at least 7 points").
 */
export function numberHasContext(tokens: string[], at: number, c: CatalogColumn): boolean {
  // ("bib number 8", "room no 12": the word before "number" names the column; so does the word before "of" in "a
  // rating of 5".)
  const named =
    // (Not a verb's: "ranked number 8" is a place.)
    /^(?:number|no|num|#|of)$/.test(tokens[at - 1] ?? "") &&
    !STOP_WORDS.has(tokens[at - 2] ?? "") &&
    !/ed$/.test(tokens[at - 2] ?? "")
      ? tokens[at - 2]
      : undefined;
  const near = [tokens[at - 1], tokens[at + 1], named].filter((t): t is string => t !== undefined).map(stem);
  // (Or a longer form of the header word: "2 bedroom" of a Beds column.)
  if (near.some((t) => c.headerWords.some((h) => h === t || (h.length >= 3 && t.length > h.length && t.startsWith(h)))))
    return true;
  // "episode 16" of podcast_episodes.csv: the row noun before a number names the rows' number column ("Ep #"; or
  // "Ep" alone, the short form of the noun, when it numbers the rows 1, 2, 3 …).
  const before = tokens[at - 1];
  return (
    before !== undefined &&
    c.tableWords?.includes(stem(before)) === true &&
    (NUMBER_HEADER.test(c.schema.name) ||
      (c.headerWords.length === 1 &&
        c.headerWords[0]!.length >= 2 &&
        before.startsWith(c.headerWords[0]!) &&
        numbersRows(c)))
  );
}

/** The column numbers its rows: distinct whole numbers, one per filled cell. */
function numbersRows(c: CatalogColumn): boolean {
  const filled = c.num.filter((n) => n !== null);
  return (
    filled.length > 2 &&
    filled.length === c.raw.filter((v) => v.trim() !== "").length &&
    filled.every((n) => Number.isInteger(n)) &&
    new Set(filled).size === filled.length
  );
}

/** A header of the rows' own numbers ("Ep #", "Order No.", "ID"). */
const NUMBER_HEADER = /#|\b(?:id|no|num|number)\b\.?/i;
