/**
 * A bike workshop's service list, a week of film nights and a shop's orders, asked as people ask: a
 * "2024-09" column is a column of months ("due for a service in September 2024"), the date column the
 * most question words name ("Next Service Due", not "Last Service"), "its next service" names a header,
 * "the earliest screening on 15 October" orders by the start time the date leaves open, and "haven't
 * shipped" is a negation.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { rankTargetColumns } from "../../../nodes/offline/columns.js";

const SERVICE: RawTable = {
  id: "bike_service",
  file: "bike_service.csv",
  header: ["Bike", "Owner", "Bought", "Last Service", "Next Service Due", "Service Cost"],
  rows: [
    ["Roadster 3", "Ola Berg", "12/05/2019", "03/02/2024", "2024-08", "£45"],
    ["Gravel X", "Pia Moe", "01/09/2021", "17/03/2024", "2024-09", "£60"],
    ["City Cruiser", "Tor Aas", "23/11/2018", "28/12/2023", "2024-06", "£35"],
    ["Mountain Pro", "Une Lie", "14/02/2022", "09/04/2024", "2024-10", "£80"],
    ["Tandem Duo", "Siv Holm", "05/08/2017", "22/02/2024", "2024-09", "£95"],
  ],
};
const NIGHTS: RawTable = {
  id: "film_nights",
  file: "film_nights.csv",
  header: ["Film", "Night", "Start", "Hall"],
  rows: [
    ["Blue Harbour", "14 October 2025", "18:00", "Hall 1"],
    ["Silent Orchard", "14 October 2025", "20:30", "Hall 2"],
    ["Iron Meadow", "15 October 2025", "21:15", "Hall 2"],
    ["Paper Kites", "15 October 2025", "17:45", "Hall 1"],
  ],
};
const ORDERS: RawTable = {
  id: "web_orders",
  file: "web_orders.csv",
  header: ["Order ID", "Customer", "Amount", "Shipped"],
  rows: [
    ["1001", "Acme Ltd", "450.00", "Yes"],
    ["1002", "Brightway", "120.50", "No"],
    ["1003", "Acme Ltd", "980.00", "Yes"],
    ["1004", "Corvus Inc", "310.00", "No"],
    ["1005", "Delta Co", "640.25", "Yes"],
  ],
};

const fixture = openTables([SERVICE, NIGHTS, ORDERS]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a bike workshop's service list", () => {
  it("reads a column of year-months by the month a question names, on the date column its words name", () => {
    expect(answer("How many bikes are due for a service in September 2024?", "bike_service")).toEqual(["2"]);
    expect(answer("Which bikes are due for service before August 2024?", "bike_service")).toEqual(["City Cruiser"]);
  });
  it("reads 'its next service' as the Next Service Due column, not the next row", () => {
    expect(answer("When is the Gravel X due for its next service?", "bike_service")).toEqual(["2024-09"]);
  });
});

describe("a week of film nights", () => {
  it("orders by the start time when a date pins the night", () => {
    expect(answer("What is the earliest screening on 15 October 2025?", "film_nights")).toEqual(["Paper Kites"]);
  });
});

describe("a shop's orders", () => {
  it("reads 'haven't shipped' as a negation", () => {
    expect(answer("How many orders haven't shipped yet?", "web_orders")).toEqual(["2"]);
  });
});

const PARCELS: RawTable = {
  id: "parcels",
  file: "parcels.csv",
  header: ["Tracking No", "Client", "Courier", "Weight (kg)", "Cost", "Ordered", "Days in Transit", "On Time"],
  rows: [
    ["TR-881", "Nora Lind", "FastShip", "2.4", "€18.50", "2025-03-03", "3", "Yes"],
    ["TR-882", "Omar Said", "ParcelGo", "0.8", "€9.90", "2025-03-03", "2", "Yes"],
    ["TR-883", "Pia Moe", "FastShip", "5.1", "€31.00", "2025-03-04", "6", "No"],
    ["TR-884", "Nora Lind", "ParcelGo", "1.2", "€12.40", "2025-03-05", "3", "Yes"],
    ["TR-885", "Ravi Shah", "EuroPost", "3.7", "€22.80", "2025-03-06", "2", "Yes"],
  ],
};
const shipping = openTables([PARCELS]);
afterAll(() => shipping.close());

describe("a courier's parcels", () => {
  it("compares groups' averages an adjective names: 'fastest' by a duration, 'most expensive' by the cost", () => {
    expect(planColumn(shipping, "Which courier is fastest on average?", "parcels")).toEqual(["EuroPost"]);
    expect(planColumn(shipping, "most expensive courier on average", "parcels")).toEqual(["FastShip"]);
  });
  it("answers 'who' with a person, not a date a verb names", () => {
    expect(planColumn(shipping, "Who ordered TR-884?", "parcels")).toEqual(["Nora Lind"]);
    expect(planColumn(shipping, "who ordered on March 6, 2025?", "parcels")).toEqual(["Ravi Shah"]);
    // (Even when the date column scores best, it ranks after the columns that can name someone.)
    const catalog = shipping.catalog("parcels");
    const ordered = catalog.columns.findIndex((c) => c.schema.name === "Ordered");
    const ranked = rankTargetColumns(analyzeQuestion("who ordered TR-884?"), catalog, [], { prefer: ordered });
    expect(ranked[0]?.column.schema.name).not.toBe("Ordered");
    expect(ranked.findIndex((r) => r.column.schema.name === "Ordered")).toBeGreaterThan(
      ranked.findIndex((r) => r.column.schema.name === "Client"),
    );
  });
});
