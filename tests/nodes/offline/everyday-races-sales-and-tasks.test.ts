/**
 * A fun run's results, a shop's monthly sales, a workshop's machines and a team's task list, asked as people ask
 * them: a race is won by the lowest finishing time (not a split) whatever order the rows are in, "did revenue go up
 * in March?" compares March with the month before, machines "not serviced since 2025" were last serviced before
 * it, and "what is Amir working on?" lists all of Amir's tasks.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "fun_run",
    file: "fun_run.csv",
    header: ["Bib", "Runner", "Category", "Split", "Finish time"],
    rows: [
      ["31", "Nell Ash", "Women", "13:02", "27:40"],
      ["8", "Rui Sol", "Men", "12:10", "25:55"],
      ["54", "Ada Fenn", "Women", "12:48", "26:31"],
      ["17", "Tor Lund", "Men", "11:58", "26:02"],
    ],
  },
  {
    id: "shop_sales",
    file: "shop_sales.csv",
    header: ["Month", "Revenue", "Costs"],
    rows: [
      ["January", "12400", "9100"],
      ["February", "11800", "9400"],
      ["March", "13900", "9300"],
      ["April", "13100", "9800"],
    ],
  },
  {
    id: "machines",
    file: "machines.csv",
    header: ["Machine", "Site", "Last serviced"],
    rows: [
      ["Kiln 1", "East", "2024-10-02"],
      ["Kiln 2", "East", "2025-03-17"],
      ["Mixer", "West", "2023-12-01"],
      ["Saw", "West", "2025-08-09"],
    ],
  },
  {
    id: "tasks",
    file: "tasks.csv",
    header: ["Task", "Owner", "Status"],
    rows: [
      ["Fix login", "Amir", "Open"],
      ["Write docs", "Bea", "Open"],
      ["Review PR", "Amir", "Done"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("race winners by time, month-on-month changes, services not since a year and a person's tasks", () => {
  it("gives a race to the lowest finishing time, not the first row or the fastest split", () => {
    expect(answer("Who won?", "fun_run")).toEqual(["Rui Sol"]);
    expect(answer("What was the winning time?", "fun_run")).toEqual(["25:55"]);
    expect(answer("Who came second?", "fun_run")).toEqual(["Tor Lund"]);
  });
  it("compares a named month with the month before for 'did it go up / down'", () => {
    expect(answer("Did revenue go up in March?", "shop_sales")).toEqual(["yes"]);
    expect(answer("Did revenue go up in April?", "shop_sales")).toEqual(["no"]);
    expect(answer("Did costs fall in March?", "shop_sales")).toEqual(["yes"]);
  });
  it("reads 'not serviced since 2025' as last serviced before 2025", () => {
    expect(answer("Which machines have not been serviced since 2025?", "machines")).toEqual(["Kiln 1", "Mixer"]);
    expect(answer("Which machines have been serviced since 2025?", "machines")).toEqual(["Kiln 2", "Saw"]);
  });
  it("lists every task of the person a question asks what they are working on", () => {
    expect(answer("What is Amir working on?", "tasks")).toEqual(["Fix login", "Review PR"]);
  });
});
