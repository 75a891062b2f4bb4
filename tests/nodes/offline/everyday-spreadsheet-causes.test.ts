/**
 * The seventh everyday suite's causes, on tables of their own: headers in the table's own shorthand
 * ("PPG", "R2", "Btls"), money written with its symbol ("$1,200,000") and compared in words ("over 2
 * million", "under 40k"), amounts over several rows ("how much was spent on X", "how many new signups in
 * 2024"), a month of one year ("which month had the most …" over two years), months as "Jan 2024", a
 * quarter with its year, a year that is an event's date ("sold in 2023" beside a model-year column), and
 * day-first dates (12/03/2024 in a column whose other cells show the day comes first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import { parseDate } from "../../../indexing/column-types.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { headerMatch, isContraction } from "../../../nodes/offline/columns.js";
import { expandHeaderShorthand } from "../../../nodes/offline/header-shorthand.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";

const BOWLERS: RawTable = {
  id: "bowling_league",
  file: "bowling_league.csv",
  header: ["Bowler", "Team", "G1", "G2", "G3", "PPF", "Prize ($)"],
  rows: [
    ["Ada Stone", "Pins", "201", "188", "176", "18.8", "$1,200,000"],
    ["Ben Ode", "Strikers", "167", "212", "190", "19", "$450,000"],
    ["Cy Vale", "Pins", "233", "150", "201", "19.5", "$2,400,000"],
    ["Di Roe", "Strikers", "180", "175", "222", "19.2", "$80,000"],
  ],
};
const CELLAR: RawTable = {
  id: "cellar",
  file: "cellar.csv",
  header: ["Label", "Origin", "Btls", "Mktg Score"],
  rows: [
    ["Red One", "Chile", "6", "80"],
    ["Red Two", "Chile", "10", "70"],
    ["White One", "Greece", "3", "90"],
  ],
};
const SIGNUPS: RawTable = {
  id: "signups",
  file: "signups.csv",
  header: ["Month", "New Signups", "Revenue"],
  rows: [
    ["Nov 2023", "40", "$9,000"],
    ["Dec 2023", "90", "$12,500"],
    ["Jan 2024", "70", "$8,000"],
    ["Feb 2024", "20", "$11,000"],
    ["Apr 2024", "55", "$10,000"],
    ["May 2024", "65", "$7,500"],
  ],
};
const BIKES: RawTable = {
  id: "bike_sales",
  file: "bike_sales.csv",
  header: ["Receipt", "Sold On", "Clerk", "Model Yr", "Price"],
  rows: [
    ["R-1", "Nov 3, 2023", "Eva Lund", "2024", "$900"],
    ["R-2", "Nov 20, 2023", "Eva Lund", "2023", "$1,250"],
    ["R-3", "Jan 5, 2024", "Tom Ash", "2023", "$640"],
    ["R-4", "Nov 2, 2024", "Tom Ash", "2024", "$2,100"],
    ["R-5", "Dec 9, 2024", "Eva Lund", "2023", "$1,000"],
  ],
};
const SPEND: RawTable = {
  id: "spend",
  file: "spend.csv",
  header: ["Ref", "Booked", "Category", "Amount"],
  rows: [
    ["S-1", "12/03/2024", "Fuel", "€40.00"],
    ["S-2", "25/03/2024", "Fuel", "€55.50"],
    ["S-3", "03/12/2024", "Hotel", "€310.00"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-everyday-sheets-"));
const schemas = writeSqlStore(join(dir, "t.sqlite"), [BOWLERS, CELLAR, SIGNUPS, BIKES, SPEND]);
const db = new Database(join(dir, "t.sqlite"), { readonly: true });
const catalog = (id: string) =>
  loadCatalog(
    db,
    schemas.find((s) => s.tableId === id)!,
  );
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The planned statement's first column, as text, for the question asked as the decomposer asks it. */
function answer(question: string, table: string): string[] {
  const c = catalog(table);
  const asked = expandHeaderShorthand(question, c);
  const a = analyzeQuestion(asked);
  const plan = planSql({ analysis: a, catalog: c, mentions: findMentions(asked, c, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][]).map((r) => String(r[0]));
}

describe("spreadsheets as people keep them", () => {
  it("asks in the table's own header shorthand: initialisms and a letter with a number", () => {
    const c = catalog("bowling_league");
    expect(expandHeaderShorthand("What did Ada Stone bowl in game 2?", c)).toBe("What did Ada Stone bowl in g2?");
    expect(expandHeaderShorthand("her second game", c)).toBe("her g2");
    expect(expandHeaderShorthand("average pins per frame of Ben", c)).toBe("average ppf of Ben");
    expect(answer("who has the most pins per frame", "bowling_league")).toEqual(["Cy Vale"]);
    // (Whole words only, and never from a connector: "game 7" names no column here.)
    expect(expandHeaderShorthand("game 7 of the Pins", c)).toBe("game 7 of the Pins");
    expect(answer("What did Ada Stone bowl in game 2?", "bowling_league")).toEqual(["188"]);
  });

  it("reads a header typed without its vowels as the word it shortens", () => {
    expect(isContraction("btl", "bottles")).toBe(true);
    expect(isContraction("mktg", "marketing")).toBe(true);
    // (A word with vowels is not a contraction: "age" is not "average".)
    expect(isContraction("age", "average")).toBe(false);
    expect(headerMatch(["bottles"], catalog("cellar").columns[2]!)).toBeGreaterThan(1);
    expect(answer("how many bottles from Chile do I have", "cellar")).toEqual(["16"]);
  });

  it("compares money written with its symbol, and numbers with a scale word", () => {
    expect(answer("how many bowlers won more than 1 million", "bowling_league")).toEqual(["2"]);
    expect(answer("which bowlers won over $400k", "bowling_league")).toEqual(["Ada Stone", "Ben Ode", "Cy Vale"]);
    expect(answer("how many sales were under $1,000", "bike_sales")).toEqual(["2"]);
  });

  it("adds up an amount over the rows a name or a period selects", () => {
    expect(answer("how much did Eva Lund sell", "bike_sales")).toEqual(["3150"]);
    expect(answer("how many new signups did we get in 2024", "signups")).toEqual(["210"]);
    expect(answer("how much revenue did we make in 2023", "signups")).toEqual(["21500"]);
    // (One row's amount stays its cell.)
    expect(answer("how many new signups did we get in feb 2024", "signups")).toEqual(["20"]);
  });

  it("reads months and quarters of one year", () => {
    // (Over dates of days, the month of the year; over rows of whole months, the month of one year, as its row
    // writes it.)
    expect(answer("which month had the most sales", "bike_sales")).toEqual(["November"]);
    expect(answer("which month had the most new signups", "signups")).toEqual(["Dec 2023"]);
    expect(answer("what was the revenue in q2 2024", "signups")).toEqual(["17500"]);
    expect(answer("how many new signups did we get in the second half of 2023", "signups")).toEqual(["130"]);
  });

  it("takes a year after 'in' as the date of the event, not a model year", () => {
    expect(answer("how many bikes were sold in 2023", "bike_sales")).toEqual(["2"]);
    expect(answer("how many 2023 bikes were sold", "bike_sales")).toEqual(["3"]);
  });

  it("reads slashed dates day first when the column shows it", () => {
    expect(parseDate("03/12/2024")).toBe("2024-03-12");
    expect(parseDate("03/12/2024", true)).toBe("2024-12-03");
    expect(answer("how many bookings in december", "spend")).toEqual(["1"]);
    expect(answer("what is the largest amount", "spend")).toEqual(["€310.00"]);
  });
});
