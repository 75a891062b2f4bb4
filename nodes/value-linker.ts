/**
 * HybridValueLinker (reference §6.4), shared by RETRIEVE and HYBRID: one LinkedValue per entity
 * mention. Candidates are validated against C, the strategy picks one (accepted only when exactly
 * one candidate matches and the confidence is a number in [0, 1]), and otherwise the fallback
 * ladder decides: 1 unconstrained, 2 fuzzy LIKE, 3 reroute to TEXT.
 *
 * The ladder's position counts earlier linker runs in H under `failureScope` (question-wide in the
 * released code, per sub-query in the older one); "TEXT already failed" is always question-wide.
 */
import type { FailureScope } from "../graph/configuration.js";
import type { CellEntry, SchemaEntry } from "../indexing/types.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { priorLinkerAttempts, textFailed } from "./routers/failed-set.js";
import type { Strategies } from "./strategies.js";
import type { FailedRouteRecord, LinkedValue } from "./types.js";

export interface LinkValuesInput {
  entities: readonly string[];
  subQuery: string;
  /** Allowed columns C. */
  columns: readonly SchemaEntry[];
  /** Raw candidates per entity (V_raw). Untrusted shape: validated here. */
  candidates: Readonly<Record<string, readonly unknown[]>>;
  history: readonly FailedRouteRecord[];
  failureScope: FailureScope;
  strategies: Pick<Strategies, "linkValue">;
  /** Where a failing linker call is noted (the entity then falls to the ladder). */
  meter?: UsageMeter;
}

interface Candidate {
  tableId: string;
  column: string;
  value: string;
  /** The validated entry as the strategy sees it (value stringified). */
  entry: CellEntry;
}

const NO_MATCH = "no_match";

