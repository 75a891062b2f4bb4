/**
 * Everyday questions over plain generated tables (tests/fixtures/everyday-tables.ts: employees,
 * products, a sales ledger, books with a year column, weather stations with missing values), each
 * kind in several wordings, gold computed from the generated rows. The index is built with the
 * project's own build; every question goes through the real graph on the offline backbone, default
 * configuration, with the question's table as its hint (as the benchmarks give it) and, for a second
 * figure, without any hint (the decomposer picks the table). docs/EVERYDAY.md has the figures.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import { closeResources } from "../../graph/resources.js";
import { buildIndex } from "../../indexing/build-index.js";
import { everydayCorpus, everydayCorrect, toCsv, type EverydayQuestion } from "../fixtures/everyday-tables.js";

const corpus = everydayCorpus(16);
let root = "";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-everyday-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  for (const t of corpus.tables) writeFileSync(join(root, "tables", `${t.id}.csv`), toCsv(t));
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
}, 60_000);

afterAll(async () => {
  await closeResources();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Answers every question; returns per-kind [right, total] and the wrong answers. */
async function score(
  hint: boolean,
): Promise<{ right: number; total: number; byKind: Map<string, [number, number]>; wrong: string[] }> {
  const byKind = new Map<string, [number, number]>();
  const wrong: string[] = [];
  let right = 0;
  for (const q of corpus.questions) {
    const r = await answerQuestion(
      { question: q.question, ...(hint ? { table_id: q.table } : {}) },
      { configurable: { indexPath: join(root, "index"), backbone: "offline" } },
    );
    expect(r.usage.llmCalls).toBe(0);
    const ok = everydayCorrect(q.gold, r.answer);
    const k = byKind.get(q.kind) ?? [0, 0];
    byKind.set(q.kind, [k[0] + (ok ? 1 : 0), k[1] + 1]);
    if (ok) right++;
    else wrong.push(`[${q.kind}] ${q.question} → ${JSON.stringify(r.answer)} (gold ${q.gold.join(" | ")})`);
  }
  return { right, total: corpus.questions.length, byKind, wrong };
}

function report(title: string, s: Awaited<ReturnType<typeof score>>): void {
  const lines = [...s.byKind].map(
    ([kind, [ok, n]]) => `  ${kind.padEnd(14)} ${ok}/${n} = ${((100 * ok) / n).toFixed(1)} %`,
  );
  console.log(
    `${title}: ${s.right}/${s.total} = ${((100 * s.right) / s.total).toFixed(1)} %\n${lines.join("\n")}${s.wrong.length ? `\n  wrong:\n    ${s.wrong.join("\n    ")}` : ""}`,
  );
}

describe("everyday questions over generated tables (offline backbone, real graph)", () => {
  it("the generator is deterministic and covers every kind in several wordings, gold from the rows", () => {
    const again = everydayCorpus(16);
    expect(again.questions).toEqual(corpus.questions);
    const kinds = new Map<string, number>();
    for (const q of corpus.questions) kinds.set(q.kind, (kinds.get(q.kind) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual([
      "argmax-argmin",
      "average",
      "count",
      "date",
      "lookup",
      "max-min value",
      "sum",
      "threshold",
    ]);
    for (const n of kinds.values()) expect(n).toBeGreaterThanOrEqual(12);
    // Another seed gives other rows, so other gold.
    const other = everydayCorpus(17);
    const golds = (qs: EverydayQuestion[]) => qs.map((q) => q.gold.join("|")).join("\n");
    expect(golds(other.questions)).not.toEqual(golds(corpus.questions));
    // One missing-value column: its aggregate ignores the blanks.
    const rain = corpus.tables.find((t) => t.id === "stations")!.rows.map((r) => r[3]);
    expect(rain.some((v) => v === null)).toBe(true);
  });

  it("the scorer matches numbers numerically, strings case-insensitively and lists as sets", () => {
    expect(everydayCorrect([1000], "1,000")).toBe(true);
    expect(everydayCorrect([1000], "1000.0")).toBe(true);
    expect(everydayCorrect([71312.5], "71312.5")).toBe(true);
    expect(everydayCorrect([71312.5], "71312")).toBe(false);
    expect(everydayCorrect(["Ana Ruiz"], "ana ruiz")).toBe(true);
    expect(everydayCorrect(["A B", "C D"], "C D | A B")).toBe(true);
    expect(everydayCorrect(["A B", "C D"], "A B")).toBe(false);
    expect(everydayCorrect([5], "not found")).toBe(false);
  });

  it("with the table hint: at least 95 % right", async () => {
    const s = await score(true);
    report("everyday (table hint)", s);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it("without a hint (the decomposer picks the table): at least 90 % right", async () => {
    const s = await score(false);
    report("everyday (no hint)", s);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.9);
  }, 600_000);
});
