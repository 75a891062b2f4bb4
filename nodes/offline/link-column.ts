/**
 * Rows that tie because they link the same page: "the album of the singer born on May 4 , 1970" over a
 * table of albums whose singer's page is linked from her own row ("Singer" column) and from another
 * row's "Guests" column. The page's words ("born May 4 , 1970") match both rows alike, and the first
 * one won. The question names how the page belongs to its row ("the singer …"): the row whose cell
 * linking the matched page sits in a column whose header the question names is the row it describes.
 */
import type { Passage } from "../../indexing/types.js";
import { keyStems } from "./evidence.js";
import { askedPhrase } from "./reader.js";

/** What the tie-break reads of a row: its id and the pages its cells link. */
export interface LinkedRowPages {
  rowId: number;
  passages: readonly Passage[];
}

/**
 * Of `tied` (indices into `rows`), the one row whose cell linking a page that several tied rows link and
 * the question's words match (beyond the row's cells) lies in a column the question names; undefined
 * when none or several do.
 */
export function rowByLinkColumn(
  question: string,
  columns: readonly string[],
  rows: ReadonlyArray<LinkedRowPages & { cells: ReadonlySet<string> }>,
  tied: readonly number[],
): number | undefined {
  const q = keyStems(question);
  // The asked column ("Who was runner-up …") says what is asked, not how the page belongs to the row.
  const asked = keyStems((askedPhrase(question) ?? []).join(" "));
  const named = columns.map((c) => {
    const header = [...keyStems(c)];
    return header.some((s) => q.has(s)) && !header.some((s) => asked.has(s));
  });
  if (!named.some(Boolean)) return undefined;
  // A page two or more of the tied rows link, which the question's words match beyond the row's cells.
  const shared = (p: Passage, row: LinkedRowPages & { cells: ReadonlySet<string> }) =>
    tied.filter((j) => rows[j]!.passages.some((o) => o.id === p.id)).length >= 2 &&
    [...keyStems(p.text)].some((s) => q.has(s) && !row.cells.has(s));
  const hits = tied.filter((i) => {
    const row = rows[i]!;
    return row.passages.some(
      (p) => shared(p, row) && (p.cells ?? []).some(([r, c]) => r === row.rowId && named[c] === true),
    );
  });
  return hits.length === 1 ? hits[0] : undefined;
}
