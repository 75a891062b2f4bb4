/**
 * A small, strict flag parser shared by every `atr` subcommand.
 *
 * Flags are `--snake_case value`, `--snake_case=value`, or bare `--flag` for booleans. Unlike the
 * published Python CLI (which silently ignored unknown flags), an unknown flag is an error that names
 * the flag and lists the ones the command accepts.
 */

export type FlagKind = "string" | "number" | "boolean";

export interface FlagSpec {
  kind: FlagKind;
  /** One line for --help. */
  help: string;
  /** Default shown in --help and returned when the flag is absent. */
  default?: string | number | boolean;
  /** May be given several times; values are collected into an array of strings. */
  repeatable?: boolean;
}

export type FlagSpecs = Record<string, FlagSpec>;

export interface ParsedArgs {
  flags: Record<string, string | number | boolean | string[] | undefined>;
  positionals: string[];
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function parseArgs(argv: string[], specs: FlagSpecs): ParsedArgs {
  const flags: ParsedArgs["flags"] = {};
  const positionals: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.default !== undefined) flags[name] = spec.default;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq >= 0 ? arg.slice(2, eq) : arg.slice(2)).replace(/-/g, "_");
    const spec = specs[name];
    if (!spec) {
      const known = Object.keys(specs)
        .map((k) => `--${k}`)
        .join(", ");
      throw new UsageError(`unknown flag --${name}. Accepted flags: ${known || "(none)"}`);
    }
    let raw: string | undefined = eq >= 0 ? arg.slice(eq + 1) : undefined;
    if (spec.kind === "boolean") {
      if (raw === undefined) flags[name] = true;
      else if (/^(true|1|yes)$/i.test(raw)) flags[name] = true;
      else if (/^(false|0|no)$/i.test(raw)) flags[name] = false;
      else throw new UsageError(`--${name} takes true or false, not "${raw}"`);
      continue;
    }
    if (raw === undefined) {
      raw = argv[++i];
      if (raw === undefined) throw new UsageError(`--${name} needs a value`);
    }
    let value: string | number = raw;
    if (spec.kind === "number") {
      value = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(value)) {
        throw new UsageError(`--${name} takes a number, not "${raw}"`);
      }
    }
    if (spec.repeatable) {
      const prev = flags[name];
      flags[name] = [...(Array.isArray(prev) ? prev : []), String(value)];
    } else {
      flags[name] = value;
    }
  }
  return { flags, positionals };
}

export function formatFlagHelp(specs: FlagSpecs): string {
  const lines = Object.entries(specs).map(([name, spec]) => {
    const value = spec.kind === "boolean" ? "" : spec.kind === "number" ? " N" : " VALUE";
    const def = spec.default !== undefined && spec.kind !== "boolean" ? ` (default ${spec.default})` : "";
    return `  --${name}${value}`.padEnd(34) + ` ${spec.help}${def}`;
  });
  return lines.join("\n");
}
