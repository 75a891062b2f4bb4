import { afterEach, describe, expect, it } from "vitest";
import {
  ROW_ANSWER_FEATURES,
  ROW_ANSWER_PRIOR,
  checkRowAnswerModel,
  chooseRowAnswer,
  rankRowAnswers,
  readRow,
  rowAnswerModel,
  rowAnswerWeights,
  type RowAnswerModel,
} from "../../../nodes/offline/row-answers.js";
import { describedRowCandidates } from "../../../nodes/offline/reader-candidates.js";
import { ModelFileError } from "../../../nodes/offline/model-file.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A league row: the club's page says what it is and where it plays; the coach's page tells of the coach.
const row: DescribedRow = {
  tableId: "league",
  rowId: 2,
  columns: ["Season", "Team", "Coach", "Points"],
  values: ["1998", "Harbour Lions", "Mara Quist", "61"],
  passages: [
    {
      id: "/wiki/Harbour_Lions",
      title: "Harbour Lions",
      text: "Harbour Lions is a football club based in Port Vell . The club plays its home games at Quay Park .",
      file: "league.json",
      tableId: "league",
      cells: [[2, 1]],
    },
    {
      id: "/wiki/Mara_Quist",
      title: "Mara Quist",
      text: "Mara Quist ( born 3 May 1960 ) is a Danish football coach . She was born in Ribe .",
      file: "league.json",
      tableId: "league",
      cells: [[2, 2]],
    },
  ],
  score: 3,
  runnerUp: 1,
};

/** A model that weighs only the named features. */
function model(weights: Partial<Record<(typeof ROW_ANSWER_FEATURES)[number], number>>): RowAnswerModel {
  return {
    trainedOn: "test",
    features: [...ROW_ANSWER_FEATURES],
    weights: ROW_ANSWER_FEATURES.map((f) => weights[f] ?? 0),
  };
}

afterEach(() => rowAnswerModel.set(undefined));

describe("row answers: the candidates of the described row", () => {
  it("offers every cell the question does not name and the hand reader's answer, marked as the rule", () => {
    const { candidates } = readRow(input("Where was the coach of the 1998 team born ?"), row);
    const answers = candidates.map((c) => c.answer);
    // "1998" is named by the question: a filter, not an answer.
    expect(answers).toEqual(expect.arrayContaining(["Harbour Lions", "Mara Quist", "61"]));
    expect(answers).not.toContain("1998");
    const rule = candidates.filter((c) => c.x[ROW_ANSWER_FEATURES.indexOf("rule")] === 1);
    expect(rule.map((c) => c.answer)).toEqual(["Ribe"]);
    // No other span of the passages is offered.
    expect(answers).not.toContain("Quay Park");
  });

  it("marks the cell whose page says it is the asked noun and the header that names the asked phrase", () => {
    const { candidates } = readRow(input("Which club had Mara Quist as its coach in 1998 ?"), row);
    const lions = candidates.find((c) => c.answer === "Harbour Lions")!;
    expect(lions.x[ROW_ANSWER_FEATURES.indexOf("page-is-noun")]).toBe(1);
    const points = readRow(input("How many points did the team coached by Mara Quist get ?"), row).candidates.find(
      (c) => c.answer === "61",
    )!;
    expect(points.x[ROW_ANSWER_FEATURES.indexOf("header-asked")]).toBeGreaterThan(0);
    expect(points.x[ROW_ANSWER_FEATURES.indexOf("cell-fits-kind")]).toBe(1);
  });
});

describe("row answers: the choice", () => {
  it("answers as the hand reader without a model (the prior)", () => {
    rowAnswerModel.set(null);
    expect(rowAnswerWeights()).toEqual([...ROW_ANSWER_PRIOR]);
    expect(chooseRowAnswer(input("Where was the coach of the 1998 team born ?"), row)).toBe("Ribe");
    expect(chooseRowAnswer(input("How many points did the team coached by Mara Quist get ?"), row)).toBe("61");
  });

  it("follows the model's weights: a cell can take over from the hand reader's span", () => {
    rowAnswerModel.set(model({ rule: 1, "name-column": 3 }));
    expect(chooseRowAnswer(input("Where was the coach of the 1998 team born ?"), row)).toBe("Harbour Lions");
    const ranked = rankRowAnswers(readRow(input("Where was the coach of the 1998 team born ?"), row).candidates);
    expect(ranked[0]!.p).toBeGreaterThan(ranked[1]!.p);
    expect(ranked.reduce((a, c) => a + c.p, 0)).toBeCloseTo(1, 6);
  });

  it("puts the model's pick first among the reader's candidates, with its share P", () => {
    rowAnswerModel.set(model({ rule: 1, "name-column": 3 }));
    const q = "Where was the coach of the 1998 team born ?";
    const candidates = describedRowCandidates(input(q), row);
    expect(candidates[0]!.answer).toBe("Harbour Lions");
    expect(candidates[0]!.features["rc:row-answer-moved"]).toBe(1);
    expect(candidates[0]!.features["rc:row-answer-p"]).toBeGreaterThan(0.5);
    expect(candidates.map((c) => c.answer)).toContain("Ribe");
    rowAnswerModel.set(null);
    const hand = describedRowCandidates(input(q), row);
    expect(hand[0]!.answer).toBe("Ribe");
    expect(hand[0]!.features["rc:row-answer-moved"]).toBeUndefined();
  });

  it("ships a model that keeps the hand reader's asked cell and a who-question's person", () => {
    rowAnswerModel.set(undefined);
    expect(rowAnswerModel.get()).not.toBeNull();
    expect(chooseRowAnswer(input("How many points did the team coached by Mara Quist get ?"), row)).toBe("61");
    expect(chooseRowAnswer(input("Who coached the Harbour Lions in 1998 ?"), row)).toBe("Mara Quist");
  });
});

describe("row answers: the model file", () => {
  it("refuses a file whose weights do not match its features, or that names unknown features", () => {
    expect(() =>
      checkRowAnswerModel({ trainedOn: "x", features: ["rule"], weights: [] }, "/m/row-answers.json"),
    ).toThrow(ModelFileError);
    expect(() =>
      checkRowAnswerModel({ trainedOn: "x", features: ["nope"], weights: [1] }, "/m/row-answers.json"),
    ).toThrow(/row-answers\.json.*unknown features nope/);
    expect(checkRowAnswerModel({ trainedOn: "x", features: ["rule"], weights: [2] }, "/m/r.json").weights).toEqual([2]);
  });

  it("weighs features the file does not name 0", () => {
    const w = rowAnswerWeights({ trainedOn: "x", features: ["cell"], weights: [1.5] });
    expect(w[ROW_ANSWER_FEATURES.indexOf("cell")]).toBe(1.5);
    expect(w[ROW_ANSWER_FEATURES.indexOf("rule")]).toBe(0);
  });
});
