/**
 * A shop's products and a firm's staff, asked as people ask: "which products are out of stock?" (a Stock
 * of 0; of a yes/no "In Stock" column its no cells), "how many are in stock?" (more than 0, while "how many
 * units are in stock in total?" adds them up), "the cheapest bag" (the Bags category by its singular),
 * "which department has the highest average salary?" (the group's mean, not the table's), "where is X
 * based?" (an Office), "how many people does X manage?" (the Manager column; "manage" is no typo of a
 * "Sales Manager" title); a row by its name, not its code or date, when no column is called Name; orders: "how many customers do we have?" (distinct customers), "which region
 * brought in the most revenue?" (the region's total), "the lowest stock level" (the value, not the row);
 * "who earns less than Ben?" (the others beyond the named row's value).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const GOODS: RawTable = {
  id: "outdoor_goods",
  file: "outdoor_goods.csv",
  header: ["SKU", "Product", "Category", "Price", "Stock", "Rating"],
  rows: [
    ["G-1", "Trail Pack", "Bags", "89.99", "14", "4.6"],
    ["G-2", "City Tote", "Bags", "34.50", "0", "4.1"],
    ["G-3", "Rain Shell", "Clothing", "129.00", "7", "4.8"],
    ["G-4", "Wool Socks", "Clothing", "12.99", "120", "4.4"],
    ["G-5", "Camp Stove", "Gear", "59.00", "22", "4.2"],
    ["G-6", "Headlamp", "Gear", "24.95", "0", "4.7"],
  ],
};
const SHELF: RawTable = {
  id: "kitchen_shelf",
  file: "kitchen_shelf.csv",
  header: ["Item", "Price", "In Stock"],
  rows: [
    ["Kettle", "25", "Yes"],
    ["Toaster", "40", "No"],
    ["Blender", "60", "Yes"],
    ["Mixer", "85", "No"],
  ],
};
const STAFF: RawTable = {
  id: "firm_staff",
  file: "firm_staff.csv",
  header: ["Employee", "Department", "Title", "Salary", "Office", "Manager"],
  rows: [
    ["Ana Ruiz", "Sales", "Account Executive", "72000", "Madrid", "Omar Haddad"],
    ["Ben Cole", "Marketing", "Content Lead", "65000", "London", "Priya Shah"],
    ["Cy Park", "Engineering", "Senior Engineer", "118000", "Seoul", "Liam Ortiz"],
    ["Dee Moss", "Engineering", "Engineer", "94000", "London", "Liam Ortiz"],
    ["Eli Stone", "Sales", "Sales Manager", "99000", "Madrid", "Omar Haddad"],
    ["Fay Lin", "HR", "HR Partner", "61000", "London", "Priya Shah"],
    ["Hana Ito", "Marketing", "Designer", "58000", "London", "Priya Shah"],
  ],
};

const ORDERS: RawTable = {
  id: "shop_orders",
  file: "shop_orders.csv",
  header: ["Order ID", "Customer", "Amount", "Region"],
  rows: [
    ["1001", "Harbor Cafe", "250.00", "North"],
    ["1002", "Blue Fern", "125.50", "South"],
    ["1003", "Harbor Cafe", "430.00", "North"],
    ["1004", "Pine Market", "560.00", "West"],
    ["1005", "Blue Fern", "310.25", "South"],
  ],
};

const BINS: RawTable = {
  id: "warehouse_bins",
  file: "warehouse_bins.csv",
  header: ["SKU", "Item", "On Hand", "Unit Cost"],
  rows: [
    ["WB-1", "Wall Anchor", "45", "0.20"],
    ["WB-2", "Hinge", "310", "1.10"],
    ["WB-3", "LED Bulb", "520", "2.40"],
    ["WB-4", "Door Stop", "90", "3.00"],
  ],
};

const GAMES: RawTable = {
  id: "season_games",
  file: "season_games.csv",
  header: ["Game #", "Date", "Opponent", "Result"],
  rows: [
    ["101", "October 28", "Riverside", "W"],
    ["102", "November 4", "at Northgate", "L"],
    ["103", "November 11", "Harbor Town", "W"],
    ["104", "November 18", "at Eastfield", "W"],
  ],
};

const fixture = openTables([GOODS, SHELF, STAFF, ORDERS, BINS, GAMES]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("stock, as a shop says it", () => {
  it("reads 'out of stock' as a Stock of 0 and 'in stock' as more than 0", () => {
    expect(answer("Which products are out of stock?", "outdoor_goods")).toEqual(["City Tote", "Headlamp"]);
    expect(answer("How many products are in stock?", "outdoor_goods")).toEqual(["4"]);
    expect(answer("How many units are in stock in total?", "outdoor_goods")).toEqual(["163"]);
  });

  it("reads them as the yes and no cells of an In Stock column", () => {
    expect(answer("Which items are out of stock?", "kitchen_shelf")).toEqual(["Toaster", "Mixer"]);
    expect(answer("How many items are in stock?", "kitchen_shelf")).toEqual(["2"]);
  });

  it("answers a row by its name, not its code nor its date, when no column is called Name", () => {
    expect(answer("What's the most expensive item?", "outdoor_goods")).toEqual(["Rain Shell"]);
    expect(answer("What was the last game of the season?", "season_games")).toEqual(["at Eastfield"]);
    expect(answer("Which game was the first one we lost?", "season_games")).toEqual(["at Northgate"]);
  });

  it("names a category by its singular after a superlative", () => {
    expect(answer("What is the cheapest bag?", "outdoor_goods")).toEqual(["City Tote"]);
    expect(answer("Which bag has the best rating?", "outdoor_goods")).toEqual(["Trail Pack"]);
  });
});

describe("groups and people", () => {
  it("ranks groups by their own average", () => {
    expect(answer("Which department has the highest average salary?", "firm_staff")).toEqual(["Engineering"]);
    expect(answer("Which office has the lowest average salary?", "firm_staff")).toEqual(["London"]);
    expect(answer("Which category has the highest average price?", "outdoor_goods")).toEqual(["Clothing"]);
  });

  it("reads where someone is based and whom they manage", () => {
    expect(answer("Where is Fay Lin based?", "firm_staff")).toEqual(["London"]);
    expect(answer("How many people does Priya Shah manage?", "firm_staff")).toEqual(["3"]);
  });
});

describe("orders and levels", () => {
  it("counts the customers, not the orders, and totals a region's revenue", () => {
    expect(answer("How many customers do we have?", "shop_orders")).toEqual(["3"]);
    expect(answer("Which region brought in the most revenue?", "shop_orders")).toEqual(["North"]);
    expect(answer("Which order brought in the most revenue?", "shop_orders")).toEqual(["1004"]);
  });

  it("answers 'the lowest stock level' with the level", () => {
    expect(answer("lowest stock level", "warehouse_bins")).toEqual(["45"]);
  });
});

describe("rows beyond a named row", () => {
  it("lists the others of its kind beyond the named row's value, and counts them", () => {
    expect(answer("Who earns less than Ben Cole?", "firm_staff")).toEqual(["Fay Lin", "Hana Ito"]);
    expect(answer("Which products cost more than the Camp Stove?", "outdoor_goods")).toEqual([
      "Trail Pack",
      "Rain Shell",
    ]);
    expect(answer("How many employees earn more than Ana Ruiz?", "firm_staff")).toEqual(["3"]);
    expect(answer("Name everyone who earns more than Dee Moss.", "firm_staff")).toEqual(["Cy Park", "Eli Stone"]);
  });

  it("reads a number after 'than' as a bound, though a row is named later", () => {
    expect(answer("Who earns more than 90000 in the Engineering department?", "firm_staff")).toEqual([
      "Cy Park",
      "Dee Moss",
    ]);
  });
});
