import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { linkMentions } from "../../../nodes/offline/condition-links.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";

/** Help-desk tickets: a date column "Opened" beside a Status column holding open / closed / pending. */
const TICKETS: RawTable = {
  id: "helpdesk",
  file: "helpdesk.csv",
  header: ["Ticket", "Opened", "Agent", "Status"],
  rows: [
    ["T-1", "2025-01-02", "Rae", "Closed"],
    ["T-2", "2025-01-03", "Sol", "Open"],
    ["T-3", "2025-01-05", "Rae", "Open"],
    ["T-4", "2025-01-06", "Sol", "Pending"],
    ["T-5", "2025-01-08", "Rae", "Closed"],
  ],
};

/** Claims: a code per row, an Amount, and yes/no columns with and without a question mark. */
const CLAIMS: RawTable = {
  id: "claims",
  file: "claims.csv",
  header: ["Claim ID", "Employee", "Category", "Amount", "Receipt?", "Approved"],
  rows: [
    ["CL-01", "Noor Aziz", "Meals", "$120.00", "Yes", "Y"],
    ["CL-02", "Pim Vos", "Travel", "$45.50", "No", "N"],
    ["CL-03", "Noor Aziz", "Travel", "$310.00", "No", "Y"],
    ["CL-04", "Ada Reyes", "Meals", "$88.25", "Yes", "Y"],
  ],
};

/** Bikes sold: a sale's code, its seller, its price. */
const BIKES: RawTable = {
  id: "bike_sales",
  file: "bike_sales.csv",
  header: ["Stock #", "Seller", "Model", "Units", "Price/Unit", "Sale Price"],
  rows: [
    ["BK-10", "Ivo Marsh", "Trail 5", "2", "$450", "$900"],
    ["BK-11", "Lia Chen", "Road 3", "1", "$1,200", "$1,200"],
    ["BK-12", "Ivo Marsh", "City 1", "4", "$300", "$1,200"],
  ],
};

/** A cellar: bottles counted under a shortened header, and a price per bottle. */
const CELLAR: RawTable = {
  id: "cellar",
  file: "cellar.csv",
  header: ["Wine", "Region", "Btls", "Price/Btl"],
  rows: [
    ["Alto Tinto", "Rioja", "6", "£14.00"],
    ["Casa Blanca", "Rioja", "3", "£22.50"],
    ["Vieux Rouge", "Bordeaux", "12", "£31.00"],
  ],
};

/** Riders: countries as codes, prize money in a column named "Earnings". */
const RIDERS: RawTable = {
  id: "riders",
  file: "riders.csv",
  header: ["Rider", "Ctry", "Points", "Earnings"],
  rows: [
    ["Hal Ortiz", "USA", "88", "$40,000"],
    ["Jon Pace", "FRA", "95", "$65,000"],
    ["Kit Lowe", "USA", "91", "$52,000"],
    ["Max Roux", "FRA", "70", "$12,000"],
  ],
};

/** Episodes: the rows' own numbers under "Ep #", a title with a position word in it. */
const EPISODES: RawTable = {
  id: "radio_episodes",
  file: "radio_episodes.csv",
  header: ["Ep #", "Title", "Host", "Published", "Minutes", "Downloads"],
  rows: [
    ["1", "First Light", "Uma Sato", "2024-03-01", "41", "900"],
    ["2", "After Dark", "Lev Grant", "2024-03-08", "55", "1200"],
    ["3", "Quiet Hours", "Uma Sato", "2024-03-15", "38", "700"],
  ],
};

/** Gym members: visits in a column named for the verb. */
const MEMBERS: RawTable = {
  id: "club_members",
  file: "club_members.csv",
  header: ["Member", "Plan", "Visits (YTD)"],
  rows: [
    ["Oda Berg", "Basic", "41"],
    ["Rui Costa", "Premium", "118"],
  ],
};

