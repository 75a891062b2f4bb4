import { beforeAll, describe, expect, it } from "vitest";
import { buildGuardScope, checkSql, renderBinding, type GuardScope } from "../../retrievers/sql-guard.js";
import { CLUBS, STADIUMS, linked } from "./sql-fixtures.js";
import type { LinkedValue } from "../../nodes/types.js";
import type { SqlDialect } from "../../retrievers/sql-dialect.js";

// Every rule holds in both grammars: the suite runs once per dialect of a View 5 store.
let dialect: SqlDialect = "sqlite";

const C = ["Club", "City", "Founded", "Publisher"].map((column) => ({ tableId: "clubs", column }));

function scope(bindings: LinkedValue[] = [], columns = C, tables = [CLUBS]): GuardScope {
  const built = buildGuardScope({ tables, allowedColumns: columns, linkedValues: bindings, dialect });
  expect(built.errors).toEqual([]);
  return built.scope;
}
const ok = (sql: string, s = scope()) => expect(checkSql(sql, s)).toEqual([]);
const refused = (sql: string, s = scope()) => {
  const v = checkSql(sql, s);
  expect(v.length).toBeGreaterThan(0);
  return v;
};

for (const grammar of ["sqlite", "postgres"] as const) {
  describe(`${grammar} grammar`, () => {
    beforeAll(() => {
      dialect = grammar;
    });
    describe("statement shape", () => {
      it.each([
        ["INSERT INTO clubs (club) VALUES ('x')"],
        ["UPDATE clubs SET club = 'x'"],
        ["DELETE FROM clubs"],
        ["DROP TABLE clubs"],
        ["CREATE TABLE x (a)"],
        ["ATTACH DATABASE '/tmp/x.db' AS x"],
        ["DETACH DATABASE x"],
        ["PRAGMA table_info(clubs)"],
        ["VACUUM"],
        ["REPLACE INTO clubs (club) VALUES ('x')"],
        ["SELECT club INTO other FROM clubs"],
      ])("refuses %s as not a read-only SELECT", (sql) => {
        expect(checkSql(sql, scope())).toEqual(["only one read-only SELECT query is allowed"]);
      });

      it("refuses DML behind a WITH and EXPLAIN", () => {
        expect(checkSql("WITH x AS (SELECT 1) DELETE FROM clubs", scope()).length).toBeGreaterThan(0);
        expect(checkSql("EXPLAIN SELECT club FROM clubs", scope())).toEqual([
          "only one read-only SELECT query is allowed",
        ]);
      });

      it("refuses stacked statements", () => {
        expect(checkSql("SELECT club FROM clubs; DROP TABLE clubs", scope())).toEqual([
          "exactly one SQL statement is required",
        ]);
        expect(checkSql("SELECT club FROM clubs; SELECT city FROM clubs;", scope())).toEqual([
          "exactly one SQL statement is required",
        ]);
      });

      it("accepts a trailing semicolon, comments and a markdown fence; empty text is refused", () => {
        ok("```sql\nSELECT club FROM clubs; -- done\n```");
        expect(checkSql("   ", scope())).toEqual(["SQL service did not return sql_str"]);
        expect(checkSql("SELECT club FROM clubs WHERE", scope())[0]).toMatch(/^SQL parse error/);
      });

      it("refuses text where the parser and SQLite could disagree on literal or comment boundaries", () => {
        const s = scope([linked("City", "Lyon")]);
        // SQLite reads 'x\' as a whole literal (no backslash escapes), so the ORs below would be live SQL.
        expect(
          checkSql(String.raw`SELECT club FROM clubs WHERE city = 'Lyon' AND club = 'x\' OR 1=1 OR club = ''`, s),
        ).toEqual(["SQL parse error: backslashes are not allowed in quoted text"]);
        expect(checkSql("SELECT club FROM clubs WHERE city = 'Lyon' # note", s)).toEqual([
          "SQL parse error: '#' is not allowed outside string literals",
        ]);
        // A MySQL "executable comment" is only a comment to SQLite: the binding inside does not count.
        expect(checkSql("SELECT club FROM clubs WHERE 1 = 1 /*! AND city = 'Lyon' */", s)).toEqual([
          "missing exact WHERE binding: city = 'Lyon' as a mandatory equality predicate",
        ]);
        ok("SELECT club FROM clubs WHERE city = 'Lyon' -- a comment with 'quotes' and #", s);
      });

      it("refuses recursive CTEs, parameters and non-allow-listed functions", () => {
        expect(
          checkSql("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r", scope()),
        ).toEqual(["recursive queries are not allowed"]);
        // `?` is a parameter in SQLite and a parse error in PostgreSQL; `$1` is one in both.
        if (dialect === "sqlite")
          expect(refused("SELECT club FROM clubs WHERE city = ?")).toContain("query parameters are not allowed");
        else expect(refused("SELECT club FROM clubs WHERE city = ?")[0]).toMatch(/^SQL parse error/);
        expect(refused("SELECT club FROM clubs WHERE city = $1")).toContain("query parameters are not allowed");
        expect(refused("SELECT load_extension('/tmp/x.so') FROM clubs")).toContain(
          "function not allowed: load_extension",
        );
        expect(refused("SELECT readfile('/etc/passwd'), club FROM clubs")).toContain("function not allowed: readfile");
        expect(refused("SELECT writefile('/tmp/x', club) FROM clubs")).toContain("function not allowed: writefile");
        ok(
          "SELECT CAST(REPLACE(founded__raw, ',', '') AS INTEGER), ROUND(AVG(founded), 2), LOWER(TRIM(club)), strftime('%Y', city) FROM clubs",
        );
        ok("SELECT club, ROW_NUMBER() OVER (PARTITION BY city ORDER BY founded DESC) AS r FROM clubs");
        // A gap of the SQLite grammar only; the PostgreSQL grammar parses (and the guard checks) it.
        if (dialect === "sqlite") {
          expect(checkSql("SELECT club, RANK() OVER (ORDER BY founded) FROM clubs", scope())).toEqual([
            "SQL parse error: a window OVER (ORDER BY …) needs PARTITION BY here; use ORDER BY … LIMIT 1 or COUNT instead",
          ]);
        } else {
          ok("SELECT club, RANK() OVER (ORDER BY founded) FROM clubs");
          expect(refused("SELECT club, RANK() OVER (ORDER BY secret) FROM clubs")[0]).toMatch(
            /column\/source constraint resolution failed/,
          );
        }
      });
    });

    describe("tables", () => {
      it("refuses tables outside scope and database-qualified tables", () => {
        expect(checkSql("SELECT stadium FROM stadiums", scope())).toEqual(["disallowed tables: stadiums"]);
        expect(checkSql("SELECT club FROM main.clubs", scope())).toEqual([
          "database-qualified tables are not allowed: main.clubs",
        ]);
        expect(checkSql("SELECT name FROM sqlite_master", scope())).toEqual(["disallowed tables: sqlite_master"]);
        expect(checkSql("SELECT c.club FROM clubs c JOIN stadiums s ON s.city = c.city", scope())).toEqual([
          "disallowed tables: stadiums",
        ]);
      });

      it("a query without any table does not reference an allowed table", () => {
        expect(checkSql("SELECT 1", scope())).toEqual(["query does not reference an allowed table"]);
      });

      it("CTE names resolve per scope and never hide a real out-of-scope or qualified table elsewhere", () => {
        expect(
          checkSql(
            "WITH stadiums AS (SELECT club FROM clubs) SELECT club FROM stadiums WHERE club IN (SELECT stadium FROM main.stadiums)",
            scope(),
          ),
        ).toEqual(["database-qualified tables are not allowed: main.stadiums"]);
        // The CTE is only visible inside its own statement's scope; the derived table cannot see it.
        expect(
          checkSql(
            "SELECT x.stadium FROM (SELECT stadium FROM stadiums) AS x, (WITH stadiums AS (SELECT club FROM clubs) SELECT club FROM stadiums) AS y",
            scope(),
          ),
        ).toEqual(["disallowed tables: stadiums"]);
        ok("WITH stadiums AS (SELECT club FROM clubs) SELECT club FROM stadiums");
      });

      it("NATURAL JOIN (joins on forbidden shared columns) is refused; CROSS JOIN is a plain join", () => {
        const both = [...C, { tableId: "stadiums", column: "Stadium" }, { tableId: "stadiums", column: "City" }];
        const s = scope([], both, [CLUBS, STADIUMS]);
        expect(refused("SELECT club FROM clubs NATURAL JOIN stadiums", s)).toContain(
          "NATURAL JOIN is not allowed (write JOIN … ON with allowed columns)",
        );
        ok("SELECT clubs.club, stadiums.stadium FROM clubs CROSS JOIN stadiums WHERE clubs.city = stadiums.city", s);
      });

      it("a table in scope with no authorised column is refused when used", () => {
        const s = scope([], C, [CLUBS, STADIUMS]);
        expect(checkSql("SELECT city FROM stadiums", s)).toEqual(["table stadiums has no authorised columns"]);
      });
    });

    describe("columns", () => {
      it("refuses SELECT * (and t.*) but accepts COUNT(*)", () => {
        expect(checkSql("SELECT * FROM clubs", scope())).toEqual(["SELECT * is not allowed"]);
        expect(checkSql("SELECT c.* FROM clubs c", scope())).toEqual(["SELECT * is not allowed"]);
        ok("SELECT COUNT(*) FROM clubs");
        ok("SELECT COUNT(*) AS n FROM clubs GROUP BY city ORDER BY n DESC LIMIT 1");
      });

      it("refuses columns outside C anywhere in the query", () => {
        const v = refused("SELECT secret FROM clubs");
        expect(v).toEqual(["column/source constraint resolution failed: clubs.secret is not an allowed column"]);
        refused("SELECT club FROM clubs WHERE secret = 's1'");
        refused("SELECT club FROM clubs ORDER BY secret__raw");
        refused("SELECT club FROM clubs WHERE nosuch = 1");
      });

      it("aliases cannot authorise forbidden columns", () => {
        // Alias named like a forbidden column: SQLite resolves `secret` in WHERE to the real column.
        refused("SELECT club AS secret FROM clubs WHERE secret = 's1'");
        // Forbidden column in the outer query, alias inside EXISTS.
        refused("SELECT secret FROM clubs WHERE EXISTS (SELECT club AS secret FROM clubs)");
        // Forbidden column through a derived table.
        refused("SELECT s FROM (SELECT secret AS s FROM clubs) AS d");
        // Double-quoted word is a column in SQLite when one exists.
        refused("SELECT club FROM clubs WHERE \"secret\" = 's1'");
      });

      it("accepts aliased real columns with ORDER BY alias, raw columns, _row, backquoted identifiers", () => {
        ok("SELECT club AS name FROM clubs ORDER BY name");
        ok("SELECT founded__raw FROM clubs ORDER BY _row DESC LIMIT 1");
        ok("SELECT `club` FROM `clubs` WHERE `city` = 'Lyon'");
        ok("SELECT d.club FROM (SELECT club, city FROM clubs) AS d WHERE d.city = 'Lyon'");
      });
    });

    describe("bindings", () => {
      const exact = scope([linked("Club", "Alpha FC")]);
      const fuzzy = scope([linked("City", "Saint Etienne", 2)]);

      it("renders bindings as the predicates to copy", () => {
        expect(renderBinding(fuzzy.bindings[0]!, false)).toBe("city LIKE '%Saint Etienne%'");
        expect(renderBinding(exact.bindings[0]!, true)).toBe("clubs.club = 'Alpha FC'");
        // Non-text columns bind on the original text.
        expect(renderBinding(scope([linked("Founded", "1971")]).bindings[0]!, false)).toBe("founded__raw = '1971'");
      });

      it("fuzzy: exactly that LIKE is accepted; =, another pattern and OR 1 = 1 are refused", () => {
        ok("SELECT club FROM clubs WHERE city LIKE '%Saint Etienne%'", fuzzy);
        const missing = "missing fuzzy LIKE binding: city LIKE '%Saint Etienne%' as a mandatory outer WHERE predicate";
        expect(checkSql("SELECT club FROM clubs WHERE city = 'Saint Etienne'", fuzzy)).toEqual([missing]);
        expect(checkSql("SELECT club FROM clubs WHERE city LIKE '%Saint-Etienne%'", fuzzy)).toEqual([missing]);
        expect(checkSql("SELECT club FROM clubs WHERE city LIKE '%Saint Etienne%' OR 1 = 1", fuzzy)).toEqual([missing]);
      });

      it("exact: must be a mandatory = in the outer WHERE", () => {
        const missing = ["missing exact WHERE binding: club = 'Alpha FC' as a mandatory equality predicate"];
        ok("SELECT city FROM clubs WHERE club = 'Alpha FC'", exact);
        ok("SELECT city FROM clubs WHERE ('Alpha FC' = club) AND (founded > 1900)", exact);
        ok("SELECT city FROM clubs WHERE club == 'Alpha FC'", exact);
        ok('SELECT "c"."city" FROM "clubs" AS "c" WHERE "c"."club" = \'Alpha FC\'', exact);
        for (const sql of [
          "SELECT city FROM clubs WHERE club != 'Alpha FC'",
          "SELECT city FROM clubs WHERE club > 'Alpha FC'",
          "SELECT city FROM clubs WHERE club LIKE 'Alpha FC'",
          "SELECT city FROM clubs WHERE club IN ('Alpha FC')",
          "SELECT city FROM clubs WHERE club = 'Alpha FC' OR city = 'Lyon'",
          "SELECT city FROM clubs WHERE NOT club = 'Alpha FC'",
          "SELECT city FROM clubs WHERE CASE WHEN club = 'Alpha FC' THEN 1 ELSE 0 END = 1",
          "SELECT city FROM clubs WHERE EXISTS (SELECT 1 FROM clubs WHERE club = 'Alpha FC')",
          "SELECT city FROM clubs WHERE club = 'Beta United'",
          "SELECT city FROM clubs WHERE club = 'Alpha FC' COLLATE NOCASE",
          "SELECT city FROM (SELECT city FROM clubs WHERE club = 'Alpha FC') AS d",
          "SELECT city FROM clubs WHERE club = 'Alpha FC' UNION SELECT city FROM clubs",
        ]) {
          expect(checkSql(sql, exact), sql).toEqual(missing);
        }
      });

      it("two bindings joined by AND are accepted; escaped quotes are validated", () => {
        const two = scope([linked("Club", "Alpha FC"), linked("Publisher", "O'Reilly")]);
        ok("SELECT city FROM clubs WHERE club = 'Alpha FC' AND publisher = 'O''Reilly'", two);
        expect(checkSql("SELECT city FROM clubs WHERE club = 'Alpha FC' AND publisher = 'OReilly'", two)).toEqual([
          "missing exact WHERE binding: publisher = 'O''Reilly' as a mandatory equality predicate",
        ]);
      });

      it("numeric bindings: raw or typed column, string or number literal with the same text", () => {
        const s = scope([linked("Founded", "1971")]);
        ok("SELECT club FROM clubs WHERE founded__raw = '1971'", s);
        ok("SELECT club FROM clubs WHERE founded = 1971", s);
        refused("SELECT club FROM clubs WHERE founded = 1972", s);
        const negative = scope([linked("Founded", "-5")]);
        ok("SELECT club FROM clubs WHERE founded = -5", negative);
      });

      it("derived/CTE columns satisfy a binding only through single-source row-preserving projections", () => {
        const exactFounded = scope([linked("Founded", "1971")]);
        ok("SELECT year FROM (SELECT founded AS year FROM clubs) AS d WHERE year = '1971'", exactFounded);
        ok(
          "WITH a AS (SELECT founded AS year, club FROM clubs), b AS (SELECT year, club FROM a) SELECT club FROM b WHERE year = '1971'",
          exactFounded,
        );
        for (const sql of [
          "SELECT year FROM (SELECT '1971' AS year, club FROM clubs) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT founded + 0 AS year FROM clubs) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT club AS year FROM clubs) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT COALESCE(founded, 1971) AS year FROM clubs) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT founded AS year FROM clubs UNION SELECT 1971) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT DISTINCT founded AS year FROM clubs) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT founded AS year FROM clubs LIMIT 1) AS d WHERE year = '1971'",
          "SELECT year FROM (SELECT MAX(founded) AS year FROM clubs) AS d WHERE year = '1971'",
          "WITH a AS (SELECT founded AS year FROM clubs GROUP BY founded) SELECT year FROM a WHERE year = '1971'",
        ]) {
          expect(checkSql(sql, exactFounded), sql).toEqual([
            "missing exact WHERE binding: founded__raw = '1971' as a mandatory equality predicate",
          ]);
        }
        const fuzzyCity = scope([linked("City", "Saint Etienne", 2)]);
        expect(
          checkSql(
            "SELECT c FROM (SELECT 'Saint Etienne' AS c FROM clubs) AS d WHERE c LIKE '%Saint Etienne%'",
            fuzzyCity,
          ),
        ).toEqual(["missing fuzzy LIKE binding: city LIKE '%Saint Etienne%' as a mandatory outer WHERE predicate"]);
      });

      it("scope pre-check: a linked column outside C or owned by two tables is an error", () => {
        expect(
          buildGuardScope({ tables: [CLUBS], allowedColumns: C, linkedValues: [linked("Secret", "s1")] }).errors,
        ).toEqual(["linked column is outside C: Secret"]);
        const both = [...C, { tableId: "stadiums", column: "City" }];
        expect(
          buildGuardScope({ tables: [CLUBS, STADIUMS], allowedColumns: both, linkedValues: [linked("City", "Lyon")] })
            .errors,
        ).toEqual(["ambiguous linked column table: City (clubs, stadiums)"]);
        expect(
          buildGuardScope({
            tables: [CLUBS, STADIUMS],
            allowedColumns: both,
            linkedValues: [linked("City", "Lyon", 0, "stadiums")],
          }).errors,
        ).toEqual([]);
        // Unmatched and level-1/3 values are not bindings.
        expect(
          buildGuardScope({
            tables: [CLUBS],
            allowedColumns: C,
            linkedValues: [linked("Club", null), linked("Club", "x", 1)],
          }).scope.bindings,
        ).toEqual([]);
      });

      it("multi-table bindings are shown qualified and resolved through aliases", () => {
        const both = [...C, { tableId: "stadiums", column: "Stadium" }, { tableId: "stadiums", column: "City" }];
        const s = scope([linked("Stadium", "Stade A")], both, [CLUBS, STADIUMS]);
        ok("SELECT c.club FROM clubs c JOIN stadiums s ON s.city = c.city WHERE s.stadium = 'Stade A'", s);
        expect(checkSql("SELECT c.club FROM clubs c JOIN stadiums s ON s.city = c.city", s)).toEqual([
          "missing exact WHERE binding: stadiums.stadium = 'Stade A' as a mandatory equality predicate",
        ]);
        ok("SELECT club FROM clubs c JOIN stadiums s ON s.city = c.city WHERE s.stadium = 'Stade A'", s);
        expect(
          checkSql("SELECT city FROM clubs c JOIN stadiums s ON s.city = c.city WHERE s.stadium = 'Stade A'", s),
        ).toEqual(["column/source constraint resolution failed: ambiguous column city"]);
      });
    });

    // Speed is measured by `npx tsx scripts/bench-sql.ts` (docs/SQL-SAFETY.md), not asserted here:
    // a wall-clock bound in a unit test fails on a busy 2-core CI machine.

    describe("size limits (the parser and the walk recurse: refused by name before either overflows)", () => {
      const s = scope([linked("City", "Carrow")]);
      const orChain = (n: number) =>
        `SELECT club FROM clubs WHERE city = 'Carrow' AND (${Array.from({ length: n }, (_, i) => `club = 'c${i}'`).join(" OR ")})`;
      const nested = (n: number) => {
        let q = "SELECT club FROM clubs WHERE city = 'Carrow'";
        for (let i = 0; i < n; i++) q = `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (${q})`;
        return q;
      };

      it("refuses an OR chain of 4,000 predicates and 500 nested sub-queries (both overflowed the stack before)", () => {
        expect(checkSql(orChain(4000), s)[0]).toMatch(/^statement too long: \d+ characters \(limit 10000\)$/);
        expect(checkSql(nested(500), s)[0]).toMatch(/^statement too long/);
      });

      it("inside the length limit: syntax-tree depth, parenthesis depth and sub-query count are each named", () => {
        expect(checkSql(orChain(400), s)).toEqual([
          "statement nested too deeply: syntax tree deeper than 200 (long AND/OR chains or nested expressions; use IN (…) lists)",
        ]);
        expect(checkSql(`SELECT ${"(".repeat(40)}club${")".repeat(40)} FROM clubs WHERE city = 'Carrow'`, s)).toEqual([
          "statement nested too deeply: 40 levels of parentheses (limit 32)",
        ]);
        const many = `SELECT club FROM clubs WHERE city = 'Carrow' AND ${Array.from({ length: 40 }, () => "club IN (SELECT club FROM clubs)").join(" AND ")}`;
        expect(checkSql(many, s)).toEqual(["too many sub-queries: 41 SELECTs (limit 32)"]);
        // A long flat IN list is fine.
        ok(
          `SELECT club FROM clubs WHERE city = 'Carrow' AND club IN (${Array.from({ length: 800 }, (_, i) => `'c${i}'`).join(", ")})`,
          s,
        );
        ok(orChain(50), s);
        ok(nested(10), s);
      });

      it("limits are a parameter; any input text returns violations, never throws", () => {
        expect(
          checkSql("SELECT club FROM clubs WHERE city = 'Carrow'", s, {
            maxChars: 20,
            maxParenDepth: 32,
            maxSelects: 32,
            maxAstDepth: 200,
          }),
        ).toEqual(["statement too long: 44 characters (limit 20)"]);
        for (const text of [
          "(".repeat(5000),
          "SELECT " + "-".repeat(9000),
          "\u0000",
          "SELECT '",
          undefined as unknown as string,
        ]) {
          expect(() => checkSql(text, s)).not.toThrow();
          expect(checkSql(text, s).length).toBeGreaterThan(0);
        }
      });
    });

    describe("a binding restricts the rows every selected value comes from", () => {
      const s = scope([linked("City", "Carrow")]);
      const notRestricted = (names: string, where = "the outer query") =>
        `binding does not restrict the rows of ${names} in ${where}: join each source to the bound rows with a column equality (a.col = b.col) or drop it`;

      it("refuses the other copy of a self-join or cross join (issue 10 §13)", () => {
        expect(checkSql("SELECT b.club FROM clubs a JOIN clubs b ON 1=1 WHERE a.city = 'Carrow'", s)).toEqual([
          notRestricted("b"),
        ]);
        expect(checkSql("SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow'", s)).toEqual([
          notRestricted("b"),
        ]);
        expect(checkSql("SELECT COUNT(*) FROM clubs CROSS JOIN clubs AS b WHERE clubs.city = 'Carrow'", s)).toEqual([
          notRestricted("b"),
        ]);
        expect(
          checkSql("SELECT b.club FROM clubs a LEFT JOIN clubs b ON a.club <> b.club WHERE a.city = 'Carrow'", s),
        ).toEqual([notRestricted("b")]);
        expect(
          checkSql("SELECT b.club FROM clubs a JOIN clubs b ON a.club = b.club OR 1 = 1 WHERE a.city = 'Carrow'", s),
        ).toEqual([notRestricted("b")]);
        // A constant filter on the other copy is not a link to the bound rows.
        expect(checkSql("SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.founded = 1900", s)).toEqual(
          [notRestricted("b")],
        );
        expect(
          checkSql("WITH x AS (SELECT club FROM clubs) SELECT x.club FROM clubs a, x WHERE a.city = 'Carrow'", s),
        ).toEqual([notRestricted("x")]);
      });

      it("refuses an uncorrelated sub-query in the select list (issue 10 §13)", () => {
        const sub = notRestricted("clubs", "a sub-query of the select list");
        expect(checkSql("SELECT (SELECT group_concat(club) FROM clubs) FROM clubs WHERE city = 'Carrow'", s)).toEqual([
          sub,
        ]);
        expect(
          checkSql(
            "SELECT club, EXISTS (SELECT 1 FROM clubs WHERE club = 'Alpha FC') FROM clubs WHERE city = 'Carrow'",
            s,
          ),
        ).toEqual([sub]);
        expect(
          checkSql(
            "SELECT club || (SELECT MAX(club) FROM clubs b WHERE b.founded > a.founded) FROM clubs a WHERE a.city = 'Carrow'",
            s,
          ),
        ).toEqual([notRestricted("b", "a sub-query of the select list")]);
      });

      it("refuses derived-table columns computed over rows the outer binding does not filter", () => {
        const computed = (col: string) =>
          `binding does not restrict d.${col}: it is computed over rows the binding does not filter (an aggregate, window or sub-query inside a derived table); compute it in the outer query`;
        // A window inside the derived table already hides every column's origin: the binding cannot resolve.
        expect(
          checkSql(
            "SELECT d.g FROM (SELECT city, group_concat(club) OVER (PARTITION BY founded) AS g FROM clubs) AS d WHERE d.city = 'Carrow'",
            s,
          ),
        ).toEqual(["missing exact WHERE binding: city = 'Carrow' as a mandatory equality predicate"]);
        expect(
          checkSql(
            "SELECT d.g FROM (SELECT city, (SELECT group_concat(club) FROM clubs) AS g FROM clubs) AS d WHERE d.city = 'Carrow'",
            s,
          ),
        ).toEqual([computed("g")]);
      });

      it("UNION arms each need the binding", () => {
        expect(checkSql("SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT club FROM clubs", s)).toEqual([
          "missing exact WHERE binding: city = 'Carrow' as a mandatory equality predicate",
        ]);
        ok(
          "SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT club FROM clubs WHERE city = 'Carrow' AND founded > 1900",
          s,
        );
        expect(
          checkSql(
            "SELECT club FROM clubs WHERE city = 'Carrow' UNION SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow'",
            s,
          ),
        ).toEqual([notRestricted("b", "arm 2 of the set operation")]);
      });

      it("accepts sources linked to the bound rows: equality joins, next-row joins, correlated sub-queries, projections", () => {
        ok(
          "SELECT b.club FROM clubs a JOIN clubs b ON b.founded = a.founded AND b._row <> a._row WHERE a.city = 'Carrow'",
          s,
        );
        ok("SELECT b.club FROM clubs a JOIN clubs b ON b._row = a._row + 1 WHERE a.city = 'Carrow'", s);
        ok("SELECT b.club FROM clubs a JOIN clubs b USING (founded) WHERE a.city = 'Carrow'", s);
        ok("SELECT b.club FROM clubs a, clubs b WHERE a.city = 'Carrow' AND a.club = b.club", s);
        ok(
          "SELECT club, (SELECT COUNT(*) FROM clubs b WHERE b.founded = a.founded) FROM clubs a WHERE a.city = 'Carrow'",
          s,
        );
        ok("SELECT (SELECT group_concat(club) FROM clubs WHERE city = 'Carrow') FROM clubs WHERE city = 'Carrow'", s);
        ok("WITH x AS (SELECT club, city FROM clubs) SELECT club FROM x WHERE city = 'Carrow'", s);
        ok("SELECT d.c FROM (SELECT city, UPPER(club) AS c FROM clubs) AS d WHERE d.city = 'Carrow'", s);
        ok(
          "SELECT COUNT(*), group_concat(club), ROW_NUMBER() OVER (PARTITION BY founded) FROM clubs WHERE city = 'Carrow'",
          s,
        );
        // Another copy pinned to a named value of the bound column: two entities of the question compared.
        ok("SELECT ABS(a.founded - b.founded) FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.city = 'Lyon'", s);
        // Two bindings of one column on two copies: each copy is bound.
        const two = scope([linked("City", "Carrow"), linked("City", "Lyon")]);
        ok(
          "SELECT CASE WHEN a.founded > b.founded THEN a.club ELSE b.club END FROM clubs a, clubs b WHERE a.city = 'Carrow' AND b.city = 'Lyon'",
          two,
        );
      });
    });
  });
}
