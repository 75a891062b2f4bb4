/**
 * An average is shown to one decimal more than its values have, at least two: "what is the average salary?" of
 * whole salaries is 63214.29, not 63214.2857143; an average of times to the thousandth keeps its thousandths; a
 * median of two middle values stays exact.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "payroll",
    file: "payroll.csv",
    header: ["Name", "Department", "Salary"],
    rows: [
      ["Ada", "Sales", "61000"],
      ["Ben", "Sales", "58500"],
      ["Cleo", "IT", "72000"],
      ["Dev", "IT", "69000"],
      ["Ezra", "HR", "54000"],
      ["Fay", "HR", "57000"],
      ["Gus", "IT", "71000"],
    ],
  },
  {
    id: "sprints",
    file: "sprints.csv",
    header: ["Runner", "Seconds"],
    rows: [
      ["Ada", "11.125"],
      ["Ben", "11.250"],
      ["Cleo", "11.500"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("averages shown to a sensible number of decimals", () => {
  it("rounds an average of whole numbers to the cent", () => {
    expect(answer("What is the average salary?", "payroll")).toEqual(["63214.29"]);
    expect(answer("What is the average salary in IT?", "payroll")).toEqual(["70666.67"]);
  });

  it("keeps the places of values written to the thousandth, and one more", () => {
    expect(answer("Average seconds per runner?", "sprints")).toEqual(["11.2917"]);
  });

  it("leaves a median exact", () => {
    expect(answer("What is the median salary?", "payroll")).toEqual(["61000"]);
  });
});
