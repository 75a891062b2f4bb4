/**
 * A dental clinic's patient list and a charity run's finishers, asked as people ask: "never missed" is a
 * tally of 0, "how much is the priciest treatment?" asks the amount, "who has the most expensive
 * treatment?" and "whose treatment costs the most?" ask for the person, "which patients' treatment …"
 * lists them, "how did X pay?" reads the Payment column, a "Next Check" header is no "next row", and
 * "how many runners finished?" leaves out the DNF rows.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const PATIENTS: RawTable = {
  id: "clinic_patients",
  file: "clinic_patients.csv",
  header: ["Patient", "Last Visit", "Next Check", "Treatment", "Cost (£)", "Missed Appts", "Payment"],
  rows: [
    ["Ruth Hale", "12/02/2024", "Aug 2024", "Filling", "120", "0", "Card"],
    ["Owen Pike", "05/03/2024", "Sep 2024", "Crown", "640", "2", "Cash"],
    ["Lila Mendes", "28/01/2024", "Jul 2024", "Check-up", "45", "1", "Card"],
    ["Dev Anand", "19/03/2024", "Sep 2024", "Root Canal", "410", "0", "Transfer"],
    ["Jo Carter", "02/02/2024", "Aug 2024", "Check-up", "45", "3", "Cash"],
    ["Mira Stone", "22/03/2024", "Oct 2024", "Whitening", "280", "0", "Card"],
  ],
};
const FINISHERS: RawTable = {
  id: "charity_run",
  file: "charity_run.csv",
  header: ["Bib", "Runner", "Club", "Time"],
  rows: [
    ["11", "Nell Ward", "Lakeside", "0:44:10"],
    ["12", "Omar Said", "Hillside", "0:47:32"],
    ["13", "Pia Lind", "Lakeside", "DNF"],
    ["14", "Quin Ames", "Riverside", "0:51:05"],
    ["15", "Rhea Cole", "Hillside", "DNS"],
  ],
};

const fixture = openTables([PATIENTS, FINISHERS]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a clinic's patient list", () => {
  it("reads 'never missed' as a tally of 0", () => {
    expect(answer("How many patients have never missed an appointment?", "clinic_patients")).toEqual(["3"]);
  });
  it("answers the amount when 'how much' asks about the priciest row", () => {
    expect(answer("how much is the priciest treatment", "clinic_patients")).toEqual(["640"]);
    expect(answer("How much is the most expensive treatment?", "clinic_patients")).toEqual(["640"]);
  });
  it("answers the person when 'who has' or 'whose' names another column", () => {
    expect(answer("Who has the most expensive treatment?", "clinic_patients")).toEqual(["Owen Pike"]);
    expect(answer("Whose treatment costs the most?", "clinic_patients")).toEqual(["Owen Pike"]);
  });
  it("lists the rows a plural possessive names", () => {
    expect(answer("Which patients' treatment costs more than £200?", "clinic_patients")?.sort()).toEqual(
      ["Dev Anand", "Mira Stone", "Owen Pike"].sort(),
    );
  });
  it("reads how someone paid from the Payment column", () => {
    expect(answer("How did Dev Anand pay?", "clinic_patients")).toEqual(["Transfer"]);
  });
  it("reads a 'Next …' header as a column, not as the next row", () => {
    expect(answer("When is Owen Pike's next check?", "clinic_patients")).toEqual(["Sep 2024"]);
  });
});

describe("a charity run's results", () => {
  it("counts the runners who finished, leaving out DNF and DNS", () => {
    expect(answer("How many runners finished?", "charity_run")).toEqual(["3"]);
    expect(answer("How many runners did not finish?", "charity_run")).toEqual(["1"]);
  });
});

const BILLS: RawTable = {
  id: "home_bills",
  file: "home_bills.csv",
  header: ["Month", "Electricity (kWh)", "Electricity Cost", "Gas Cost"],
  rows: [
    ["Jan 2025", "412", "$98.40", "$71.20"],
    ["Feb 2025", "380", "$90.10", "$77.80"],
    ["Mar 2025", "355", "$84.20", "$58.40"],
    ["Apr 2025", "301", "$71.50", "$38.10"],
  ],
};
const STAYS: RawTable = {
  id: "guest_stays",
  file: "guest_stays.csv",
  header: ["Guest", "Room Type", "Nights", "Total"],
  rows: [
    ["Ines Duarte", "Double", "3", "$420"],
    ["Marco Bell", "Suite", "4", "$1,240"],
    ["Ines Duarte", "Single", "1", "$95"],
    ["Lea Roth", "Suite", "2", "$640"],
  ],
};
const more = openTables([BILLS, STAYS]);
afterAll(() => more.close());

describe("a household's monthly bills and a hotel's stays", () => {
  it("answers a month as its row writes it when each row is a month", () => {
    expect(planColumn(more, "Which month had the highest gas cost?", "home_bills")).toEqual(["Feb 2025"]);
  });
  it("lists every row for 'in which months …'", () => {
    expect(planColumn(more, "In which months did we use more than 350 kWh?", "home_bills")).toEqual([
      "Jan 2025",
      "Feb 2025",
      "Mar 2025",
    ]);
  });
  it("reads 'paid the most' from a Total column", () => {
    expect(planColumn(more, "Which guest paid the most?", "guest_stays")).toEqual(["Marco Bell"]);
  });
});
