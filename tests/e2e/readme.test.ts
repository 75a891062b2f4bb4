/**
 * The README is a user guide that works: short enough to read (≤ 400 lines), every file it links
 * to exists, and its quick start — the `node bin/atr.js` commands as written, with `out/` moved to a
 * temporary directory — runs and prints what the README shows for `ask`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeResources } from "../../graph/resources.js";
import { runCli } from "../fixtures/run-cli.js";

const ROOT = resolve(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
/** Links allowed to point at a file that does not exist yet (none now). */
const PENDING = new Set<string>();

/** The fenced blocks of the section under `heading`, in order. */
function blocks(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`README has no section "## ${heading}"`);
  const end = README.indexOf("\n## ", start + 4);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Splits a command line into argv, honouring double quotes. */
function argvOf(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("README", () => {
  const dir = mkdtempSync(join(tmpdir(), "atr-readme-"));
  afterAll(async () => {
    await closeResources();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is at most 400 lines", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(400);
  });

  it("links only to files that exist", () => {
    const targets = [...README.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) if (!PENDING.has(target)) expect(existsSync(join(ROOT, target)), target).toBe(true);
    for (const doc of targets.filter((t) => t.startsWith("docs/") && !PENDING.has(t))) {
      // links between the docs resolve too
      const text = readFileSync(join(ROOT, doc), "utf8");
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1]!) || PENDING.has(join("docs", m[1]!))) continue;
        expect(existsSync(resolve(ROOT, dirname(doc), m[1]!)), `${doc} → ${m[1]}`).toBe(true);
      }
    }
  });

  it("its quick start runs as written and `ask` prints what the README shows", async () => {
    const [, commands, shown] = blocks("Quick start (fresh clone, Node 20)");
    const lines = commands!
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").trim())
      .filter((l) => l.startsWith("node bin/atr.js "));
    expect(lines.map((l) => argvOf(l)[2])).toEqual(["build-index", "inspect-index", "ask", "doctor"]);
    let asked = "";
    for (const line of lines) {
      const argv = argvOf(line.replace(/\bout\//g, `${dir}/`)).slice(2);
      const r = await runCli(argv);
      expect(r.code, `${line}\n${r.err}`).toBe(0);
      if (argv[0] === "ask") asked = r.out;
    }
    const expected = shown!.split("\n").filter((l) => l.trim() !== "" && l.trim() !== "…");
    const printed = asked.split("\n");
    for (const line of expected) expect(printed, line).toContain(line);
  });
});
