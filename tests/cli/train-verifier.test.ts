/**
 * The learned verifier's data path end to end, in-process: an exploration run over examples/
 * (`atr run --emit_trace --accept_threshold 1`: nothing accepted, every route tried, features traced),
 * `atr train-verifier` on it, and `--evaluate` with the written model.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES, useExampleIndex } from "../fixtures/example-index.js";
import { runCli } from "../fixtures/run-cli.js";

const index = useExampleIndex();

describe("atr train-verifier", () => {
  it("trains on an exploration run and reports the replayed run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-train-verifier-"));
    const ran = await runCli([
      "run",
      "--data_file_path",
      join(EXAMPLES, "questions.jsonl"),
      "--index_path",
      index.dir,
      "--save_file_path",
      join(dir, "explore.jsonl"),
      "--emit_trace",
      "--no_progress",
      "--accept_threshold",
      "1",
    ]);
    expect(ran.code).toBe(0);
    const run = join(
      dir,
      readdirSync(dir).find((f) => f.startsWith("explore"))!,
    );
    const records = readFileSync(run, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const decisions = records.flatMap((r) => r.atr_trace.verifier_decisions);
    expect(decisions.length).toBeGreaterThan(records.length * 2); // several routes per question
    expect(decisions.every((d) => d.verdict !== 1)).toBe(true); // threshold 1 accepts nothing
    expect(decisions.filter((d) => d.features).length).toBeGreaterThan(decisions.length / 2);

    const model = join(dir, "model.json");
    const data = `wtq=${join(EXAMPLES, "questions.jsonl")},${run}`;
    const trained = await runCli([
      "train-verifier",
      "--data",
      data,
      "--out",
      model,
      "--folds",
      "3",
      "--target_precision",
      "0.8",
    ]);
    expect(trained.code).toBe(0);
    expect(trained.out).toMatch(/wtq training data \(cv\)\s+21\s/);
    const m = JSON.parse(readFileSync(model, "utf8"));
    expect(m.format).toBe("atr-answer-verifier-v2");
    expect(m.scorer.kind).toBe("logistic");
    expect(m.calibration.x.length).toBe(m.calibration.y.length);
    expect(m.trainedOn.counts.wtq.questions).toBe(21);

    const evaluated = await runCli(["train-verifier", "--evaluate", data, "--model", model, "--json"]);
    expect(evaluated.code).toBe(0);
    const report = JSON.parse(evaluated.out);
    expect(report.threshold).toBe(m.threshold);
    expect(report.figures[0].figures.questions).toBe(21);
    expect(report.reliability[0].buckets.reduce((s: number, b: { n: number }) => s + b.n, 0)).toBeGreaterThan(10);
    expect(report.quality[0].quality.auc).toBeGreaterThan(0);

    const bad = await runCli(["train-verifier", "--data", data, "--out", model, "--scorer", "forest"]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/--scorer forest: expected trees or logistic/);
  }, 120_000);

  it("names a malformed --data value", async () => {
    const bad = await runCli(["train-verifier", "--data", "wtq:questions.jsonl"]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/--data wtq:questions\.jsonl: expected BENCH=QUESTIONS\.jsonl,RUN\.jsonl/);
    writeFileSync(join(tmpdir(), "atr-empty.jsonl"), "");
    const unknown = await runCli([
      "train-verifier",
      "--evaluate",
      `nope=${join(tmpdir(), "atr-empty.jsonl")},x`,
      "--model",
      "x",
    ]);
    expect(unknown.code).not.toBe(0);
  });
});
