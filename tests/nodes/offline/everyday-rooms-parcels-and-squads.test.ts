/**
 * Hotel rooms, parcels, share prices, a football squad, a meter log, courses and clinic appointments, asked as
 * people ask them: "how many rooms cost under 100 a night?" (the rate, not room 101), "how many people can room
 * 204 sleep?" and "how many guests can the hotel sleep in total?" (the Sleeps column the verb spells); "the
 * heaviest parcel" and "the cheapest parcel" of a table with no name column (its record number, not the date
 * "parcels" shares a stem with), "delivered after May 10" (the Delivered date); "the highest closing price"
 * (a Close column, not the last row), "the day the closing price was lowest" (Close, not Low); "how many
 * goalkeepers?" of a Pos column of codes (GK), "players who have a red card" (Red Cards above zero), "how many
 * yellow cards did the team get?" (added up); "how many readings were estimated?" (rows, though "reading" is
 * related to the kWh); "who teaches X?" of a Lecturer column; "who had the earliest appointment?" (the clock
 * breaks a tie of the date); a table of quarters ("Q3 sales" of a Q3 column, "which rep …" of a Sales Rep column).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { asksForName } from "../../../nodes/offline/answer-checks.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "guest_rooms",
    file: "guest_rooms.csv",
    header: ["Room", "Type", "Floor", "Nightly Rate", "Sleeps"],
    rows: [
      ["101", "Single", "1", "85", "1"],
      ["102", "Double", "1", "120", "2"],
      ["201", "Twin", "2", "95", "2"],
      ["202", "Suite", "2", "260", "3"],
      ["204", "Family", "2", "170", "4"],
      ["301", "Single", "3", "78", "1"],
    ],
  },
  {
    id: "parcels",
    file: "parcels.csv",
    header: ["Tracking #", "Courier", "Shipped", "Delivered", "Weight (kg)", "Cost (EUR)"],
    rows: [
      ["PK40017", "Swiftpost", "2025-05-02", "2025-05-06", "3.20", "8.90"],
      ["PK40024", "Rapido", "2025-05-08", "2025-05-12", "12.75", "21.40"],
      ["PK40031", "Swiftpost", "2025-05-09", "2025-05-10", "0.80", "5.10"],
      ["PK40038", "Rapido", "2025-04-29", "2025-05-15", "7.40", "14.20"],
    ],
  },
  {
    id: "share_prices",
    file: "share_prices.csv",
    header: ["Date", "Open", "High", "Low", "Close"],
    rows: [
      ["2025-03-03", "50.10", "51.20", "49.80", "50.90"],
      ["2025-03-04", "50.90", "53.40", "50.70", "53.10"],
      ["2025-03-05", "53.10", "53.30", "47.90", "49.60"],
      ["2025-03-06", "49.60", "50.40", "48.10", "48.30"],
      ["2025-03-07", "48.30", "49.90", "48.00", "49.70"],
    ],
  },
  {
    id: "squad",
    file: "squad.csv",
    header: ["Player", "Pos", "Age", "Goals", "Yellow Cards", "Red Cards"],
    rows: [
      ["A. Brennan", "GK", "31", "0", "1", "0"],
      ["C. Duarte", "DF", "24", "1", "4", "1"],
      ["E. Falk", "DF", "27", "0", "2", "0"],
      ["G. Haro", "MF", "22", "3", "0", "0"],
      ["I. Jovic", "FW", "29", "11", "3", "1"],
      ["K. Lund", "GK", "19", "0", "0", "0"],
    ],
  },
  {
    id: "meter_log",
    file: "meter_log.csv",
    header: ["Week Starting", "Usage (kWh)", "Reading Type"],
    rows: [
      ["06/01/2025", "140.5", "Actual"],
      ["13/01/2025", "162.0", "Estimated"],
      ["20/01/2025", "151.2", "Actual"],
      ["27/01/2025", "170.8", "Estimated"],
      ["03/02/2025", "149.9", "Estimated"],
    ],
  },
  {
    id: "course_list",
    file: "course_list.csv",
    header: ["Code", "Course", "Lecturer", "Enrolled"],
    rows: [
      ["GE101", "Rocks and Minerals", "Dr. Okafor", "64"],
      ["GE210", "Glaciers", "Dr. Varga", "38"],
      ["GE305", "Field Mapping", "Dr. Okafor", "21"],
    ],
  },
  {
    id: "clinic_appointments",
    file: "clinic_appointments.csv",
    header: ["Patient", "Date", "Time", "Doctor"],
    rows: [
      ["Rosa Imbert", "2025-02-11", "14:30", "Dr. Pell"],
      ["Tomas Greer", "2025-02-10", "16:00", "Dr. Pell"],
      ["Uma Castel", "2025-02-10", "09:15", "Dr. Ngata"],
      ["Vic Ostrow", "2025-02-12", "08:45", "Dr. Ngata"],
    ],
  },
  {
    id: "rep_quarters",
    file: "rep_quarters.csv",
    header: ["Sales Rep", "Region", "Q1", "Q2", "Q3", "Q4", "Total"],
    rows: [
      ["Lior Ben", "West", "41000", "52000", "38000", "60000", "191000"],
      ["Mina Sol", "East", "56000", "47000", "61000", "44000", "208000"],
      ["Nils Aho", "West", "33000", "39000", "42000", "35000", "149000"],
    ],
  },
  {
    id: "office_kit",
    file: "office_kit.csv",
    header: ["Asset Tag", "Type", "Assigned To", "Cost"],
    rows: [
      ["KT-501", "Laptop", "J. Arden", "1420"],
      ["KT-502", "Monitor", "J. Arden", "310"],
      ["KT-503", "Laptop", "M. Creed", "1985"],
      ["KT-504", "Phone", "S. Voss", "1150"],
      ["KT-505", "Laptop", "S. Voss", "1760"],
    ],
  },
  {
    id: "team_directory",
    file: "team_directory.csv",
    header: ["Name", "Department", "Reports To", "Office"],
    rows: [
      ["Ines Faro", "IT", "", "Leeds"],
      ["Jack Moss", "IT", "Ines Faro", "Remote"],
      ["Kira Lund", "IT", "Ines Faro", "York"],
      ["Luca Bell", "HR", "Jack Moss", "Remote"],
    ],
  },
  {
    id: "larder",
    file: "larder.csv",
    header: ["Item", "In Stock", "Best Before"],
    rows: [
      ["Oats", "6", "2026-04-01"],
      ["Yoghurt", "3", "2025-11-20"],
      ["Cheddar", "2", "2025-12-02"],
    ],
  },
  {
    id: "staff_pay",
    file: "staff_pay.csv",
    header: ["emp_id", "name", "salary", "rating"],
    rows: [
      ["2001", "Wen Ito", "54000", "4"],
      ["2002", "Xavi Roca", "61000", "5"],
      ["2003", "Yara Said", "47000", "4"],
      ["2004", "Zane Holt", "72000", "5"],
    ],
  },
  {
    id: "bike_hires",
    file: "bike_hires.csv",
    header: ["Ride", "From", "To", "Charge"],
    rows: [
      ["R501", "Quay", "Market", "2.40"],
      ["R502", "Market", "Uni", "3.10"],
      ["R503", "Park Gate", "Quay", "1.90"],
    ],
  },
  {
    id: "home_budget",
    file: "home_budget.csv",
    header: ["Month", "Income", "Expenses"],
    rows: [
      ["January", "3200", "2900"],
      ["February", "3100", "2500"],
      ["March", "3300", "3100"],
      ["April", "3150", "2700"],
      ["May", "3400", "2600"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("hotel rooms", () => {
  it("compares a rate, not the rooms' own numbers", () => {
    expect(answer("How many rooms cost under 100 a night?", "guest_rooms")).toEqual(["3"]);
  });
  it("reads the column a closing verb after 'can' spells, for one room or added up", () => {
    expect(answer("How many people can room 204 sleep?", "guest_rooms")).toEqual(["4"]);
    expect(answer("How many guests can the hotel sleep in total?", "guest_rooms")).toEqual(["13"]);
  });
});

describe("numbered places and requests", () => {
  it("takes a number for 'which floor' or 'which platform', not for 'which guest'", () => {
    expect(asksForName("Which floor is room 204 on?", "entity")).toBe(false);
    expect(asksForName("Which platform does the 9:15 leave from?", "entity")).toBe(false);
    expect(asksForName("Which guest is in room 204?", "person")).toBe(true);
  });
  it("answers 'give me the lowest rate' with the rate", () => {
    expect(answer("Give me the lowest nightly rate", "guest_rooms")).toEqual(["78"]);
    expect(answer("Give me the lowest age", "squad")).toEqual(["19"]);
    expect(answer("Show me the cheapest room", "guest_rooms")).toEqual(["301"]);
  });
});

describe("parcels with no name column", () => {
  it("answers the row noun of a superlative by its record number", () => {
    expect(answer("What is the heaviest parcel?", "parcels")).toEqual(["PK40024"]);
    expect(answer("What was the cheapest parcel?", "parcels")).toEqual(["PK40031"]);
    expect(answer("When was the cheapest parcel shipped?", "parcels")).toEqual(["2025-05-09"]);
  });
  it("bounds the date the verb names", () => {
    expect(answer("How many parcels were delivered after May 10?", "parcels")).toEqual(["2"]);
  });
});

describe("share prices", () => {
  it("reads 'closing price' as the Close column, not the last row", () => {
    expect(answer("What was the highest closing price?", "share_prices")).toEqual(["53.10"]);
    expect(answer("On which day was the closing price lowest?", "share_prices")).toEqual(["2025-03-06"]);
    expect(answer("What was the lowest price?", "share_prices")).toEqual(["47.90"]);
  });
});

describe("a football squad", () => {
  it("reads a role noun as its code", () => {
    expect(answer("How many goalkeepers are there?", "squad")).toEqual(["2"]);
    expect(answer("Who is the oldest defender?", "squad")).toEqual(["E. Falk"]);
  });
  it("selects the rows with a tally above zero, and adds a tally up for the team", () => {
    expect(answer("How many players have a red card?", "squad")).toEqual(["2"]);
    expect(answer("How many yellow cards did the team get?", "squad")).toEqual(["10"]);
    expect(answer("How many goals were scored?", "squad")).toEqual(["15"]);
  });
});

describe("a table of quarters", () => {
  it("reads a typed quarter as its column when the table has one", () => {
    expect(answer("What were Mina Sol's Q3 sales?", "rep_quarters")).toEqual(["61000"]);
    expect(answer("Who had the highest sales in Q2?", "rep_quarters")).toEqual(["Lior Ben"]);
    expect(answer("What is the total of Q1 sales?", "rep_quarters")).toEqual(["130000"]);
  });
  it("reads an abbreviated header's own word as its head ('rep' of Sales Rep)", () => {
    expect(answer("Which rep had the lowest total?", "rep_quarters")).toEqual(["Nils Aho"]);
  });
});

describe("office kit", () => {
  it("adds up a Cost column whose amounts fall between 1000 and 2100 (money, not years)", () => {
    expect(answer("What is the total cost?", "office_kit")).toEqual(["6625"]);
    expect(answer("How much did we spend on laptops?", "office_kit")).toEqual(["5165"]);
  });
  it("answers the value a closing verb spells, and the row for another superlative of the row noun", () => {
    expect(answer("What did the most expensive laptop cost?", "office_kit")).toEqual(["1985"]);
    expect(answer("What did the most expensive kit cost?", "office_kit")).toEqual(["1985"]);
    expect(answer("What is the cheapest asset?", "office_kit")).toEqual(["KT-502"]);
  });
});

describe("a numbered employee and a rating of a value", () => {
  it("reads the noun after a number's possessive as the asked column", () => {
    expect(answer("What is employee 2003's salary?", "staff_pay")).toEqual(["47000"]);
  });
  it("binds a small number to the column named before 'of'", () => {
    expect(answer("How many employees have a rating of 5?", "staff_pay")).toEqual(["2"]);
  });
});

describe("a column of month names", () => {
  it("reads 'from January to April' as every month between, and 'January and April' as the two", () => {
    expect(answer("What was the total income from January to April?", "home_budget")).toEqual(["12750"]);
    expect(answer("What were the expenses between February and April in total?", "home_budget")).toEqual(["8300"]);
    expect(answer("What was the total income in January and April?", "home_budget")).toEqual(["6350"]);
  });
});

describe("trips", () => {
  it("reads where a trip starts from its From column and where it ends from its To column", () => {
    expect(answer("Where did ride R503 start?", "bike_hires")).toEqual(["Park Gate"]);
    expect(answer("Where did ride R502 end?", "bike_hires")).toEqual(["Uni"]);
  });
});

describe("a staff directory and a larder", () => {
  it("binds a name to the column the words before it spell, and lists everyone it selects", () => {
    expect(answer("Who reports to Ines Faro?", "team_directory")).toEqual(["Jack Moss", "Kira Lund"]);
    expect(answer("Who works remotely?", "team_directory")).toEqual(["Jack Moss", "Luca Bell"]);
  });
  it("reads 'best before' as a date column, not the row above nor a superlative; 'expire' names it", () => {
    expect(answer("What is the best before date of the cheddar?", "larder")).toEqual(["2025-12-02"]);
    expect(answer("Which item expires first?", "larder")).toEqual(["Yoghurt"]);
  });
});

describe("readings, courses and appointments", () => {
  it("counts the readings a header describes rather than adding up a related column", () => {
    expect(answer("How many readings were estimated?", "meter_log")).toEqual(["3"]);
  });
  it("finds a Lecturer column for 'who teaches'", () => {
    expect(answer("Who teaches Glaciers?", "course_list")).toEqual(["Dr. Varga"]);
  });
  it("breaks a tie of the date by the time of day", () => {
    expect(answer("Who had the earliest appointment?", "clinic_appointments")).toEqual(["Uma Castel"]);
  });
});
