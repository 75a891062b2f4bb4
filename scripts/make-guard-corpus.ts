/**
 * Writes the hostile-statement corpus of the SQL guard (tests/fixtures/guard/): one JSON string per
 * line in hostile-statements.jsonl (the `atr guard-check --batch` input) and, on the same line of
 * hostile-verdicts.jsonl, the verdict written here by hand per category: admissible, or refused with
 * a violation containing the given text. tests/retrievers/guard-corpus.test.ts runs it.
 *
 * Scope the corpus is written for (the examples/ index):
 *   --table_id clubs --table_id cities --columns clubs.Club,clubs.City,clubs.Founded,clubs.Stadium,cities.City,cities.Region,cities.Population --bind City=Carrow
 * so Manager and Capacity (clubs) are forbidden columns, players is an out-of-scope table, and
 * every admissible statement must carry clubs.city = 'Carrow' and restrict its rows with it.
 *
 *   npx tsx scripts/make-guard-corpus.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

type Verdict = { admissible: true } | { admissible: false; violation: string };
const corpus: Array<[string, Verdict]> = [];
const ok = (...sqls: string[]) => sqls.forEach((sql) => corpus.push([sql, { admissible: true }]));
const no = (violation: string, ...sqls: string[]) =>
  sqls.forEach((sql) => corpus.push([sql, { admissible: false, violation }]));

const B = "clubs.city = 'Carrow'"; // the binding, qualified (two tables in scope)
const SEL = `SELECT clubs.club FROM clubs WHERE ${B}`;
const cases = (s: string) => [s, s.toLowerCase(), s.replace(/\b([A-Z]+)\b/g, (w) => w[0] + w.slice(1).toLowerCase())];

// 1. Writes, schema changes and connection statements (3 casings each).
const READ_ONLY = "only one read-only SELECT query is allowed";
const ONE_STATEMENT = "exactly one SQL statement is required";
for (const s of [
  "INSERT INTO clubs (club) VALUES ('x')",
  "INSERT OR REPLACE INTO clubs (club) VALUES ('x')",
  "REPLACE INTO clubs (club) VALUES ('x')",
  "UPDATE clubs SET club = 'x' WHERE city = 'Carrow'",
  "DELETE FROM clubs WHERE city = 'Carrow'",
  "DROP TABLE clubs",
  "DROP VIEW v",
  "CREATE TABLE x AS SELECT club FROM clubs",
  "CREATE TEMP VIEW v AS SELECT club FROM clubs",
  "ALTER TABLE clubs ADD COLUMN x",
  "ATTACH DATABASE '/tmp/x.db' AS x",
  "ATTACH 'file:/etc/passwd?mode=ro' AS p",
  "DETACH DATABASE x",
  "PRAGMA table_info(clubs)",
  "PRAGMA writable_schema = 1",
  "PRAGMA query_only = 0",
  "VACUUM INTO '/tmp/copy.db'",
  "REINDEX clubs",
  "ANALYZE",
  "BEGIN TRANSACTION",
  "COMMIT",
  "SAVEPOINT s",
  "EXPLAIN SELECT club FROM clubs",
  "EXPLAIN QUERY PLAN SELECT club FROM clubs",
  "SELECT club INTO other FROM clubs WHERE city = 'Carrow'",
  "VALUES (1)",
]) {
  no(READ_ONLY, ...cases(s));
}
// The trigger body's ';' makes it two statements for the lexer (SQLite would read one): refused either way.
no(ONE_STATEMENT, ...cases("CREATE TRIGGER t AFTER INSERT ON clubs BEGIN DELETE FROM clubs; END"));
no(READ_ONLY, "  /* lead */ DELETE FROM clubs", "-- note\nDROP TABLE clubs", "\n\tUPDATE clubs SET city = 'Carrow'");
no(
  "",
  "WITH x AS (SELECT 1) DELETE FROM clubs",
  "WITH x AS (SELECT 1) INSERT INTO clubs (club) SELECT 1",
  "WITH x AS (SELECT 1) UPDATE clubs SET club = 'y'",
);