/** Sightings: a clock time, a species category, a tally. */
const SIGHTINGS: RawTable = {
  id: "sightings",
  file: "sightings.csv",
  header: ["Date", "Time", "Species", "Site", "Qty", "Seen By"],
  rows: [
    ["2025-04-03", "06:45", "Finch", "Pond", "3", "Ivy Hale"],
    ["2025-04-04", "07:10", "Birch Warbler", "Woods", "1", "Ned Roe"],
    ["2025-04-05", "08:30", "Finch", "Woods", "12", "Ivy Hale"],
    ["2025-04-06", "09:05", "Wren", "Pond", "2", "Ned Roe"],
  ],
};

/** Trees: species as singular cells ("Birch"), a height with a unit. */
const TREES: RawTable = {
  id: "street_trees",
  file: "street_trees.csv",
  header: ["Tag", "Species", "Height (m)"],
  rows: [
    ["T-1", "Birch", "12.5"],
    ["T-2", "Oak", "20.0"],
    ["T-3", "Birch", "9.5"],
  ],
};

/** Car sales: three headers share "sale"; a quarter of dates; an average per game. */
const CARS: RawTable = {
  id: "car_sales",
  file: "car_sales.csv",
  header: ["Stock #", "Sale Date", "Sales Rep", "Make", "Model", "Yr", "Sale Price", "PPG"],
  rows: [
    ["C-1", "Jan 15, 2024", "Gil Moss", "Honda", "Civic", "2021", "$21,000", "12.5"],
    ["C-2", "Feb 20, 2024", "Ana Ruiz", "Kia", "EV6", "2023", "$34,500", "18.0"],
    ["C-3", "May 2, 2024", "Gil Moss", "Honda", "CR-V", "2022", "$27,250", "21.5"],
    ["C-4", "Jul 9, 2024", "Gil Moss", "Mazda", "CX-5", "2020", "$19,800", "9.0"],
  ],
};

/** Monthly figures: a percentage column with a sign in its header. */
const KPIS: RawTable = {
  id: "kpis",
  file: "kpis.csv",
  header: ["Month", "Revenue", "Churn %"],
  rows: [
    ["Jan 2024", "$70,000", "2.1%"],
    ["Feb 2024", "$64,000", "0.8%"],
    ["Mar 2024", "$75,500", "1.4%"],
  ],
};

/** Hotel stays: a key column, a hyphenated header, a per-night rate, a channel. */
const STAYS: RawTable = {
  id: "stays",
  file: "stays.csv",
  header: ["Booking Ref", "Guest Name", "Check-in", "Nights", "Rate/Night ($)", "Channel"],
  rows: [
    ["BK-1", "Ora Lind", "2025-07-02", "3", "120", "Phone"],
    ["BK-2", "Teo Park", "2025-08-11", "6", "95", "Web"],
    ["BK-3", "Ines Ro", "2025-09-20", "2", "240", "Phone"],
  ],
};

/** Shelter animals: a birth date and an intake date. */
const ANIMALS: RawTable = {
  id: "animals",
  file: "animals.csv",
  header: ["ID", "Name", "DOB", "Intake Date"],
  rows: [
    ["A-1", "Rex", "2019-07-04", "2025-03-02"],
    ["A-2", "Momo", "2021-02-11", "2025-07-15"],
    ["A-3", "Pip", "2020-05-30", "2025-07-21"],
  ],
};

/** Purchase orders: a key column ("PO #"), buyers, departments, amounts. */
const ORDERS: RawTable = {
  id: "purchase_orders",
  file: "purchase_orders.csv",
  header: ["PO #", "Buyer", "Dept", "Amount"],
  rows: [
    ["PO-1", "Ana Lee", "Ops", "100"],
    ["PO-2", "Ana Lee", "Ops", "250"],
    ["PO-3", "Ben Ray", "Sales", "300"],
    ["PO-4", "Ben Ray", "Ops", "20"],
  ],
};

/** A league table: goals for and against under their abbreviations. */
const LEAGUE: RawTable = {
  id: "league",
  file: "league.csv",
  header: ["Team", "GF", "GA", "Pts"],
  rows: [
    ["Alder Town", "30", "12", "40"],
    ["Birch Rovers", "22", "25", "31"],
  ],
};

