/**
 * Router decision latency: `selectRoute` (what the route node calls: the policy, then the failed-route
 * mask) over a fixed set of router inputs (first attempts and re-selections, v2 text with schema and
 * H), for the heuristic router, the committed hashed logistic-regression student and a
 * DistilBERT-format sequence classifier.
 *
 *   npm run bench:router [-- --model DIR] [--bert DIR] [--decisions N] [--bert_decisions N] [--bert_thread]
 *
 * --model: a student folder (default training/models/routes-replay); the plans carry the offline
 * analysis, so a plan-token student (training/models/routes-plan) pays for its tokens too. --bert: a transformers.js
 * sequence-classifier folder (e.g. the converted released checkpoint, docs/ROUTER.md). Without
 * --bert the script builds, in a temporary folder, a DistilBERT-shaped checkpoint with random
 * weights (6 layers, hidden 768, 12 heads, FFN 3072: the base model's compute) whose WordPiece
 * vocabulary holds the inputs' words, so the forward pass costs what the real one costs on the
 * same number of tokens; its routes mean nothing. --bert_thread: the DistilBERT decisions again on a
 * worker thread (onnxruntime-web's WebAssembly build there, not onnxruntime-node), and whether its
 * rankings of the inputs equal this thread's. Wall-clock percentiles suffer on a loaded
 * machine; the CPU time per decision (all threads of this process) does much less.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import onnxProto from "onnx-proto";
import type { TableSchema } from "../indexing/types.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { learnedInputText } from "../nodes/routers/features.js";
import { selectRoute, type RouterInput, type RouterSettings } from "../nodes/routers/index.js";
import { createSequenceClassifierRouter } from "../nodes/routers/sequence-classifier.js";
import type { Strategies } from "../nodes/strategies.js";
import type { FailedRouteRecord, Route, SubQueryPlan } from "../nodes/types.js";
import { writeFolder } from "../tests/fixtures/tiny-models.js";

const { onnx } = onnxProto;
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const modelDir = flag("model") ?? join(import.meta.dirname, "../training/models/routes-replay");
const decisions = Number(flag("decisions") ?? 5000);
const bertDecisions = Number(flag("bert_decisions") ?? 200);

const schema: TableSchema = {
  tableId: "league_results",
  physical: "league_results",
  file: "league_results.csv",
  rowCount: 40,
  columns: ["Season", "Club", "Points", "Goals for", "Goals against", "Manager", "Stadium", "Notes"].map((name, i) => ({
    name,
    physical: name.toLowerCase().replace(/ /g, "_"),
    rawPhysical: `${name.toLowerCase().replace(/ /g, "_")}__raw`,
    type: i === 0 || i === 2 || i === 3 || i === 4 ? "integer" : "text",
    examples: i === 1 ? ["Ashford Rovers", "Dunmere FC", "Fenwick City"] : i === 0 ? ["1998", "1999", "2000"] : [],
  })),
};
const plan = (
  subQuery: string,
  expectedOperator: SubQueryPlan["expectedOperator"],
  requiredModalities: SubQueryPlan["requiredModalities"],
  entityMentions: string[],
): SubQueryPlan => ({
  subQuery,
  expectedOperator,
  requiredModalities,
  entityMentions,
  needGlobalTableView: false,
  uncertainty: 0.35,
  // The offline analysis the decomposer carries (a plan-token student reads it: nodes/routers/plan-features.ts).
  analysis: analyzeQuestion(subQuery, { hasPassages: true }) as unknown as Record<string, unknown>,
});
const plans = [
  plan("How many seasons did Dunmere FC finish with more than 60 points?", "count", "table", ["Dunmere FC"]),
  plan("Which club scored the most goals in the 1999 season?", "sort", "table", ["1999"]),
  plan("Who was the manager of Ashford Rovers when they won the league?", "lookup", "both", ["Ashford Rovers"]),
  plan("In which year was the stadium of Fenwick City opened?", "lookup", "text", ["Fenwick City"]),
  plan("What is the total number of goals against over all seasons?", "aggregate", "table", []),
  plan("What did the club's annual report say about its revenue growth?", "lookup", "text", []),
];
const failure = (subQuery: string, route: Route, step: number): FailedRouteRecord => ({
  subQuery,
  requestedRoute: route,
  effectiveRoute: route,
  valueLinkerAttempted: route !== "TEXT",
  verdict: 0,
  step,
});
const inputs: RouterInput[] = plans.flatMap((p) => [
  { plan: p, schema, history: [], failureScope: "question" as const, reselectIndex: 0 },
  { plan: p, schema: null, history: [], failureScope: "question" as const, reselectIndex: 0 },
  {
    plan: p,
    schema,
    history: [failure(p.subQuery, "HYBRID", 1)],
    failureScope: "question" as const,
    currentRoute: "HYBRID" as Route,
    reselectIndex: 0,
  },
  {
    plan: p,
    schema,
    history: [failure(p.subQuery, "HYBRID", 1), failure(p.subQuery, "SQL", 2)],
    failureScope: "question" as const,
    currentRoute: "SQL" as Route,
    reselectIndex: 1,
  },
]);
const noStrategies = {} as Strategies;

async function bench(name: string, settings: RouterSettings, n: number): Promise<void> {
  for (let i = 0; i < Math.min(100, n); i++) await selectRoute(inputs[i % inputs.length]!, settings, noStrategies); // load + warm up
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await selectRoute(inputs[i % inputs.length]!, settings, noStrategies);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / n; // all threads of the process: robust to a loaded machine
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `${name.padEnd(44)} ${String(n).padStart(6)} decisions  mean ${mean.toFixed(3)} ms  p50 ${q(0.5)}  p95 ${q(0.95)}  p99 ${q(0.99)}  cpu ${cpuMs.toFixed(3)} ms/decision`,
  );
}

/** A DistilBERT-shaped encoder (random weights) + 4-class head, opset 17, inputs input_ids + attention_mask. */
function distilbertShaped(vocabSize: number, layers = 6, hidden = 768, heads = 12, ffn = 3072): Uint8Array {
  let seed = 42;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5) * 0.04;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const init: unknown[] = [];
  const weight = (name: string, dims: number[]) => {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < values.length; i++) values[i] = random();
    init.push({ name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer) });
    return name;
  };
  const ones = (name: string, n: number, v: number) => {
    init.push({ name, dims: [n], dataType: FLOAT, floatData: Array.from({ length: n }, () => v) });
    return name;
  };
  const ints = (name: string, values: number[]) => {
    init.push({ name, dims: [values.length], dataType: INT64, int64Data: values });
    return name;
  };
  const A = onnx.AttributeProto.AttributeType;
  const nodes: unknown[] = [];
  const node = (opType: string, input: string[], output: string, attribute: unknown[] = []) => {
    nodes.push({ opType, input, output: [output], attribute });
    return output;
  };
  const ln = (x: string, id: string) =>
    node("LayerNormalization", [x, ones(`${id}_g`, hidden, 1), ones(`${id}_b`, hidden, 0)], `${id}_out`, [
      { name: "axis", i: -1, type: A.INT },
    ]);
  const headShape = ints("head_shape", [0, 0, heads, hidden / heads]);
  const flatShape = ints("flat_shape", [0, 0, hidden]);
  const scale = ones("scale", 1, 1 / Math.sqrt(hidden / heads));
  let x = ln(
    node("Gather", [weight("word_embeddings", [vocabSize, hidden]), "input_ids"], "emb", [
      { name: "axis", i: 0, type: A.INT },
    ]),
    "emb_ln",
  );
  for (let l = 0; l < layers; l++) {
    const split = (w: string) =>
      node(
        "Transpose",
        [
          node(
            "Reshape",
            [node("MatMul", [x, weight(`l${l}_${w}`, [hidden, hidden])], `l${l}_${w}_p`), headShape],
            `l${l}_${w}_h`,
          ),
        ],
        `l${l}_${w}_t`,
        [{ name: "perm", ints: [0, 2, 1, 3], type: A.INTS }],
      );
    const q = split("q");
    const k = node("Transpose", [split("k")], `l${l}_kT`, [{ name: "perm", ints: [0, 1, 3, 2], type: A.INTS }]);
    const v = split("v");
    const probs = node("Softmax", [node("Mul", [node("MatMul", [q, k], `l${l}_qk`), scale], `l${l}_qks`)], `l${l}_p`, [
      { name: "axis", i: -1, type: A.INT },
    ]);
    const ctx = node(
      "Reshape",
      [
        node("Transpose", [node("MatMul", [probs, v], `l${l}_ctx`)], `l${l}_ctxT`, [
          { name: "perm", ints: [0, 2, 1, 3], type: A.INTS },
        ]),
        flatShape,
      ],
      `l${l}_ctxF`,
    );
    const attn = ln(
      node("Add", [x, node("MatMul", [ctx, weight(`l${l}_o`, [hidden, hidden])], `l${l}_o_p`)], `l${l}_res1`),
      `l${l}_ln1`,
    );
    const up = node("MatMul", [attn, weight(`l${l}_up`, [hidden, ffn])], `l${l}_up_p`);
    const act = node(
      "Mul",
      [up, node("Sigmoid", [node("Mul", [up, ones(`l${l}_gelu`, 1, 1.702)], `l${l}_g1`)], `l${l}_g2`)],
      `l${l}_act`,
    );
    x = ln(
      node("Add", [attn, node("MatMul", [act, weight(`l${l}_down`, [ffn, hidden])], `l${l}_down_p`)], `l${l}_res2`),
      `l${l}_ln2`,
    );
  }
  const cls = node("Gather", [x, ints("zero", [0])], "cls3", [{ name: "axis", i: 1, type: A.INT }]);
  const pre = node(
    "Relu",
    [
      node(
        "MatMul",
        [node("Squeeze", [cls, ints("one", [1])], "cls"), weight("pre_classifier", [hidden, hidden])],
        "pre",
      ),
    ],
    "pre_relu",
  );
  node("MatMul", [pre, weight("classifier", [hidden, 4])], "logits");
  const io = (name: string, elemType: number, dims: Array<string | number>) => ({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "atr-ts bench-router",
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: "distilbert_shaped",
      node: nodes,
      initializer: init,
      input: [io("input_ids", INT64, ["batch", "seq"]), io("attention_mask", INT64, ["batch", "seq"])],
      output: [io("logits", FLOAT, ["batch", 4])],
    } as never,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A worker thread's first module: registers tsx, then imports workerData.entry (this file). */
const BOOT = fileURLToPath(new URL("../evals/answer-worker-boot.js", import.meta.url));

/** The sequence classifier's ranking of every input (the routes by descending logit). */
async function rankings(dir: string): Promise<Route[][]> {
  const router = await createSequenceClassifierRouter(dir);
  const out: Route[][] = [];
  for (const input of inputs) out.push(await router.rank(input));
  return out;
}

if (!isMainThread) {
  // --bert_thread's worker: the DistilBERT decisions timed here, the rankings sent back.
  const { bertDir, n } = workerData as { bertDir: string; n: number };
  await bench("learned, DistilBERT format, on a worker thread", { routerType: "learned", routerModelPath: bertDir }, n);
  parentPort!.postMessage(await rankings(bertDir));
} else {
  console.log(`router decision latency (selectRoute), ${inputs.length} distinct inputs, node ${process.version}`);
  await bench("heuristic", { routerType: "heuristic" }, decisions);
  await bench(
    `learned, hashed logreg (${modelDir.split("/").slice(-2).join("/")})`,
    { routerType: "learned", routerModelPath: modelDir },
    decisions,
  );
  let bertDir = flag("bert");
  let temp: string | undefined;
  if (!bertDir) {
    temp = mkdtempSync(join(tmpdir(), "atr-bench-router-"));
    const words = new Set<string>();
    for (const input of inputs)
      for (const w of learnedInputText(input, 2)
        .toLowerCase()
        .match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [])
        words.add(w);
    const vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ...words];
    const id2label = { "0": "TEXT", "1": "SQL", "2": "RETRIEVE", "3": "HYBRID" };
    bertDir = writeFolder(
      join(temp, "distilbert-shaped"),
      {
        model_type: "distilbert",
        architectures: ["DistilBertForSequenceClassification"],
        vocab_size: vocab.length,
        max_position_embeddings: 512,
        id2label,
        label2id: { TEXT: 0, SQL: 1, RETRIEVE: 2, HYBRID: 3 },
        router_input_version: 2,
        router_max_length: 256,
      },
      distilbertShaped(vocab.length),
      vocab,
    );
  }
  await bench(
    `learned, DistilBERT format${temp ? " (base-size, random weights)" : ` (${bertDir})`}`,
    { routerType: "learned", routerModelPath: bertDir },
    bertDecisions,
  );
  if (args.includes("--bert_thread")) {
    // The same decisions on a worker thread (where transformers.js runs onnxruntime-web's WebAssembly
    // build: indexing/embeddings/transformers.ts), and whether it ranks every input as this thread does.
    const here = await rankings(bertDir);
    const there = await new Promise<Route[][]>((resolve, reject) => {
      const worker = new Worker(BOOT, {
        workerData: { entry: fileURLToPath(import.meta.url), bertDir, n: bertDecisions },
      });
      worker.once("message", resolve).once("error", reject);
    });
    const same = here.filter((r, i) => r.join() === there[i]!.join()).length;
    console.log(`worker thread's rankings = main thread's on ${same} of ${here.length} inputs`);
  }
  if (temp) rmSync(temp, { recursive: true, force: true });
}