// 2. Stacked statements.
const ONE = "exactly one SQL statement is required";
no(
  ONE,
  `${SEL}; DROP TABLE clubs`,
  `${SEL};DELETE FROM clubs`,
  `${SEL}; ATTACH DATABASE '/tmp/x' AS x`,
  `${SEL}; PRAGMA writable_schema = 1`,
  `${SEL}; SELECT clubs.club FROM clubs WHERE ${B}`,
  `${SEL} /* ; */ ; SELECT 1`,
  `${SEL} -- x\n; SELECT 1`,
  `${SEL};\n\nSELECT manager FROM clubs`,
  `SELECT 1; ${SEL}`,
  `;;${SEL};;SELECT 2;`,
);
// The parser reads a leading ';' as an empty first statement: refused (harmless, and unambiguous).
no(ONE, `;${SEL}`);
ok(`${SEL};`, `${SEL};;`, `${SEL} -- ; DROP TABLE clubs`, `${SEL} /* ; DROP TABLE clubs */`);

// 3. Recursive CTE bombs (a CTE naming itself is recursive in SQLite even without the keyword).
no(
  "recursive queries are not allowed",
  "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
  "with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r",
  "WITH/**/RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM r) SELECT n FROM r",
  "WITH RECURSIVE r(x) AS (SELECT club FROM clubs UNION ALL SELECT x || x FROM r) SELECT x FROM r, clubs WHERE clubs.city = 'Carrow'",
  `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 100000000) SELECT clubs.club FROM clubs, r WHERE ${B}`,
);
no(
  "disallowed tables: r",
  "WITH r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
  `WITH r(n) AS (SELECT founded FROM clubs UNION ALL SELECT n + 1 FROM r) SELECT clubs.club FROM clubs WHERE ${B}`,
);

// 4. Functions outside the allow-list (extensions, files, blobs, randomness, introspection).
for (const f of [
  "load_extension('/tmp/evil.so')",
  "load_extension('/tmp/evil.so', 'entry')",
  "readfile('/etc/passwd')",
  "writefile('/tmp/x', clubs.club)",
  "edit(clubs.club)",
  "fts3_tokenizer('simple')",
  "zeroblob(1000000000)",
  "randomblob(1000000000)",
  "random()",
  "hex(clubs.club)",
  "quote(clubs.club)",
  "sqlite_version()",
  "sqlite_source_id()",
  "sqlite_compileoption_get(0)",
  "sqlite_offset(clubs.club)",
  "changes()",
  "last_insert_rowid()",
  "total_changes()",
  "likelihood(1, 0.5)",
  "json_extract('{}', '$')",
  "regexp('a', clubs.club)",
  "soundex(clubs.club)",
  "main.upper(clubs.club)",
]) {
  no("function not allowed", `SELECT ${f} FROM clubs WHERE ${B}`);
}
no(
  "function not allowed",
  `SELECT clubs.club FROM clubs WHERE ${B} AND load_extension('/tmp/x.so') IS NULL`,
  `SELECT clubs.club FROM clubs WHERE ${B} ORDER BY random()`,
);
// printf/format: a huge width allocates the whole string before any row is returned.
no(
  "printf width",
  `SELECT printf('%1000000000d', clubs.founded) FROM clubs WHERE ${B}`,
  `SELECT printf('%.*c', 1000000000, 'x') FROM clubs WHERE ${B}`,
  `SELECT format('%0999999s', clubs.club) FROM clubs WHERE ${B}`,
  `SELECT printf(clubs.club, 1) FROM clubs WHERE ${B}`,
);
ok(
  `SELECT printf('%s (%d)', clubs.club, clubs.founded) FROM clubs WHERE ${B}`,
  `SELECT printf('%.2f', clubs.founded / 3.0) FROM clubs WHERE ${B}`,
);

