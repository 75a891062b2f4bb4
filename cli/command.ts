/** The shape of one `atr` subcommand module in cli/commands/<name>.ts. */
export interface Command {
  /** One line for `atr --help`. */
  summary: string;
  /** Full text for `atr <name> --help`: usage line, flags, examples. */
  help(): string;
  /** Runs the command; returns the process exit code. */
  run(argv: string[]): Promise<number>;
}
