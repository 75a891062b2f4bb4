import { describe, expect, it } from "vitest";
import { parseArgs } from "../../cli/args.js";
import { configFlagSpecs, configurableFromFlags } from "../../cli/config-flags.js";
import {
  ConfigurationError,
  ConfigurationSchema,
  FLAG_TO_FIELD,
  ensureConfiguration,
  effectiveMaxIter,
  maxAttempts,
} from "../../graph/configuration.js";
import { DEFAULT_SQL_TIMEOUT_MS } from "../../retrievers/sql-executor.js";

describe("ensureConfiguration", () => {
  it("fills the reference defaults", () => {
    const c = ensureConfiguration({});
    expect(c).toMatchObject({
      backbone: "offline",
      decomposerBackbone: "offline",
      verifierBackbone: "offline",
      routerType: "heuristic",
      maxIter: 5,
      verifierThreshold: 0.1,
      schemaTopK: 5,
      cellTopK: 15,
      rowTopK: 10,
      rerankCandidateMultiplier: 6,
      failureScope: "question",
      noEscalation: false,
      finalSynthesis: false,
      sqlTimeoutMs: 10_000,
    });
    // One default per setting: the executor opened without a limit uses the configuration's.
    expect(c.sqlTimeoutMs).toBe(DEFAULT_SQL_TIMEOUT_MS);
    expect(maxAttempts(c)).toBe(4);
    expect(effectiveMaxIter(c)).toBe(5);
  });

  it("lets decomposer/verifier backbones default to the backbone but be overridden", () => {
    const c = ensureConfiguration({ configurable: { backbone: "openai/x", verifierBackbone: "ollama/y" } });
    expect(c.decomposerBackbone).toBe("openai/x");
    expect(c.verifierBackbone).toBe("ollama/y");
  });

  it("ignores non-configuration keys and merges LangGraph context over configurable", () => {
    const c = ensureConfiguration({ configurable: { thread_id: "t", maxIter: 3 }, context: { maxIter: 2 } });
    expect(c.maxIter).toBe(2);
  });

  it("derives loop bounds from ablation switches", () => {
    const c = ensureConfiguration({ configurable: { noEscalation: true, noDecomposition: true } });
    expect(maxAttempts(c)).toBe(1);
    expect(effectiveMaxIter(c)).toBe(1);
  });

  it("rejects wrong values with the field name", () => {
    expect(() => ensureConfiguration({ configurable: { maxIter: 0 } })).toThrow(/maxIter/);
    expect(() => ensureConfiguration({ configurable: { routerType: "magic" } })).toThrow(ConfigurationError);
    expect(() => ensureConfiguration({ configurable: { routerType: "fixed" } })).toThrow(/forceRoute/);
  });
});

describe("CLI flags", () => {
  it("maps every snake_case flag to one field", () => {
    const fields = Object.keys(ConfigurationSchema.shape);
    expect(Object.values(FLAG_TO_FIELD).sort()).toEqual([...fields].sort());
    expect(FLAG_TO_FIELD.max_iter).toBe("maxIter");
    expect(FLAG_TO_FIELD.no_reranker).toBe("noReranker");
    expect(FLAG_TO_FIELD.index_path).toBe("indexPath");
  });

  it("parses graph flags into a configurable that ensureConfiguration accepts", () => {
    const { flags } = parseArgs(
      [
        "--max_iter",
        "3",
        "--no_value_linker",
        "--router_type=fixed",
        "--force_route",
        "SQL",
        "--failure_scope",
        "subquery",
      ],
      configFlagSpecs(),
    );
    const configurable = configurableFromFlags(flags);
    expect(configurable).toEqual({
      maxIter: 3,
      noValueLinker: true,
      routerType: "fixed",
      forceRoute: "SQL",
      failureScope: "subquery",
    });
    const c = ensureConfiguration({ configurable });
    expect(c.maxIter).toBe(3);
    expect(c.cellTopK).toBe(15);
  });

  it("does not put defaults into the flag specs (absent flags stay absent)", () => {
    const { flags } = parseArgs([], configFlagSpecs());
    expect(configurableFromFlags(flags)).toEqual({});
    expect(configFlagSpecs().max_iter!.help).toContain("default 5");
  });
});