/** Meter readings: a meter on several rows, a tariff category. */
const READINGS: RawTable = {
  id: "meter_readings",
  file: "meter_readings.csv",
  header: ["Meter ID", "Room", "Tariff", "kWh"],
  rows: [
    ["M-1", "Kitchen", "Green", "310"],
    ["M-1", "Kitchen", "Green", "280"],
    ["M-2", "Garage", "Standard", "150"],
    ["M-3", "Office", "Green", "90"],
    ["M-3", "Office", "Green", "120"],
  ],
};

/** Flats: a rent per month, bedrooms, students' scores by subject. */
const FLATS: RawTable = {
  id: "flats",
  file: "flats.csv",
  header: ["Listing", "Beds", "Rent ($/mo)", "Available From"],
  rows: [
    ["12 Oak St", "2", "1450", "2024-06-01"],
    ["9 Elm Rd", "1", "990", "2024-05-15"],
    ["4 Ash Ln", "2", "1620", "2024-07-01"],
  ],
};

const SCORES: RawTable = {
  id: "scores",
  file: "scores.csv",
  header: ["Student", "Subject", "Score (%)", "Grade"],
  rows: [
    ["Ada Fox", "Math", "72", "C"],
    ["Ada Fox", "History", "88", "B"],
    ["Bo Lin", "Math", "91", "A"],
  ],
};

/** Concerts: a yes/no header of two words beside a count of tickets that shares one of them. */
const GIGS: RawTable = {
  id: "gigs",
  file: "gigs.csv",
  header: ["Gig", "Venue", "Tix Sold", "Sold Out?"],
  rows: [
    ["G-1", "Hall A", "500", "Yes"],
    ["G-2", "Hall B", "310", "No"],
    ["G-3", "Hall A", "500", "Yes"],
    ["G-4", "Club C", "120", "No"],
    ["G-5", "Club C", "200", "Yes"],
  ],
};

/** Exam results: a yes/no "Passed?" column. */
const EXAMS: RawTable = {
  id: "exams",
  file: "exams.csv",
  header: ["Student", "Mark", "Passed?"],
  rows: [
    ["Ada Fox", "71", "Yes"],
    ["Bo Lin", "38", "No"],
    ["Cy Dunn", "44", "No"],
    ["Di Park", "90", "Yes"],
    ["Ed Moss", "65", "Yes"],
  ],
};

/** Flights: passengers and distance under their shortenings, a yes/no column that no question names. */
const DEPARTURES: RawTable = {
  id: "departures",
  file: "departures.csv",
  header: ["Flight", "Dest", "Pax", "Dist (km)", "Wifi?"],
  rows: [
    ["FL-1", "Oslo", "140", "1200", "Yes"],
    ["FL-2", "Rome", "182", "1900", "No"],
    ["FL-3", "Oslo", "95", "1200", "Yes"],
    ["FL-4", "Lima", "210", "9800", "No"],
  ],
};

/** Flights: a delay in minutes, blank when on time; a destination. */
const DELAYS: RawTable = {
  id: "delays",
  file: "delays.csv",
  header: ["Date", "Flight", "Destination", "Delay (min)", "Pax", "Sched. Dep"],
  rows: [
    ["2024-03-04", "QF-1", "Perth", "", "120", "06:10"],
    ["2024-03-04", "QF-2", "Cairns", "75", "88", "09:45"],
    ["2024-03-05", "QF-3", "Perth", "0", "140", "13:20"],
    ["2024-03-05", "QF-4", "Hobart", "20", "60", "17:05"],
    ["2024-03-06", "QF-5", "Darwin", "130", "99", "21:30"],
  ],
};

/** Pharmacy stock: a quantity beside the level to reorder at, a yes/no column in shorthand. */
const STOCK: RawTable = {
  id: "stock",
  file: "stock.csv",
  header: ["Drug Name", "Qty on Hand", "Reorder Lvl", "Unit Cost (€)", "Rx Only?"],
  rows: [
    ["Aspirin", "400", "100", "€1.20", "No"],
    ["Warfarin", "30", "50", "€8.00", "Yes"],
    ["Insulin", "12", "40", "€22.00", "Yes"],
    ["Cetirizine", "250", "80", "€3.10", "No"],
  ],
};

