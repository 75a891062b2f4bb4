/**
 * Stock lists, timetables, playlists and trackers, asked in a user's words: the stock of one item
 * ("how many webcams are left?"), a column of counts whose values look like years ("Units Sold" of 1,400),
 * a header in degrees, clock times around noon, durations written "3:42", the nth row of a numbered list,
 * and words that name a column by its verb ("handling", "open") or by a month in brackets ("Visits (May)").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { linkCandidates } from "../../../nodes/offline/condition-links.js";
import { findMentions } from "../../../nodes/offline/mentions.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "stockroom",
    file: "stockroom.csv",
    header: ["SKU", "Item", "Category", "In Stock", "Unit Price"],
    rows: [
      ["S-1", "Stapler", "Office", "14", "8.99"],
      ["S-2", "Desk lamp", "Furniture", "7", "24.00"],
      ["S-3", "USB cable", "Electronics", "25", "6.75"],
      ["S-4", "Webcam", "Electronics", "0", "49.90"],
    ],
  },
  {
    id: "quarterly_sales",
    file: "quarterly_sales.csv",
    header: ["Region", "Quarter", "Revenue", "Units Sold"],
    rows: [
      ["North", "Q1", "120000", "1400"],
      ["North", "Q2", "135000", "1520"],
      ["South", "Q1", "98000", "1100"],
      ["South", "Q2", "87000", "990"],
    ],
  },
  {
    id: "city_weather",
    file: "city_weather.csv",
    header: ["Date", "City", "High (°C)", "Low (°C)"],
    rows: [
      ["2025-07-01", "Lisbon", "31", "19"],
      ["2025-07-01", "Vienna", "27", "16"],
      ["2025-07-02", "Lisbon", "33", "20"],
      ["2025-07-02", "Vienna", "24", "15"],
    ],
  },
  {
    id: "departures",
    file: "departures.csv",
    header: ["Flight", "From", "To", "Departs", "Arrives"],
    rows: [
      ["AT101", "Oslo", "Rome", "07:15", "10:45"],
      ["AT102", "Rome", "Oslo", "12:05", "15:40"],
      ["AT305", "Oslo", "Berlin", "18:20", "20:10"],
      ["AT306", "Berlin", "Oslo", "21:00", "22:50"],
    ],
  },
  {
    id: "playlist",
    file: "playlist.csv",
    header: ["#", "Title", "Artist", "Length"],
    rows: [
      ["1", "Morning Light", "The Wrens", "3:42"],
      ["2", "Paper Planes", "Juno Hart", "4:15"],
      ["3", "Slow River", "The Wrens", "5:03"],
      ["4", "Neon Nights", "Volt", "3:28"],
    ],
  },
  {
    id: "listings",
    file: "listings.csv",
    header: ["Address", "Area", "Bedrooms", "Bathrooms", "Listed"],
    rows: [
      ["12 Elm Street", "Old Town", "3", "2", "2025-01-15"],
      ["4 Quay Road", "Harbourside", "2", "2", "2025-02-03"],
      ["88 Hill Lane", "Old Town", "4", "2", "2024-11-28"],
    ],
  },
  {
    id: "support_tickets",
    file: "support_tickets.csv",
    header: ["Ticket", "Opened", "Customer", "Agent", "Status"],
    rows: [
      ["T-501", "2025-05-02", "Bramble Ltd", "Ana", "Closed"],
      ["T-502", "2025-05-02", "Kettle & Co", "Ben", "Closed"],
      ["T-503", "2025-05-05", "Bramble Ltd", "Ana", "Open"],
      ["T-504", "2025-05-06", "Orbit Labs", "Chris", "Open"],
    ],
  },
  {
    id: "gym_members",
    file: "gym_members.csv",
    header: ["Member", "Plan", "Joined", "Visits (May)"],
    rows: [
      ["Hana Ito", "Premium", "2023-04-11", "18"],
      ["Luca Berg", "Basic", "2024-05-02", "6"],
      ["Noah Kent", "Premium", "2024-02-14", "21"],
      ["Ola Nowak", "Basic", "2025-03-03", "0"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("the stock of one item", () => {
  it("reads the stock of an item named in the plural", () => {
    expect(answer("How many USB cables do we have?", "stockroom")).toEqual(["25"]);
    expect(answer("How many desk lamps are in stock?", "stockroom")).toEqual(["7"]);
    expect(answer("How many webcams are left?", "stockroom")).toEqual(["0"]);
  });
  it("still counts the rows that have some in stock", () => {
    expect(answer("How many products are in stock?", "stockroom")).toEqual(["3"]);
  });
  it("answers whether one item is in stock", () => {
    expect(answer("Is the Stapler in stock?", "stockroom")).toEqual(["yes"]);
    expect(answer("Is the Webcam in stock?", "stockroom")).toEqual(["no"]);
  });
});

describe("headers that name their quantity", () => {
  it("adds up a count whose values look like years", () => {
    expect(answer("How many units did the South sell?", "quarterly_sales")).toEqual(["2090"]);
  });
  it("reads a header in degrees as a temperature", () => {
    expect(answer("What was the highest temperature recorded?", "city_weather")).toEqual(["33"]);
    expect(answer("What was the lowest temperature in Vienna?", "city_weather")).toEqual(["15"]);
  });
});

describe("a timetable", () => {
  it("reads 'to Berlin' on the To column and 'when does … depart' on the clock times", () => {
    expect(answer("When does the flight to Berlin depart?", "departures")).toEqual(["18:20"]);
  });
  it("compares clock times with noon", () => {
    expect(answer("Which flights leave Oslo after noon?", "departures")).toEqual(["AT305"]);
    expect(answer("Which flights depart before noon?", "departures")).toEqual(["AT101"]);
  });
});

describe("a numbered playlist", () => {
  it("compares minutes with lengths written m:ss", () => {
    expect(answer("Which songs are shorter than 4 minutes?", "playlist")).toEqual(["Morning Light", "Neon Nights"]);
  });
  it("reads the nth row of a numbered list", () => {
    expect(answer("What is the third song?", "playlist")).toEqual(["Slow River"]);
    expect(answer("Which song is second?", "playlist")).toEqual(["Paper Planes"]);
  });
});

describe("words that name a column", () => {
  it("does not read the table's row noun as its participle column", () => {
    expect(answer("Which listings are in Old Town?", "listings")).toEqual(["12 Elm Street", "88 Hill Lane"]);
  });
  it("keeps a number on the column its neighbour word names, whatever the learned links propose", () => {
    expect(answer("How many 2-bedroom homes are there?", "listings")).toEqual(["1"]);
    const catalog = fixture.catalog("listings");
    const [two] = findMentions("How many 2-bedroom homes are there?", catalog);
    expect(two).toMatchObject({ column: "Bedrooms", columnNamed: true });
    // (Bathrooms holds 2 on every row: no alternative may move the number there, nor drop it.)
    const alternatives = linkCandidates(catalog, [two!]).slice(1);
    expect(alternatives.map((c) => c.kind)).not.toContain("drop");
    expect(alternatives.flatMap((c) => c.mentions.map((m) => m.column))).not.toContain("Bathrooms");
  });
  it("reads 'handling' as the agent and a did-question's verb as its participle column", () => {
    expect(answer("Who is handling T-503?", "support_tickets")).toEqual(["Ana"]);
    expect(answer("How many tickets did Bramble Ltd open?", "support_tickets")).toEqual(["2"]);
  });
  it("reads a month in brackets as the header's, not a date condition", () => {
    expect(answer("Who visited the most in May?", "gym_members")).toEqual(["Noah Kent"]);
    expect(answer("Which member made no visits in May?", "gym_members")).toEqual(["Ola Nowak"]);
  });
});
