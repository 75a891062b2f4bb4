/**
 * The configuration fields as `atr` flags: one snake_case flag per field of graph/configuration.ts
 * (`--max_iter` → `maxIter`), its kind, help and shown default from the zod schema.
 */
import { z } from "zod";
import type { FlagSpec, FlagSpecs } from "./args.js";
import { ConfigurationSchema, FIELDS, type ConfigurableInput, type Configuration } from "../graph/configuration.js";

function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

/** snake_case CLI flag → camelCase configuration field, for every field. */
export const FLAG_TO_FIELD: Readonly<Record<string, keyof Configuration>> = Object.freeze(
  Object.fromEntries(FIELDS.map((f) => [toSnake(f), f])),
);

/** camelCase field → snake_case flag. */
export const FIELD_TO_FLAG: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(FIELDS.map((f) => [f, toSnake(f)])),
);

/** A field's schema without its optional/default wrappers. */
function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s._def.innerType;
  return s;
}

/** The default of a field as shown in help and the README ("" when none). */
export function defaultOf(field: keyof Configuration): string {
  if (field === "decomposerBackbone" || field === "verifierBackbone") return "= backbone";
  const schema = ConfigurationSchema.shape[field as keyof typeof ConfigurationSchema.shape];
  if (schema instanceof z.ZodDefault) return String(schema._def.defaultValue());
  return "";
}

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
