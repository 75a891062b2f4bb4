/** `atr train-router labels → train → eval` on a small traced-run file written by the test. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { command } from "../../cli/commands/train-router.js";
import { UsageError } from "../../cli/args.js";
import { tinyLabels } from "./tiny-labels.js";
import { decisions, explorationRecord } from "./tiny-exploration.js";
import type { RouterLabel } from "../../training/labels.js";
import type { ReplayTally } from "../../training/route-replay.js";

const root = mkdtempSync(join(tmpdir(), "atr-train-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A results file as `atr run --emit_trace` writes it: each tiny label becomes one accepted decision. */
function tracedRun(): string {
  const lines = tinyLabels().map((l, i) =>
    JSON.stringify({
      question_id: `t${i}`,
      question: l.sub_query,
      agentic_tablerag_answer: "x",
      atr_trace: {
        question_id: `t${i}`,
        verifier_decisions: [
          {
            ...l,
            route: "TEXT",
            effective_route: "TEXT",
            requested_route: "TEXT",
            accepted: false,
            attempt: 1,
            verdict: 0,
          },
          { ...l, effective_route: l.route, requested_route: l.route, accepted: true, attempt: 2, verdict: 1 },
        ],
      },
    }),
  );
  const file = join(root, "run.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

describe("atr train-router", () => {
  it("labels --from_inference, train, eval", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const labels = join(root, "labels.jsonl");
      expect(await command.run(["labels", "--from_inference", tracedRun(), "--out", labels])).toBe(0);
      const written = readFileSync(labels, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { route: string });
      expect(written).toHaveLength(24); // one accepted decision per question; the rejected TEXT attempts are not labels
      const dir = join(root, "model");
      expect(
        await command.run([
          "train",
          "--labels",
          labels,
          "--out",
          dir,
          "--epochs",
          "40",
          "--validation_share",
          "0",
          "--dimension",
          "1024",
        ]),
      ).toBe(0);
      expect(existsSync(join(dir, "model.onnx")) && existsSync(join(dir, "router.json"))).toBe(true);
      log.mockClear();
      expect(await command.run(["eval", "--model", dir, "--labels", labels, "--json"])).toBe(0);
      const report = JSON.parse(String(log.mock.calls[0]![0])) as {
        labels: number;
        masked: { agreement: number; confusion: number[][] };
      };
      expect(report.labels).toBe(24);
      expect(report.masked.agreement).toBe(1);
      expect(report.masked.confusion.map((row, i) => row[i])).toEqual([6, 6, 6, 6]);
    } finally {
      log.mockRestore();
    }
  });

  it("refuses a missing subcommand, missing flags and --oracle / --explore / --replay without a gold benchmark", async () => {
    await expect(command.run([])).rejects.toThrow(UsageError);
    await expect(command.run(["train", "--out", root])).rejects.toThrow(/--labels is required/);
    await expect(command.run(["labels", "--oracle", "SQL=x.jsonl", "--out", join(root, "o.jsonl")])).rejects.toThrow(
      /--oracle, --explore and --replay need --gold_bench/,
    );
    await expect(command.run(["labels", "--explore", "x.jsonl", "--out", join(root, "o.jsonl")])).rejects.toThrow(
      /--oracle, --explore and --replay need --gold_bench/,
    );
    await expect(command.run(["labels", "--replay", "x.jsonl", "--out", join(root, "o.jsonl")])).rejects.toThrow(
      /--oracle, --explore and --replay need --gold_bench/,
    );
    await expect(
      command.run([
        "replay",
        "--model",
        root,
        "--explore",
        "x.jsonl",
        "--gold_bench",
        "wtq",
        "--heuristic_margin",
        "3",
      ]),
    ).rejects.toThrow(/--heuristic_margin must be a number in 0\.\.1/);
  });

  it("refuses a labels file whose label the student cannot learn from, naming the line", async () => {
    const [good, second] = tinyLabels();
    const file = join(root, "bad-labels.jsonl");
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify({ ...second, route: "TABLE" })}\n`);
    await expect(command.run(["train", "--labels", file, "--out", join(root, "bad-model")])).rejects.toThrow(
      `${file}:2: route "TABLE" is not one of`,
    );
    writeFileSync(file, `${JSON.stringify({ ...good, history_H: undefined })}\n`);
    await expect(command.run(["eval", "--labels", file, "--model", join(root, "bad-model")])).rejects.toThrow(
      `${file}:1: history_H is missing`,
    );
    expect(existsSync(join(root, "bad-model"))).toBe(false);
  });
});

describe("atr train-router labels --replay and replay", () => {
  it("labels an exploration run by replaying it, and compares the routers on it, with the shipped verifier", async () => {
    // every route that answers finds the gold answer: any order ends right
    const rows = decisions.map((d) => (d.produced_answer === "not found" ? d : { ...d, produced_answer: "Eastport" }));
    const run = join(root, "explore.jsonl");
    writeFileSync(run, `${JSON.stringify(explorationRecord("Eastport", rows))}\n`);
    const out = join(root, "replay-labels.jsonl");
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await command.run(["labels", "--replay", run, "--gold_bench", "wtq", "--out", out])).toBe(0);
      const [label] = readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as RouterLabel);
      expect(label!.label_source).toBe("execution_replay");
      expect(Object.keys(label!.replay!).sort()).toEqual(["HYBRID", "RETRIEVE", "SQL", "TEXT"]);
      expect(Object.values(label!.replay!).every((o) => o.right)).toBe(true);
      const model = join(import.meta.dirname, "../../training/models/routes-replay");
      log.mockClear();
      expect(await command.run(["replay", "--model", model, "--explore", run, "--gold_bench", "wtq", "--json"])).toBe(
        0,
      );
      const tallies = JSON.parse(String(log.mock.calls[0]![0])) as Record<string, ReplayTally>;
      expect(tallies.all).toMatchObject({ questions: 1, heuristic: 1, student: 1, better: 0, worse: 0 });
    } finally {
      log.mockRestore();
    }
  });
});
