/**
 * "This club left the Coastal League in 2015 and dates from 1968 ?", "This hare starred in a strip
 * first drawn in 1990 ?": a question that opens "This / These NOUN" and asks with no wh-word describes one thing and
 * asks which it is. Over a described row, that thing is the row's own: its name cell ("Name", "Title",
 * else the first text column; askedCell, reader.ts).
 */

const WH = /\b(?:what|which|who|whom|whose|where|when|how|why)\b/i;

/** Does the question open "This / These NOUN" and ask with no wh-word? */
export function asksWhichItIs(question: string): boolean {
  return /^\s*(?:this|these)\s+\p{L}/iu.test(question) && !WH.test(question);
}

/** The row's name cell: a "Name" or "Title" column's, else the first cell holding a letter; undefined when none. */
export function nameCellOf(columns: readonly string[], values: readonly string[]): string | undefined {
  const text = (v: string | undefined) => v !== undefined && v.trim() !== "" && /\p{L}/u.test(v);
  const named = columns.findIndex((c, i) => /^(name|title)\b/i.test(c.trim()) && text(values[i]));
  const i = named >= 0 ? named : values.findIndex((v) => text(v));
  return i >= 0 ? values[i] : undefined;
}
