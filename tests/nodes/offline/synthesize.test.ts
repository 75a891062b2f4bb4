import { describe, expect, it } from "vitest";
import { synthesize } from "../../../nodes/offline/synthesize.js";
import type { Step } from "../../../nodes/types.js";

const step = (subQuery: string, answer: string, failed = false): Step => ({ subQuery, answer, failed });

describe("offline synthesis", () => {
  it("returns not found without accepted answers and the only answer with one", async () => {
    expect(await synthesize({ question: "Who won ?", steps: [] })).toBe("not found");
    expect(await synthesize({ question: "Who won ?", steps: [step("Who won ?", "not found")] })).toBe("not found");
    expect(await synthesize({ question: "Who won ?", steps: [step("Who won ?", "Norway.")] })).toBe("Norway");
  });

  it("picks the option of a comparison by the question's direction", async () => {
    const steps = [
      step("How many gold medals did Norway win ?", "14"),
      step("How many gold medals did Germany win ?", "10"),
    ];
    expect(await synthesize({ question: "Which nation won more gold medals, Norway or Germany ?", steps })).toBe(
      "Norway",
    );
    expect(await synthesize({ question: "Which nation won fewer gold medals, Norway or Germany ?", steps })).toBe(
      "Germany",
    );
  });

  it("compares dates for earlier/later picks", async () => {
    const steps = [step("When was Alpha founded ?", "3 July 1973"), step("When was Beta founded ?", "12 May 1970")];
    expect(await synthesize({ question: "Which was founded first, Alpha or Beta ?", steps })).toBe("Beta");
  });

  it("computes how many more from two accepted values", async () => {
    const steps = [step("How many points did Smith score ?", "31"), step("How many points did Jones score ?", "24")];
    expect(await synthesize({ question: "How many more points did Smith score than Jones ?", steps })).toBe("7");
  });

  it("answers more or less", async () => {
    const steps = [step("How many votes did Smith get ?", "1,200"), step("How many votes did Jones get ?", "1,500")];
    expect(await synthesize({ question: "Did Smith get more or less votes than Jones ?", steps })).toBe("less");
  });

  it("lists the answers of a list question and otherwise keeps the last accepted answer", async () => {
    const steps = [
      step("Which teams won in 1990 ?", "Ajax"),
      step("Which teams won in 1991 ?", "PSV"),
      step("x", "Ajax"),
    ];
    expect(await synthesize({ question: "What are the teams that won in 1990 and 1991 ?", steps })).toBe("Ajax | PSV");
    const chain = [
      step("Who won the 1500 m gold ?", "Chatholi Hamza"),
      step("Where was Chatholi Hamza born ?", "Kerala"),
    ];
    expect(await synthesize({ question: "Where was the 1500 m gold medalist born ?", steps: chain })).toBe("Kerala");
  });

  it("ignores failed steps", async () => {
    const steps = [step("Who won ?", "Oslo"), step("Where was the winner born ?", "Bergen", true)];
    expect(await synthesize({ question: "Where was the winner born ?", steps })).toBe("Oslo");
  });
});
