import { describe, expect, it } from "vitest";
import { askedNounReturns } from "../../../nodes/offline/asked-again.js";
import { askedCell, askedPhraseOf } from "../../../nodes/offline/reader.js";
import { chooseRowAnswer } from "../../../nodes/offline/row-answers.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

function input(q: string): { question: string; subQuery: string; plan: SubQueryPlan } {
  const a = analyzeQuestion(q, { hasPassages: true });
  return {
    question: q,
    subQuery: q,
    plan: {
      subQuery: q,
      requiredModalities: "both",
      expectedOperator: a.operator,
      needGlobalTableView: false,
      entityMentions: [],
      uncertainty: 0,
      analysis: a as unknown as Record<string, unknown>,
    },
  };
}

// A filmography row: the film's page tells which other film its characters come from.
const row: DescribedRow = {
  tableId: "films",
  rowId: 0,
  columns: ["Year", "Film", "Director"],
  values: ["2006", "Moonlit Harbour", "Ada Roe"],
  passages: [
    {
      id: "/wiki/Moonlit_Harbour",
      title: "Moonlit Harbour",
      text: "Moonlit Harbour is a 2006 comedy film . Its characters were inspired by the American film Quiet Tides .",
      file: "films.json",
      tableId: "films",
      cells: [[0, 1]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

const returns = (q: string) => askedNounReturns(q, askedPhraseOf(q)!);

describe("asked cell: the asked noun that comes back to name the described row", () => {
  it("sees the asked noun come back after 'the'", () => {
    expect(returns("Which film inspired the characters in the film directed by Ada Roe ?")).toBe(true);
    expect(returns("Which city is larger than the starting city of the route ?")).toBe(true);
    expect(returns("Which film did Ada Roe direct in 2006 ?")).toBe(false);
    expect(returns("What year did the club close after six years of play ?")).toBe(false);
  });

  it("reads no cell by the asked phrase then, and answers from the row's passages", () => {
    const q = "Which film inspired the characters in the film directed by Ada Roe ?";
    expect(askedCell(input(q), row)).toBeUndefined();
    expect(chooseRowAnswer(input(q), row)).toBe("Quiet Tides");
    expect(askedCell(input("Which film did Ada Roe direct in 2006 ?"), row)).toBe("Moonlit Harbour");
  });
});
