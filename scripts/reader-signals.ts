/**
 * Which reading signals tell a right first answer of the described-row reader from a wrong one on
 * HybridQA-style data (for the verifier): for each question (bypassing the graph, as
 * scripts/reader-losses.ts does) the first answer (asked cell, else top span) and its signals — the
 * source, the bridge's row margin, the span's margin to the next span, its passage's linked bonus,
 * coverage and kind — and prints, per signal bucket, how many first answers are right of all.
 *
 *   npx tsx scripts/reader-signals.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index /tmp/atr-idx/hybridqa-train
 */
import { parseArgs } from "node:util";
import { loadQuestions } from "../evals/dataset.js";
import { squadExact } from "../evals/scoring/hybridqa.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { askedCell, describedRowSpans } from "../nodes/offline/reader.js";
import { answerKindOf, fitsKind } from "../nodes/offline/answer-kind.js";
import { normaliseForContainment } from "../text/normalise.js";
import { readerQuestion } from "./helpers/reader-question.js";
const { values } = parseArgs({ options: { questions: { type: "string" }, index: { type: "string" } } });
if (!values.questions || !values.index) throw new Error("reader-signals: give --questions FILE.jsonl and --index DIR");
const index = await openSearchableIndex(values.index!);
const strategies = createOfflineStrategies(index);
const bridge = createBridge(index);
const tally = new Map<string, [number, number]>();
const add = (k: string, r: boolean) => {
  const t = tally.get(k) ?? [0, 0];
  t[0] += r ? 1 : 0;
  t[1]++;
  tally.set(k, t);
};
for (const q of loadQuestions(values.questions!)) {
  const { question, right, plan, row } = await readerQuestion(q, strategies, bridge);
  if (!row) {
    add("no row", false);
    continue;
  }
  const input = { question, subQuery: plan.subQuery, plan };
  const cell = askedCell(input, row);
  const spans = describedRowSpans(input, row, 4);
  const first = cell ?? spans[0]?.answer ?? "";
  const r = right(first);
  const rowMargin = row.score > 0 ? (row.score - row.runnerUp) / row.score : 0;
  add("all", r);
  add(`source=${cell !== undefined ? "asked-cell" : "span"}`, r);
  add(
    `row-margin ${rowMargin === 0 ? "=0 (tie)" : rowMargin < 0.1 ? "<0.1" : rowMargin < 0.3 ? "0.1-0.3" : ">=0.3"}`,
    r,
  );
  add(`combo ${cell !== undefined ? "cell" : "span"} row-margin${rowMargin >= 0.3 ? ">=0.3" : "<0.3"}`, r);
  const close = row.closeRows ?? 1;
  add(`row close rows ${close === 1 ? "1" : close === 2 ? "2" : "3+"}`, r);
  add(`row chosen by match ${row.chosenByMatch === true}`, r);
  add(`combo ${cell !== undefined ? "cell" : "span"} close rows ${close === 1 ? "1" : "2+"}`, r);
  if (cell !== undefined)
    add(
      `combo cell close rows 1 row-margin${rowMargin >= 0.3 ? ">=0.3" : "<0.3"}${close === 1 ? "" : " (close 2+)"}`,
      r,
    );
  if (cell === undefined && spans[0]) {
    const key = normaliseForContainment(spans[0].answer);
    const n = row.passages.filter((p) => ` ${normaliseForContainment(p.text)} `.includes(` ${key} `)).length;
    add(`span recurs in 2+ linked passages ${n >= 2}`, r);
  }
  if (cell === undefined && spans[0]) {
    const m = spans.length > 1 ? spans[0].score - spans[1]!.score : 9;
    add(`combo span margin${m >= 0.2 ? ">=0.2" : "<0.2"} row-margin${rowMargin >= 0.3 ? ">=0.3" : "<0.3"}`, r);
  }
  const kind = answerKindOf(plan, plan.subQuery || question);
  if (cell === undefined && spans[0]) {
    const m = spans.length > 1 ? spans[0].score - spans[1]!.score : 9;
    add(`span margin ${m >= 9 ? "only" : m < 0.05 ? "<0.05" : m < 0.2 ? "0.05-0.2" : ">=0.2"}`, r);
    add(
      `span linked ${spans[0].linked === 0.45 ? "unnamed passage" : spans[0].linked === 0.15 ? "named passage" : "other"}`,
      r,
    );
    add(`span coverage ${spans[0].coverage < 0.3 ? "<0.3" : spans[0].coverage < 0.6 ? "0.3-0.6" : ">=0.6"}`, r);
    add(
      `span kind ${["person", "place", "entity", "text"].includes(kind) ? "name-like" : kind} agree=${fitsKind(spans[0].answer, kind)}`,
      r,
    );
    add(`span in row cells ${row.values.some((v) => squadExact(v, spans[0]!.answer) === 1)}`, r);
  }
}
for (const [k, [a, n]] of [...tally].sort())
  console.log(`${k.padEnd(40)} ${String(a).padStart(4)} / ${String(n).padStart(4)}  ${((100 * a) / n).toFixed(1)} %`);
index.close();
