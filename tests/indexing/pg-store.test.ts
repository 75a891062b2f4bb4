/** The PostgreSQL store's offline parts: URL redaction, schema names, the manifest's sqlStore checks, glob → regex. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIndexFiles } from "../../indexing/manifest.js";
import { isPostgresUrl, newSchemaName, redactUrl } from "../../indexing/pg-store.js";
import { buildIndex } from "../../indexing/build-index.js";
import { globToRegex } from "../../nodes/offline/sql-dialect.js";
import { buildExampleIndex } from "../fixtures/example-index.js";

describe("store URLs and schema names", () => {
  it("removes the password (also as a parameter) and keeps the rest", () => {
    expect(redactUrl("postgres://atr:s3cret@db.example:5433/atr?sslmode=require&password=x")).toBe(
      "postgres://atr@db.example:5433/atr?sslmode=require",
    );
    expect(redactUrl("postgresql://atr@127.0.0.1/atr")).toBe("postgresql://atr@127.0.0.1/atr");
    expect(isPostgresUrl("postgres://h/db")).toBe(true);
    expect(isPostgresUrl("sqlite")).toBe(false);
  });

  it("names a schema after the save path, lower case, unique per build", () => {
    const a = newSchemaName("/tmp/My Index-2");
    expect(a).toMatch(/^atr_my_index_2_[0-9a-f]{8}$/);
    expect(newSchemaName("/tmp/My Index-2")).not.toBe(a);
  });

  it("refuses a --sql_store that is not sqlite or a postgres:// URL, before building", async () => {
    await expect(
      buildIndex({
        excelDir: "examples/tables",
        docDir: "examples/docs",
        savePath: "/tmp/never-built",
        sqlStore: "mysql://u:pw@h/db",
      }),
    ).rejects.toThrow(/--sql_store must be "sqlite" or a postgres:\/\/ URL, got "mysql:\/\/u@h\/db"/);
  });
});

describe("the manifest's sqlStore", () => {
  let index: { dir: string; cleanup(): void };
  beforeAll(async () => {
    index = await buildExampleIndex();
  }, 60_000);
  afterAll(() => index?.cleanup());

  const withStore = (sqlStore: unknown): string[] => {
    const path = join(index.dir, "manifest.json");
    const original = readFileSync(path, "utf8");
    try {
      writeFileSync(path, JSON.stringify({ ...JSON.parse(original), sqlStore }));
      return verifyIndexFiles(index.dir, "open").violations;
    } finally {
      writeFileSync(path, original);
    }
  };

  it("accepts a URL without password and a plain schema name", () => {
    expect(withStore({ kind: "postgres", url: "postgres://atr@127.0.0.1:5432/atr", schema: "atr_x_0123abcd" })).toEqual(
      [],
    );
  });

  it("refuses a password in the URL, another kind, or a schema name that needs quoting", () => {
    expect(withStore({ kind: "postgres", url: "postgres://atr:pw@127.0.0.1:5432/atr", schema: "atr_x" })).toContain(
      "sqlStore.url must not hold a password",
    );
    expect(withStore({ kind: "mysql", url: "mysql://h/db", schema: "atr_x" })[0]).toMatch(/^sqlStore must be/);
    expect(withStore({ kind: "postgres", url: "postgres://h/db", schema: 'x"; DROP SCHEMA public; --' })[0]).toMatch(
      /^sqlStore must be/,
    );
  });
});

describe("GLOB patterns as PostgreSQL regexes", () => {
  it.each([
    ["*[0-9]*", "^.*[0-9].*$"],
    ["[0-9$+.(-]*", "^[0-9$+.(-].*$"],
    ["(*", "^[(].*$"],
    ["$(*", "^[$][(].*$"],
    ["W[^A-Za-z]*", "^W[^A-Za-z].*$"],
  ])("%s → %s", (glob, regex) => {
    expect(globToRegex(glob)).toBe(regex);
  });
});