// 5. System, bookkeeping, out-of-scope and qualified tables; table-valued functions.
for (const t of [
  "sqlite_master",
  "sqlite_schema",
  "sqlite_temp_master",
  "sqlite_sequence",
  "sqlite_stat1",
  "_tables",
  "_columns",
  "_meta",
  "players",
  "season_2023_results",
]) {
  no(`disallowed tables: ${t}`, `SELECT name FROM ${t}`, `SELECT clubs.club FROM clubs JOIN ${t} ON 1 = 1 WHERE ${B}`);
}
no(
  "database-qualified tables are not allowed",
  `SELECT club FROM main.clubs WHERE city = 'Carrow'`,
  `SELECT club FROM temp.clubs WHERE city = 'Carrow'`,
  `SELECT club FROM "main"."clubs" WHERE city = 'Carrow'`,
  `SELECT clubs.club FROM clubs WHERE ${B} AND clubs.club IN (SELECT club FROM x.clubs)`,
);
no(
  "",
  "SELECT name FROM pragma_table_info('clubs')",
  "SELECT value FROM json_each('[1,2]')",
  "SELECT value FROM generate_series(1, 1000000000)",
);

// 6. Forbidden columns, every place they can hide.
const FORBIDDEN = "is not an allowed column";
no(
  FORBIDDEN,
  `SELECT manager FROM clubs WHERE city = 'Carrow'`,
  `SELECT manager__raw FROM clubs WHERE city = 'Carrow'`,
  `SELECT capacity FROM clubs WHERE city = 'Carrow'`,
  `SELECT clubs.manager FROM clubs WHERE ${B}`,
  `SELECT c.manager FROM clubs c WHERE c.city = 'Carrow'`,
  `SELECT "manager" FROM clubs WHERE city = 'Carrow'`,
  `SELECT \`manager\` FROM clubs WHERE city = 'Carrow'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND manager = 'x'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' ORDER BY manager`,
  `SELECT club FROM clubs WHERE city = 'Carrow' GROUP BY manager`,
  `SELECT club FROM clubs WHERE city = 'Carrow' GROUP BY club HAVING MAX(capacity) > 0`,
  `SELECT COUNT(manager) FROM clubs WHERE city = 'Carrow'`,
  `SELECT CASE WHEN manager LIKE 'A%' THEN 1 END FROM clubs WHERE city = 'Carrow'`,
  `SELECT club, ROW_NUMBER() OVER (PARTITION BY manager) FROM clubs WHERE city = 'Carrow'`,
  `SELECT club AS manager FROM clubs WHERE city = 'Carrow' AND manager = 'x'`,
  `SELECT m FROM (SELECT manager AS m, city FROM clubs) AS d WHERE d.city = 'Carrow'`,
  `WITH d AS (SELECT manager, city FROM clubs) SELECT manager FROM d WHERE city = 'Carrow'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND EXISTS (SELECT 1 FROM clubs c2 WHERE c2.manager = 'x')`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (SELECT club FROM clubs WHERE capacity > 1)`,
  `SELECT a.club FROM clubs a JOIN clubs b ON a.manager = b.manager WHERE a.city = 'Carrow'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND "capacity" > 0`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND CAST(capacity__raw AS INTEGER) > 0`,
  `SELECT lower(manager) FROM clubs WHERE city = 'Carrow'`,
);
// Square-bracket identifiers: the parser's SQLite grammar does not read them — refused as a parse error.
no(
  "SQL parse error",
  `SELECT [manager] FROM clubs WHERE city = 'Carrow'`,
  `SELECT [club] FROM clubs WHERE city = 'Carrow'`,
);
no(
  "unknown column",
  `SELECT nosuch FROM clubs WHERE city = 'Carrow'`,
  `SELECT clubs.nosuch FROM clubs WHERE ${B}`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND rowid = 1`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND oid > 0`,
);
no("NATURAL JOIN is not allowed", `SELECT club FROM clubs NATURAL JOIN cities WHERE ${B}`);
no(
  FORBIDDEN,
  `SELECT clubs.club FROM clubs JOIN cities USING (area_km) WHERE ${B}`,
  `SELECT clubs.club FROM clubs WHERE ${B} AND clubs.club IN (SELECT area_km FROM cities)`,
);

