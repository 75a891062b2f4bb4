/** Hand-written View 5 fixtures shared by the SQL tests (schemas follow indexing/types.ts). */
import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { physicalColumnNames, physicalTableName } from "../../indexing/identifiers.js";
import type { ColumnType, TableSchema } from "../../indexing/types.js";
import type { LinkedValue } from "../../nodes/types.js";

export function tableSchema(tableId: string, columns: Array<[string, ColumnType]>, rowCount = 0): TableSchema {
  const physical = physicalColumnNames(columns.map(([name]) => name));
  return {
    tableId,
    physical: physicalTableName(tableId),
    file: `${tableId}.csv`,
    rowCount,
    columns: columns.map(([name, type], i) => ({
      name,
      physical: physical[i]!,
      rawPhysical: `${physical[i]!}__raw`,
      type,
      examples: [],
    })),
  };
}

export const CLUBS = tableSchema("clubs", [
  ["Club", "text"],
  ["City", "text"],
  ["Founded", "integer"],
  ["Publisher", "text"],
  ["Secret", "text"],
]);
export const STADIUMS = tableSchema("stadiums", [
  ["Stadium", "text"],
  ["City", "text"],
  ["Capacity", "integer"],
]);

export const CLUB_ROWS: string[][] = [
  ["Alpha FC", "Saint Etienne", "1971", "O'Reilly", "s1"],
  ["Beta United", "Lyon", "1950", "Penguin", "s2"],
  ["Gamma City", "Paris", "1,905", "Penguin", "s3"],
];
export const STADIUM_ROWS: string[][] = [
  ["Stade A", "Saint Etienne", "42000"],
  ["Stade B", "Lyon", "59186"],
];

export function linked(
  column: string,
  value: string | null,
  level: 0 | 1 | 2 | 3 = 0,
  tableId: string | null = null,
): LinkedValue {
  return { entity: value ?? column, tableId, column, matchedValue: value, confidence: 1, fallbackLevel: level };
}

function typed(raw: string, type: ColumnType): string | number | null {
  if (raw === "") return null;
  if (type === "integer" || type === "real") {
    const n = Number(raw.replace(/,/g, ""));
    return Number.isFinite(n) ? n : null;
  }
  return raw;
}

/** Writes a View 5 database (layout of indexing/sql-store.ts) and returns its path. */
export function writeFixtureDb(
  tables: Array<[TableSchema, string[][]]> = [
    [CLUBS, CLUB_ROWS],
    [STADIUMS, STADIUM_ROWS],
  ],
  rowsPerTable?: number,
): string {
  const dir = mkdtempSync(join(tmpdir(), "atr-sql-"));
  const path = join(dir, "tables.sqlite");
  const db = new Database(path);
  for (const [schema, rows] of tables) {
    const defs = schema.columns.flatMap((c) => [
      `"${c.physical}" ${c.type === "integer" ? "INTEGER" : c.type === "real" ? "REAL" : "TEXT"}`,
      `"${c.rawPhysical}" TEXT`,
    ]);
    db.exec(`CREATE TABLE "${schema.physical}" ("_row" INTEGER PRIMARY KEY, ${defs.join(", ")})`);
    const names = ["_row", ...schema.columns.flatMap((c) => [c.physical, c.rawPhysical])];
    const insert = db.prepare(
      `INSERT INTO "${schema.physical}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    );
    const all = rowsPerTable ? Array.from({ length: rowsPerTable }, (_, i) => rows[i % rows.length]!) : rows;
    db.transaction(() => {
      all.forEach((row, i) => {
        insert.run(i, ...schema.columns.flatMap((c, j) => [typed(row[j] ?? "", c.type), row[j] ?? ""]));
      });
    })();
  }
  db.close();
  return path;
}

/** A local JSON service on 127.0.0.1:0 that records requests and answers through `reply`. */
export async function startJsonService(reply: (url: string, body: unknown) => { status: number; text: string }) {
  const { createServer } = await import("node:http");
  const seen: Array<{ url: string; body: any }> = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text) as unknown;
      seen.push({ url: req.url ?? "", body });
      const out = reply(req.url ?? "", body);
      res.writeHead(out.status, { "content-type": "application/json" }).end(out.text);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}
