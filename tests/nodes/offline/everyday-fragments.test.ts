/**
 * Short, typed-in questions: "lowest rated employee" asks for the employee, ordered by the rating the words before
 * the table's row noun name (and "longest serving employee" by the start date); "How many categories?" counts the
 * different categories, as "how many categories are there?" does.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const fx = openTables([
  {
    id: "employees",
    file: "employees.csv",
    header: ["emp_id", "name", "team", "salary", "start_date", "rating"],
    rows: [
      ["1", "Rosa Vidal", "Ops", "61000", "2019-02-11", "4.2"],
      ["2", "Kenji Ueda", "Data", "83000", "2015-07-01", "3.6"],
      ["3", "Lea Brandt", "Ops", "57000", "2022-10-03", "4.9"],
      ["4", "Tariq Aziz", "Data", "90000", "2018-05-20", "4.0"],
    ],
  },
  {
    id: "products",
    file: "products.csv",
    header: ["sku", "product", "category", "price"],
    rows: [
      ["K-1", "Desk lamp", "Lighting", "39"],
      ["K-2", "Floor lamp", "Lighting", "89"],
      ["K-3", "Bookshelf", "Furniture", "120"],
      ["K-4", "Armchair", "Furniture", "240"],
      ["K-5", "Rug", "Textiles", "75"],
    ],
  },
] satisfies RawTable[]);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a superlative ending on the table's row noun", () => {
  it("answers the row's name, ordered by the measure the words before the noun name", () => {
    expect(answer("lowest rated employee", "employees")).toEqual(["Kenji Ueda"]);
    expect(answer("highest rated employee", "employees")).toEqual(["Lea Brandt"]);
    expect(answer("longest serving employee", "employees")).toEqual(["Kenji Ueda"]);
  });
  it("still answers the measure when it is asked for", () => {
    expect(answer("lowest rating", "employees")).toEqual(["3.6"]);
    expect(answer("What is the highest salary of an employee?", "employees")).toEqual(["90000"]);
    expect(answer("What is the lowest rated employee's salary?", "employees")).toEqual(["83000"]);
  });
});

describe("a count of the noun alone", () => {
  it("counts the different values of the column the noun names", () => {
    expect(answer("How many categories?", "products")).toEqual(["3"]);
    expect(answer("how many products", "products")).toEqual(["5"]);
  });
});