// 7. SELECT *.
no(
  "SELECT * is not allowed",
  `SELECT * FROM clubs WHERE city = 'Carrow'`,
  `SELECT clubs.* FROM clubs WHERE ${B}`,
  `SELECT c.* FROM clubs c WHERE c.city = 'Carrow'`,
  `SELECT club FROM (SELECT * FROM clubs) AS d WHERE d.city = 'Carrow'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND EXISTS (SELECT * FROM clubs)`,
);

// 8. Parameters.
no("SQL parse error", "SELECT club FROM clubs WHERE city = 'Carrow' AND club = ?1");
for (const p of ["?", ":name", "@name", "$name"])
  no("query parameters are not allowed", `SELECT club FROM clubs WHERE city = 'Carrow' AND club = ${p}`);

// 9. Text the parser and SQLite could read differently; unterminated text.
no(
  "backslashes are not allowed",
  String.raw`SELECT club FROM clubs WHERE city = 'Carrow' AND club = 'x\' OR 1=1 OR club = ''`,
  String.raw`SELECT club FROM clubs WHERE city = 'Carrow\'`,
);
no(
  "'#' is not allowed",
  "SELECT club FROM clubs WHERE city = 'Carrow' # OR 1=1",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club = #x",
);
no(
  "unterminated comment",
  "SELECT club FROM clubs WHERE city = 'Carrow' /* OR 1=1",
  "SELECT club FROM clubs /* /* */ WHERE city = 'Carrow' /*",
);
no(
  "unterminated quoted text",
  "SELECT club FROM clubs WHERE city = 'Carrow",
  'SELECT "club FROM clubs',
  "SELECT [club FROM clubs",
);
no(
  "SQL parse error",
  "SELECT club FROM clubs WHERE",
  "SELECT FROM clubs",
  "SELECT club FROM clubs WHERE city = 'Carrow' LIMIT",
  "SELECT club FROM clubs WHERE city == == 'Carrow'",
);
no("SQL service did not return sql_str", "", "   ", "-- only a comment", "/* */", ";", "```sql\n```");

