/**
 * The one stop-word list: function words and question filler that carry no weight when a question
 * is matched against chunks, headers or cells ("what is the total number of …").
 *
 * Some of them are also common column names ("Name", "Total", "Number", "Amount"): HEADER_WORDS.
 * Code that matches words against column headers keeps those (`isStopWord(w, { keepHeaderWords: true })`),
 * so a column named `total` is still found by "the total of …".
 */

const FUNCTION_WORDS =
  "a an the of in on at to for from by with and or but if is are was were be been being do does did done " +
  "has have had as than then there their they them it its this that these those what which who whom whose " +
  "when where why how he she his her him i me my we our you your not no yes into onto about over under " +
  "after before between during per s";

const QUESTION_FILLER =
  "many much more most less least only just also all any each same other own one ones list table please tell give find";

/** Stop words that are also column names often enough to matter for header matching. */
export const HEADER_WORDS: ReadonlySet<string> = new Set(["name", "names", "number", "total", "amount"]);

export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...`${FUNCTION_WORDS} ${QUESTION_FILLER}`.split(" "),
  ...HEADER_WORDS,
]);

export interface StopWordOptions {
  /** Keep HEADER_WORDS (for matching against column headers). Default false. */
  keepHeaderWords?: boolean;
}

/** True when `word` (lower case) is a stop word. */
export function isStopWord(word: string, options: StopWordOptions = {}): boolean {
  if (!STOP_WORDS.has(word)) return false;
  return !(options.keepHeaderWords && HEADER_WORDS.has(word));
}
