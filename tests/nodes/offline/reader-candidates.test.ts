import { describe, expect, it } from "vitest";
import { readPassageSpans, readTableCells, type Bridge } from "../../../nodes/offline/reader.js";
import {
  createCandidateReaders,
  describedRowCandidates,
  reportCellCandidates,
  rowMargin,
  spanFeatures,
} from "../../../nodes/offline/reader-candidates.js";
import { answerFeatures } from "../../../nodes/offline/answer-features.js";
import { parseMarkdownRows } from "../../../nodes/offline/evidence.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

function plan(q: string, entityMentions: string[] = []): SubQueryPlan {
  const a = analyzeQuestion(q, { hasPassages: true });
  return {
    subQuery: q,
    requiredModalities: "both",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions,
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

// Three made-up passages: two years in one passage, one in another, a passage without any.
const PASSAGES = [
  "[Source: towns.json]",
  "Harlow Bridge",
  "Harlow Bridge is a stone bridge over the river Wend . It was opened in 1871 and rebuilt in 1934 after a flood .",
  "",
  "[Source: towns.json]",
  "Wend Mill",
  "Wend Mill stands beside Harlow Bridge . The mill was opened in 1802 by a weaver .",
  "",
  "[Source: towns.json]",
  "Corran Fair",
  "Corran Fair is held every spring on the meadow by the river .",
].join("\n");

describe("reader candidates: top-k passage spans", () => {
  const q = "In what year was Harlow Bridge opened ?";

  it("gives distinct answers, best first, from different sentences and passages", () => {
    const spans = readPassageSpans(q, q, plan(q), PASSAGES, undefined, 4);
    expect(spans.map((s) => s.answer)).toEqual(["1871", "1934", "1802"]);
    // The best span is what the one-span reader returns; the others come from another sentence or passage.
    expect(spans[0]!.score).toBeGreaterThan(spans[1]!.score);
    expect(spans[1]!.score).toBeGreaterThan(spans[2]!.score);
    expect(spans[2]!.block).not.toBe(spans[0]!.block);
    expect(readPassageSpans(q, q, plan(q), PASSAGES, undefined, 2)).toHaveLength(2);
  });

  it("names each candidate's rank, margin, passage rank and kind agreement", () => {
    const spans = readPassageSpans(q, q, plan(q), PASSAGES, undefined, 4);
    const candidates = spanFeatures(spans, {
      kind: "year",
      mentions: ["Harlow Bridge"],
      evidence: PASSAGES,
      linkedFromRow: false,
    });
    const [first, second, third] = candidates.map((c) => c.features);
    expect(first!["rc:rank=1"]).toBe(1);
    expect(second!["rc:rank=2"]).toBe(1);
    expect(first!["rc:margin"]).toBeGreaterThan(0);
    expect(first!["rc:gap-to-top"]).toBe(0);
    expect(second!["rc:gap-to-top"]).toBeGreaterThan(0);
    expect(first!["rc:passage-rank=1"]).toBe(1);
    expect(third!["rc:passage-rank=2"]).toBe(1);
    expect(first!["rc:kind-agree"]).toBe(1);
    // Only the span's own sentence counts: "It was opened in 1871 …" names no mention; the mill's first sentence does.
    expect(first!["rc:mention-match"]).toBe(0);
    expect(
      spanFeatures([{ ...spans[0]!, context: "Harlow Bridge was opened in 1871 ." }], {
        kind: "year",
        mentions: ["Harlow Bridge"],
        evidence: "",
        linkedFromRow: false,
      })[0]!.features["rc:mention-match"],
    ).toBe(1);
  });

  it("the verifier's features carry the reader's rc: features, and only those", () => {
    const f = answerFeatures(
      {
        question: q,
        subQuery: q,
        plan: plan(q),
        route: "TEXT",
        answer: "1934",
        evidence: PASSAGES,
        sqlResult: "",
        readerFeatures: { "rc:rank=2": 1, "rc:margin": 0.4, "route=SQL": 1 },
      },
      { ruleCode: "read", hasPassages: true },
    );
    expect(f["rc:rank=2"]).toBe(1);
    expect(f["rc:margin"]).toBe(0.4);
    expect(f["route=SQL"]).toBeUndefined();
  });
});

describe("reader candidates: the row a question describes", () => {
  const row: DescribedRow = {
    tableId: "bridges",
    rowId: 2,
    columns: ["Bridge", "County", "Length"],
    values: ["Harlow Bridge", "Wendshire", "120 m"],
    passages: [
      {
        id: "/wiki/Harlow",
        title: "Harlow Bridge",
        text: "Harlow Bridge is a stone bridge over the river Wend . It was opened in 1871 and rebuilt in 1934 after a flood .",
        file: "towns.json",
        tableId: "bridges",
        cells: [[2, 0]],
      },
      {
        id: "/wiki/Wendshire",
        title: "Wendshire",
        text: "Wendshire is a county whose town hall was opened in 1790 .",
        file: "towns.json",
        tableId: "bridges",
        cells: [[2, 1]],
      },
    ],
    score: 4,
    runnerUp: 1,
  };

  it("gives the linked passages' spans as candidates marked linked from the row, with the row's margin", () => {
    const q = "In what year was the bridge in Wendshire opened ?";
    const candidates = describedRowCandidates({ question: q, subQuery: q, plan: plan(q) }, row);
    // (The bridge's own year first: "It was opened in 1871" speaks of Harlow Bridge, the passage's subject;
    // the bridge's page, the asked thing's (asked-entity-page.ts), before the county's.)
    expect(candidates.map((c) => c.answer)).toEqual(["1871", "1934", "1790"]);
    for (const c of candidates) expect(c.features["rc:linked-from-row"]).toBe(1);
    expect(candidates[0]!.features["rc:row-margin"]).toBe(rowMargin(row));
    expect(rowMargin(row)).toBe(0.75);
    // The span re-ranking's share of each span (span-rerank.ts), best first, and its lead over the next.
    const ps = candidates.map((c) => c.features["rc:rerank-p"]!);
    expect(ps.every((p) => p > 0 && p <= 1)).toBe(true);
    // (The order has its own weights, span-rerank.ts SPAN_ORDER_WEIGHTS: here the first is also the likeliest.)
    expect(Math.max(...ps)).toBe(ps[0]);
    expect(candidates[0]!.features["rc:rerank-margin"]).toBeCloseTo(ps[0]! - ps[1]!, 2);
  });

  it("puts the asked cell first and the spans after it, ranked one place down", () => {
    const q = "What is the length of Harlow Bridge ?";
    const candidates = describedRowCandidates({ question: q, subQuery: q, plan: plan(q) }, row);
    expect(candidates[0]!.answer).toBe("120 m");
    expect(candidates[0]!.features["rc:row-cell"]).toBe(1);
    expect(candidates.length).toBeGreaterThan(1);
    expect(candidates[1]!.features["rc:rank=2"]).toBe(1);
    expect(candidates[1]!.features["rc:rank=1"]).toBeUndefined();
  });

  it("readTextCandidates starts with what readText answers", async () => {
    const bridge: Bridge = Object.assign((qq: string) => `${qq} (about: Harlow Bridge; Wendshire)`, {
      findRow: (_q: string, hint?: string) => (hint === "bridges" ? row : undefined),
    });
    const { readTextCandidates } = createCandidateReaders(() => "", bridge);
    const q = "In what year was the bridge in Wendshire opened ?";
    const p = { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "bridges" } } };
    const candidates = await readTextCandidates({ question: q, subQuery: q, plan: p, evidence: "" });
    expect(candidates.map((c) => c.answer)).toEqual(["1871", "1934", "1790"]);
  });
});