// 10. Binding evasions: the binding must be a mandatory outer WHERE equality on the bound column.
const MISSING = "missing exact WHERE binding: clubs.city = 'Carrow'";
no(
  MISSING,
  "SELECT club FROM clubs",
  "SELECT club FROM clubs WHERE city = 'Carrow' OR 1 = 1",
  "SELECT club FROM clubs WHERE city = 'Carrow' OR club IS NOT NULL",
  "SELECT club FROM clubs WHERE (city = 'Carrow' OR 1) AND founded > 0",
  "SELECT club FROM clubs WHERE NOT city = 'Carrow'",
  "SELECT club FROM clubs WHERE NOT NOT city = 'Carrow'",
  "SELECT club FROM clubs WHERE city <> 'Carrow'",
  "SELECT club FROM clubs WHERE city != 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' COLLATE NOCASE",
  "SELECT club FROM clubs WHERE city LIKE 'Carrow'",
  "SELECT club FROM clubs WHERE city LIKE '%'",
  "SELECT club FROM clubs WHERE city GLOB 'Carrow'",
  "SELECT club FROM clubs WHERE city IN ('Carrow')",
  "SELECT club FROM clubs WHERE city IN ('Carrow', 'Ashford')",
  "SELECT club FROM clubs WHERE city BETWEEN 'Carrow' AND 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow '",
  "SELECT club FROM clubs WHERE city = ' Carrow'",
  "SELECT club FROM clubs WHERE city = 'Car' || 'row'",
  "SELECT club FROM clubs WHERE city = UPPER('Carrow')",
  "SELECT club FROM clubs WHERE TRIM(city) = 'Carrow'",
  "SELECT club FROM clubs WHERE 'Carrow' = 'Carrow'",
  "SELECT club FROM clubs WHERE city = city",
  "SELECT club FROM clubs WHERE club = 'Carrow'",
  "SELECT club FROM clubs WHERE stadium = 'Carrow'",
  "SELECT club FROM clubs WHERE cities.city = 'Carrow'",
  "SELECT club FROM clubs WHERE (city = 'Carrow') IS NOT NULL",
  "SELECT club FROM clubs WHERE (city = 'Carrow') = (1 = 1)",
  "SELECT club FROM clubs WHERE CASE WHEN city = 'Carrow' THEN 1 ELSE 1 END",
  "SELECT club FROM clubs WHERE COALESCE(city = 'Carrow', 1)",
  "SELECT club FROM clubs WHERE EXISTS (SELECT 1 FROM clubs WHERE city = 'Carrow')",
  "SELECT club FROM clubs WHERE club IN (SELECT club FROM clubs WHERE city = 'Carrow') OR 1",
  "SELECT club FROM clubs GROUP BY club HAVING city = 'Carrow'",
  "SELECT club FROM clubs WHERE 1 = 1 /* AND city = 'Carrow' */",
  "SELECT club FROM clubs WHERE 1 = 1 /*! AND city = 'Carrow' */",
  "SELECT club FROM clubs WHERE 1 = 1 -- AND city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow'' OR ''1'' = ''1'",
  "SELECT club FROM (SELECT club FROM clubs WHERE city = 'Carrow') AS d",
  "WITH d AS (SELECT club FROM clubs WHERE city = 'Carrow') SELECT club FROM d",
  "SELECT d.club FROM (SELECT club, 'Carrow' AS city FROM clubs) AS d WHERE d.city = 'Carrow'",
  "SELECT d.club FROM (SELECT club, city FROM clubs LIMIT 100) AS d WHERE d.city = 'Carrow'",
  "SELECT d.club FROM (SELECT DISTINCT club, city FROM clubs) AS d WHERE d.city = 'Carrow'",
  "SELECT d.club FROM (SELECT club, city FROM clubs UNION SELECT club, 'Carrow' FROM clubs) AS d WHERE d.city = 'Carrow'",
  "SELECT d.club FROM (SELECT club, MAX(city) AS city FROM clubs GROUP BY club) AS d WHERE d.city = 'Carrow'",
  "SELECT clubs.club FROM clubs LEFT JOIN cities ON cities.city = 'Carrow'",
  "SELECT clubs.club FROM clubs JOIN cities ON clubs.city = 'Carrow' OR 1 = 1",
  "SELECT clubs.club FROM clubs JOIN cities ON cities.city = clubs.city WHERE cities.city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT club FROM clubs",
  "SELECT club FROM clubs UNION ALL SELECT club FROM clubs WHERE city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Cаrrow'", // Cyrillic а
  "SELECT club FROM clubs WHERE city = 'Carrow\u200b'", // zero-width space
  "SELECT club FROM clubs WHERE city = 'Ｃarrow'", // full-width C
);

// Forms the parser does not read (refused: fail closed).
no(
  "SQL parse error",
  "SELECT club FROM clubs WHERE city = 'Carrow' IS NULL OR 1",
  "SELECT club FROM clubs WHERE city = 'Carrow' EXCEPT SELECT club FROM clubs WHERE 0",
);

