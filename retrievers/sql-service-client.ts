/**
 * Adapter for the guarded external SQL service (reference §7.1): POST
 * `{table_name_list, query, constraints}` to `<sqlServiceUrl>/atr-guarded-v1`; the service writes and
 * runs the SQL after its own guard, and replies with `sql_str` and `sql_execution_result`.
 *
 * Every problem — unset/malformed URL, network error, 4xx/5xx, non-JSON or non-object body, a reply
 * without `atr_guard_version == 1`, a missing `sql_str`/`sql_execution_result`, a result that starts
 * with `[`/`{` but is not JSON (truncated rows) — becomes the failure envelope (same keys as a
 * success, `sql_service_failure: true`). Retries happen ONLY when establishing the connection timed
 * out (the request was then never sent). The caller re-runs the local guard on `sql_str`.
 *
 * Options replace the reference's environment variables (ATR_SQL_CONNECT_TIMEOUT_SEC, …); the CLI /
 * configuration map them (no file here reads process.env).
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { SQL_FAILURE_PREFIX } from "./sql-executor.js";

/** `constraints` object of a guarded request: exactly these five keys (logical names). */
export interface SqlServiceConstraints {
  allowed_columns: string[];
  allowed_tables: string[];
  table_columns: Record<string, string[]>;
  full_table_schemas: Record<string, { table_name: string; columns: Array<[string, string, string]> }>;
  linked_values: Array<{
    entity: string;
    column: string;
    matched_value: string | null;
    confidence: number;
    fallback_level: number;
    table_id: string | null;
  }>;
}

export interface SqlServiceRequest {
  table_name_list: string[];
  query: string;
  constraints: SqlServiceConstraints;
}

export interface SqlServiceReply {
  query: string;
  table_name_list: string[];
  sql_str: string;
  sql_execution_result: string;
  nl2sql_prompt: string;
  nl2sql_response: string;
  error?: string;
  sql_service_failure?: boolean;
  sql_service_http_status?: number;
  sql_service_response_preview?: string;
  atr_guard_version?: number;
  [key: string]: unknown;
}

export interface SqlServiceOptions {
  /** Connection-establishment timeout (reference ATR_SQL_CONNECT_TIMEOUT_SEC = 5 s). Default 5000. */
  connectTimeoutMs?: number;
  /** Time allowed for the reply once connected (reference ATR_SQL_TIMEOUT_SEC = 180 s). Default 180000. */
  readTimeoutMs?: number;
  /** Extra attempts after a connect timeout (reference ATR_SQL_RETRIES). Default 3. */
  retries?: number;
  /** First back-off in ms, doubled per retry (reference ATR_SQL_BACKOFF_SEC = 0.5 s). Default 500. */
  backoffMs?: number;
  /** Verify TLS certificates (reference ATR_SQL_VERIFY_TLS). Default true. */
  verifyTls?: boolean;
}

export const GUARDED_ROUTE = "atr-guarded-v1";
const PREVIEW_CHARS = 500;

class ConnectTimeout extends Error {}

