/** Small hand-written tables in a temporary View 5 store, shared by the offline NL→SQL tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openSqlStore, readTableSchemas, writeSqlStore } from "../../../indexing/sql-store.js";
import type { Passage, RawTable, TableSchema } from "../../../indexing/types.js";
import { loadCatalog, type TableCatalog } from "../../../nodes/offline/table-catalog.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { linkMentions } from "../../../nodes/offline/condition-links.js";
import { expandHeaderShorthand } from "../../../nodes/offline/header-shorthand.js";
import type { Bridge } from "../../../nodes/offline/reader.js";
import { createReaders } from "../../../nodes/offline/readers.js";
import { createRowFinder, type DescribedRow, type RowFinder } from "../../../nodes/offline/bridge.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

export const MEDALS: RawTable = {
  id: "medals",
  file: "medals.csv",
  header: ["Rank", "Nation", "Gold", "Silver", "Bronze", "Total"],
  rows: [
    ["1", "China", "51", "21", "28", "100"],
    ["2", "United States", "36", "38", "36", "110"],
    ["3", "Russia", "23", "21", "28", "72"],
    ["4", "Great Britain", "19", "13", "15", "47"],
    ["5", "Germany", "16", "10", "15", "41"],
    ["6", "South Korea", "13", "10", "8", "31"],
    ["", "Total", "158", "113", "130", "401"],
  ],
};

export const RACES: RawTable = {
  id: "races",
  file: "races.csv",
  header: ["Year", "Venue", "Winner", "Time", "Prize"],
  rows: [
    ["2001", "Busan, South Korea", "Kim Lee", "3:45", "$1,200"],
    ["2002", "Seoul, South Korea", "Ana Smith", "3:50", "$1,500"],
    ["2003", "Tokyo", "Kim Lee", "3:40", "$2,000"],
    ["2004", "Beijing", "Marilynn Jones", "3:55", "$2,000"],
  ],
};

/** A financial-report table: a header row of years under a blank first cell, amounts as written. */
export const REPORT: RawTable = {
  id: "report",
  file: "report.csv",
  header: ["", "For the years ended December 31,", "col_3"],
  rows: [
    ["(in millions)", "2019", "2018"],
    ["Net bookings", "$6,388", "$7,262"],
    ["In-game net bookings", "$3,366", "$4,203"],
    ["Operating loss", "$(120)", "$80"],
  ],
};

/** Results with dates and finishing places. */
export const RACES2: RawTable = {
  id: "races2",
  file: "races2.csv",
  header: ["Date", "Rider", "Position"],
  rows: [
    ["June 3, 2001", "Kim Lee", "1st"],
    ["June 17, 2001", "Kim Lee", "3rd"],
    ["July 1, 2001", "Ana Smith", "1st"],
    ["July 15, 2001", "Kim Lee", "2nd"],
  ],
};

/** Medals with zero counts. */
export const MEDALS2: RawTable = {
  id: "medals2",
  file: "medals2.csv",
  header: ["Rank", "Nation", "Gold", "Silver", "Bronze"],
  rows: [
    ["1", "Brazil", "3", "1", "2"],
    ["2", "Chile", "1", "2", "0"],
    ["3", "Peru", "0", "1", "1"],
  ],
};

/** Batting figures with an "Average" column. */
export const BATTING: RawTable = {
  id: "batting",
  file: "batting.csv",
  header: ["Player", "Matches", "Average"],
  rows: [
    ["Ann Lee", "10", "31.5"],
    ["Bo Park", "12", "44.25"],
    ["Cy Young", "8", "28.0"],
  ],
};

/** Rows in alphabetical, not chronological, order. */
export const DRAFTS: RawTable = {
  id: "drafts",
  file: "drafts.csv",
  header: ["Player", "Year", "Team"],
  rows: [
    ["Abe Ross", "2003", "Jets"],
    ["Ben Cole", "1998", "Bears"],
    ["Cal Dunn", "2001", "Jets"],
  ],
};

/** One opponent's name is a part of another's ("Oklahoma", "at Oklahoma State"). */
export const SCHEDULE: RawTable = {
  id: "schedule",
  file: "schedule.csv",
  header: ["Date", "Opponent", "Result"],
  rows: [
    ["October 14", "Oklahoma", "W 21–7"],
    ["October 21", "at Oklahoma State", "W 48–23"],
    ["October 28", "Iowa State", "L 10–13"],
  ],
};