// 11. Row-restriction evasions: a binding on one source does not restrict another.
const LOOSE = "binding does not restrict";
no(
  LOOSE,
  "SELECT b.club FROM clubs a JOIN clubs b ON 1=1 WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a LEFT JOIN clubs b ON 1 WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON a.club <> b.club WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON a.founded < b.founded WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON a.club = b.club OR 1 = 1 WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON a.club = a.club WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON b.founded = 1921 WHERE a.city = 'Carrow'",
  "SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.club IS NOT NULL",
  "SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow' AND (b.stadium = 'Mill Lane' OR b.city = 'Ashford')",
  "SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.city LIKE 'A%'",
  "SELECT COUNT(*) FROM clubs a, clubs b WHERE a.city = 'Carrow'",
  "SELECT group_concat(b.club) FROM clubs a, clubs b WHERE a.city = 'Carrow'",
  "SELECT cities.region FROM clubs, cities WHERE clubs.city = 'Carrow'",
  "SELECT cities.region FROM clubs JOIN cities ON 1 = 1 WHERE clubs.city = 'Carrow'",
  "SELECT cities.region FROM clubs LEFT JOIN cities ON cities.population > 0 WHERE clubs.city = 'Carrow'",
  "SELECT (SELECT group_concat(club) FROM clubs) FROM clubs WHERE city = 'Carrow'",
  "SELECT (SELECT group_concat(region) FROM cities) FROM clubs WHERE city = 'Carrow'",
  "SELECT club, (SELECT COUNT(*) FROM clubs) FROM clubs WHERE city = 'Carrow'",
  "SELECT club, EXISTS (SELECT 1 FROM clubs WHERE club = 'Dunmere FC') FROM clubs WHERE city = 'Carrow'",
  "SELECT club IN (SELECT club FROM clubs WHERE founded < 1900) FROM clubs WHERE city = 'Carrow'",
  "SELECT CASE WHEN (SELECT MAX(founded) FROM clubs) > 1900 THEN club END FROM clubs WHERE city = 'Carrow'",
  "SELECT club || (SELECT group_concat(club) FROM clubs b WHERE b.founded > a.founded) FROM clubs a WHERE a.city = 'Carrow'",
  "SELECT (SELECT group_concat(b.club) FROM clubs b WHERE b.city <> a.city) FROM clubs a WHERE a.city = 'Carrow'",
  "SELECT (SELECT group_concat(x.club) FROM clubs x, clubs y WHERE y.club = a.club) FROM clubs a WHERE a.city = 'Carrow'",
  "SELECT d.g FROM (SELECT city, (SELECT group_concat(club) FROM clubs) AS g FROM clubs) AS d WHERE d.city = 'Carrow'",
  "WITH d AS (SELECT city, (SELECT COUNT(*) FROM clubs) AS n FROM clubs) SELECT n FROM d WHERE city = 'Carrow'",
  "WITH x AS (SELECT club FROM clubs) SELECT x.club FROM clubs, x WHERE clubs.city = 'Carrow'",
  "SELECT x.club FROM clubs JOIN (SELECT club FROM clubs) AS x ON 1 = 1 WHERE clubs.city = 'Carrow'",
  "SELECT x.k FROM clubs c JOIN (SELECT a.club, b.club AS k FROM clubs a, clubs b) AS x ON x.club = c.club WHERE c.city = 'Carrow'",
  "SELECT COUNT(*) FROM clubs c JOIN (SELECT a.club AS k FROM clubs a, clubs b) AS x ON x.k = c.club WHERE c.city = 'Carrow'",
  "SELECT x.n FROM clubs c JOIN (SELECT city, COUNT(*) AS n FROM clubs GROUP BY city) AS x ON x.city = c.city WHERE c.city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow'",
);

// 12. Size bombs: refused by name before the parser or the walk can overflow the stack.
const or = (n: number) => Array.from({ length: n }, (_, i) => `club = 'c${i}'`).join(" OR ");
no(
  "statement too long",
  `SELECT club FROM clubs WHERE city = 'Carrow' AND (${or(4000)})`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND club = '${"x".repeat(20000)}'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (${Array.from({ length: 5000 }, (_, i) => i).join(",")})`,
);
no(
  "syntax tree deeper than",
  `SELECT club FROM clubs WHERE city = 'Carrow' AND (${or(300)})`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND founded > ${Array.from({ length: 400 }, () => "1").join(" + ")}`,
);
no(
  "levels of parentheses",
  `SELECT ${"(".repeat(100)}club${")".repeat(100)} FROM clubs WHERE city = 'Carrow'`,
  `SELECT club FROM clubs WHERE city = 'Carrow' AND ${"(".repeat(40)}1${")".repeat(40)}`,
  "(".repeat(5000),
);
{
  let q = "SELECT club FROM clubs WHERE city = 'Carrow'";
  for (let i = 0; i < 500; i++) q = `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (${q})`;
  no("statement too long", q);
  let q2 = "SELECT club FROM clubs WHERE city = 'Carrow'";
  for (let i = 0; i < 40; i++) q2 = `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (${q2})`;
  no("levels of parentheses", q2);
  const many = `SELECT club FROM clubs WHERE city = 'Carrow' AND ${Array.from({ length: 40 }, () => "club IN (SELECT club FROM clubs)").join(" AND ")}`;
  no("too many sub-queries", many);
}