/** The guarded endpoint for a base URL, or undefined when the URL is unset or not http(s). */
export function guardedEndpoint(baseUrl: string | undefined): URL | undefined {
  if (!baseUrl || baseUrl.trim() === "") return undefined;
  try {
    const url = new URL(`${baseUrl.trim().replace(/\/+$/, "")}/${GUARDED_ROUTE}`);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The failure envelope: same keys as a success, flagged, with the reason. */
export function failureEnvelope(
  body: Pick<SqlServiceRequest, "query" | "table_name_list">,
  reason: string,
  extra: { status?: number; preview?: string } = {},
): SqlServiceReply {
  const reply: SqlServiceReply = {
    query: body.query,
    table_name_list: body.table_name_list,
    sql_str: "",
    sql_execution_result: `${SQL_FAILURE_PREFIX} ${reason}`,
    nl2sql_prompt: "",
    nl2sql_response: "",
    error: reason,
    sql_service_failure: true,
  };
  if (extra.status !== undefined) reply.sql_service_http_status = extra.status;
  if (extra.preview !== undefined)
    reply.sql_service_response_preview = extra.preview.slice(0, PREVIEW_CHARS).replace(/\r?\n/g, "\\n");
  return reply;
}

/** True for a reply the constrained loop must treat as a non-repairable service failure (§6.5 step 2). */
export function isServiceFailure(reply: SqlServiceReply): boolean {
  return reply.sql_service_failure === true || (Boolean(reply.error) && (reply.sql_str ?? "") === "");
}

function post(
  url: URL,
  payload: string,
  options: Required<SqlServiceOptions>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req: ClientRequest = send(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      rejectUnauthorized: options.verifyTls,
    });
    let connectTimer: NodeJS.Timeout | undefined;
    let readTimer: NodeJS.Timeout | undefined;
    const clear = () => {
      clearTimeout(connectTimer);
      clearTimeout(readTimer);
    };
    const startRead = () => {
      clearTimeout(connectTimer);
      readTimer = setTimeout(
        () => req.destroy(new Error(`no reply within ${options.readTimeoutMs} ms`)),
        options.readTimeoutMs,
      );
    };
    req.on("socket", (socket) => {
      if (socket.connecting) {
        connectTimer = setTimeout(
          () => req.destroy(new ConnectTimeout(`connect timeout after ${options.connectTimeoutMs} ms`)),
          options.connectTimeoutMs,
        );
        socket.once(url.protocol === "https:" ? "secureConnect" : "connect", startRead);
      } else startRead();
    });
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        clear();
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", (error) => {
        clear();
        reject(error);
      });
    });
    req.on("error", (error) => {
      clear();
      reject(error);
    });
    req.end(payload);
  });
}

/** Calls the guarded service once (with connect-timeout retries); never throws. */
export async function callGuardedSqlService(
  baseUrl: string | undefined,
  body: SqlServiceRequest,
  options: SqlServiceOptions = {},
): Promise<SqlServiceReply> {
  const opts: Required<SqlServiceOptions> = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    readTimeoutMs: options.readTimeoutMs ?? 180_000,
    retries: options.retries ?? 3,
    backoffMs: options.backoffMs ?? 500,
    verifyTls: options.verifyTls ?? true,
  };
  const url = guardedEndpoint(baseUrl);
  if (!url) return failureEnvelope(body, `SQL service URL is unset or malformed: ${JSON.stringify(baseUrl ?? "")}`);
  const payload = JSON.stringify(body);
  let response: { status: number; text: string } | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await post(url, payload, opts);
      break;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ConnectTimeout && attempt < opts.retries) {
        await new Promise((r) => setTimeout(r, opts.backoffMs * 2 ** attempt));
        continue;
      }
      return failureEnvelope(body, `SQL service request failed: ${message}`);
    }
  }
  const { status, text } = response;
  if (status < 200 || status >= 300)
    return failureEnvelope(body, `SQL service returned HTTP ${status}`, { status, preview: text });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return failureEnvelope(body, "SQL service returned a non-JSON body", { status, preview: text });
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    return failureEnvelope(body, "SQL service returned a non-object body", { status, preview: text });
  }
  const reply = data as SqlServiceReply;
  if (reply.atr_guard_version !== 1) {
    return failureEnvelope(body, "SQL service reply lacks atr_guard_version == 1 (not a guarded service)", {
      status,
      preview: text,
    });
  }
  if (typeof reply.sql_str !== "string" || typeof reply.sql_execution_result !== "string") {
    return failureEnvelope(body, "SQL service reply is missing sql_str or sql_execution_result", {
      status,
      preview: text,
    });
  }
  const result = reply.sql_execution_result.trim();
  if (/^[[{]/.test(result)) {
    try {
      JSON.parse(result);
    } catch {
      return failureEnvelope(body, "SQL service returned truncated or invalid JSON rows", { status, preview: text });
    }
  }
  return {
    ...reply,
    query: typeof reply.query === "string" ? reply.query : body.query,
    table_name_list: Array.isArray(reply.table_name_list) ? reply.table_name_list : body.table_name_list,
    nl2sql_prompt: typeof reply.nl2sql_prompt === "string" ? reply.nl2sql_prompt : "",
    nl2sql_response: typeof reply.nl2sql_response === "string" ? reply.nl2sql_response : "",
  };
}
