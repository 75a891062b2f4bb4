import { describe, expect, it } from "vitest";
import { answerKindFromQuestion, answerKindOf, fitsKind } from "../../../nodes/offline/answer-kind.js";

describe("answerKindFromQuestion", () => {
  it("takes who/where/when as the question word only when no what/which comes first", () => {
    expect(answerKindFromQuestion("Who won the first Miss Teen USA pageant ?")).toBe("person");
    expect(answerKindFromQuestion("Where was the pageant held ?")).toBe("place");
    expect(answerKindFromQuestion("When was Ruth Zakarian born ?")).toBe("date");
    expect(answerKindFromQuestion("In 1983, who won the pageant ?")).toBe("person");
    // relative words: the noun after what/which decides
    expect(answerKindFromQuestion("What capacity has the dam whose reservoir covers about 170 km2 ?")).toBe("number");
    expect(answerKindFromQuestion("What is the state of the Senator who did not run for reelection ?")).toBe("place");
    expect(answerKindFromQuestion("Which team did he join when he left Ajax ?")).toBe("entity");
    expect(answerKindFromQuestion("What city hosted the games where the record was set ?")).toBe("place");
  });

  it("reads a polite request for what it asks, and a yes/no question that starts the same way as one", () => {
    expect(answerKindFromQuestion("Can you tell me the highest salary?")).not.toBe("boolean");
    expect(answerKindFromQuestion("Could you list the people in Marketing?")).not.toBe("boolean");
    expect(answerKindFromQuestion("Could you tell me who earns most?")).toBe("person");
    expect(answerKindFromQuestion("Can you park at the depot?")).toBe("boolean");
  });

  it("takes a count written with a scale word as a whole count", () => {
    expect(fitsKind("9.5 million", "count")).toBe(true);
    expect(fitsKind("12", "count")).toBe(true);
    expect(fitsKind("2.5", "count")).toBe(false);
    expect(fitsKind("-3", "count")).toBe(false);
    expect(fitsKind("many million", "count")).toBe(false);
  });
});

describe("answerKindFromQuestion: compound nouns", () => {
  it("takes the second noun of a compound as its head", () => {
    expect(answerKindFromQuestion("What stadium capacity does the club formed in 1931 have ?")).toBe("number");
    expect(answerKindFromQuestion("What stadium does the club formed in 1931 play in ?")).toBe("place");
  });

  it("reads a number noun after a plural noun as its verb", () => {
    expect(answerKindFromQuestion("which products cost less than 30?")).toBe("entity");
    expect(answerKindFromQuestion("what is the ticket cost?")).toBe("number");
  });

  it("takes the last word of a longer noun phrase as its head", () => {
    expect(answerKindFromQuestion("What was the share based compensation expense in 2021?")).toBe("number");
    expect(answerKindFromQuestion("What was the freight and storage cost expense for the year?")).toBe("number");
    expect(answerKindFromQuestion("What is the head office street address of the group?")).toBe("entity");
    expect(answerKindFromQuestion("Which share based compensation expense rose in 2021?")).toBe("entity");
  });
});

describe("answerKindOf: the decomposer's notes", () => {
  it("reads the kind from the question, not from its (columns: …) or (about: …) note", () => {
    expect(
      answerKindOf(
        undefined,
        "Which river is the location of the college attended by Mara Quill ? (about: Harbor College) (columns: Name, Birthdate)",
      ),
    ).toBe("place");
  });
});

describe("fitsKind: ranges and records", () => {
  it("takes '25-44' and '22-16-3' for a number, not for a count", () => {
    expect(fitsKind("25-44", "number")).toBe(true);
    expect(fitsKind("22-16-3", "number")).toBe(true);
    expect(fitsKind("22-16-3", "count")).toBe(false);
  });
});

describe("fitsKind: durations", () => {
  it("takes a race time or a track length for a number ('how long did it take'), not for a count", () => {
    expect(answerKindFromQuestion("How long did it take the winner to finish?")).toBe("number");
    for (const t of ["1:26.66", "2:14:05", "4:07", "+0:12.5", "1:02:03.5"]) expect(fitsKind(t, "number")).toBe(true);
    expect(fitsKind("1:26.66", "count")).toBe(false);
    expect(fitsKind("12:345", "number")).toBe(false);
    expect(fitsKind("Room 4:07b", "number")).toBe(false);
  });
});

describe("report wordings", () => {
  it("reads a place or person noun before a plural noun as its modifier", () => {
    expect(answerKindFromQuestion("What was the state grants in 2020?")).not.toBe("place");
    expect(answerKindFromQuestion("What were the director fees in 2021?")).not.toBe("person");
    // the noun alone, or before "of", still asks for a place
    expect(answerKindFromQuestion("What is the state of the buyer?")).toBe("place");
    expect(answerKindFromQuestion("Which country hosts the fair?")).toBe("place");
  });

  it("takes a count shown in brackets (a reduction) as a count", () => {
    expect(fitsKind("(1,250)", "count")).toBe(true);
    expect(fitsKind("(2.5)", "count")).toBe(false);
  });

  it("asks for a percentage when a number of things is put as a percentage of another", () => {
    const q = "What was the number of units sold in May as a percentage of the units sold in the quarter?";
    expect(answerKindOf({ analysis: { answerType: "count" } } as never, q)).toBe("percent");
    expect(
      answerKindOf({ analysis: { answerType: "count" } } as never, "What was the number of units sold in May?"),
    ).toBe("count");
  });
});
