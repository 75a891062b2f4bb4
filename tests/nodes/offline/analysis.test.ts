import { describe, expect, it } from "vitest";
import { analysisOf, analyzeQuestion } from "../../../nodes/offline/analysis.js";

describe("analyzeQuestion", () => {
  it("reads counts with numeric conditions", () => {
    const a = analyzeQuestion("How many players were born after 1977?");
    expect(a.operator).toBe("count");
    expect(a.answerType).toBe("count");
    expect(a.conditions).toEqual([expect.objectContaining({ op: ">", value: 1977 })]);
    expect(a.countNoun).toContain("players");
    expect(a.needGlobalView).toBe(true);
  });

  it("reads number words in conditions, but not the pronoun 'one'", () => {
    expect(analyzeQuestion("how many clubs collected more than ten bronze trophies?").conditions[0]).toMatchObject({
      op: ">",
      value: 10,
    });
    expect(analyzeQuestion("how many hostels were built for at least two hundred guests?").conditions[0]).toMatchObject(
      { op: ">=", value: 200 },
    );
    expect(analyzeQuestion("how many colleges hold more than one trophy?").conditions[0]).toMatchObject({
      op: ">",
      value: 1,
    });
    expect(analyzeQuestion("which skier was the only one picked from norway?").conditions).toEqual([]);
  });

  it("expects a list when the question names how many items it wants", () => {
    expect(analyzeQuestion("what two cars are only built in sweden?").listAnswer).toBe(true);
    expect(analyzeQuestion("which 2 shops both sell fresh bread?").listAnswer).toBe(true);
    expect(analyzeQuestion("what was the score two years later?").listAnswer).toBe(false);
  });

  it("reads 'the top N' as a rank condition, not a superlative", () => {
    const a = analyzeQuestion("how many times did the swimmer finish in the top three?");
    expect(a.operator).toBe("count");
    expect(a.conditions).toEqual([expect.objectContaining({ op: "<=", value: 3, top: true })]);
    expect(analyzeQuestion("who were the top 3 finishers?")).toMatchObject({ operator: "filter", listAnswer: true });
  });

  it("reads place comparisons: a better place is a smaller number", () => {
    expect(analyzeQuestion("how many years did the club finish above 5th place?").conditions).toEqual([
      expect.objectContaining({ op: "<", value: 5, place: true }),
    ]);
    expect(analyzeQuestion("how many races did the skater finish below 10th place?").conditions).toEqual([
      expect.objectContaining({ op: ">", value: 10, place: true }),
    ]);
    expect(analyzeQuestion("in how many games did she place third or better?").conditions).toEqual([
      expect.objectContaining({ op: "<=", value: 3, place: true }),
    ]);
  });

  it("reads a clock time in a condition as seconds", () => {
    expect(analyzeQuestion("how many rowers crossed the line in less than 4:10?").conditions).toEqual([
      expect.objectContaining({ op: "<", value: 250, clock: true }),
    ]);
  });

  it("reads comparative conditions with the compared quantity as a hint", () => {
    const a = analyzeQuestion("what is the number of towers taller than 328 feet?");
    expect(a.conditions[0]).toMatchObject({ op: ">", value: 328 });
    expect(a.conditions[0]!.hint).toEqual(expect.arrayContaining(["feet", "tall"]));
    expect(analyzeQuestion("how many riders scored at least 7 points?").conditions[0]).toMatchObject({
      op: ">=",
      value: 7,
    });
  });

  it("reads an exact quantity as an equality condition", () => {
    expect(analyzeQuestion("which is the only club that has 9 wins?").conditions).toEqual([
      { op: "=", value: 9, hint: ["wins"] },
    ]);
    expect(analyzeQuestion("how many teams have 9 or more wins?").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 9 }),
    ]);
  });

  it("reads 'N or older' as a lower bound on the quantity the comparative names", () => {
    expect(analyzeQuestion("how many members are 65 or older").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 65, hint: expect.arrayContaining(["age"]) }),
    ]);
    expect(analyzeQuestion("how many staff are 30 or younger").conditions).toEqual([
      expect.objectContaining({ op: "<=", value: 30, hint: expect.arrayContaining(["age"]) }),
    ]);
  });

  it("reads 'the maximum number of X' as an extreme of X and 'the total number of X' as its sum, not a row count", () => {
    expect(analyzeQuestion("what is the maximum number of seats").operator).toBe("sort");
    expect(analyzeQuestion("what is the total number of nights booked")).toMatchObject({
      operator: "count",
      aggregate: "sum",
    });
  });

  it("does not read 'before 3' as a year condition", () => {
    expect(analyzeQuestion("who came before 3 other drivers?").conditions).toEqual([]);
  });

  it("reads superlatives with their direction", () => {
    expect(analyzeQuestion("which nation won the least gold medals?")).toMatchObject({
      operator: "sort",
      sortDirection: "min",
    });
    expect(analyzeQuestion("who had the most caps?")).toMatchObject({
      operator: "sort",
      sortDirection: "max",
      answerType: "person",
    });
  });

  it("reads row positions", () => {
    // A finishing place ("rank 1st") is a row condition; the row position is "last".
    expect(analyzeQuestion("when did the team last rank 1st?").position).toBe("last");
    expect(analyzeQuestion("in what town did maria's last 1st place finish happen?").position).toBe("last");
    expect(analyzeQuestion("which rider came in first in this stage?").position).toBe("first");
    expect(analyzeQuestion("name the first club shown in this table?").position).toBe("first");
    expect(analyzeQuestion("who scored in the first round?").position).toBeNull();
    expect(analyzeQuestion("who was the last painter to be honoured?")).toMatchObject({
      position: "last",
      operator: "sort",
    });
    expect(analyzeQuestion("what is the next team after maccabi tel aviv?").position).toBe("next");
    expect(analyzeQuestion("what province is just previous to ontario on the list?").position).toBe("previous");
  });

  it("plans comparisons between two named entities", () => {
    expect(analyzeQuestion("which village has more people, ashby or kenton?").comparison).toEqual({
      kind: "choice",
      options: ["ashby", "kenton"],
      direction: "max",
    });
    const ml = analyzeQuestion("did marta vidal collect more or less points than ines roca?");
    expect(ml.comparison).toMatchObject({ kind: "moreless", options: ["marta vidal", "ines roca"] });
    expect(ml.answerType).toBe("moreless");
    const diff = analyzeQuestion("how many more students does ashfield have than little reddings?");
    expect(diff).toMatchObject({ operator: "compare", arithmetic: "difference", answerType: "number" });
    expect(diff.comparison?.options).toEqual(["ashfield", "little reddings"]);
  });

  it("reads aggregates, percentage change and answer types", () => {
    expect(analyzeQuestion("what was the average score in round two?")).toMatchObject({
      operator: "aggregate",
      aggregate: "avg",
    });
    expect(analyzeQuestion("what is the percentage change in revenue from 2018 to 2019?")).toMatchObject({
      operator: "arithmetic",
      arithmetic: "percent_change",
      answerType: "percent",
    });
    expect(analyzeQuestion("in what year did the team win?").answerType).toBe("year");
    expect(analyzeQuestion("when was track three recorded?").answerType).toBe("date");
    expect(analyzeQuestion("is the album released in 1990?").answerType).toBe("yesno");
    expect(analyzeQuestion("which country had the highest score?").answerType).toBe("place");
  });

  it("does not call a 'which … number of' question a count", () => {
    expect(analyzeQuestion("which project had the least number of arrays?").operator).not.toBe("count");
  });

  it("round-trips through a plan's analysis field", () => {
    const a = analyzeQuestion("how many songs are on this album?");
    const plan = {
      subQuery: "q",
      requiredModalities: "table" as const,
      expectedOperator: a.operator,
      needGlobalTableView: true,
      entityMentions: [],
      uncertainty: 0,
      analysis: JSON.parse(JSON.stringify(a)) as Record<string, unknown>,
    };
    expect(analysisOf(plan)).toEqual(a);
    expect(analysisOf({ ...plan, analysis: { something: 1 } })).toBeUndefined();
  });
});