/** A season's games with an outcome column ("W 24–7"). */
export const GAMES: RawTable = {
  id: "games",
  file: "games.csv",
  header: ["Date", "Opponent", "Result", "Attendance"],
  rows: [
    ["September 2", "Wake Forest", "W 24–7", "30,000"],
    ["September 9", "Duke", "L 10–14", "42,000"],
    ["September 16", "Navy", "W 31–3", "35,500"],
    ["September 23", "Army", "T 7–7", "28,000"],
    ["September 30", "Tulane", "L 0–21", "25,000"],
  ],
};

export interface Fixture {
  db: Database.Database;
  tables: Map<string, TableSchema>;
  catalog(id: string): TableCatalog;
  run(sql: string): unknown[][];
  close(): void;
}

/** The offline SQL writer's plan for a question over one table of a store, run: its first cell and the generator's name. */
export function planAnswer(
  catalog: TableCatalog,
  run: (sql: string) => unknown[][],
  question: string,
): { value: unknown; generator: string } {
  const a = analyzeQuestion(question);
  const plan = planSql({
    analysis: a,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }),
  });
  if (!plan) throw new Error(`no plan for ${question}`);
  return { value: run(plan.sql)[0]?.[0], generator: plan.generator };
}

/** A warehouse inventory: items as values, a quantity column and a "unit cost" column. */
export const STOCK: RawTable = {
  id: "stock",
  file: "stock.csv",
  header: ["item", "warehouse", "quantity", "unit_cost"],
  rows: [
    ["hinges", "North", "120", "0.75"],
    ["hinges", "South", "80", "0.80"],
    ["bolts", "North", "300", "0.10"],
    ["bolts", "South", "45", "0.12"],
  ],
};

/** Flights: a fare and a duration the questions name with other words ("cost", "how long"). */
export const FLIGHTS: RawTable = {
  id: "flights",
  file: "flights.csv",
  header: ["flight", "destination", "departure", "duration_min", "fare"],
  rows: [
    ["FX120", "Oslo", "07:15", "95", "180"],
    ["FX133", "Rome", "09:40", "150", "120"],
    ["FX147", "Oslo", "18:05", "210", "260"],
  ],
};

/** Towns founded in years of three and four digits. */
export const TOWNS: RawTable = {
  id: "towns",
  file: "towns.csv",
  header: ["town", "founded", "population"],
  rows: [
    ["Aldmoor", "1240", "52000"],
    ["Brackwell", "977", "18000"],
    ["Caddon", "1510", "240000"],
  ],
};

/** Support tickets with a status column of a few generic words (open / closed / pending). */
export const TICKETS: RawTable = {
  id: "tickets",
  file: "tickets.csv",
  header: ["ticket", "status", "hours"],
  rows: [
    ["T1", "open", "4"],
    ["T2", "closed", "12"],
    ["T3", "open", "7"],
    ["T4", "pending", "1"],
  ],
};

/** A plain employees table: a text key column beside the numeric column questions name. */
export const EMPLOYEES: RawTable = {
  id: "employees",
  file: "employees.csv",
  header: ["id", "name", "department", "salary", "start_date"],
  rows: [
    ["1", "Ana Ruiz", "Sales", "71000", "2019-03-01"],
    ["2", "Bo Chen", "Finance", "64000", "2020-07-15"],
    ["3", "Cara Diaz", "Sales", "88000", "2018-01-09"],
    ["4", "Dev Patel", "Support", "52000", "2021-11-30"],
  ],
};

export function openFixture(): Fixture {
  return openTables([
    MEDALS,
    RACES,
    REPORT,
    RACES2,
    GAMES,
    MEDALS2,
    BATTING,
    DRAFTS,
    SCHEDULE,
    STOCK,
    FLIGHTS,
    TOWNS,
    TICKETS,
    EMPLOYEES,
  ]);
}

/** A temporary View 5 store of `raw`, read only; `close()` removes it. */
export function openTables(raw: RawTable[]): Fixture {
  const dir = mkdtempSync(join(tmpdir(), "atr-offline-"));
  const path = join(dir, "tables.sqlite");
  const schemas = writeSqlStore(path, raw);
  const db = new Database(path, { readonly: true });
  const tables = new Map(schemas.map((s) => [s.tableId, s]));
  return {
    db,
    tables,
    catalog: (id) => loadCatalog(db, tables.get(id)!),
    run: (sql) => db.prepare(sql).raw().all() as unknown[][],
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The offline SQL writer's plan for a question over one table of `fixture`, run: the first column of every row, as text. */
export function planColumn(fixture: Fixture, question: string, table: string): string[] {
  const a = analyzeQuestion(question);
  const catalog = fixture.catalog(table);
  const plan = planSql({
    analysis: a,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }),
  });
  if (!plan) throw new Error(`no plan for ${question}`);
  return fixture.run(plan.sql).map((r) => String(r[0]));
}

