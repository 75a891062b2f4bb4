import { loadQuestions } from "../evals/dataset.js";
import { answerQuestion } from "../graph/answer.js";
import { registerProvider } from "../graph/backbones.js";
import { closeResources } from "../graph/resources.js";
import { openIndex } from "../indexing/open-index.js";
import { createGoldModel } from "../tests/fixtures/gold-model.js";
const qs = loadQuestions("../shared/data/hybridqa/dev/questions.jsonl").slice(0, 8);
const index = await openIndex("/tmp/atr-bench-cascade/hybridqa-dev");
const gold = createGoldModel("hybridqa", qs, index.db);
registerProvider("gold", () => gold);
for (const q of qs) {
  const r = await answerQuestion(
    { question: q.question, question_id: String(q.question_id), table_id: String(q.table_id) },
    { configurable: { indexPath: "/tmp/atr-bench-cascade/hybridqa-dev", backbone: "gold/m" } },
  );
  console.log(
    q.question_id,
    r.usage.llmCalls,
    JSON.stringify(r.answer),
    q.answer,
    r.trace.verifier_decisions
      .map(
        (d) =>
          `${d.sub_query.slice(0, 30)}|${d.requested_route}>${d.effective_route} v${d.verdict} ${String(d.reason).slice(0, 100)} sql=${(d.sql ?? "").slice(0, 80)}`,
      )
      .join("\n   "),
  );
}
index.close();
await closeResources();
