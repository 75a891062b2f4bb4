/**
 * `atr` — the command-line entry point. Each subcommand lives in cli/commands/<name>.ts and is
 * imported only when used, so `atr --help` stays fast and a command's heavy dependencies
 * (ONNX, LangChain providers) load only for that command.
 */
import { UsageError } from "./args.js";
import type { Command } from "./command.js";

/** Subcommands in the order `atr --help` lists them. */
export const COMMANDS = [
  "build-index",
  "inspect-index",
  "search",
  "ask",
  "run",
  "score",
  "report",
  "convert",
  "guard-check",
  "train-router",
  "train-verifier",
  "demo",
  "doctor",
] as const;

async function load(name: string): Promise<Command | undefined> {
  if (!(COMMANDS as readonly string[]).includes(name)) return undefined;
  try {
    const mod = (await import(`./commands/${name}.ts`)) as { command: Command };
    return mod.command;
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" &&
      String(error).includes(`commands/${name}`)
    ) {
      return undefined;
    }
    throw error;
  }
}

async function overview(): Promise<string> {
  const lines = [
    "atr — Agentic Routing for Retrieval-Augmented Table QA",
    "",
    "Usage: atr <command> [flags]",
    "",
    "Commands:",
  ];
  for (const name of COMMANDS) {
    const command = await load(name);
    if (command) lines.push(`  ${name.padEnd(15)} ${command.summary}`);
  }
  lines.push("", "Run `atr <command> --help` for a command's flags.");
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await overview());
    return name ? 0 : 1;
  }
  const command = await load(name);
  if (!command) {
    console.error(`atr: unknown command "${name}". Commands: ${COMMANDS.join(", ")}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.help());
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`atr ${name}: ${error.message}\nRun \`atr ${name} --help\` for usage.`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`atr ${name}: ${message}`);
    if (process.env.ATR_DEBUG) console.error(error);
    return 1;
  }
}