/** Bike trips: a record number, a rider category, units in headers, a yes/no column named with a hyphen. */
const RIDES: RawTable = {
  id: "bike_trips",
  file: "bike_trips.csv",
  header: ["Trip ID", "Rider", "Duration (min)", "Dist. (km)", "E-bike?"],
  rows: [
    ["T-101", "Member", "22", "4.1", "Y"],
    ["T-102", "Casual", "58", "15.2", "N"],
    ["T-103", "Member", "9", "2.0", "Y"],
    ["T-104", "Casual", "31", "6.7", "N"],
  ],
};

/** Listings: a size in square feet, a monthly rent, dates of this century. */
const LISTINGS: RawTable = {
  id: "listings",
  file: "listings.csv",
  header: ["Unit", "Beds", "Sq Ft", "Rent ($/mo)", "Available From"],
  rows: [
    ["Apt 1", "3", "900", "$2,100", "2024-09-01"],
    ["Apt 2", "1", "1300", "$1,500", "2024-10-15"],
    ["Apt 3", "2", "1250", "$1,900", "2024-08-20"],
  ],
};

/** Support tickets resolved in hours. */
const RESOLUTIONS: RawTable = {
  id: "resolutions",
  file: "resolutions.csv",
  header: ["Ticket", "Team", "Resolution (hrs)"],
  rows: [
    ["S-1", "Web", "1"],
    ["S-2", "Web", "2"],
    ["S-3", "App", "0.5"],
    ["S-4", "App", "2.5"],
  ],
};

/** Pupils: a class written as a label ("9A"), a mark per subject, absences. */
const PUPILS: RawTable = {
  id: "pupils",
  file: "pupils.csv",
  header: ["Pupil", "Class", "Maths", "English", "Absences"],
  rows: [
    ["Ana Moss", "9A", "71", "64", "2"],
    ["Ben Hale", "9B", "88", "52", "9"],
    ["Cy Orr", "9A", "64", "80", "4"],
  ],
};

/** A harvest log: quantities named by their units only ("Yield (t)", "Area (ha)"). */
const HARVEST: RawTable = {
  id: "harvest",
  file: "harvest.csv",
  header: ["Field", "Crop", "Yield (t)", "Area (ha)"],
  rows: [
    ["North 1", "Wheat", "40.5", "12.0"],
    ["North 2", "Barley", "22.0", "8.5"],
    ["South 1", "Wheat", "31.5", "10.0"],
  ],
};

/** Vet visits: a yes/no column a word names by "un-"; exhibits shown in galleries. */
const VISITS: RawTable = {
  id: "vet_visits",
  file: "vet_visits.csv",
  header: ["Pet Name", "Species", "Fee", "Vaccinated?"],
  rows: [
    ["Biscuit", "Dog", "120", "Y"],
    ["Marble", "Cat", "80", "N"],
    ["Gizmo", "Rabbit", "45", "Y"],
  ],
};

const EXHIBITS: RawTable = {
  id: "exhibits",
  file: "exhibits.csv",
  header: ["Exhibit", "Gallery", "Curator", "Visitors"],
  rows: [
    ["Salt and Stone", "West Wing", "Noor Haidari", "5200"],
    ["Paper Boats", "Lower Hall", "Ines Ro", "3100"],
  ],
};

/** Applications: a date named by a verb, where a candidate heard of the job. */
const APPLICANTS: RawTable = {
  id: "applicants",
  file: "applicants.csv",
  header: ["App ID", "Candidate", "Applied", "Score", "Source"],
  rows: [
    ["APP-1", "Hana Ito", "March 3, 2024", "71", "Referral"],
    ["APP-2", "Leo Marsh", "February 21, 2024", "64", "LinkedIn"],
    ["APP-3", "Ana Vidal", "April 9, 2024", "88", "Careers Page"],
  ],
};