/** Keeps candidates whose (table, column) is in C and whose value is a non-blank string/finite number. */
export function validCandidates(raw: readonly unknown[], columns: readonly SchemaEntry[]): Candidate[] {
  const allowed = new Set(columns.map((c) => `${c.tableId}\u0000${c.column}`));
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const item of raw) {
    if (!item || typeof item !== "object" || Array.isArray(item)) continue;
    const c = item as Partial<CellEntry>;
    if (typeof c.column !== "string" || typeof c.tableId !== "string") continue;
    if (!allowed.has(`${c.tableId}\u0000${c.column}`)) continue;
    const v = c.value as unknown;
    let value: string;
    if (typeof v === "string") value = v;
    else if (typeof v === "number" && Number.isFinite(v)) value = String(v);
    else continue;
    if (value.trim() === "" || value === NO_MATCH) continue;
    const key = `${c.tableId}\u0000${c.column}\u0000${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry: CellEntry = {
      tableId: c.tableId,
      column: c.column,
      value,
      freq: typeof c.freq === "number" ? c.freq : 0,
      text: typeof c.text === "string" ? c.text : `column: ${c.column} | value: ${value}`,
    };
    out.push({ tableId: c.tableId, column: c.column, value, entry });
  }
  return out;
}

/** Lower-case; runs of `-`, `_`, whitespace → one space; trimmed. */
export function fuzzyNormalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[-_\s]+/g, " ")
    .trim();
}

function primaryColumn(candidates: Candidate[], columns: readonly SchemaEntry[]): SchemaEntry | undefined {
  const counts = new Map<string, number>();
  for (const c of candidates)
    counts.set(`${c.tableId}\u0000${c.column}`, (counts.get(`${c.tableId}\u0000${c.column}`) ?? 0) + 1);
  let best: string | undefined;
  let bestCount = 0;
  for (const [key, n] of counts) {
    if (n > bestCount) {
      best = key;
      bestCount = n;
    }
  }
  return columns.find((c) => `${c.tableId}\u0000${c.column}` === best);
}

function fuzzyMatch(entity: string, candidates: Candidate[]): Candidate | null {
  const e = fuzzyNormalise(entity);
  if (e === "") return null;
  for (const c of candidates) {
    const v = fuzzyNormalise(c.value);
    if (v === "" || !(v.includes(e) || e.includes(v))) continue;
    const owners = new Set(candidates.filter((o) => o.value === c.value).map((o) => `${o.tableId}\u0000${o.column}`));
    return owners.size === 1 ? c : null;
  }
  return null;
}

function unmatched(entity: string, candidates: Candidate[], level: 1 | 3): LinkedValue {
  return {
    entity,
    tableId: candidates[0]?.tableId ?? null,
    column: candidates[0]?.column ?? "",
    matchedValue: null,
    confidence: 0,
    fallbackLevel: level,
  };
}

function ladder(entity: string, candidates: Candidate[], minFallback: number, textAlreadyFailed: boolean): LinkedValue {
  if (minFallback <= 1) return unmatched(entity, candidates, 1);
  if (minFallback <= 2 || textAlreadyFailed) {
    const hit = fuzzyMatch(entity, candidates);
    if (hit) {
      return {
        entity,
        tableId: hit.tableId,
        column: hit.column,
        matchedValue: hit.value,
        confidence: 0.3,
        fallbackLevel: 2,
      };
    }
  }
  return unmatched(entity, candidates, textAlreadyFailed ? 1 : 3);
}

/** Links every entity (no early break); a level-3 value anywhere means "reroute to TEXT". */
export async function linkValues(input: LinkValuesInput): Promise<LinkedValue[]> {
  const prior = priorLinkerAttempts(input.history, input.subQuery, input.failureScope);
  const minFallback = Math.min(prior + 1, 3);
  const textAlreadyFailed = textFailed(input.history);
  const out: LinkedValue[] = [];
  for (const entity of input.entities) {
    const candidates = validCandidates(input.candidates[entity] ?? [], input.columns);
    if (candidates.length === 0) {
      out.push(ladder(entity, candidates, minFallback, textAlreadyFailed));
      continue;
    }
    try {
      const reply = await input.strategies.linkValue({
        entity,
        subQuery: input.subQuery,
        candidates: candidates.map((c) => c.entry),
        primaryColumn: primaryColumn(candidates, input.columns),
      });
      const value = typeof reply?.matchedValue === "string" ? reply.matchedValue : String(reply?.matchedValue ?? "");
      const column = typeof reply?.matchedColumn === "string" ? reply.matchedColumn : "";
      const confidence = reply?.confidence;
      const matches = candidates.filter((c) => c.value === value && (column === "" || c.column === column));
      const confidenceOk =
        typeof confidence === "number" && Number.isFinite(confidence) && confidence >= 0 && confidence <= 1;
      if (value !== NO_MATCH && matches.length === 1 && confidenceOk) {
        const m = matches[0]!;
        out.push({ entity, tableId: m.tableId, column: m.column, matchedValue: m.value, confidence, fallbackLevel: 0 });
        continue;
      }
    } catch (error) {
      // a failing strategy falls to the ladder, as a no_match would
      noteFailure(input.meter, `linkValue failed for "${entity}" (fallback ladder)`, error);
    }
    out.push(ladder(entity, candidates, minFallback, textAlreadyFailed));
  }
  return out;
}

export function isMatched(v: LinkedValue): boolean {
  return v.matchedValue !== null && v.matchedValue !== NO_MATCH;
}

export function needsReroute(values: readonly LinkedValue[]): boolean {
  return values.some((v) => v.fallbackLevel >= 3);
}

/** `column = 'v'` or, at level 2, `column LIKE '%v%'` (single quotes doubled); "" when unmatched. */
export function bindingClause(v: LinkedValue, qualify = false): string {
  if (!isMatched(v)) return "";
  const col = qualify && v.tableId ? `${v.tableId}.${v.column}` : v.column;
  const lit = v.matchedValue!.replace(/'/g, "''");
  return v.fallbackLevel === 2 ? `${col} LIKE '%${lit}%'` : `${col} = '${lit}'`;
}
