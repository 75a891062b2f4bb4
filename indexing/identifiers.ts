/**
 * SQL identifier rules (reference §6.6 step 3, §2.1). View 5 stores each logical table and column
 * under a physical identifier made by these rules, and the SQL guard resolves identifiers with the
 * same functions — one definition, so the two can never disagree.
 */
import { createHash } from "node:crypto";

/** Physical identifier of one name: the reference's rule, deterministic and SQL-safe. */
export function physicalIdentifier(name: string): string {
  let id = name.split(".")[0] ?? "";
  id = id.replace(/[^A-Za-z0-9_]/g, "_");
  while (id.includes("__")) id = id.replace(/__/g, "_");
  if (id.length > 2) id = id.replace(/^_+|_+$/g, "");
  id = id.toLowerCase();
  if (id === "" || /^_+$/.test(id)) id = "c";
  if (/^[0-9]/.test(id)) id = `t_${id}`;
  if (id.length > 64) {
    const digest = createHash("md5").update(id).digest("hex").slice(0, 8);
    id = `${id.slice(0, 20)}_${digest}`;
  }
  return id;
}

/** Physical table name: strip a spreadsheet suffix, `.` → `_`, then the identifier rule. */
export function physicalTableName(tableId: string): string {
  const stem = tableId.replace(/\.(xlsx|xls|csv)$/i, "").replace(/\./g, "_");
  return physicalIdentifier(stem);
}

/**
 * Physical names of a table's ordered columns. Columns whose physical names collide get `_1`, `_2`, …
 * in schema order (the first keeps the bare name). Names starting with `_` are reserved for
 * bookkeeping (`_row`), so a data column never gets one.
 */
export function physicalColumnNames(columns: readonly string[]): string[] {
  return uniqueNames(
    columns.map((column) => {
      const base = physicalIdentifier(column.replace(/\./g, "_"));
      return base.startsWith("_") ? `c${base}` : base;
    }),
    1,
  );
}

/**
 * Makes names unique in order: the first occurrence keeps its name, later ones get `_<n>` with n
 * counting up from `firstSuffix` (skipping names already taken). Used for physical column names
 * (`_1`, `_2`, … as the reference) and for duplicate headers (`_2`, `_3`, …).
 */
export function uniqueNames(names: readonly string[], firstSuffix: number): string[] {
  const used = new Set<string>();
  const lastSuffix = new Map<string, number>();
  return names.map((name) => {
    let out = name;
    let n = lastSuffix.get(name) ?? firstSuffix - 1;
    while (used.has(out)) {
      n += 1;
      out = `${name}_${n}`;
    }
    lastSuffix.set(name, n);
    used.add(out);
    return out;
  });
}

/**
 * Table-name variants used for hint matching and the executor's fallback scope (§2.1): the id,
 * its lower-case form, a normalised form, and the `t_`-prefix/unprefixed forms; order kept, no repeats.
 */
export function tableNameVariants(tableId: string): string[] {
  const lower = tableId.toLowerCase();
  const normalised = lower.replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  const out: string[] = [tableId, lower, normalised];
  for (const form of [normalised, lower]) {
    if (form.startsWith("t_")) out.push(form.slice(2));
    else if (/^[0-9]/.test(form)) out.push(`t_${form}`);
  }
  return [...new Set(out.filter((v) => v !== ""))];
}

/** Double-quotes an identifier for SQLite. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
