/**
 * Flights, a task list, gym members, a weather log, a sales pipeline, laptops and a stock list, asked as people ask
 * them: a status of common words ("on time"), an adjective of a category ("rainy" of Rain), a did-question's verb of
 * a past-tense cell ("did we lose" of Lost), a number with its unit ("under 1.5 kg", "16 GB of RAM"), "the amount
 * of" an Amount column, a size that is no date, a standing since a start date, the noun counted after a linked value
 * ("the most open tasks"), the spread between the most and least expensive, "do we have any … in stock?", a kind of
 * row ("the cheapest house") answered by its name, "two-bedroom flats", a request's relative clause without "that", a polite request for a list, and "show me orders from …".
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "departures",
    file: "departures.csv",
    header: ["Flight", "To", "Departure", "Status"],
    rows: [
      ["ZX101", "Oslo", "07:45", "On time"],
      ["ZX202", "Lyon", "09:10", "Delayed"],
      ["ZX303", "Oslo", "11:30", "On time"],
      ["ZX404", "Porto", "13:05", "Cancelled"],
      ["ZX505", "Lyon", "16:20", "Delayed"],
    ],
  },
  {
    id: "todo",
    file: "todo.csv",
    header: ["Task", "Owner", "Due", "Status", "Estimate (h)"],
    rows: [
      ["Book venue", "Ravi", "2026-09-01", "Done", "2"],
      ["Print flyers", "Sun", "2026-09-08", "Open", "3"],
      ["Rewrite website", "Ravi", "2026-09-03", "Open", "14"],
      ["Order badges", "Tess", "2026-09-10", "Open", "1"],
      ["Call sponsors", "Sun", "2026-09-05", "Open", "5"],
      ["Plan catering", "Tess", "2026-09-02", "Done", "4"],
    ],
  },
  {
    id: "gym",
    file: "gym.csv",
    header: ["Member", "Plan", "Joined", "Visits"],
    rows: [
      ["Olek", "Basic", "2023-05-02", "7"],
      ["Pema", "Premium", "2020-11-17", "12"],
      ["Quim", "Basic", "2025-02-28", "3"],
      ["Runa", "Premium", "2022-01-09", "9"],
    ],
  },
  {
    id: "rainfall",
    file: "rainfall.csv",
    header: ["Date", "High", "Rain (mm)", "Sky"],
    rows: [
      ["2026-04-01", "14.5", "0", "Sun"],
      ["2026-04-02", "12.0", "6.5", "Rain"],
      ["2026-04-03", "11.2", "3.0", "Rain"],
      ["2026-04-04", "15.8", "0", "Sun"],
      ["2026-04-05", "13.1", "0.4", "Cloud"],
    ],
  },
  {
    id: "pipeline",
    file: "pipeline.csv",
    header: ["Deal", "Stage", "Value", "Billed", "Amount"],
    rows: [
      ["Alpha", "Won", "12000", "2026-01-10", "11800"],
      ["Beta", "Lost", "8000", "2026-02-03", "0"],
      ["Gamma", "Won", "20000", "2026-03-15", "19500"],
      ["Delta", "Negotiation", "5000", "2026-02-20", "0"],
    ],
  },
  {
    id: "deals",
    file: "deals.csv",
    header: ["Deal", "Company", "Stage", "Value ($)", "Owner", "Close Date"],
    rows: [
      ["Harbour renewal", "Harbour", "Won", "48000", "Kim", "2026-02-14"],
      ["Lumen pilot", "Lumen", "Negotiation", "15000", "Raj", "2026-04-30"],
      ["Cedar upgrade", "Cedar", "Lost", "22000", "Kim", "2026-01-31"],
      ["Orbit expansion", "Orbit", "Proposal", "61000", "Lea", "2026-05-15"],
      ["Quill trial", "Quill", "Won", "9000", "Raj", "2026-03-03"],
      ["Vega licences", "Vega", "Negotiation", "37000", "Lea", "2026-04-12"],
      ["Kestrel support", "Kestrel", "Won", "26000", "Kim", "2026-03-28"],
      ["Tundra onboarding", "Tundra", "Proposal", "12500", "Raj", "2026-06-01"],
    ],
  },
  {
    id: "notebooks",
    file: "notebooks.csv",
    header: ["Model", "Weight", "Screen", "RAM"],
    rows: [
      ["Kite 13", "1.2 kg", '13.3"', "8 GB"],
      ["Lark 14", "1.5 kg", '14"', "16 GB"],
      ["Moth 16", "2.1 kg", '16"', "16 GB"],
      ["Newt 15", "1.8 kg", '15.6"', "32 GB"],
    ],
  },
  {
    id: "lettings",
    file: "lettings.csv",
    header: ["Address", "Type", "Bedrooms", "Rent", "Tenant"],
    rows: [
      ["2 Quay Rd", "Flat", "2", "980", "Lia Moss"],
      ["9 Mill Ln", "House", "4", "1900", ""],
      ["31 Kirk St", "Flat", "1", "760", "Ode Park"],
      ["5 Vale Ct", "House", "3", "1450", "Ros Tan"],
      ["14 Dock Sq", "Flat", "2", "1040", "Uly Vos"],
    ],
  },
  {
    id: "fixtures",
    file: "fixtures.csv",
    header: ["Date", "Opponent", "Venue", "Result"],
    rows: [
      ["2026-08-02", "Rams", "Home", "W"],
      ["2026-08-09", "Owls", "Away", "W"],
      ["2026-08-16", "Foxes", "Home", "L"],
      ["2026-08-23", "Crows", "Home", "W"],
    ],
  },
  {
    id: "sales_orders",
    file: "sales_orders.csv",
    header: ["Order ID", "Customer", "Country", "Department", "Total"],
    rows: [
      ["5001", "Birk AS", "Norway", "Retail", "320"],
      ["5002", "Ceto SpA", "Italy", "Wholesale", "1250"],
      ["5003", "Birk AS", "Norway", "Wholesale", "610"],
      ["5004", "Dara Ltd", "Ireland", "Retail", "95"],
    ],
  },
  {
    id: "stockroom",
    file: "stockroom.csv",
    header: ["Item", "In Stock", "Unit Cost"],
    rows: [
      ["Easel", "4", "35.5"],
      ["Canvas", "0", "8.25"],
      ["Brush set", "22", "12.0"],
      ["Palette", "9", "3.75"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("flights, tasks, members, weather, deals and stock, asked plainly", () => {
  it("links a status of common words, 'on time', to its cells", () => {
    expect(answer("How many flights are on time?", "departures")).toEqual(["2"]);
  });

  it("links an adjective to the category cell it is made from, and counts rows rather than adding a column up", () => {
    expect(answer("How many rainy days were there?", "rainfall")).toEqual(["2"]);
  });

  it("links a did-question's verb to the past-tense cell it names", () => {
    expect(answer("What share of deals did we lose?", "deals")).toEqual(["12.5"]);
  });

  it("reads 'the amount of' as the Amount column", () => {
    expect(answer("What is the amount of the most recent deal?", "pipeline")).toEqual(["19500"]);
  });

  it("orders a size by a quantity, not by a date", () => {
    expect(answer("What is the biggest task?", "todo")).toEqual(["Rewrite website"]);
  });

  it("reads a standing up to now as the earliest start", () => {
    expect(answer("Who has been a member the longest?", "gym")).toEqual(["Pema"]);
  });

  it("counts the noun after a linked status, grouped by who", () => {
    expect(answer("Who has the most open tasks?", "todo")).toEqual(["Sun"]);
  });

  it("takes the spread between the most and the least expensive", () => {
    expect(answer("What's the difference between the most and least expensive items?", "stockroom")).toEqual(["31.75"]);
  });

  it("reads a number with its unit as a bound after a comparison word, and as the cell it names otherwise", () => {
    expect(answer("How many laptops weigh under 1.5 kg?", "notebooks")).toEqual(["1"]);
    expect(answer("How many laptops have 16 GB of RAM?", "notebooks")).toEqual(["2"]);
  });

  it("answers a kind of row by the row's name, not by another column", () => {
    expect(answer("What is the cheapest house?", "lettings")).toEqual(["5 Vale Ct"]);
  });

  it("reads a number joined to its noun as an equality on that noun's column", () => {
    expect(answer("How many two-bedroom flats are there?", "lettings")).toEqual(["2"]);
  });

  it("lists every row a request with a relative clause selects", () => {
    expect(answer("Give me the opponents we beat at home", "fixtures")).toEqual(["Rams", "Crows"]);
  });

  it("answers a polite request for a list, and a request for the rows by their own numbers", () => {
    expect(answer("Could you list all orders from Norway?", "sales_orders")).toEqual(["5001", "5003"]);
    expect(answer("Show me orders from Norway", "sales_orders")).toEqual(["5001", "5003"]);
  });

  it("answers whether some of an item is in stock", () => {
    expect(answer("Do we have any easels in stock?", "stockroom")).toEqual(["yes"]);
    expect(answer("Do we have any canvases in stock?", "stockroom")).toEqual(["no"]);
  });
});
