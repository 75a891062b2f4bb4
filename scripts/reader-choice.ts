/**
 * The described-row reader's answer per question on HybridQA-style data, bypassing the graph (as
 * scripts/reader-losses.ts does): whether the learned choice (`chooseRowAnswer` through `readRow` and
 * `rankRowAnswers`, what `readText` answers with) and the hand score's first span are right (official exact
 * match). Prints "Q <question_id> <choice 0|1> <first span 0|1>" per question and the totals last, for paired
 * better / worse counts between two trees:
 *
 *   npx tsx scripts/reader-choice.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index IDX > a.txt
 *   paste a.txt b.txt | awk '$1 == "Q" && $3 != $7 { if ($7 > $3) b++; else w++ } END { print b + 0, w + 0 }'
 */
import { parseArgs } from "node:util";
import { loadQuestions } from "../evals/dataset.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { rankRowAnswers, readRow } from "../nodes/offline/row-answers.js";
import { readerQuestion } from "./helpers/reader-question.js";

const { values } = parseArgs({ options: { questions: { type: "string" }, index: { type: "string" } } });
if (!values.questions || !values.index) throw new Error("reader-choice: give --questions FILE.jsonl and --index DIR");
const index = await openSearchableIndex(values.index);
const strategies = createOfflineStrategies(index);
const bridge = createBridge(index);
let chosenRight = 0;
let firstRight = 0;
let questions = 0;
for (const q of loadQuestions(values.questions)) {
  questions++;
  const { question, right, plan, row } = await readerQuestion(q, strategies, bridge);
  const reading = row ? readRow({ question, subQuery: plan.subQuery, plan }, row) : undefined;
  const chosen = reading && reading.candidates.length > 0 ? rankRowAnswers(reading.candidates)[0]!.answer : undefined;
  const c = right(chosen) ? 1 : 0;
  const f = right(reading?.spans[0]?.answer) ? 1 : 0;
  chosenRight += c;
  firstRight += f;
  console.log(`Q ${String(q.question_id)} ${c} ${f}`);
}
console.log(`total ${questions} questions: choice right ${chosenRight}, first span right ${firstRight}`);
index.close();
