/**
 * The hostile-statement corpus (tests/fixtures/guard/, written by scripts/make-guard-corpus.ts with a
 * hand-written verdict per category) through `atr guard-check --batch`, as an auditor would run it.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExampleIndex } from "../fixtures/example-index.js";
import { runCli } from "../fixtures/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = join(ROOT, "tests/fixtures/guard");
const SCOPE = [
  "--table_id",
  "clubs",
  "--table_id",
  "cities",
  "--columns",
  "clubs.Club,clubs.City,clubs.Founded,clubs.Stadium,cities.City,cities.Region,cities.Population",
  "--bind",
  "clubs.City=Carrow",
];
const lines = (file: string) => readFileSync(join(FIXTURES, file), "utf8").trimEnd().split("\n");

let index: { dir: string; cleanup(): void };
beforeAll(async () => {
  index = await buildExampleIndex();
}, 60_000);
afterAll(() => index?.cleanup());

describe("hostile statement corpus through atr guard-check --batch", () => {
  it("gives every statement its expected verdict, one JSON line each, in order", async () => {
    const statements = lines("hostile-statements.jsonl");
    const expected = lines("hostile-verdicts.jsonl").map(
      (l) => JSON.parse(l) as { admissible: boolean; violation?: string },
    );
    expect(statements.length).toBeGreaterThanOrEqual(300);
    expect(expected).toHaveLength(statements.length);
    const { code, out, err } = await runCli([
      "guard-check",
      "--index_path",
      index.dir,
      ...SCOPE,
      "--batch",
      join(FIXTURES, "hostile-statements.jsonl"),
    ]);
    const verdicts = out.split("\n").map((l) => JSON.parse(l) as { admissible: boolean; violations: string[] });
    expect(verdicts).toHaveLength(statements.length);
    const wrong = verdicts.flatMap((v, i) => {
      const e = expected[i]!;
      const right = e.admissible
        ? v.admissible && v.violations.length === 0
        : !v.admissible && v.violations.some((m) => m.includes(e.violation!));
      return right
        ? []
        : [`line ${i + 1}: ${statements[i]!.slice(0, 120)} → ${JSON.stringify(v)} (expected ${JSON.stringify(e)})`];
    });
    expect(wrong).toEqual([]);
    const admissible = expected.filter((e) => e.admissible).length;
    expect(err).toContain(
      `${statements.length} statement(s), ${admissible} admissible, ${statements.length - admissible} refused`,
    );
    expect(code).toBe(1);
  }, 60_000);

  it("reads stdin with -, refuses a line that is not a JSON string by its number, exit 0 only when all are admissible", () => {
    const run = (input: string) =>
      spawnSync(
        process.execPath,
        [join(ROOT, "bin/atr.js"), "guard-check", "--index_path", index.dir, ...SCOPE, "--batch", "-"],
        { input, encoding: "utf8", timeout: 60_000 },
      );
    const mixed = run(
      `${JSON.stringify("SELECT club FROM clubs WHERE city = 'Carrow'")}\nSELECT 1\n42\n${JSON.stringify("DROP TABLE clubs")}\n`,
    );
    expect(
      mixed.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { admissible: true, violations: [] },
      {
        admissible: false,
        violations: [expect.stringMatching(/^line 2 is not JSON: .*write each statement as a JSON string/)],
      },
      { admissible: false, violations: ["line 3 is not a JSON string (write each statement as a JSON string)"] },
      { admissible: false, violations: ["only one read-only SELECT query is allowed"] },
    ]);
    expect(mixed.status).toBe(1);
    const clean = run(`${JSON.stringify("SELECT COUNT(*) FROM clubs WHERE city = 'Carrow'")}\n`);
    expect(clean.stdout.trim()).toBe('{"admissible":true,"violations":[]}');
    expect(clean.status).toBe(0);
  }, 60_000);

  it("--batch takes no SQL argument and no --execute; a missing file is a usage error", async () => {
    expect(
      (await runCli(["guard-check", "--index_path", index.dir, ...SCOPE, "--batch", "x.jsonl", "SELECT 1"])).code,
    ).toBe(2);
    expect((await runCli(["guard-check", "--index_path", index.dir, ...SCOPE, "--batch", "-", "--execute"])).code).toBe(
      2,
    );
    const missing = await runCli([
      "guard-check",
      "--index_path",
      index.dir,
      ...SCOPE,
      "--batch",
      "/nonexistent/statements.jsonl",
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--batch /nonexistent/statements.jsonl");
  });
});
