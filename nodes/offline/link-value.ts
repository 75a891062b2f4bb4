/**
 * Offline value selection for the value linker (reference §6.4 step 2 without an LLM): pick the
 * candidate cell that names the entity — exact, then case/punctuation/accent-normalised, then
 * numeric/date normalisation, then alias (every entity word inside the value, or the reverse) —
 * with the reference's confidence levels 1.0 / 0.8 / 0.6; otherwise "no_match".
 */
import { parseDate, parseNumber } from "../../indexing/column-types.js";
import type { LinkValueInput, LinkValueOutput } from "../strategies.js";
import { headerWordsOf } from "./table-catalog.js";
import { normaliseText } from "../../text/normalise.js";

const NO_MATCH: LinkValueOutput = { matchedValue: "no_match", matchedColumn: "", confidence: 0 };

/** Picks the candidate matching the entity, or no_match. Pure. */
export function pickCandidate(input: LinkValueInput): LinkValueOutput {
  const entity = input.entity.trim();
  const cands = input.candidates.filter((c) => c.value.trim() !== "");
  if (entity === "" || cands.length === 0) return NO_MATCH;
  const pick = (c: (typeof cands)[number], confidence: number): LinkValueOutput => ({
    matchedValue: c.value,
    matchedColumn: c.column,
    confidence,
  });
  // A value present in several columns is ambiguous: prefer the primary column's, then the most frequent.
  // …and first of all the column the sub-query names ("how many times did X have pole position?").
  const primary = input.primaryColumn?.column;
  const q = ` ${normaliseText(input.subQuery)} `;
  const named = (column: string) =>
    headerWordsOf(column).filter((w) => w.length > 1 && (q.includes(` ${w} `) || q.includes(` ${w}s `))).length;
  const rank = (list: typeof cands) =>
    [...list].sort(
      (a, b) =>
        named(b.column) - named(a.column) ||
        Number(b.column === primary) - Number(a.column === primary) ||
        b.freq - a.freq,
    )[0];

  const exact = rank(cands.filter((c) => c.value === entity));
  if (exact) return pick(exact, 1);
  const ne = normaliseText(entity);
  const normalised = rank(cands.filter((c) => normaliseText(c.value) === ne));
  if (normalised) return pick(normalised, 1);
  const en = parseNumber(entity);
  const ed = parseDate(entity);
  const numeric = rank(
    cands.filter((c) => (en !== null && parseNumber(c.value) === en) || (ed !== null && parseDate(c.value) === ed)),
  );
  if (numeric) return pick(numeric, 0.8);
  if (ne.length >= 3) {
    const ew = ne.split(" ");
    const alias = cands.filter((c) => {
      const cv = ` ${normaliseText(c.value)} `;
      return ew.every((w) => cv.includes(` ${w} `)) || (normaliseText(c.value).length >= 3 && ` ${ne} `.includes(cv));
    });
    // Several different values containing the entity: no single pick is safe.
    if (new Set(alias.map((c) => c.value)).size === 1) return pick(rank(alias)!, 0.8);
  }
  return NO_MATCH;
}

export async function linkValue(input: LinkValueInput): Promise<LinkValueOutput> {
  return pickCandidate(input);
}
