/**
 * Patients, volunteers, class grades, household bills and shared expenses, asked as people ask them: a value
 * written with its sign ("O+" beside "O-"), the members of a group ("who is on the garden team?"), the age gap
 * between the oldest and the youngest, what someone scored, what was paid where only a currency names the money,
 * the better of two people within a subject, how much more one person spent than another, the group with the
 * highest total, what each person spent, an average of money to the cent, what is paid a month, and the hours of a
 * yes/no column's rows ("non-billable hours"), ranges of dates however written, "newer than 2019", who came before a
 * day, "the cheapest room" by its rate, "which property …" by its address beside a Tenant column, "one-bedroom", and
 * "fiction" that is no "Non-fiction".
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { linkMentions } from "../../../nodes/offline/condition-links.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";

const tables: RawTable[] = [
  {
    id: "ward",
    file: "ward.csv",
    header: ["Patient", "Age", "Ward", "Blood type"],
    rows: [
      ["H. Okoro", "62", "Cardiology", "A+"],
      ["B. Lund", "37", "Orthopedics", "O-"],
      ["E. Varga", "84", "Cardiology", "O+"],
      ["T. Moss", "29", "Neurology", "O+"],
      ["I. Sousa", "51", "Neurology", "B-"],
    ],
  },
  {
    id: "helpers",
    file: "helpers.csv",
    header: ["Name", "Team", "Hours"],
    rows: [
      ["Edda", "Garden", "12"],
      ["Faris", "Kitchen", "30"],
      ["Gwen", "Garden", "8"],
      ["Hugo", "Kitchen", "21"],
    ],
  },
  {
    id: "marks",
    file: "marks.csv",
    header: ["Student", "Subject", "Score", "Grade"],
    rows: [
      ["Ines", "Chemistry", "88", "A"],
      ["Ines", "History", "64", "C"],
      ["Jakob", "Chemistry", "71", "B"],
      ["Jakob", "History", "90", "A"],
      ["Kemal", "Chemistry", "59", "D"],
    ],
  },
  {
    id: "utilities",
    file: "utilities.csv",
    header: ["Month", "Electricity (kWh)", "Gas (kWh)", "Bill"],
    rows: [
      ["January", "420", "1210", "£180.50"],
      ["February", "390", "1050", "£166.25"],
      ["March", "350", "860", "£151.15"],
    ],
  },
  {
    id: "trip_costs",
    file: "trip_costs.csv",
    header: ["Date", "Category", "Amount", "Paid by"],
    rows: [
      ["2026-05-02", "Fuel", "60.00", "Mina"],
      ["2026-05-02", "Food", "24.50", "Otto"],
      ["2026-05-03", "Fuel", "45.00", "Otto"],
      ["2026-05-03", "Tickets", "38.00", "Mina"],
      ["2026-05-04", "Food", "31.20", "Mina"],
    ],
  },
  {
    id: "hours_log",
    file: "hours_log.csv",
    header: ["Employee", "Project", "Hours", "Billable"],
    rows: [
      ["Pia", "Orion", "30", "Yes"],
      ["Pia", "Vega", "6", "No"],
      ["Quent", "Orion", "38", "Yes"],
      ["Quent", "Lyra", "15", "No"],
    ],
  },
  {
    id: "services",
    file: "services.csv",
    header: ["Service", "Plan", "Monthly fee", "Users"],
    rows: [
      ["PhotoSafe", "Pro", "$8.49", "1"],
      ["TuneBox", "Family", "$16.99", "5"],
      ["DocuSign-in", "Basic", "$5.00", "2"],
    ],
  },
  {
    id: "stays",
    file: "stays.csv",
    header: ["Guest", "Room", "Check-in", "Nights", "Rate"],
    rows: [
      ["Ola Berg", "101", "2026-03-02", "3", "120"],
      ["Rui Sa", "204", "2026-03-05", "1", "95"],
      ["Ama Mensah", "305", "2026-03-08", "5", "150"],
      ["Ivo Petrov", "110", "2026-03-12", "2", "88"],
      ["Noor Ali", "402", "2026-03-15", "2", "210"],
    ],
  },
  {
    id: "vans",
    file: "vans.csv",
    header: ["Plate", "Model", "Year", "Mileage (km)"],
    rows: [
      ["VN-01", "Transit", "2017", "156300"],
      ["VN-02", "Vito", "2021", "42000"],
      ["VN-03", "Master", "2019", "88000"],
      ["VN-04", "Kangoo", "2023", "12500"],
    ],
  },
  {
    id: "plots",
    file: "plots.csv",
    header: ["Plot", "Crop", "Yield (t)", "Revenue"],
    rows: [
      ["North 1", "Wheat", "41.5", "€8,300"],
      ["North 2", "Barley", "38.2", "€6,100"],
      ["South 1", "Oats", "29.9", "€4,480"],
    ],
  },
  {
    id: "lettings",
    file: "lettings.csv",
    header: ["Address", "Type", "Bedrooms", "Rent", "Tenant"],
    rows: [
      ["3 Ash Row", "Flat", "2", "1100", "Nell Byrne"],
      ["8 Yew Close", "House", "4", "2050", "Raj Menon"],
      ["5 Fir Walk", "Flat", "1", "870", ""],
      ["2 Lime Grove", "Studio", "1", "690", "Ada Kim"],
    ],
  },
  {
    id: "shelf",
    file: "shelf.csv",
    header: ["Title", "Author", "Genre", "Pages"],
    rows: [
      ["Tide Clocks", "Uma Roy", "Fiction", "380"],
      ["Soil and Steam", "Ben Holt", "Non-fiction", "260"],
      ["Glass Foxes", "Uma Roy", "Fiction", "310"],
      ["Night Maps", "Ben Holt", "Non-fiction", "420"],
    ],
  },
  {
    id: "kart_season",
    file: "kart_season.csv",
    header: ["Driver", "Starts", "Wins", "Winnings"],
    rows: [
      ["Kai Ito", "12", "3", "$4,250"],
      ["Lou Brandt", "12", "1", "$1,900"],
    ],
  },
  {
    id: "stockroom",
    file: "stockroom.csv",
    header: ["SKU", "Item", "Supplier", "Qty"],
    rows: [
      ["S-10", "Tape", "Boxwell", "40"],
      ["S-11", "Labels", "Cartly", "12"],
      ["S-12", "Boxes", "Boxwell", "75"],
    ],
  },
  {
    id: "season",
    file: "season.csv",
    header: ["Date", "Opponent", "Venue", "Result"],
    rows: [
      ["2026-08-09", "Ashby", "Home", "Won"],
      ["2026-08-16", "Bramley", "Away", "Lost"],
      ["2026-08-23", "Corton", "Home", "Drew"],
      ["2026-08-30", "Denby", "Away", "Lost"],
    ],
  },
  {
    id: "team",
    file: "team.csv",
    header: ["Name", "Department", "Manager"],
    rows: [
      ["Ida Roe", "Sales", "Max Hill"],
      ["Max Hill", "Sales", ""],
      ["Oli Fenn", "IT", "Pam Ives"],
      ["Pam Ives", "IT", ""],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("patients, helpers, marks, bills and trip costs", () => {
  it("keeps a value's sign: 'O+' is not 'O-'", () => {
    expect(answer("Which patients have blood type O+?", "ward")).toEqual(["E. Varga", "T. Moss"]);
    expect(answer("How many patients are O-?", "ward")).toEqual(["1"]);
  });
  it("marks a plan answering from a text column the question spells whole", () => {
    const q = "What blood type is B. Lund?";
    const catalog = fx.catalog("ward");
    const analysis = analyzeQuestion(q);
    const plan = planSql({ analysis, catalog, mentions: linkMentions(q, analysis, catalog) });
    expect(fx.run(plan!.sql)).toEqual([["O-"]]);
    expect(plan!.targetSpelledText).toBe(true);
    const age = "What age is B. Lund?";
    const ageAnalysis = analyzeQuestion(age);
    expect(
      planSql({ analysis: ageAnalysis, catalog, mentions: linkMentions(age, ageAnalysis, catalog) })!.targetSpelledText,
    ).toBeUndefined();
  });
  it("lists the members of a group, and takes the age gap between the oldest and the youngest", () => {
    expect(answer("Who is on the garden team?", "helpers")).toEqual(["Edda", "Gwen"]);
    expect(answer("What is the difference in age between the oldest and youngest patient?", "ward")).toEqual(["55"]);
  });
  it("reads what someone scored, and the better of two within a subject", () => {
    expect(answer("What did Jakob score in History?", "marks")).toEqual(["90"]);
    expect(answer("Who scored better in Chemistry, Ines or Jakob?", "marks")).toEqual(["Ines"]);
    expect(answer("Who did better in History, Ines or Jakob?", "marks")).toEqual(["Jakob"]);
    // (Being there decides where one option has no row: Kemal took no History.)
    expect(answer("Who scored higher in History, Kemal or Ines?", "marks")).toEqual(["Ines"]);
  });
  it("answers money by the column written in a currency, averaged to the cent", () => {
    expect(answer("How much did we pay in total for energy?", "utilities")).toEqual(["497.9"]);
    expect(answer("What is the average bill?", "utilities")).toEqual(["165.97"]);
    expect(answer("What do we pay per month for TuneBox?", "services")).toEqual(["$16.99"]);
  });
  it("adds up amounts: how much more one paid, the group with the highest total, what each person spent", () => {
    expect(answer("How much more did Mina spend than Otto?", "trip_costs")).toEqual(["59.7"]);
    expect(answer("Which category has the highest total?", "trip_costs")).toEqual(["Fuel"]);
    expect(answer("How much did each person spend?", "trip_costs")).toEqual(["Mina: 129.2", "Otto: 69.5"]);
  });
  it("bounds dates: a range of days however written, a year 'newer than', who came before a day", () => {
    expect(answer("How many bookings between 2026-03-05 and 2026-03-12?", "stays")).toEqual(["3"]);
    expect(answer("How many stays from 5 March to 12 March?", "stays")).toEqual(["3"]);
    expect(answer("How many stays between 2026-03-03 and 2026-03-09?", "stays")).toEqual(["2"]);
    expect(answer("Who checked in before March 8?", "stays")).toEqual(["Ola Berg", "Rui Sa"]);
    expect(answer("How many vans are newer than 2019?", "vans")).toEqual(["2"]);
  });
  it("orders 'the cheapest room' by its rate, and 'how much did X yield' by the yield, not the money", () => {
    expect(answer("What is the cheapest room?", "stays")).toEqual(["110"]);
    expect(answer("How much did North 2 yield?", "plots")).toEqual(["38.2"]);
    expect(answer("How much did North 2 bring in?", "plots")).toEqual(["€6,100"]);
    expect(answer("How much money did Kai Ito win?", "kart_season")).toEqual(["$4,250"]);
  });
  it("answers 'which property …' by the row's name, not the person of a later column", () => {
    expect(answer("Which property has the most bedrooms?", "lettings")).toEqual(["8 Yew Close"]);
    expect(answer("Which flat has the highest rent?", "lettings")).toEqual(["3 Ash Row"]);
    // (A noun of people still takes the people: the tenant paying the least.)
    expect(answer("Which tenant pays the least rent?", "lettings")).toEqual(["Ada Kim"]);
    expect(answer("How many one-bedroom properties are there?", "lettings")).toEqual(["2"]);
  });
  it("lists everything a supplier supplies", () => {
    expect(answer("What does Boxwell supply?", "stockroom")).toEqual(["Tape", "Boxes"]);
  });
  it("answers who we lost to or drew with by every such row, and who reports to a manager", () => {
    expect(answer("Who did we lose to?", "season")).toEqual(["Bramley", "Denby"]);
    expect(answer("Who did we draw with?", "season")).toEqual(["Corton"]);
    expect(answer("Who reports to Max Hill?", "team")).toEqual(["Ida Roe"]);
  });
  it("keeps 'fiction' off the 'Non-fiction' cells", () => {
    expect(answer("How many fiction books are there?", "shelf")).toEqual(["2"]);
    expect(answer("Which non-fiction book has the most pages?", "shelf")).toEqual(["Night Maps"]);
  });
  it("reads 'non-billable hours' as the hours of the No rows of a Billable column", () => {
    expect(answer("How many non-billable hours are there?", "hours_log")).toEqual(["21"]);
    expect(answer("How many billable hours did Quent log?", "hours_log")).toEqual(["38"]);
  });
});
