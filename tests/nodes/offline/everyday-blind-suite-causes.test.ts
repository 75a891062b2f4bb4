/**
 * Yes/no columns written as a tick beside blank cells, named by a related noun ("insurance" of "Insured?")
 * or by an opposite ("late" of "On Time?"); people in a column whose header the person lexicon lacks
 * ("Donor"); "what was the largest donation?" over rows known only by a receipt number (the tenth
 * everyday suite's causes); a noun of the header's verb ("enrolment" of "Enrolled"), "how many students are
 * enrolled" read from that column, a fragment that bounds a number as a list, "above 2200" and "after 2020"
 * as bounds (not the row above or after), "the strongest player", and "how many games has X won?" of "Wins"
 * beside "Games Played", "the calorie count", "how long is the longest …", "what was added in 2025", "what
 * costs the least", "who looks after X", "where does X live" (the eleventh's); on tables of their own.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { isPersonColumn } from "../../../nodes/offline/columns.js";
import { flagRows } from "../../../nodes/offline/flag-columns.js";
import { openTables, planColumn } from "./fixtures.js";

const TALKS: RawTable = {
  id: "book_talks",
  file: "book_talks.csv",
  header: ["Talk", "Author", "Room", "Signing", "Seats"],
  rows: [
    ["Salt Roads", "Ines Mora", "Blue Room", "\u2713", "40"],
    ["Cold Harbour", "Tom Reid", "Annex", "", "25"],
    ["Paper Kites", "Lea Bloom", "Blue Room", "\u2713", "60"],
    ["Iron Bells", "Ravi Nair", "Annex", "", "30"],
    ["Green Hours", "Ana Sousa", "Annex", "\u2713", "35"],
  ],
};
const CLIENTS: RawTable = {
  id: "clinic_clients",
  file: "clinic_clients.csv",
  header: ["Client", "Therapist", "Insured?", "Sessions"],
  rows: [
    ["Joe Park", "Mia Dahl", "Y", "4"],
    ["Eva Lund", "Mia Dahl", "N", "2"],
    ["Sam Cole", "Ola Berg", "Y", "7"],
    ["Kim Voss", "Ola Berg", "N", "1"],
    ["Lu Chen", "Mia Dahl", "Y", "3"],
  ],
};
const JOBS: RawTable = {
  id: "print_jobs",
  file: "print_jobs.csv",
  header: ["Job Ref", "Customer", "Pages", "On Time?"],
  rows: [
    ["P-11", "Corner Cafe", "120", "Y"],
    ["P-12", "Hill School", "800", "N"],
    ["P-13", "Corner Cafe", "60", "Y"],
    ["P-14", "Dock Books", "300", "N"],
    ["P-15", "Hill School", "90", "Y"],
  ],
};
const DONATIONS: RawTable = {
  id: "school_donations",
  file: "school_donations.csv",
  header: ["Receipt", "Donor", "Amount", "Fund", "Town"],
  rows: [
    ["D-201", "Nell Hart", "£150.00", "Library", "Bath"],
    ["D-202", "Omar Said", "£2,400.00", "New Roof", "Wells"],
    ["D-203", "Nell Hart", "£75.00", "Library", "Bath"],
    ["D-204", "Zoe Quinn", "£980.00", "Sports Kit", "Frome"],
  ],
};

const COURSES: RawTable = {
  id: "evening_courses",
  file: "evening_courses.csv",
  header: ["Course", "Subject", "Credits", "Enrolled", "Fee"],
  rows: [
    ["Pottery I", "Art", "3", "41", "£120"],
    ["Life Drawing", "Art", "4", "18", "£150"],
    ["Spanish A1", "Languages", "2", "64", "£90"],
    ["Welsh A1", "Languages", "3", "12", "£90"],
    ["Bookkeeping", "Business", "4", "27", "£200"],
  ],
};

const CHESS: RawTable = {
  id: "chess_members",
  file: "chess_members.csv",
  header: ["Player", "Section", "Rating", "Games Played", "Wins", "Member Since"],
  rows: [
    ["Ivo Brand", "Junior", "2110", "107", "42", "31/03/2015"],
    ["Rosa Klein", "Adult", "1427", "124", "59", "14/10/2018"],
    ["Aziz Haddad", "Junior", "2245", "60", "38", "02/04/2023"],
    ["Mae Olsen", "Adult", "1980", "88", "30", "19/02/2012"],
    ["Tao Wen", "Adult", "2301", "49", "31", "07/07/2021"],
  ],
};

const MENU: RawTable = {
  id: "deli_menu",
  file: "deli_menu.csv",
  header: ["Item", "Category", "Price", "Calories"],
  rows: [
    ["Club Sandwich", "Sandwich", "$7.50", "640"],
    ["Tuna Melt", "Sandwich", "$6.90", "710"],
    ["Green Tea", "Drink", "$2.10", "0"],
    ["Brownie", "Dessert", "$3.20", "430"],
    ["Cola", "Drink", "$1.80", "140"],
  ],
};

const ROUTES: RawTable = {
  id: "tram_routes",
  file: "tram_routes.csv",
  header: ["Route", "Depot", "Length (km)", "Stops", "Weight (t)", "Opened"],
  rows: [
    ["Quay Line", "North", "12.4", "18", "38", "Mar 3, 2009"],
    ["Park Loop", "South", "30.2", "41", "41", "Jun 1, 2017"],
    ["Mill Link", "North", "8.8", "11", "36", "Sep 9, 2021"],
    ["Dock Spur", "South", "22.5", "27", "44", "Jan 15, 2014"],
  ],
};

const ZOO: RawTable = {
  id: "zoo_residents",
  file: "zoo_residents.csv",
  header: ["Name", "Species", "Enclosure", "Price", "Keeper", "Added"],
  rows: [
    ["Tumi", "Otter", "River Walk", "40", "Lena Fox", "2023-05-02"],
    ["Odo", "Lion", "Savanna", "95", "Raj Patel", "2021-11-20"],
    ["Suki", "Owl", "Aviary", "12", "Lena Fox", "2023-09-14"],
    ["Bram", "Zebra", "Savanna", "60", "Ada Kim", "2022-02-07"],
  ],
};

const fixture = openTables([TALKS, CLIENTS, JOBS, DONATIONS, COURSES, CHESS, MENU, ROUTES, ZOO]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("yes/no columns as people write them", () => {
  it("reads a column of ticks and blanks as yes and no", () => {
    const signing = fixture.catalog("book_talks").columns[3]!;
    expect(flagRows(signing)).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    // (A column of seat counts is no yes/no column.)
    expect(flagRows(fixture.catalog("book_talks").columns[4]!)).toBeUndefined();
    expect(answer("How many talks have a signing?", "book_talks")).toEqual(["3"]);
    expect(answer("Which talks have no signing?", "book_talks")).toEqual(["Cold Harbour", "Iron Bells"]);
  });

  it("names a yes/no column by the noun of its participle and by its opposite", () => {
    expect(answer("how many clients have insurance", "clinic_clients")).toEqual(["3"]);
    expect(answer("How many jobs were delivered late?", "print_jobs")).toEqual(["2"]);
  });
});

describe("people and sizes", () => {
  it("takes a column of people's names under an agent noun as the people a 'who' question asks for", () => {
    const catalog = fixture.catalog("school_donations");
    expect(isPersonColumn(catalog.columns[1]!)).toBe(true);
    // (Names of funds under a noun that names no one are not people.)
    expect(isPersonColumn(catalog.columns[3]!)).toBe(false);
    expect(answer("Who made the largest donation?", "school_donations")).toEqual(["Omar Said"]);
    expect(answer("Who gave more than £500?", "school_donations")).toEqual(["Omar Said", "Zoe Quinn"]);
  });

  it("answers the size of the largest donation when the rows have only a receipt number", () => {
    expect(answer("What was the largest donation?", "school_donations")).toEqual(["£2,400.00"]);
    // ("Which donation …" asks for the row.)
    expect(answer("Which donation was the largest?", "school_donations")).toEqual(["D-202"]);
  });
});

describe("what a participle header counts", () => {
  it("reads a noun of the header's verb as that column", () => {
    expect(answer("What is the highest enrolment?", "evening_courses")).toEqual(["64"]);
    expect(answer("Which course has the lowest enrolment?", "evening_courses")).toEqual(["Welsh A1"]);
    expect(answer("average enrolment per course", "evening_courses")).toEqual(["32.4"]);
  });

  it("reads 'how many students are enrolled' from the Enrolled column, added up over several rows", () => {
    expect(answer("How many students are enrolled in Life Drawing?", "evening_courses")).toEqual(["18"]);
    expect(answer("How many students are enrolled in Art courses?", "evening_courses")).toEqual(["59"]);
    expect(answer("How many students are enrolled altogether?", "evening_courses")).toEqual(["162"]);
  });

  it("lists the rows a fragment's bound selects, and counts them when asked how many", () => {
    expect(answer("courses with over 30 students enrolled", "evening_courses")).toEqual(["Pottery I", "Spanish A1"]);
    expect(answer("courses under £100", "evening_courses")).toEqual(["Spanish A1", "Welsh A1"]);
    expect(answer("how many courses cost under £100", "evening_courses")).toEqual(["2"]);
  });
});

describe("bounds, join dates and what a verb counts", () => {
  it("reads 'above 2200' and 'after 2020' as bounds on the column they name, not the row above or after", () => {
    expect(answer("Who has a rating above 2200?", "chess_members")).toEqual(["Aziz Haddad", "Tao Wen"]);
    // (A year bound is on the dates, though the ratings also hold numbers near 2020.)
    expect(answer("Who joined the club after 2020?", "chess_members")).toEqual(["Aziz Haddad", "Tao Wen"]);
    expect(answer("Who joined the club first?", "chess_members")).toEqual(["Mae Olsen"]);
    // (A row that comes after a number is the next row: the number names a cell.)
    expect(analyzeQuestion("Who joined the club after 2020?").position).toBeNull();
    expect(analyzeQuestion("which film came after 1998?").position).toBe("next");
    expect(analyzeQuestion("what season is listed above 2004?").position).toBe("previous");
  });

  it("reads what a verb counts and what a plain adjective orders by", () => {
    expect(answer("How many games has Rosa Klein won?", "chess_members")).toEqual(["59"]);
    expect(answer("How many games has Rosa Klein played?", "chess_members")).toEqual(["124"]);
    expect(answer("strongest player", "chess_members")).toEqual(["Tao Wen"]);
    // ("Member Since" holds dates, not members.)
    expect(answer("Which junior member has the highest rating?", "chess_members")).toEqual(["Aziz Haddad"]);
  });

  it("reads 'the calorie count' as the Calories column, and a category after a superlative as the row asked for", () => {
    expect(answer("What is the calorie count of the Brownie?", "deli_menu")).toEqual(["430"]);
    expect(answer("What is the lowest calorie count?", "deli_menu")).toEqual(["0"]);
    expect(answer("What is the highest-calorie sandwich?", "deli_menu")).toEqual(["Tuna Melt"]);
    expect(answer("how many items have a calorie count over 500", "deli_menu")).toEqual(["2"]);
  });

  it("answers the measure 'how long' asks for, and the rows of a fragment whose bound has a unit or a year", () => {
    expect(answer("How long is the longest route?", "tram_routes")).toEqual(["30.2"]);
    // ("40 t" bounds Weight (t); the answer is the routes, not another column in tonnes.)
    expect(answer("routes over 40 t", "tram_routes")).toEqual(["Park Loop", "Dock Spur"]);
    expect(answer("routes opened after 2015", "tram_routes")).toEqual(["Park Loop", "Mill Link"]);
    expect(answer("how many routes opened after 2015", "tram_routes")).toEqual(["2"]);
  });
});

describe("what, where and who of a row", () => {
  it("answers the rows, not the dates a condition reads, for 'what was added in 2023?'", () => {
    expect(answer("What was added to the zoo in 2023?", "zoo_residents")).toEqual(["Tumi", "Suki"]);
    // ("courses starting in May": the rows a participle selects are listed.)
    expect(analyzeQuestion("courses starting in february 2025").listAnswer).toBe(true);
  });

  it("reads 'what costs the least', 'who looks after', 'where does … live'", () => {
    expect(answer("What costs the least?", "zoo_residents")).toEqual(["Suki"]);
    expect(answer("Who looks after Odo?", "zoo_residents")).toEqual(["Raj Patel"]);
    expect(answer("Where does Suki live?", "zoo_residents")).toEqual(["Aviary"]);
  });
});
