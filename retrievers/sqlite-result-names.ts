/**
 * The names SQLite gives the result columns of a SELECT, read from the statement text: an alias
 * (`AS x`), a column reference's column name (`t."x"` → `x`), else the expression exactly as written
 * (`AVG("population")`). PostgreSQL names the same columns `avg`, `?column?`…; a PostgreSQL store
 * uses these names so a result string is the same on both stores (answers and their features read
 * the names). Undefined when the text is not a plain `[WITH …] SELECT … FROM` the splitter understands.
 */

/** Depth-0 pieces of the text between quotes: [start, end) spans with their parenthesis depth. */
function scan(sql: string): Array<{ i: number; depth: number }> {
  const marks: Array<{ i: number; depth: number }> = [];
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"' || ch === "`") {
      const end = sql.indexOf(ch, i + 1);
      i = end < 0 ? sql.length : end;
      continue;
    }
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else marks.push({ i, depth });
  }
  return marks;
}

function keywordAt(sql: string, i: number, word: string): boolean {
  return (
    sql.slice(i, i + word.length).toUpperCase() === word &&
    !/[A-Za-z0-9_]/.test(sql[i - 1] ?? " ") &&
    !/[A-Za-z0-9_]/.test(sql[i + word.length] ?? " ")
  );
}

function unquote(name: string): string {
  const m = /^"((?:[^"]|"")*)"$/.exec(name) ?? /^`([^`]*)`$/.exec(name);
  return m ? m[1]!.replace(/""/g, '"') : name;
}

export function sqliteResultNames(sql: string): string[] | undefined {
  const text = sql.trim().replace(/;\s*$/, "");
  const marks = scan(text).filter((m) => m.depth === 0);
  const select = marks.find((m) => keywordAt(text, m.i, "SELECT"));
  if (!select) return undefined;
  let start = select.i + "SELECT".length;
  const rest = text.slice(start);
  const modifier = /^\s+(DISTINCT|ALL)\b/i.exec(rest);
  if (modifier) start += modifier[0].length;
  const from = marks.find((m) => m.i > start && keywordAt(text, m.i, "FROM"));
  const end = from ? from.i : text.length;
  const commas = marks.filter((m) => m.i >= start && m.i < end && text[m.i] === ",").map((m) => m.i);
  const items: string[] = [];
  let at = start;
  for (const c of [...commas, end]) {
    items.push(text.slice(at, c).trim());
    at = c + 1;
  }
  return items.map((item) => {
    const alias = /\s+AS\s+("(?:[^"]|"")*"|`[^`]*`|[A-Za-z_][A-Za-z0-9_]*)$/i.exec(item);
    if (alias) return unquote(alias[1]!);
    const ref = /^(?:(?:"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)\.)?("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)$/.exec(item);
    if (ref) return unquote(ref[1]!);
    return item;
  });
}
