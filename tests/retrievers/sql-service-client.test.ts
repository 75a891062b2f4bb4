import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startJsonService } from "./sql-fixtures.js";
import {
  callGuardedSqlService,
  guardedEndpoint,
  isServiceFailure,
  type SqlServiceRequest,
} from "../../retrievers/sql-service-client.js";

const body: SqlServiceRequest = {
  table_name_list: ["clubs"],
  query: "Which club was founded in 1971?",
  constraints: {
    allowed_columns: ["Club"],
    allowed_tables: ["clubs"],
    table_columns: { clubs: ["Club"] },
    full_table_schemas: {},
    linked_values: [],
  },
};

/** Replies per path; the service records every request it sees. */
const routes = new Map<string, { status: number; text: string }>();
let service: Awaited<ReturnType<typeof startJsonService>>;
let base = "";

beforeAll(async () => {
  service = await startJsonService((url) => routes.get(url) ?? { status: 404, text: "no route" });
  base = service.base;
});
afterAll(() => service.close());

const good = {
  sql_str: "SELECT club FROM clubs WHERE founded = 1971",
  sql_execution_result: '[["Alpha FC"]]',
  atr_guard_version: 1,
};

describe("guarded SQL service client", () => {
  it("posts the request to <base>/atr-guarded-v1 and returns the reply", async () => {
    routes.set("/svc/atr-guarded-v1", { status: 200, text: JSON.stringify(good) });
    service.seen.length = 0;
    const reply = await callGuardedSqlService(`${base}/svc/`, body);
    expect(service.seen).toEqual([{ url: "/svc/atr-guarded-v1", body }]);
    expect(isServiceFailure(reply)).toBe(false);
    expect(reply).toMatchObject({
      ...good,
      query: body.query,
      table_name_list: ["clubs"],
      nl2sql_prompt: "",
      nl2sql_response: "",
    });
  });

  it.each([
    ["HTTP 500", { status: 500, text: "boom\nline" }, "SQL service returned HTTP 500"],
    ["non-JSON", { status: 200, text: "<html>" }, "SQL service returned a non-JSON body"],
    ["non-object", { status: 200, text: "[1]" }, "SQL service returned a non-object body"],
    [
      "unguarded",
      { status: 200, text: JSON.stringify({ ...good, atr_guard_version: undefined }) },
      "SQL service reply lacks atr_guard_version == 1 (not a guarded service)",
    ],
    [
      "missing fields",
      { status: 200, text: JSON.stringify({ atr_guard_version: 1, sql_str: "SELECT 1" }) },
      "SQL service reply is missing sql_str or sql_execution_result",
    ],
    [
      "truncated rows",
      { status: 200, text: JSON.stringify({ ...good, sql_execution_result: '[["Alpha' }) },
      "SQL service returned truncated or invalid JSON rows",
    ],
  ])("%s → failure envelope, no retry", async (_name, reply, reason) => {
    routes.set("/f/atr-guarded-v1", reply);
    service.seen.length = 0;
    const out = await callGuardedSqlService(`${base}/f`, body, { retries: 3, backoffMs: 1 });
    expect(service.seen).toHaveLength(1);
    expect(out).toMatchObject({
      query: body.query,
      table_name_list: ["clubs"],
      sql_str: "",
      sql_execution_result: `SQL execution failed: ${reason}`,
      nl2sql_prompt: "",
      nl2sql_response: "",
      error: reason,
      sql_service_failure: true,
    });
    expect(isServiceFailure(out)).toBe(true);
    if (reply.status === 500) {
      expect(out.sql_service_http_status).toBe(500);
      expect(out.sql_service_response_preview).toBe("boom\\nline");
    }
  });

  it("unset or malformed URLs and refused connections give an envelope", async () => {
    expect(guardedEndpoint(undefined)).toBeUndefined();
    expect(guardedEndpoint("ftp://x")).toBeUndefined();
    expect((await callGuardedSqlService("", body)).sql_service_failure).toBe(true);
    expect((await callGuardedSqlService("not a url", body)).error).toMatch(/unset or malformed/);
    const refused = await callGuardedSqlService("http://127.0.0.1:1", body, { retries: 3, backoffMs: 1 });
    expect(refused.error).toMatch(/^SQL service request failed: .*ECONNREFUSED/);
  });

  it("a reply slower than the read timeout is a failure", async () => {
    const slow = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const out = await callGuardedSqlService(url, body, { readTimeoutMs: 50 });
    expect(out.error).toBe("SQL service request failed: no reply within 50 ms");
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
  });

  it("a service error with an empty sql_str is a non-repairable failure; with SQL it is repairable", () => {
    expect(isServiceFailure({ ...good, sql_str: "", error: "NL2SQL failed" } as never)).toBe(true);
    expect(isServiceFailure({ ...good, error: "constraint violation" } as never)).toBe(false);
  });
});
