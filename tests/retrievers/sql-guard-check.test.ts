import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { command } from "../../cli/commands/guard-check.js";
import { UsageError } from "../../cli/args.js";
import { writeSqlStore } from "../../indexing/sql-store.js";

const dir = mkdtempSync(join(tmpdir(), "atr-guard-check-"));
writeSqlStore(join(dir, "tables.sqlite"), [
  {
    id: "clubs",
    file: "clubs.csv",
    header: ["Club", "City", "Founded", "Secret"],
    rows: [
      ["Alpha FC", "Saint Etienne", "1971", "s1"],
      ["Beta United", "Lyon", "1950", "s2"],
    ],
  },
]);

async function check(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    const code = await command.run(["--index_path", dir, "--table_id", "clubs", ...argv]);
    return { code, out: lines.join("\n") };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("atr guard-check", () => {
  it("prints admissible (exit 0) and, with --execute, the rows", async () => {
    expect(await check("SELECT COUNT(*) FROM clubs")).toEqual({ code: 0, out: "admissible" });
    const run = await check("--bind", "City=Lyon", "--execute", "SELECT club FROM clubs WHERE city = 'Lyon'");
    expect(run).toEqual({ code: 0, out: `admissible (bindings present: city = 'Lyon')\n[{"club":"Beta United"}]` });
  });

  it("prints every violation (exit 1)", async () => {
    expect(
      await check(
        "--columns",
        "Club,City",
        "--bind",
        "City=Lyon",
        "SELECT secret FROM clubs WHERE city = 'Lyon' OR 1 = 1",
      ),
    ).toEqual({
      code: 1,
      out: [
        "refused:",
        "  - column/source constraint resolution failed: clubs.secret is not an allowed column",
        "  - missing exact WHERE binding: city = 'Lyon' as a mandatory equality predicate",
      ].join("\n"),
    });
    expect(await check("--like", "city=Etienne", "SELECT club FROM clubs WHERE city = 'Etienne'")).toMatchObject({
      code: 1,
    });
    expect((await check("DROP TABLE clubs")).out).toBe("refused:\n  - only one read-only SELECT query is allowed");
    expect((await check("--columns", "club", "--bind", "Secret=s1", "SELECT club FROM clubs")).out).toBe(
      "scope error: linked column is outside C: Secret",
    );
  });

  it("reports usage errors for unknown tables, columns and malformed bindings", async () => {
    await expect(command.run(["--index_path", dir, "--table_id", "nope", "SELECT 1"])).rejects.toThrow(UsageError);
    await expect(check("--columns", "Nope", "SELECT 1")).rejects.toThrow(/no column "Nope"/);
    await expect(check("--bind", "City", "SELECT 1")).rejects.toThrow(/column=value/);
    await expect(check()).rejects.toThrow(/one quoted argument/);
  });
});