describe("reader candidates: row cells and report cells", () => {
  const rows = parseMarkdownRows(
    [
      "Table name: keepers",
      "| Keeper | Lighthouse | Years |",
      "| --- | --- | --- |",
      "| Ada Venn | North Point | 12 |",
      "| Bo Lark | South Point | 9 |",
    ].join("\n"),
  );

  it("row cells: the best cell first, the others after it", () => {
    const q = "Who kept the North Point lighthouse ?";
    const cells = readTableCells(q, q, plan(q, ["North Point"]), rows, [], 4);
    expect(cells[0]!.answer).toBe("Ada Venn");
    expect(cells.map((c) => c.answer)).not.toContain("North Point");
    expect(new Set(cells.map((c) => c.answer)).size).toBe(cells.length);
  });

  it("report cells: the same reading at the next located rows", () => {
    const report = parseMarkdownRows(
      [
        "Table name: costs",
        "| col_1 | 2019 | 2018 |",
        "| --- | --- | --- |",
        "| Freight costs | 410 | 380 |",
        "| Freight insurance costs | 95 | 90 |",
        "| Office rent | 120 | 118 |",
      ].join("\n"),
    );
    const q = "What were the freight costs in 2019?";
    const candidates = reportCellCandidates(q, report, "", "410");
    expect(candidates.map((c) => c.answer)).toEqual(["410", "95"]);
    expect(candidates[0]!.features["rc:row-rank=1"]).toBe(1);
    expect(candidates[1]!.features["rc:row-rank=2"]).toBe(1);
    expect(candidates[1]!.features["rc:confidence-drop"]).toBeGreaterThanOrEqual(0);
    // Not the cells' reading (another reader answered): no report-cell alternatives.
    expect(reportCellCandidates(q, report, "", "something else")).toEqual([]);
  });
});
