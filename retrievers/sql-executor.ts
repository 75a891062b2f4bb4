/**
 * Read-only, time-limited execution of guarded SQL over View 5 (tables.sqlite).
 * (Interface committed first; implementation follows.)
 */
export interface SqlExecution {
  /** Rows serialised as a JSON string, or "SQL execution failed: <reason>". */
  result: string;
  ok: boolean;
  rowCount: number;
  truncated: boolean;
  error?: string;
  ms: number;
}

export interface SqlExecutor {
  execute(sql: string): Promise<SqlExecution>;
  close(): Promise<void>;
}
