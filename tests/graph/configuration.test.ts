import { describe, expect, it } from "vitest";
import { ConfigurationError, ensureConfiguration, effectiveMaxIter, maxAttempts } from "../../graph/configuration.js";
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

describe("ensureConfiguration remembers parsed configurations", () => {
  it("gives equal, independent configurations for the same values, and still refuses a bad value every time", () => {
    const a = ensureConfiguration({ configurable: { maxIter: 3, schemaTopK: 7 } });
    const b = ensureConfiguration({ configurable: { maxIter: 3, schemaTopK: 7, thread_id: "t" } });
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    a.maxIter = 9; // a caller changing its copy changes nobody else's
    expect(ensureConfiguration({ configurable: { maxIter: 3, schemaTopK: 7 } }).maxIter).toBe(3);
    expect(ensureConfiguration({ configurable: { maxIter: 4 } }).maxIter).toBe(4);
    for (let i = 0; i < 2; i++) expect(() => ensureConfiguration({ configurable: { maxIter: 0 } })).toThrow(/maxIter/);
    expect(() => ensureConfiguration({ configurable: { maxIter: Number.NaN } })).toThrow(/maxIter/);
  });

  it("gives the right configuration after its memo turned over (more distinct configurations than it holds)", () => {
    for (let k = 1; k <= 300; k++) expect(ensureConfiguration({ configurable: { cellTopK: k } }).cellTopK).toBe(k);
    expect(ensureConfiguration({ configurable: { cellTopK: 1 } }).cellTopK).toBe(1);
  });
});
