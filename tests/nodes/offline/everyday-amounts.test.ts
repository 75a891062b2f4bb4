/**
 * Amounts measured and added up (the eighth and ninth everyday suites' causes, on tables of their own):
 * "how many hours/tonnes/km …" is an amount, not a whole count; "how much was collected in fees?" adds a
 * column up; "which site served the most meals overall?" totals each group; "which item do we have the most
 * of?" reads the stock column; "tickets" sold are the "Tix Sold" of ticket_sales.csv, not its rows; the noun
 * after "which" names the rows asked for, not what orders them; dates written "03-Apr-2024" are dates.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseDate } from "../../../indexing/column-types.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { fitsKind } from "../../../nodes/offline/answer-kind.js";
import { chooseOrderColumn } from "../../../nodes/offline/columns.js";
import { openTables, planColumn } from "./fixtures.js";

const SHIFTS: RawTable = {
  id: "kitchen_shifts",
  file: "kitchen_shifts.csv",
  header: ["Shift ID", "Helper", "Site", "Shift Date", "Hrs", "Meals", "Fee"],
  rows: [
    ["K-101", "Ada Moss", "Harbour", "14-Mar-2024", "3.5", "70", "12"],
    ["K-102", "Ben Ruiz", "Hilltop", "02-Feb-2024", "6", "95", "26"],
    ["K-103", "Ada Moss", "Hilltop", "21-Jan-2024", "5.5", "60", "15"],
    ["K-104", "Cleo Park", "Harbour", "09-Apr-2024", "8", "60", "25"],
    ["K-105", "Ben Ruiz", "Harbour", "30-Mar-2024", "2", "65", "10"],
    ["K-106", "Cleo Park", "Hilltop", "11-May-2024", "0.5", "20", "14"],
  ],
};
const STOCK: RawTable = {
  id: "tea_stock",
  file: "tea_stock.csv",
  header: ["SKU", "Tea", "Grade", "Qty on Hand", "Reorder Lvl", "Unit Cost (€)"],
  rows: [
    ["T-01", "Sencha", "A", "140", "50", "3.20"],
    ["T-02", "Assam", "B", "310", "80", "2.10"],
    ["T-03", "Oolong", "A", "45", "40", "5.75"],
    ["T-04", "Rooibos", "C", "220", "60", "1.90"],
  ],
};
const SALES: RawTable = {
  id: "ticket_sales",
  file: "ticket_sales.csv",
  header: ["Act", "Hall", "Show Date", "Tix Sold", "Gross ($)"],
  rows: [
    ["Glass Owls", "North Hall", "Jun 3, 2024", "410", "$12,300"],
    ["Paper Moons", "Riverside", "Jun 9, 2024", "220", "$5,060"],
    ["Iron Ferns", "North Hall", "Jul 1, 2024", "515", "$18,025"],
    ["Low Tides", "Riverside", "Jul 8, 2024", "130", "$3,900"],
  ],
};

const GIFTS: RawTable = {
  id: "church_gifts",
  file: "church_gifts.csv",
  header: ["Receipt No.", "Donor", "Amount", "Method", "Appeal", "Gift Aid", "Town"],
  rows: [
    ["G-01", "Ann Lowe", "£40.00", "Card", "Roof Fund", "TRUE", "Leeds"],
    ["G-02", "Bo Chan", "£900.00", "Cheque", "Organ", "FALSE", "York"],
    ["G-03", "Ann Lowe", "£700.00", "Card", "Roof Fund", "TRUE", "Leeds"],
    ["G-04", "Cy Moss", "£20.00", "Cash", "Organ", "TRUE", "York"],
    ["G-05", "Ann Lowe", "£300.00", "Card", "Roof Fund", "FALSE", "Leeds"],
  ],
};
const WALKS: RawTable = {
  id: "walks",
  file: "walks.csv",
  header: ["Walk", "Length (km)", "Elev. Gain (m)", "Dur. (h)", "Pace (km/h)"],
  rows: [
    ["Fell Loop", "12.5", "640", "4.5", "2.8"],
    ["Beck Path", "6", "120", "2", "3"],
    ["Crag Round", "9.2", "910", "3.5", "2.6"],
  ],
};

const OVEN: RawTable = {
  id: "oven_log",
  file: "oven_log.csv",
  header: ["Day", "Item", "Baker", "Qty Baked", "Qty Sold"],
  rows: [
    ["Mon", "Rye Loaf", "Ola", "30", "25"],
    ["Mon", "Bun", "Piet", "80", "79"],
    ["Tue", "Rye Loaf", "Ola", "30", "28"],
    ["Tue", "Bun", "Piet", "60", "58"],
    ["Sat", "Bun", "Ola", "70", "70"],
    ["Sat", "Rye Loaf", "Piet", "40", "40"],
  ],
};

const fixture = openTables([SHIFTS, STOCK, SALES, GIFTS, WALKS, OVEN]);
const catalog = (id: string) => fixture.catalog(id);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("amounts measured and added up", () => {
  it("asks for any number, not a whole count, when 'how many' names a unit of measure", () => {
    expect(analyzeQuestion("How many hours has Ada Moss put in?").answerType).toBe("number");
    expect(analyzeQuestion("how many tonnes of oats in total?").answerType).toBe("number");
    expect(analyzeQuestion("how many km did members ride in total?").answerType).toBe("number");
    // (Things and days are counted whole.)
    expect(analyzeQuestion("how many crates are in stock?").answerType).toBe("count");
    expect(analyzeQuestion("how many days did the strike last?").answerType).toBe("count");
    expect(fitsKind("10.25", "number")).toBe(true);
    expect(fitsKind("10.25", "count")).toBe(false);
    expect(answer("How many hours has Ada Moss put in?", "kitchen_shifts")).toEqual(["9"]);
  });

  it("adds a column up for what a whole group took in", () => {
    expect(answer("How much was collected in fees?", "kitchen_shifts")).toEqual(["102"]);
    expect(answer("how much have we taken in fees?", "kitchen_shifts")).toEqual(["102"]);
    expect(answer("how much did we collect in fees from Ben Ruiz", "kitchen_shifts")).toEqual(["36"]);
  });

  it("totals each group when asked 'in total' or 'the most … overall', or by a verb that names the column", () => {
    // Each total's winner differs from the single row's: Harbour serves 195 meals, Hilltop 175 with the
    // biggest shift (95); Ada Moss has 9 hours, Cleo Park the longest shift; Cleo Park billed 39, Ben Ruiz
    // the biggest fee (26).
    expect(answer("Which site served the most meals overall?", "kitchen_shifts")).toEqual(["Harbour"]);
    expect(answer("helper with the most total hours", "kitchen_shifts")).toEqual(["Ada Moss"]);
    expect(answer("Which helper billed the most in total?", "kitchen_shifts")).toEqual(["Cleo Park"]);
    expect(analyzeQuestion("helper with the most total hours").answerType).toBe("entity");
    expect(analyzeQuestion("shift with the highest fee").answerType).toBe("entity");
  });

  it("reads the stock column for what is held the most of", () => {
    expect(answer("Which tea do we have the most of?", "tea_stock")).toEqual(["Assam"]);
    expect(answer("what do we have the least of in stock", "tea_stock")).toEqual(["Oolong"]);
  });

  it("sums the column the counted noun names when it is not what a row is", () => {
    expect(answer("How many tickets were sold at North Hall?", "ticket_sales")).toEqual(["925"]);
    expect(answer("how many shows were at Riverside?", "ticket_sales")).toEqual(["2"]);
  });

  it("orders by what the verb names, not by the column the noun after 'which' names", () => {
    const a = analyzeQuestion("Which show grossed the least?");
    expect(chooseOrderColumn(a, catalog("ticket_sales"), [])?.column.schema.name).toBe("Gross ($)");
  });

  it("reads day-month-year dates with a month name and dashes or slashes", () => {
    expect(parseDate("03-Apr-2024")).toBe("2024-04-03");
    expect(parseDate("3/Apr/2024")).toBe("2024-04-03");
    expect(parseDate("3rd Mar, 2024")).toBe("2024-03-03");
    expect(parseDate("12-May-99")).toBeNull();
    expect(catalog("kitchen_shifts").columns.find((c) => c.schema.name === "Shift Date")?.schema.type).toBe("date");
    expect(answer("earliest shift date", "kitchen_shifts")).toEqual(["21-Jan-2024"]);
  });
});

describe("money given and measures named another way", () => {
  it("does not read a word before a measure's name as a yes/no filter", () => {
    // (mean of all five gifts, not of the three with Gift Aid)
    expect(answer("avg gift amount", "church_gifts")).toEqual(["392"]);
    expect(answer("how many gift aid donations", "church_gifts")).toEqual(["3"]);
  });

  it("totals each group for money a group gave or raised", () => {
    // Leeds (and Ann Lowe) gave 1,040 over three gifts, York 920 with the single biggest gift (Bo Chan's).
    expect(answer("Which town gave the most money?", "church_gifts")).toEqual(["Leeds"]);
    expect(answer("Which appeal raised the most?", "church_gifts")).toEqual(["Roof Fund"]);
    expect(answer("Who has given the most in total?", "church_gifts")).toEqual(["Ann Lowe"]);
    expect(answer("What's the most popular way to pay?", "church_gifts")).toEqual(["Card"]);
    expect(analyzeQuestion("whose gift was the largest?").answerType).toBe("person");
  });

  it("names an elevation gain by climbing and a duration by hours, but not a speed in km/h", () => {
    expect(answer("How much climbing is there on Crag Round?", "walks")).toEqual(["910"]);
    expect(answer("shortest walk in hours", "walks")).toEqual(["2"]);
    expect(catalog("walks").columns.find((c) => c.schema.name === "Pace (km/h)")?.headerWords).not.toContain("hour");
  });
});

describe("what a verb names, added up", () => {
  it("totals each group for 'which day did we sell the most?'", () => {
    // Saturday sold 110 over two batches; Monday's bun batch (79) is the biggest single one.
    expect(answer("Which day did we sell the most?", "oven_log")).toEqual(["Sat"]);
  });

  it("adds up the quantity column a passive verb names for things that are a value of the table", () => {
    expect(answer("How many buns were baked this week?", "oven_log")).toEqual(["210"]);
    expect(answer("how many buns were sold", "oven_log")).toEqual(["207"]);
  });
});
