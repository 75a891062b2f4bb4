/**
 * No source file quotes a benchmark question (6+ words, case and punctuation ignored): rules and
 * comments must hold beyond the questions they were written for, so examples are our own. Reads
 * ../shared/data when it is beside the project (CI); without it there is nothing to compare with.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const DATA = resolve(ROOT, "..", "shared", "data");
const ROOMS = ["indexing", "retrievers", "nodes", "graph", "evals", "training", "cli", "scripts"];
const words = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? [];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe.skipIf(!existsSync(DATA) && !process.env.CI)("house rules: examples are our own", () => {
  it("no source file quotes a benchmark question word for word", () => {
    const questions = new Set<string>();
    for (const bench of readdirSync(DATA, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const split of readdirSync(join(DATA, bench.name))) {
        const file = join(DATA, bench.name, split, "questions.jsonl");
        if (!existsSync(file)) continue;
        for (const line of readFileSync(file, "utf8").split("\n")) {
          if (!line.trim()) continue;
          const w = words(String((JSON.parse(line) as { question?: unknown }).question ?? ""));
          if (w.length >= 6) questions.add(w.join(" "));
        }
      }
    }
    expect(questions.size).toBeGreaterThan(1000);
    // A question can only be quoted where its first six words are: index each file's 6-word runs
    // once, then check the whole question only there (a substring scan of every question over every
    // file took a minute on a loaded machine).
    const quotes: string[] = [];
    for (const file of ROOMS.filter((r) => existsSync(join(ROOT, r))).flatMap((r) => files(join(ROOT, r)))) {
      const w = words(readFileSync(file, "utf8"));
      const runs = new Set<string>();
      for (let i = 0; i + 6 <= w.length; i++) runs.add(w.slice(i, i + 6).join(" "));
      const flat = ` ${w.join(" ")} `;
      for (const q of questions)
        if (runs.has(q.split(" ", 6).join(" ")) && flat.includes(` ${q} `))
          quotes.push(`${file.slice(ROOT.length + 1)}: "${q.slice(0, 70)}"`);
    }
    expect(quotes).toEqual([]);
  });
});
