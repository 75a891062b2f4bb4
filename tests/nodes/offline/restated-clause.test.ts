import { describe, expect, it } from "vitest";
import { relativeClauseOf, restatedLast, restatesClause } from "../../../nodes/offline/restated-clause.js";
import { describedRowSpans } from "../../../nodes/offline/reader.js";
import { keyStems } from "../../../nodes/offline/evidence.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

const plantRow: DescribedRow = {
  tableId: "plants",
  rowId: 0,
  columns: ["Plant", "Location", "Capacity ( MW )"],
  values: ["Brill Ridge Wind Park", "Tolland County", "310"],
  passages: [
    {
      id: "/wiki/Brill_Ridge_Wind_Park",
      title: "Brill Ridge Wind Park",
      text: "Brill Ridge Wind Park is a wind farm in Tolland County . It was built by Harrow Energy with 120 Vessa turbines , and it supplies power to Marren Grid .",
      file: "plants.json",
      tableId: "plants",
      cells: [[0, 0]],
    },
    {
      id: "/wiki/Tolland_County",
      title: "Tolland County",
      text: "Tolland County is a county in the north of the state . The county seat is Ashby .",
      file: "plants.json",
      tableId: "plants",
      cells: [[0, 1]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

const question = "What is the county seat of the county where a plant supplies power to Marren Grid ?";

describe("restated clause: the sentence that found the thing is not the one that tells the asked fact", () => {
  it("reads the relative clause and the main clause's words beyond the row's cells", () => {
    const relative = relativeClauseOf(question, keyStems(plantRow.values.join(" ")))!;
    expect(relative.clause.join(" ")).toBe("a plant supplies power to marren grid");
    expect([...relative.main]).toEqual([...keyStems("seat")]);
    // an opening "who" / "which" is the question's own wh-word, not a relative one
    expect(relativeClauseOf("Who founded the club ?", new Set())).toBeUndefined();
    // a clause of fewer than three content words restates nothing
    expect(relativeClauseOf("What is the area of the town that hosts it ?", new Set())).toBeUndefined();
  });

  it("knows a sentence that writes the clause again from one that also tells the asked fact", () => {
    const relative = relativeClauseOf(question, keyStems(plantRow.values.join(" ")))!;
    expect(restatesClause("It was built by Harrow Energy , and it supplies power to Marren Grid .", relative)).toBe(
      true,
    );
    // the words apart, not in a row
    expect(restatesClause("Marren Grid buys the power that the plant supplies .", relative)).toBe(false);
    // the sentence also holds the main clause's word ("seat")
    expect(restatesClause("Its seat supplies power to Marren Grid .", relative)).toBe(false);
  });

  it("puts spans of a restating sentence behind the others, each group in its order", () => {
    const relative = relativeClauseOf(question, new Set())!;
    const spans = [
      { answer: "Harrow Energy", context: "Harrow Energy supplies power to Marren Grid ." },
      { answer: "Ashby", context: "The county seat is Ashby ." },
      { answer: "Vessa", context: "It uses Vessa turbines ." },
    ];
    expect(restatedLast(spans, relative).map((s) => s.answer)).toEqual(["Ashby", "Vessa", "Harrow Energy"]);
    expect(restatedLast(spans, undefined).map((s) => s.answer)).toEqual(["Harrow Energy", "Ashby", "Vessa"]);
  });

  it("reads the described row's county seat before the names of the sentence that restates the clause", () => {
    const spans = describedRowSpans(input(question), plantRow, 4).map((s) => s.answer);
    expect(spans[0]).toBe("Ashby");
  });
});