/** Galleries: an "Avg Stay (min)" column beside a Rating. */
const GALLERIES: RawTable = {
  id: "galleries",
  file: "galleries.csv",
  header: ["Exhibit", "Visitors", "Avg Stay (min)", "Rating"],
  rows: [
    ["Salt and Stone", "5200", "37", "3.9"],
    ["Paper Boats", "3100", "52", "4.5"],
    ["Glass Garden", "4400", "20", "3.0"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-cells-"));
const path = join(dir, "tables.sqlite");
const schemas = writeSqlStore(path, [
  TICKETS,
  CLAIMS,
  BIKES,
  CELLAR,
  RIDERS,
  EPISODES,
  MEMBERS,
  SIGHTINGS,
  TREES,
  CARS,
  KPIS,
  STAYS,
  ANIMALS,
  ORDERS,
  LEAGUE,
  READINGS,
  FLATS,
  SCORES,
  GIGS,
  EXAMS,
  DEPARTURES,
  DELAYS,
  STOCK,
  RIDES,
  LISTINGS,
  RESOLUTIONS,
  PUPILS,
  HARVEST,
  VISITS,
  EXHIBITS,
  APPLICANTS,
  GALLERIES,
]);
const db = new Database(path, { readonly: true });
const catalogs = new Map(schemas.map((s) => [s.tableId, loadCatalog(db, s)]));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The answering path's plan (learned condition links included), run: its cells, first column. */
function answer(question: string, table: string): unknown[] {
  const analysis = analyzeQuestion(question);
  const catalog = catalogs.get(table)!;
  const plan = planSql({ analysis, catalog, mentions: linkMentions(question, analysis, catalog) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][]).map((r) => r[0]);
}

describe("a category word that only shares its stem with a header", () => {
  it("counts the open tickets although a date column is called Opened", () => {
    expect(answer("how many open tickets are there?", "helpdesk")).toEqual([2]);
    expect(answer("how many tickets are still open?", "helpdesk")).toEqual([2]);
    expect(answer("how many tickets are pending?", "helpdesk")).toEqual([1]);
  });
});

describe("yes/no columns", () => {
  it("selects the yes cells, or the no cells after a negation", () => {
    expect(answer("how many claims have a receipt?", "claims")).toEqual([2]);
    expect(answer("how many claims have no receipt?", "claims")).toEqual([2]);
    expect(answer("how many claims were approved?", "claims")).toEqual([3]);
    expect(answer("how many claims were not approved?", "claims")).toEqual([1]);
    expect(answer("what is the total amount of approved claims?", "claims")).toEqual([518.25]);
  });
});

describe("the column a lookup by code asks for", () => {
  it("reads the Amount column a bare 'amount' names", () => {
    expect(answer("CL-03 amount", "claims")).toEqual(["$310.00"]);
  });

  it("reads the price of 'what did X sell for'", () => {
    expect(answer("what did BK-11 sell for?", "bike_sales")).toEqual(["$1,200"]);
  });

  it("reads a per-bottle header as a price, not as the count of bottles", () => {
    expect(answer("total bottles of rioja", "cellar")).toEqual([9]);
    expect(answer("what is the price per bottle of alto tinto?", "cellar")).toEqual(["£14.00"]);
  });
});

describe("countries written as codes", () => {
  it("reads a demonym as its country's code", () => {
    expect(answer("how many americans are there?", "riders")).toEqual([2]);
    expect(answer("which french rider has the most points?", "riders")).toEqual(["Jon Pace"]);
  });
});

describe("money words", () => {
  it("reads prize money from an Earnings column", () => {
    expect(answer("what was the top prize?", "riders")).toEqual(["$65,000"]);
  });
});

describe("a question asking for every matching row", () => {
  it("lists them all", () => {
    expect(answer("show me all claims by noor aziz", "claims")).toEqual(["CL-01", "CL-03"]);
  });
});

describe("the rows' own number after the row noun", () => {
  it("reads 'episode 2' as the row numbered 2", () => {
    expect(answer("how long is episode 2?", "radio_episodes")).toEqual(["55"]);
    expect(answer("who hosted episode 3?", "radio_episodes")).toEqual(["Uma Sato"]);
  });

  it("reads a position word inside a named title as part of the title", () => {
    expect(answer("who hosted After Dark?", "radio_episodes")).toEqual(["Lev Grant"]);
    expect(answer("release date of After Dark", "radio_episodes")).toEqual(["2024-03-08"]);
  });
});

describe("'how many times' of one named row", () => {
  it("reads the column the verb spells", () => {
    expect(answer("how many times has Rui Costa visited this year?", "club_members")).toEqual(["118"]);
  });
});

describe("typing errors in a column's name", () => {
  it("reads the column one edit away", () => {
    expect(answer("average hieght of a tree", "street_trees")).toEqual([14]);
    expect(answer("how many downlods altogether", "radio_episodes")).toEqual([2800]);
  });
});

describe("singular and plural category cells", () => {
  it("reads 'birches' as Birch and 'meal' as Meals", () => {
    expect(answer("combined height of all birches", "street_trees")).toEqual([22]);
    expect(answer("what is the average meal expense?", "claims")).toEqual([104.13]);
  });
});

describe("a tally column", () => {
  it("reads 'count' as the Qty column and adds no clock times", () => {
    expect(answer("largest count", "sightings")).toEqual(["12"]);
    expect(answer("total birds seen at the pond", "sightings")).toEqual([5]);
    expect(answer("how many different observers are there?", "sightings")).toEqual([2]);
  });
});

describe("headers that share a word with the table's name", () => {
  it("reads 'salesperson' as Sales Rep, not Sale Date", () => {
    expect(answer("which salesperson sold the most cars?", "car_sales")).toEqual(["Gil Moss"]);
  });

  it("reads 'best-selling' as the value on the most rows", () => {
    expect(answer("what is the best-selling make?", "car_sales")).toEqual(["Honda"]);
  });

  it("reads what a sale went for as its price", () => {
    expect(answer("which make sold for the most?", "car_sales")).toEqual(["Kia"]);
    expect(answer("what's the most we sold a car for?", "car_sales")).toEqual(["$34,500"]);
  });
});

describe("quarters and bounds", () => {
  it("reads Q1 as January to March, in capitals too", () => {
    expect(answer("What were total sales in Q1 2024?", "car_sales")).toEqual([55500]);
  });

  it("reads 'average at least' as a bound, not as the operator", () => {
    expect(answer("how many sales average at least 18 ppg?", "car_sales")).toEqual([2]);
  });
});

describe("a search for an extreme value", () => {
  it("reads a unit sign after the column's name", () => {
    expect(answer("lowest churn %", "kpis")).toEqual(["0.8%"]);
  });
});

describe("what a lookup or a search names", () => {
  it("reads a hyphenated header and a 'priciest' search", () => {
    expect(answer("BK-2 check-in", "stays")).toEqual(["2025-08-11"]);
    expect(answer("what's the priciest nightly rate", "stays")).toEqual(["240"]);
  });

  it("answers the noun after 'name the'", () => {
    expect(answer("name the guest with the longest stay", "stays")).toEqual(["Teo Park"]);
  });

  it("answers the column named before 'of the <superlative>'", () => {
    expect(answer("guest name of the cheapest booking", "stays")).toEqual(["Teo Park"]);
    expect(answer("nights of the priciest booking", "stays")).toEqual(["2"]);
  });

  it("answers the head noun of a search that names a text column", () => {
    expect(answer("what was our best revenue month?", "kpis")).toEqual(["Mar 2024"]);
  });
});

describe("counts of plain questions", () => {
  it("counts a search fragment with a participle and 'by', or reads the column the participle names", () => {
    expect(answer("bookings made by phone", "stays")).toEqual([2]);
    expect(answer("goals conceded by birch rovers", "league")).toEqual(["25"]);
  });

  it("reads 'headcount' as a count", () => {
    expect(answer("ops headcount", "purchase_orders")).toEqual([3]);
  });

  it("counts rows named by their key's plural ('POs')", () => {
    expect(answer("how many POs did Ben Ray raise?", "purchase_orders")).toEqual([2]);
  });

  it("reads 'from september on' as a bound and 'came in' as the intake", () => {
    expect(answer("how many bookings from august on?", "stays")).toEqual([2]);
    expect(answer("how many animals came in during july?", "animals")).toEqual([2]);
  });
});

describe("totals per group", () => {
  it("answers the group whose rows add up to the most", () => {
    expect(answer("which dept has the highest total amount?", "purchase_orders")).toEqual(["Ops"]);
    // (One row each holds the largest amount: Sales, Ben Ray.)
    expect(answer("which buyer spent the most in total?", "purchase_orders")).toEqual(["Ana Lee"]);
  });
});

describe("units, counts of things on several rows, possessives", () => {
  it("counts the meters, not their readings", () => {
    expect(answer("how many meters are on the green tariff?", "meter_readings")).toEqual([2]);
  });

  it("reads 'per month' and 'per night' as the header's denominator", () => {
    expect(answer("how much is 9 Elm Rd per month?", "flats")).toEqual(["990"]);
    expect(answer("what is Teo Park paying per night?", "stays")).toEqual(["95"]);
  });

  it("reads '2 bedroom' as a Beds condition", () => {
    expect(answer("how many 2 bedroom flats are there?", "flats")).toEqual([2]);
  });

  it("answers the noun a possessive names", () => {
    expect(answer("whats Ada Fox's score in math?", "scores")).toEqual(["72"]);
  });

  it("answers 'where' with a room", () => {
    expect(answer("where was the highest reading?", "meter_readings")).toEqual(["Kitchen"]);
  });
});

describe("yes/no columns named in other words", () => {
  it("reads a two-word header whole, though another header shares a word", () => {
    expect(answer("how many gigs sold out?", "gigs")).toEqual([3]);
    expect(answer("number of sold out gigs at club c", "gigs")).toEqual([1]);
  });

  it("reads 'failed' as the no cells of a Passed column", () => {
    expect(answer("how many students failed?", "exams")).toEqual([2]);
    expect(answer("how many students passed?", "exams")).toEqual([3]);
  });

  it("answers a search from a value column, not from a yes/no column the question does not name", () => {
    expect(answer("which flight flew the farthest?", "departures")).toEqual(["FL-4"]);
    expect(answer("which flights were longer than 1500 km?", "departures")).toEqual(["FL-2", "FL-4"]);
  });
});

describe("typed shortenings", () => {
  it("reads '# of' and 'no. of' as a count", () => {
    expect(answer("# of flights to oslo", "departures")).toEqual([2]);
    expect(answer("no. of flights to rome", "departures")).toEqual([1]);
  });

  it("reads passengers as Pax and tickets as Tix", () => {
    expect(answer("how many passengers flew to oslo in total?", "departures")).toEqual([235]);
    expect(answer("total tickets sold at hall a", "gigs")).toEqual([1000]);
  });
});

describe("a participle naming a measure", () => {
  it("selects the rows where the measure is above zero, or not", () => {
    expect(answer("how many flights were delayed?", "delays")).toEqual([3]);
    expect(answer("how many flights were late", "delays")).toEqual([3]);
    expect(answer("how many flights were not delayed?", "delays")).toEqual([2]);
  });
});

describe("lengths of time in other units", () => {
  it("reads 'an hour' and 'minutes' in the column's unit", () => {
    expect(answer("which flights were delayed by more than an hour?", "delays")).toEqual(["QF-2", "QF-5"]);
    expect(answer("how many tickets took more than 90 minutes?", "resolutions")).toEqual([2]);
    expect(answer("how many tickets were resolved in under half an hour?", "resolutions")).toEqual([0]);
  });
});

describe("one column compared with another", () => {
  it("compares the quantity with the level the words after 'below' name", () => {
    expect(answer("how many drugs are below their reorder level?", "stock")).toEqual([2]);
    expect(answer("items under reorder lvl", "stock")).toEqual([2]);
    expect(answer("which drugs are above their reorder level?", "stock")).toEqual(["Aspirin", "Cetirizine"]);
  });
});

describe("yes/no columns in shorthand", () => {
  it("reads 'rx only', 'prescription' and 'ebike'", () => {
    expect(answer("number of rx only drugs", "stock")).toEqual([2]);
    expect(answer("how many drugs need a prescription?", "stock")).toEqual([2]);
    expect(answer("ebike trips count", "bike_trips")).toEqual([2]);
  });
});

describe("searches over a table of records", () => {
  it("answers with the record, not with a yes/no column that shares the table's name", () => {
    expect(answer("which trip took the most time?", "bike_trips")).toEqual(["T-102"]);
  });

  it("answers the value when the question closes on its unit", () => {
    expect(answer("what's the longest ride in km?", "bike_trips")).toEqual(["15.2"]);
    expect(answer("what is the shortest ride in minutes?", "bike_trips")).toEqual(["9"]);
  });

  it("reads 'biggest' as the size in square feet", () => {
    expect(answer("which unit is the biggest?", "listings")).toEqual(["Apt 2"]);
  });

  it("answers 'where is X going' with the destination", () => {
    expect(answer("where is flight QF-4 going?", "delays")).toEqual(["Hobart"]);
  });
});

describe("a number that is no year of the table's dates", () => {
  it("compares it with a quantity, not with the dates", () => {
    expect(answer("which units are bigger than 1220 square feet?", "listings")).toEqual(["Apt 2", "Apt 3"]);
    expect(answer("how many units rent for under 1950 a month?", "listings")).toEqual([2]);
  });
});

describe("words for a value, a date, an absence", () => {
  it("answers the value for 'the worst grade' and 'top maths grade'", () => {
    expect(answer("what was the worst grade in english?", "pupils")).toEqual(["52"]);
    expect(answer("top maths grade", "pupils")).toEqual(["88"]);
    expect(answer("who had the best maths grade?", "pupils")).toEqual(["Ben Hale"]);
  });

  it("reads 'soonest' as the earliest date and 'move-in date' as the date available", () => {
    expect(answer("which unit is available soonest?", "listings")).toEqual(["Apt 3"]);
    expect(answer("Apt 2 move-in date", "listings")).toEqual(["2024-10-15"]);
  });

  it("reads 'missed' as absences", () => {
    expect(answer("who missed the most school?", "pupils")).toEqual(["Ben Hale"]);
  });

  it("reads a class label as a label", () => {
    expect(answer("which class is Cy Orr in?", "pupils")).toEqual(["9A"]);
  });
});

describe("a clock time", () => {
  it("answers 'what time' with the clock time", () => {
    expect(answer("what time is QF-4 scheduled to depart?", "delays")).toEqual(["17:05"]);
  });
});

describe("quantities named by their units", () => {
  it("adds up tonnes and hectares", () => {
    expect(answer("how many tonnes of wheat were harvested in total?", "harvest")).toEqual([72]);
    expect(answer("total hectares harvested", "harvest")).toEqual([30.5]);
  });
});

describe("a yes/no header behind 'un-', a gallery as a place", () => {
  it("counts the no cells of 'unvaccinated'", () => {
    expect(answer("how many unvaccinated pets?", "vet_visits")).toEqual([1]);
  });

  it("answers 'where is X shown' with the gallery", () => {
    expect(answer("where is Paper Boats shown?", "exhibits")).toEqual(["Lower Hall"]);
  });
});

describe("who did something first, how someone heard, an average beside an 'Avg' column", () => {
  it("answers 'who applied first?' with the person, ordered by the date the verb names", () => {
    expect(answer("who applied first?", "applicants")).toEqual(["Leo Marsh"]);
  });

  it("reads how a candidate heard of the job from the Source column", () => {
    expect(answer("how did Ana Vidal hear about the job?", "applicants")).toEqual(["Careers Page"]);
  });

  it("averages the rating, though another column is an average", () => {
    expect(answer("avg rating", "galleries")[0]).toBeCloseTo(3.8, 9);
    expect(answer("which exhibit has the highest avg stay?", "galleries")).toEqual(["Paper Boats"]);
  });
});
