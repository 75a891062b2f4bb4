import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildIndex } from "../../../indexing/build-index.js";
import { closeResources, openIndexCached } from "../../../graph/resources.js";
import { groundingTable } from "../../../nodes/offline/decompose.js";

/** A folder of a user's spreadsheets whose headers share words and shorthand. */
const TABLES: Record<string, string> = {
  team_roster:
    "Player,Age,Salary ($),PPG\nIvo Lark,27,4200000,18.5\nRay Dunn,31,1500000,9.0\nTam Holt,24,900000,21.0\n",
  wine_cellar: "Wine,Region,Vintage,Pts\nAlto Tinto,Rioja,2018,92\nCasa Blanca,Douro,2020,88\n",
  monthly_kpis: "Month,Revenue,Mktg Spend,New Customers\nJan 2024,70000,3300,41\nFeb 2024,64000,4100,37\n",
  expense_claims:
    "Claim ID,Employee,Dept,Category,Amount\nEX-1,Ana Lee,Marketing,Travel,310.50\nEX-2,Bo Reyes,Sales,Meals,45.00\n",
  staff: "employee_id,full_name,salary\n101,Ava Stone,52000\n102,Ben Carter,78500\n",
  orders: "order_id,customer,amount,status\n7001,Client A,120.50,paid\n7002,Client B,1976.60,pending\n",
  patients: "patient_id,name,systolic_bp\nP001,Ana Ng,128\nP002,Bo Roy,151\n",
  invoices: "Invoice,Client,Total,Paid\nI-1,Client C,120.50,Yes\nI-2,Client D,80.00,No\n",
  garden_log: "Day,Rain (mm),Frost\n2026-02-01,4.2,No\n2026-02-02,0.0,Yes\n",
  home_games: "Date,Opponent,Attendance\n2026-03-01,Tarn,5120\n2026-03-15,Fenby,6310\n",
  machines: "Machine,Hours run,Bay\nLathe,4120,B2\nPress,2210,B1\n",
  exercise: "Date,Activity,Minutes,Calories\n2026-05-01,Run,40,410\n2026-05-03,Row,30,280\n",
  houseplants: "Plant,Water every (days),Light\nFern,3,Shade\nCactus,14,Sun\n",
  rentals: "Car,Seats,Daily rate\nTern,5,55\nHeron,7,80\n",
  car_service: "Date,Work done,Cost\n2025-04-02,Tyres,240\n2025-10-11,Oil change,79\n",
  household_bills: "Bill,Amount,Due\nRent,1450,2026-06-01\nWater,38,2026-06-12\n",
  lessons: "Subject,Date,Tutor\nPottery,2026-06-08,Ms Kerr\nWeaving,2026-06-12,Mr Ode\n",
  utility_readings: "Month,Gas,Bill\nMay,52,121.90\nJune,31,115.30\n",
  plumbing_calls: "Job #,Address,Labour (hrs),Cost ($)\nP-41,3 Elm Row,2.5,$420.00\nP-42,9 Mill Lane,4,$760.00\n",
  card_spending: "Date,Shop,Amount\n03/14/2026,Fresco,54.10\n03/20/2026,Fresco,31.00\n",
  job_offers: 'Offer ID,Candidate,Role,Salary\nOF-1,Nia Bell,Analyst,"$41,000"\nOF-2,Omar Zaki,Designer,"$46,000"\n',
};

let root = "";
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-grounding-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  for (const [id, csv] of Object.entries(TABLES)) writeFileSync(join(root, "tables", `${id}.csv`), csv);
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
});
afterAll(async () => {
  await closeResources();
  rmSync(root, { recursive: true, force: true });
});

async function tableOf(question: string): Promise<string | undefined> {
  return (await groundingTable(await openIndexCached(join(root, "index")), question, undefined))?.tableId;
}

describe("the table a question without a hint is about", () => {
  it("is read in each table's own shorthand ('points per game' of a PPG column)", async () => {
    expect(await tableOf("who scores the most points per game?")).toBe("team_roster");
  });

  it("weighs how surely a word names a header ('marketing' spells 'Mktg Spend' more than a cell)", async () => {
    expect(await tableOf("what was the lowest marketing spend?")).toBe("monthly_kpis");
  });

  it("grounds a superlative in the table with the numeric column its words spell, not a cell of another", async () => {
    expect(await tableOf("What is the largest salary paid?")).toBe("staff");
    expect(await tableOf("who has the highest blood pressure")).toBe("patients");
  });

  it("lets a word naming a column outweigh the retrieval rank, and no table by a superlative of no measure", async () => {
    expect(await tableOf("What was the total rainfall?")).toBe("garden_log");
    expect(await tableOf("biggest crowd")).toBe("home_games");
  });

  it("grounds a question asking who in a table with a column of people", async () => {
    expect(await tableOf("Who is the youngest?")).toBe("team_roster");
  });

  it("counts a word once: 'paid' selecting a Paid column's Yes rows does not name that column again", async () => {
    expect(await tableOf("highest paid employee")).toBe("staff");
    expect(await tableOf("which invoices have been paid?")).toBe("invoices");
  });

  it("takes a superlative's measure from the words after it, not from the noun asked for", async () => {
    expect(await tableOf("On which day did I burn the most calories?")).toBe("exercise");
  });

  it("reads a verb whose noun is the table's name, and a capitalised cell as the name it is", async () => {
    expect(await tableOf("What is the cheapest car to rent?")).toBe("rentals");
    expect(await tableOf("How much does the Tern cost per day?")).toBe("rentals");
  });

  it("reads the noun a which-question asks for as the table it names, before a month cell of another", async () => {
    expect(await tableOf("Which lessons are after June 10?")).toBe("lessons");
    // (Only what a row is, the name's last word: the rows of job_offers are offers, not jobs.)
    expect(await tableOf("Which jobs cost more than $500?")).toBe("plumbing_calls");
  });

  it("reads a day the question names as the table whose dates fall on it, however the cells write it", async () => {
    expect(await tableOf("How much was spent on March 14?")).toBe("card_spending");
    expect(await tableOf("What did the work on October 11 cost?")).toBe("car_service");
  });
});
