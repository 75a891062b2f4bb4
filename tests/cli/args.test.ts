import { describe, expect, it } from "vitest";
import { parseArgs, UsageError, type FlagSpecs } from "../../cli/args.js";
import { main } from "../../cli/atr.js";

const specs: FlagSpecs = {
  index_path: { kind: "string", help: "index directory" },
  max_iter: { kind: "number", help: "iterations", default: 5 },
  emit_trace: { kind: "boolean", help: "write the trace" },
  column: { kind: "string", help: "a column", repeatable: true },
};

describe("parseArgs", () => {
  it("reads values, defaults, booleans, = forms and positionals", () => {
    const { flags, positionals } = parseArgs(
      ["--index_path", "out/idx", "Who won?", "--emit_trace", "--max-iter=3", "--column", "a", "--column=b"],
      specs,
    );
    expect(flags).toEqual({ index_path: "out/idx", max_iter: 3, emit_trace: true, column: ["a", "b"] });
    expect(positionals).toEqual(["Who won?"]);
  });

  it("keeps defaults when a flag is absent", () => {
    expect(parseArgs([], specs).flags.max_iter).toBe(5);
  });

  it("refuses unknown flags, naming the flag and the accepted ones", () => {
    expect(() => parseArgs(["--max_iters", "3"], specs)).toThrow(UsageError);
    expect(() => parseArgs(["--max_iters", "3"], specs)).toThrow(/unknown flag --max_iters.*--max_iter/);
  });

  it("refuses a non-number for a number flag and a missing value", () => {
    expect(() => parseArgs(["--max_iter", "five"], specs)).toThrow(/takes a number, not "five"/);
    expect(() => parseArgs(["--index_path"], specs)).toThrow(/needs a value/);
    expect(() => parseArgs(["--emit_trace=maybe"], specs)).toThrow(/true or false/);
  });
});

describe("atr dispatcher", () => {
  it("answers an unknown command with exit code 2", async () => {
    expect(await main(["frobnicate"])).toBe(2);
  });
});
