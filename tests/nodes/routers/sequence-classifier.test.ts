/**
 * The paper's router format: a BERT/DistilBERT sequence classifier in the transformers.js layout,
 * built by the test (tests/fixtures/tiny-models.ts: logits = mean of per-word logits). It loads, reads
 * the v1 input (H ignored) or the v2 input (H changes the ranking), truncates at router_max_length,
 * refuses checkpoints the reference refuses, and routes through the graph with failed routes masked.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectRoute, type RouterInput } from "../../../nodes/routers/index.js";
import { createLearnedRouter } from "../../../nodes/routers/learned.js";
import { createSequenceClassifierRouter } from "../../../nodes/routers/sequence-classifier.js";
import type { Strategies } from "../../../nodes/strategies.js";
import { askScripted, useExampleIndex } from "../../fixtures/example-index.js";
import { ScriptedChatModel, reply } from "../../fixtures/scripted-model.js";
import { buildTinySequenceRouter } from "../../fixtures/tiny-models.js";
import { failedAt, label, SCHEMA } from "../../training/tiny-labels.js";
import { labelPlan } from "../../../training/labels.js";

const index = useExampleIndex();

const COUNT_Q = "how many clubs were founded";
const inputOf = (l: ReturnType<typeof label>, history = l.history_H): RouterInput => ({
  plan: labelPlan(l),
  schema: l.schema,
  history,
  failureScope: "question",
  reselectIndex: 0,
});
// "count" says SQL, "lookup" says HYBRID, "passage" and the text modality say TEXT; in a v2 input a
// failed HYBRID attempt puts the word "hybrid" in [FAILED], which says RETRIEVE.
const WORDS: Record<string, [number, number, number, number]> = {
  count: [0, 30, 0, 10],
  lookup: [0, 5, 10, 30],
  passage: [30, 0, 5, 0],
  text: [20, 10, 0, 0],
  hybrid: [0, 0, 90, 0],
};

describe("BERT/DistilBERT sequence-classifier router", () => {
  it("v1 (no router_input_version, as the released checkpoint): routes by the input text, ignores H, masks failed routes", async () => {
    const dir = buildTinySequenceRouter({ wordLogits: WORDS, modelType: "distilbert" });
    const router = await createLearnedRouter(dir);
    expect((router as { settings?: unknown }).settings).toEqual({
      modelType: "distilbert",
      inputVersion: 1,
      maxLength: 256,
    });
    const count = label("SQL", COUNT_Q, { expected_operator: "count", required_modalities: "table" });
    expect((await router.rank(inputOf(count)))[0]).toBe("SQL");
    const lookup = label("HYBRID", "which club", { entity_mentions: ["Dunmere FC"], required_modalities: "table" });
    expect(await router.rank(inputOf(lookup))).toEqual(["HYBRID", "RETRIEVE", "SQL", "TEXT"]);
    expect(await router.rank(inputOf(lookup, [failedAt("which club", "HYBRID")]))).toEqual([
      "HYBRID",
      "RETRIEVE",
      "SQL",
      "TEXT",
    ]);
    const passage = label("TEXT", "which passage names the club", {
      required_modalities: "text",
      schema: null,
      has_schema: false,
    });
    expect((await router.rank(inputOf(passage)))[0]).toBe("TEXT");

    // selectRoute (what the route node calls) walks the ranking past the failed routes.
    const settings = { routerType: "learned" as const, routerModelPath: dir };
    const none = {} as Strategies;
    expect(await selectRoute(inputOf(lookup), settings, none)).toBe("HYBRID");
    expect(
      await selectRoute(
        { ...inputOf(lookup, [failedAt("which club", "HYBRID")]), currentRoute: "HYBRID" },
        settings,
        none,
      ),
    ).toBe("RETRIEVE");
    const allButText = (["HYBRID", "RETRIEVE", "SQL"] as const).map((r, i) => failedAt("which club", r, i + 1));
    expect(await selectRoute(inputOf(lookup, allButText), settings, none)).toBe("TEXT");
    rmSync(dirname(dir), { recursive: true, force: true });
  });

  it("v2 (BERT, token_type_ids): the failure history is in the input; router_max_length truncates it away", async () => {
    const dir = buildTinySequenceRouter({ wordLogits: WORDS, modelType: "bert", inputVersion: 2 });
    const router = await createSequenceClassifierRouter(dir);
    expect(router.settings).toEqual({ modelType: "bert", inputVersion: 2, maxLength: 256 });
    const lookup = label("HYBRID", "which club", {
      entity_mentions: ["Dunmere FC"],
      required_modalities: "table",
      schema: SCHEMA,
    });
    expect((await router.rank(inputOf(lookup)))[0]).toBe("HYBRID");
    expect((await router.rank(inputOf(lookup, [failedAt("which club", "HYBRID")])))[0]).toBe("RETRIEVE");

    // 16 tokens keep [QUERY] … [OP] lookup but cut [FAILED]: H no longer changes the ranking.
    const short = await createSequenceClassifierRouter(
      buildTinySequenceRouter({ wordLogits: WORDS, modelType: "bert", inputVersion: 2, routerMaxLength: 16 }),
    );
    expect((await short.rank(inputOf(lookup, [failedAt("which club", "HYBRID")])))[0]).toBe("HYBRID");
    rmSync(dirname(dir), { recursive: true, force: true });
  });

  it("refuses checkpoints the reference refuses, naming config.json and the field", async () => {
    const bad = async (options: Parameters<typeof buildTinySequenceRouter>[0], message: RegExp) => {
      const dir = buildTinySequenceRouter(options);
      await expect(createLearnedRouter(dir)).rejects.toThrow(message);
      rmSync(dirname(dir), { recursive: true, force: true });
    };
    await bad(
      { wordLogits: WORDS, id2label: { 0: "TEXT", 1: "RETRIEVE", 2: "SQL", 3: "HYBRID" } },
      /config\.json: field "id2label" must map exactly 0=TEXT, 1=SQL, 2=RETRIEVE, 3=HYBRID/,
    );
    await bad({ wordLogits: WORDS, id2label: { 0: "LABEL_0", 1: "LABEL_1" } }, /field "id2label"/);
    await bad({ wordLogits: WORDS, inputVersion: 3 as 2 }, /field "router_input_version" must be 1 or 2/);
    await bad(
      { wordLogits: WORDS, routerMaxLength: 1024 },
      /field "router_max_length" must be a positive integer ≤ max_position_embeddings 512/,
    );
    const three = await createLearnedRouter(buildTinySequenceRouter({ wordLogits: WORDS, classes: 3 }));
    await expect(three.rank(inputOf(label("SQL", COUNT_Q)))).rejects.toThrow(
      /says 4 classes, but the ONNX model gives 3 logits/,
    );
    const noTokenizer = buildTinySequenceRouter({ wordLogits: WORDS });
    rmSync(join(noTokenizer, "tokenizer.json"));
    await expect(createLearnedRouter(noTokenizer)).rejects.toThrow(/lacks tokenizer\.json/);
  });

  it("routes through the graph: the classifier's route first, the next one after the verifier rejects it", async () => {
    // The text modality says TEXT, then SQL.
    const dir = buildTinySequenceRouter({ wordLogits: { text: [30, 20, 0, 0] } });
    const Q = "Who manages Dunmere FC?";
    const model = new ScriptedChatModel([
      reply.decompose(Q, { required_modalities: "text" }),
      reply.text("Tomas Reyes"),
      reply.verify(0),
      reply.sql("SELECT manager FROM clubs WHERE club = 'Dunmere FC'"),
      reply.verify(1),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: Q, table_id: "clubs" },
      { routerType: "learned", routerModelPath: dir },
    );
    expect(r.routes).toEqual([{ subQuery: Q, requested: ["TEXT", "SQL"], effective: ["TEXT", "SQL"] }]);
    expect(r.answer).toBe("Oskar Lind");
    expect(model.callsOf("choose_route")).toHaveLength(0);
    rmSync(dirname(dir), { recursive: true, force: true });
  });
});
