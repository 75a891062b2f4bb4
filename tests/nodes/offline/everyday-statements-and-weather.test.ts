/**
 * A bank statement, a step log, bookings, a talk schedule, a podcast list, daily weather, a league table, a
 * timesheet and product reviews, asked as people ask them: money spent at a shop (its Debit), "how much came
 * in?" (the Credit), the closing balance (the last row's); "who didn't show up?" (a "No-show" cell, not
 * everyone else); "which talks does X give?" (all of them); "reach 10,000 steps" (at least); "episodes that had
 * a guest" (a filled Guest cell); "episode 7" of an "Ep" column; "the second half of the year"; "the coldest
 * night" (the Low column's minimum), "the windiest day", "days it rained", "dry days", "above 30 degrees"; "01 Jul"
 * is a day, not the number 1; "where are X in the table?" (the position); "who worked the most hours?" (each
 * person's total); "the best average rating" of a Stars column; "the most recent review" by its date.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { parseNumber } from "../../../indexing/column-types.js";
import { cellNumber } from "../../../indexing/table-profile.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { undoTypedSlips } from "../../../text/typed-words.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "current_account",
    file: "current_account.csv",
    header: ["Date", "Description", "Debit", "Credit", "Balance"],
    rows: [
      ["02/04/2025", "Wages Fernhill Ltd", "", "1900.00", "2400.00"],
      ["04/04/2025", "Greenway Market", "41.50", "", "2358.50"],
      ["07/04/2025", "Rent - Birch Homes", "800.00", "", "1558.50"],
      ["09/04/2025", "Greenway Market", "28.25", "", "1530.25"],
      ["12/04/2025", "Refund Corner Shop", "", "12.00", "1542.25"],
      ["15/04/2025", "Bus Pass", "60.00", "", "1482.25"],
    ],
  },
  {
    id: "walk_log",
    file: "walk_log.csv",
    header: ["Date", "Steps", "Distance (km)"],
    rows: [
      ["2025-05-01", "10400", "7.8"],
      ["2025-05-02", "6100", "4.6"],
      ["2025-05-03", "10000", "7.5"],
      ["2025-05-04", "12850", "9.6"],
    ],
  },
  {
    id: "table_bookings",
    file: "table_bookings.csv",
    header: ["Booking", "Name", "Party Size", "Status"],
    rows: [
      ["BK-1", "Ferris", "2", "Seated"],
      ["BK-2", "Amadi", "4", "No-show"],
      ["BK-3", "Quist", "3", "Cancelled"],
      ["BK-4", "Laine", "6", "No-show"],
      ["BK-5", "Okoro", "2", "Seated"],
    ],
  },
  {
    id: "talks",
    file: "talks.csv",
    header: ["Session", "Speaker", "Room"],
    rows: [
      ["Queues at Scale", "Ines Lobo", "Room 1"],
      ["Typed Forms", "Marek Sto", "Room 2"],
      ["Faster Builds", "Ines Lobo", "Room 2"],
    ],
  },
  {
    id: "radio_episodes",
    file: "radio_episodes.csv",
    header: ["Ep", "Title", "Guest", "Published"],
    rows: [
      ["1", "Night Trains", "Lea Brandt", "2024-09-02"],
      ["2", "Listener Letters", "", "2024-09-16"],
      ["3", "Rivers of Salt", "Omar Dey", "2024-09-30"],
      ["4", "Small Kitchens", "", "2024-10-14"],
      ["5", "Old Radios", "Ida Moss", "2024-10-28"],
    ],
  },
  {
    id: "claims_2024",
    file: "claims_2024.csv",
    header: ["Claim", "Type", "Filed"],
    rows: [
      ["C-1", "Home", "2024-02-11"],
      ["C-2", "Auto", "2024-07-03"],
      ["C-3", "Auto", "2024-09-20"],
      ["C-4", "Travel", "2024-05-30"],
      ["C-5", "Home", "2024-12-01"],
    ],
  },
  {
    id: "august_weather",
    file: "august_weather.csv",
    header: ["Date", "High (°C)", "Low (°C)", "Rain (mm)", "Wind (km/h)"],
    rows: [
      ["01 Aug", "27", "16", "0", "12"],
      ["02 Aug", "31", "19", "2.5", "30"],
      ["03 Aug", "24", "13", "0", "18"],
      ["04 Aug", "33", "21", "0", "9"],
      ["05 Aug", "22", "14", "6.0", "22"],
    ],
  },
  {
    id: "county_league",
    file: "county_league.csv",
    header: ["Pos", "Team", "W", "D", "L", "Pts"],
    rows: [
      ["1", "Millbrook", "9", "2", "1", "29"],
      ["2", "Ashford Vale", "7", "3", "2", "24"],
      ["3", "Kestrel Town", "5", "4", "3", "19"],
    ],
  },
  {
    id: "team_hours",
    file: "team_hours.csv",
    header: ["Date", "Employee", "Project", "Hours"],
    rows: [
      ["2025-06-02", "Rui", "Atlas", "9"],
      ["2025-06-02", "Sana", "Beacon", "7"],
      ["2025-06-03", "Rui", "Beacon", "4"],
      ["2025-06-03", "Sana", "Beacon", "8"],
      ["2025-06-04", "Rui", "Atlas", "2"],
      ["2025-06-04", "Sana", "Atlas", "3"],
    ],
  },
  {
    id: "gadget_reviews",
    file: "gadget_reviews.csv",
    header: ["Review", "Product", "Stars", "Helpful Votes", "Posted"],
    rows: [
      ["RV1", "Loop Kettle", "3", "30", "03/14/2025"],
      ["RV2", "Nook Lamp", "5", "2", "05/02/2025"],
      ["RV3", "Loop Kettle", "2", "12", "01/20/2025"],
      ["RV4", "Nook Lamp", "4", "25", "02/11/2025"],
    ],
  },
  {
    id: "launch_todo",
    file: "launch_todo.csv",
    header: ["Task", "Owner", "Due", "Done", "Priority"],
    rows: [
      ["Book hall", "Ama", "2025-03-10", "✓", "High"],
      ["Send invites", "Bo", "2025-03-14", "", "High"],
      ["Order food", "Ama", "2025-03-20", "", "Medium"],
      ["Print badges", "Cyd", "2025-03-25", "✓", "Low"],
      ["Confirm speakers", "Ama", "2025-03-12", "", "High"],
    ],
  },
  {
    id: "deal_board",
    file: "deal_board.csv",
    header: ["Deal", "Account", "Value", "Owner"],
    rows: [
      ["D-1", "Alder Co", "$4,500", "Hana"],
      ["D-2", "Birch Co", "$40,000", "Jorge"],
      ["D-3", "Cedar Co", "$12,000", "Hana"],
    ],
  },
  {
    id: "form_attendance",
    file: "form_attendance.csv",
    header: ["Pupil", "Form", "Present", "Late"],
    rows: [
      ["Ayo", "7A", "58", "0"],
      ["Bea", "7B", "51", "3"],
      ["Cas", "7A", "55", "2"],
    ],
  },
  {
    id: "shop_orders",
    file: "shop_orders.csv",
    header: ["order_no", "order_date", "customer", "product", "qty", "unit_price", "status"],
    rows: [
      ["SO-5000", "2025-01-24", "Kite Ltd", "Bracket", "8", "59.00", "Cancelled"],
      ["SO-5001", "2025-05-07", "Ouse Co", "Widget", "8", "4.25", "Delivered"],
      ["SO-5002", "2025-01-09", "Norr AB", "Gadget", "5", "9.99", "Cancelled"],
      ["SO-5003", "2025-02-11", "Pell Inc", "Hinge", "2", "24.50", "Shipped"],
      ["SO-5004", "2025-03-19", "Kite Ltd", "Panel", "1", "120.00", "Delivered"],
    ],
  },
  {
    id: "medal_count",
    file: "medal_count.csv",
    header: ["Nation", "Gold", "Silver", "Bronze"],
    rows: [
      ["Norland", "3", "1", "0"],
      ["Estavia", "0", "2", "1"],
      ["Marlow", "1", "0", "2"],
      ["Quenta", "0", "0", "1"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a bank statement", () => {
  it("adds up the Debit for money spent and the Credit for money that came in", () => {
    expect(answer("How much did I spend at Greenway Market?", "current_account")).toEqual(["69.75"]);
    expect(answer("How much money came in?", "current_account")).toEqual(["1912"]);
    expect(answer("How much went out?", "current_account")).toEqual(["929.75"]);
  });
  it("reads the closing balance from the last row", () => {
    expect(answer("What was the closing balance?", "current_account")).toEqual(["1482.25"]);
  });
});

describe("rows a plain phrase selects", () => {
  it("selects the cell that holds the negation itself", () => {
    expect(answer("Who didn't show up?", "table_bookings")).toEqual(["Amadi", "Laine"]);
    expect(answer("Which bookings were not cancelled?", "table_bookings")).toEqual(["BK-1", "BK-2", "BK-4", "BK-5"]);
  });
  it("lists every talk of a speaker for a plural object", () => {
    expect(answer("Which sessions does Ines Lobo give?", "talks")).toEqual(["Queues at Scale", "Faster Builds"]);
  });
  it("reads 'reach 10,000 steps' as at least", () => {
    expect(answer("How many days did I reach 10,000 steps?", "walk_log")).toEqual(["3"]);
  });
  it("selects the filled (or empty) cells of the column the noun after 'a' names", () => {
    expect(answer("How many episodes had a guest?", "radio_episodes")).toEqual(["3"]);
    expect(answer("How many episodes went out without a guest?", "radio_episodes")).toEqual(["2"]);
    expect(answer("When was episode 4 published?", "radio_episodes")).toEqual(["2024-10-14"]);
  });
  it("reads 'the second half of the year' as July to December", () => {
    expect(undoTypedSlips("claims filed in the second half of the year")).toBe("claims filed from july to december");
    expect(answer("How many claims were filed in the second half of the year?", "claims_2024")).toEqual(["3"]);
  });
});

describe("daily weather", () => {
  it("orders by the side of the temperature a superlative names", () => {
    expect(answer("What was the coldest night?", "august_weather")).toEqual(["03 Aug"]);
    expect(answer("What was the hottest day?", "august_weather")).toEqual(["04 Aug"]);
    expect(answer("What was the windiest day?", "august_weather")).toEqual(["02 Aug"]);
  });
  it("counts the days it rained, the dry days and the days above a temperature", () => {
    expect(answer("How many days did it rain?", "august_weather")).toEqual(["2"]);
    expect(answer("How many dry days were there?", "august_weather")).toEqual(["3"]);
    expect(answer("How many days were above 30 degrees?", "august_weather")).toEqual(["2"]);
  });
  it("reads a day of a month as no number", () => {
    expect(parseNumber("01 Aug")).toBeNull();
    expect(cellNumber("3 March")).toBeNull();
    expect(parseNumber("12 kg")).toBe(12);
    expect(cellNumber("2.8 miles (4.5 km)")).toBe(2.8);
    expect(fx.catalog("august_weather").columns[0]!.numericShare).toBe(0);
  });
});

describe("standings, hours and reviews", () => {
  it("reads 'where are X in the table?' as the position", () => {
    expect(answer("Where are Kestrel Town in the table?", "county_league")).toEqual(["3"]);
  });
  it("adds up each person's or project's hours", () => {
    expect(answer("Who worked the most hours?", "team_hours")).toEqual(["Sana"]);
    expect(answer("Which project had the most hours?", "team_hours")).toEqual(["Beacon"]);
  });
  it("reads a rating from a Stars column and the most recent review by its date", () => {
    expect(answer("Which product has the best average rating?", "gadget_reviews")).toEqual(["Nook Lamp"]);
    expect(answer("What is the average rating of the Loop Kettle?", "gadget_reviews")).toEqual(["2.5"]);
    expect(answer("What was the most recent review?", "gadget_reviews")).toEqual(["RV2"]);
  });
});

describe("a to-do list, deals, attendance and medals", () => {
  it("reads a Done column by its own word, and 'open' as its unticked rows", () => {
    expect(answer("Which tasks are done?", "launch_todo")).toEqual(["Book hall", "Print badges"]);
    expect(answer("How many tasks are still open?", "launch_todo")).toEqual(["3"]);
    expect(answer("Which high priority tasks aren't done yet?", "launch_todo")).toEqual([
      "Send invites",
      "Confirm speakers",
    ]);
  });
  it("answers 'what did X order?' with the product, not the order's number", () => {
    expect(analyzeQuestion("What did Ouse Co order?").targetHints.slice(0, 2)).toEqual(["product", "item"]);
    expect(answer("What did Ouse Co order?", "shop_orders")).toEqual(["Widget"]);
  });
  it("answers 'who' by the agent noun of its verb, and counts each person's rows", () => {
    expect(answer("Who owns the biggest deal?", "deal_board")).toEqual(["Jorge"]);
    expect(answer("Who has the most tasks?", "launch_todo")).toEqual(["Ama"]);
  });
  it("reads a tally named by the word after 'was', and a negated count column at zero", () => {
    expect(answer("How many times was Bea late?", "form_attendance")).toEqual(["3"]);
    expect(answer("Who was never late?", "form_attendance")).toEqual(["Ayo"]);
    expect(answer("Which nations did not win any gold medals?", "medal_count")).toEqual(["Estavia", "Quenta"]);
    expect(answer("How many nations did not win a silver medal?", "medal_count")).toEqual(["2"]);
  });
});
