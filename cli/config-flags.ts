/**
 * The configuration fields as `atr` flags: one snake_case flag per field of graph/configuration.ts
 * (`--max_iter` → `maxIter`), its kind and help from the zod schema.
 */
import { z } from "zod";
import type { FlagSpec, FlagSpecs } from "./args.js";
import {
  ConfigurationSchema,
  FIELDS,
  FLAG_TO_FIELD,
  FIELD_TO_FLAG,
  defaultOf,
  unwrap,
  type ConfigurableInput,
} from "../graph/configuration.js";

/**
 * Flag specs of every configuration field for cli/args.ts. No spec carries a `default`: an absent
 * flag stays absent so that `ensureConfiguration` alone fills defaults.
 */
export function configFlagSpecs(): FlagSpecs {
  const specs: FlagSpecs = {};
  for (const field of FIELDS) {
    const schema = ConfigurationSchema.shape[field];
    const inner = unwrap(schema);
    const kind: FlagSpec["kind"] =
      inner instanceof z.ZodBoolean ? "boolean" : inner instanceof z.ZodNumber ? "number" : "string";
    const def = defaultOf(field);
    const help = `${schema.description ?? field}${def && kind !== "boolean" ? ` (default ${def})` : ""}`;
    specs[FIELD_TO_FLAG[field]!] = { kind, help };
  }
  return specs;
}

/** Picks the configuration flags out of parsed CLI flags (snake_case) as a configurable object. */
export function configurableFromFlags(flags: Record<string, unknown>): ConfigurableInput {
  const out: Record<string, unknown> = {};
  for (const [flag, field] of Object.entries(FLAG_TO_FIELD)) {
    const value = flags[flag];
    if (value !== undefined) out[field] = value;
  }
  return out as ConfigurableInput;
}
