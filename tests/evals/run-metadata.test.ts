import { describe, expect, it } from "vitest";
import {
  ablationTags,
  configHash,
  questionRunOptions,
  tracingEnabled,
  type ExperimentInfo,
} from "../../evals/run-metadata.js";
import { datasetOf } from "../../evals/dataset.js";

describe("run metadata for LangSmith experiments", () => {
  it("hashes the behaviour, not the key order or where files are", () => {
    const a = configHash({ maxIter: 5, backbone: "offline", indexPath: "/tmp/a" });
    expect(configHash({ backbone: "offline", maxIter: 5, indexPath: "/data/b" })).toBe(a);
    expect(configHash({ backbone: "offline", maxIter: 3, indexPath: "/tmp/a" })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{12}$/);
  });

  it("tags every switch that differs from its default", () => {
    const defaults = { maxIter: 5, noValueLinker: false, backbone: "offline", indexPath: "" };
    expect(ablationTags({ maxIter: 3, noValueLinker: true, backbone: "offline", indexPath: "/x" }, defaults)).toEqual([
      "maxIter=3",
      "noValueLinker",
    ]);
  });

  it("gives each question the experiment's run name, tags and metadata plus its own ids", () => {
    const info: ExperimentInfo = {
      experiment: "wtq-dev-abc",
      dataset: "wtq",
      split: "dev",
      config: { maxIter: 3 },
      configHash: "abc",
      promptVersions: { prompts: "p1" },
      git: { commit: "deadbeef", dirty: false },
      tags: ["atr", "exp:wtq-dev-abc"],
    };
    const opts = questionRunOptions(info, { question_id: "ns-1", table_id: "204_602", question: "q" });
    expect(opts.runName).toBe("atr:wtq:dev");
    expect(opts.tags).toContain("exp:wtq-dev-abc");
    expect(opts.metadata).toMatchObject({
      experiment: "wtq-dev-abc",
      dataset: "wtq",
      split: "dev",
      config: { maxIter: 3 },
      config_hash: "abc",
      prompt_versions: { prompts: "p1" },
      git_commit: "deadbeef",
      question_id: "ns-1",
      table_id: "204_602",
    });
  });

  it("reads tracing switches and dataset/split names", () => {
    expect(tracingEnabled({ LANGSMITH_TRACING: "true" })).toBe(true);
    expect(tracingEnabled({ LANGCHAIN_TRACING_V2: "true" })).toBe(true);
    expect(tracingEnabled({})).toBe(false);
    expect(datasetOf("../shared/data/tatqa/dev/questions.jsonl")).toEqual({ dataset: "tatqa", split: "dev" });
    expect(datasetOf("examples/questions.jsonl")).toEqual({ dataset: "examples", split: "" });
    expect(datasetOf("/x/my_set.json")).toEqual({ dataset: "my_set", split: "" });
  });
});