// 13. Unicode homoglyph and invisible identifiers: never a silent match to a real table or column.
no(
  "",
  "SELECT сlub FROM clubs WHERE city = 'Carrow'",
  "SELECT club FROM сlubs WHERE city = 'Carrow'",
  "SELECT club FROM clubs WHERE сity = 'Carrow'",
  "SELECT club FROM clubs\u200b WHERE city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow'；DROP TABLE clubs",
  "SELECT club FROM clubs WHERE city = ‘Carrow’",
  "SELECT club FROM clubs WHERE city\u00a0= 'Carrow' OR 1=1",
  "SELECT ｃlub FROM clubs WHERE city = 'Carrow'",
  "ＳＥＬＥＣＴ club FROM clubs WHERE city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' \u037e DROP TABLE clubs",
);

// 14. Admissible: legitimate answer queries that carry the binding and restrict their rows with it.
ok(
  "SELECT club FROM clubs WHERE city = 'Carrow'",
  "SELECT clubs.club FROM clubs WHERE clubs.city = 'Carrow'",
  "SELECT c.club FROM clubs AS c WHERE c.city = 'Carrow'",
  "SELECT club FROM clubs WHERE 'Carrow' = city",
  "SELECT club FROM clubs WHERE city == 'Carrow'",
  "SELECT club FROM clubs WHERE (city = 'Carrow') AND (founded > 1900)",
  "SELECT `club` FROM `clubs` WHERE `city` = 'Carrow'",
  'SELECT "club" FROM "clubs" WHERE "city" = \'Carrow\'',
  "select club from clubs where city = 'Carrow'",
  "SELECT COUNT(*) FROM clubs WHERE city = 'Carrow'",
  "SELECT COUNT(*), MIN(founded), MAX(founded), AVG(founded), SUM(founded), TOTAL(founded) FROM clubs WHERE city = 'Carrow'",
  "SELECT group_concat(club, ', ') FROM clubs WHERE city = 'Carrow'",
  "SELECT club, founded FROM clubs WHERE city = 'Carrow' ORDER BY founded DESC LIMIT 1",
  "SELECT club FROM clubs WHERE city = 'Carrow' ORDER BY _row LIMIT 1 OFFSET 0",
  "SELECT founded__raw FROM clubs WHERE city = 'Carrow'",
  "SELECT city__raw FROM clubs WHERE city__raw = 'Carrow'",
  "SELECT stadium FROM clubs WHERE city = 'Carrow' AND founded BETWEEN 1900 AND 1950",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club LIKE '%Athletic%'",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club IN ('Carrow Athletic', 'x')",
  "SELECT DISTINCT club FROM clubs WHERE city = 'Carrow'",
  "SELECT club, COUNT(*) AS n FROM clubs WHERE city = 'Carrow' GROUP BY club HAVING n > 0 ORDER BY n DESC",
  "SELECT CASE WHEN founded < 1900 THEN 'old' ELSE 'new' END FROM clubs WHERE city = 'Carrow'",
  "SELECT CAST(REPLACE(founded__raw, ',', '') AS INTEGER) FROM clubs WHERE city = 'Carrow'",
  "SELECT strftime('%Y', 'now') - founded FROM clubs WHERE city = 'Carrow'",
  "SELECT ROUND(founded / 10.0, 1), LOWER(TRIM(club)), LENGTH(club), SUBSTR(club, 1, 3) FROM clubs WHERE city = 'Carrow'",
  "SELECT club, ROW_NUMBER() OVER (PARTITION BY city ORDER BY founded) FROM clubs WHERE city = 'Carrow'",
  "SELECT clubs.club, cities.region FROM clubs JOIN cities ON cities.city = clubs.city WHERE clubs.city = 'Carrow'",
  "SELECT cities.population FROM clubs, cities WHERE clubs.city = 'Carrow' AND cities.city = clubs.city",
  "SELECT cities.region FROM clubs LEFT JOIN cities ON cities.city = clubs.city WHERE clubs.city = 'Carrow'",
  "SELECT b.club FROM clubs a JOIN clubs b ON b._row = a._row + 1 WHERE a.city = 'Carrow'",
  "SELECT CASE WHEN a.founded > b.founded THEN 'later' ELSE 'earlier' END FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.city = 'Ashford'",
  "SELECT ABS(a.founded - b.founded) FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.city__raw = 'Dunmere' ORDER BY a._row, b._row LIMIT 1",
  "SELECT b.club FROM clubs a JOIN clubs b ON b.founded = a.founded AND b._row <> a._row WHERE a.city = 'Carrow'",
  "SELECT club, (SELECT COUNT(*) FROM clubs b WHERE b.founded = a.founded) FROM clubs a WHERE a.city = 'Carrow'",
  "SELECT club, (SELECT region FROM cities WHERE cities.city = a.city) FROM clubs a WHERE a.city = 'Carrow'",
  "SELECT (SELECT group_concat(club) FROM clubs WHERE city = 'Carrow') FROM clubs WHERE city = 'Carrow'",
  "SELECT d.club FROM (SELECT club, city FROM clubs) AS d WHERE d.city = 'Carrow'",
  "SELECT d.c FROM (SELECT city, UPPER(club) AS c FROM clubs) AS d WHERE d.city = 'Carrow'",
  "WITH d AS (SELECT club, city FROM clubs) SELECT club FROM d WHERE city = 'Carrow'",
  "WITH a AS (SELECT club, city AS town FROM clubs), b AS (SELECT club, town FROM a) SELECT club FROM b WHERE town = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND founded > (SELECT MIN(founded) FROM clubs)",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (SELECT club FROM clubs WHERE founded > 1900)",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND EXISTS (SELECT 1 FROM cities WHERE cities.city = clubs.city)",
  "SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT club FROM clubs WHERE city = 'Carrow' AND founded > 1900",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (" +
    Array.from({ length: 1000 }, (_, i) => i).join(",") +
    ")",
  `SELECT club FROM clubs WHERE city = 'Carrow' AND (${or(40)})`,
  "```sql\nSELECT club FROM clubs WHERE city = 'Carrow'\n```",
  "SELECT club FROM clubs WHERE city = 'Carrow' -- with 'quotes', # and ; in a comment",
  "SELECT club FROM clubs /* a; b */ WHERE city = 'Carrow'",
  "SELECT COALESCE(stadium, 'none'), IFNULL(founded, 0), NULLIF(club, ''), IIF(founded > 1900, 1, 0) FROM clubs WHERE city = 'Carrow'",
  "SELECT club FROM clubs WHERE city = 'Carrow' AND club = 'O''Brien''s'",
);

const dir = resolve(dirname(fileURLToPath(import.meta.url)), "../tests/fixtures/guard");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "hostile-statements.jsonl"), corpus.map(([sql]) => JSON.stringify(sql)).join("\n") + "\n");
writeFileSync(join(dir, "hostile-verdicts.jsonl"), corpus.map(([, v]) => JSON.stringify(v)).join("\n") + "\n");
console.log(`${corpus.length} statements (${corpus.filter(([, v]) => v.admissible).length} admissible) → ${dir}`);
