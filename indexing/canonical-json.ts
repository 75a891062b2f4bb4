/**
 * The project's one canonical JSON: JSON text with every object's keys sorted (UTF-16 code unit
 * order, integer-like keys included — `JSON.stringify` of a rebuilt object would put those first),
 * `undefined` members left out as JSON does. Equal values give equal text whatever their key order.
 * Used for the LLM reply cache key, the configuration hash of result files and comparing LangSmith
 * examples; the first two are persisted, so the output must not change.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  if (value && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
