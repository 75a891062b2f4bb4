/** cli/config-flags.ts: one snake_case flag per configuration field, parsed into a configurable. */
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../cli/args.js";
import { configFlagSpecs, configurableFromFlags, FLAG_TO_FIELD } from "../../cli/config-flags.js";
import { ConfigurationSchema, ensureConfiguration } from "../../graph/configuration.js";

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