/** A report table (values at row label × year) as it appears in evidence, without its source line. */
export const BOOKINGS_MARKDOWN = [
  "Table name: bookings",
  "| col_1 | For the Years Ended December 31, | col_3 | col_4 |",
  "| --- | --- | --- | --- |",
  "|  | 2019 | 2018 | Increase (Decrease) |",
  "| Net bookings | $6,388 | $7,262 | $(874) |",
  "| In-game net bookings | $3,366 | $4,203 | $(837) |",
].join("\n");

/**
 * As the decomposer grounds a question over one table of `fixture`: the table's shorthand, the learned link
 * choice, the registry's first plan, run; the first column of every row, as text.
 */
export function groundedColumn(fixture: Fixture, question: string, table: string): string[] {
  const catalog = fixture.catalog(table);
  const asked = expandHeaderShorthand(question, catalog);
  const analysis = analyzeQuestion(asked);
  const plan = planSql({ analysis, catalog, mentions: linkMentions(asked, analysis, catalog) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return fixture.run(plan.sql).map((r) => String(r[0]));
}

/** The name of the plan generator that answers a question over one table, or undefined when none does. */
export function planGenerator(fixture: Fixture, question: string, table: string): string | undefined {
  const catalog = fixture.catalog(table);
  const analysis = analyzeQuestion(question);
  return planSql({ analysis, catalog, mentions: linkMentions(question, analysis, catalog) })?.generator;
}

/** A passage reader's input for a question with no table grounding: the question, its sub-query and plan. */
export function readerInput(question: string): { question: string; subQuery: string; plan: SubQueryPlan } {
  const a = analyzeQuestion(question, { hasPassages: true });
  return {
    question,
    subQuery: question,
    plan: {
      subQuery: question,
      requiredModalities: "both",
      expectedOperator: a.operator,
      needGlobalTableView: false,
      entityMentions: [],
      uncertainty: 0,
      analysis: a as unknown as Record<string, unknown>,
    },
  };
}

/** A sub-query plan of a question over a table with passages, grounded in `tableId` (the passage readers' input). */
export function passagePlan(question: string, tableId: string): SubQueryPlan {
  const { plan } = readerInput(question);
  return { ...plan, analysis: { ...plan.analysis, grounding: { tableId } } };
}

/** The TEXT reader over one described row (the bridge finds it for its own table only): question → answer. */
export function readerOverRow(row: DescribedRow): (question: string) => Promise<string> {
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === row.tableId ? row : undefined),
  });
  const { readText } = createReaders(() => "", bridge);
  return (q) => readText({ question: q, subQuery: q, plan: passagePlan(q, row.tableId), evidence: "" });
}

/**
 * A described row of `tableId` (row 0) whose cells link the given pages: each page is [title, text, column
 * index of the cell linking it].
 */
export function rowWithPages(
  tableId: string,
  columns: string[],
  values: string[],
  pages: Array<[title: string, text: string, column: number]>,
): DescribedRow {
  return {
    tableId,
    rowId: 0,
    columns,
    values,
    passages: pages.map(([title, text, column]) => ({
      id: `/wiki/${title.replace(/ /g, "_")}`,
      title,
      text,
      file: `${tableId}.json`,
      tableId,
      cells: [[0, column]] as Array<[number, number]>,
    })),
    score: 3,
    runnerUp: 1,
  };
}

/**
 * The bridge's row finder over one table stored in `dir`, whose cells link the given pages: each page is
 * [title, text, row, column of the cell linking it].
 */
export function linkedRowFinder(
  dir: string,
  table: RawTable,
  pages: Array<[title: string, text: string, row: number, column: number]>,
): RowFinder {
  const path = join(dir, `${table.id}.sqlite`);
  writeSqlStore(path, [table]);
  const db = openSqlStore(path);
  const passages: Passage[] = pages.map(([title, text, row, column]) => ({
    id: `/wiki/${title.replace(/ /g, "_")}`,
    title,
    text,
    file: `${table.id}.json`,
    tableId: table.id,
    cells: [[row, column]],
  }));
  return createRowFinder({ db, tables: readTableSchemas(db), passages });
}
