/** graph/resources: the configured reranker decides how the index is opened. */
import { afterAll, describe, expect, it } from "vitest";
import { FLAG_TO_FIELD } from "../../cli/config-flags.js";
import { ensureConfiguration } from "../../graph/configuration.js";
import { closeResources, getIndex } from "../../graph/resources.js";
import { useExampleIndex } from "../fixtures/example-index.js";
import { buildTinyCrossEncoder } from "../fixtures/tiny-models.js";

const built = useExampleIndex();
afterAll(() => closeResources());

describe("rerankerPath (--reranker_path)", () => {
  it("maps the reference flag onto the field", () => {
    expect(FLAG_TO_FIELD.reranker_path).toBe("rerankerPath");
  });

  it("opens the index with the local cross-encoder, separately from the default lexical one", async () => {
    const lexical = await getIndex(ensureConfiguration({ configurable: { indexPath: built.dir } }));
    const folder = buildTinyCrossEncoder(["founded"]); // scores only the token "founded"
    const crossEncoded = await getIndex(
      ensureConfiguration({ configurable: { indexPath: built.dir, rerankerPath: folder } }),
    );
    expect(crossEncoded).not.toBe(lexical);
    expect(await getIndex(ensureConfiguration({ configurable: { indexPath: built.dir, rerankerPath: folder } }))).toBe(
      crossEncoded,
    );
    expect((await lexical.search.schema("club", 1))[0]!.entry.column).toBe("Club");
    expect((await crossEncoded.search.schema("club", 1))[0]!.entry.column).toBe("Founded");
  });

  it("refuses a folder that holds no model, naming it", async () => {
    const missing = `${built.dir}-no-such-reranker`;
    await expect(
      getIndex(ensureConfiguration({ configurable: { indexPath: built.dir, rerankerPath: missing } })),
    ).rejects.toThrow(/no-such-reranker/);
  });
});
