/**
 * Featurisation of the learned router's input text (reference §5.3, v1/v2 from
 * nodes/routers/features.ts) into a fixed-length float vector: hashed, segment-tagged tokens.
 *
 * Why not the offline embedder (indexing/embeddings/offline.ts)? It drops stop words such as
 * "how", "many", "total", "which" — the very words that separate SQL from RETRIEVE questions — and
 * it mixes all segments into one bag, so `[OP] count` and the word "count" in the query collide.
 * Here every token carries its segment tag ([QUERY], [OP], …), and the categorical segments become
 * single tokens. The ONNX inference (nodes/routers/learned.ts) and the trainer (training/student.ts)
 * both call `featurise`, so training and serving see identical vectors.
 */
import { routerFeatureHash32 } from "../../indexing/hash.js";
import { normaliseForMatch } from "../../text/normalise.js";

export interface HashedFeatureSettings {
  /** Vector length D (default 4096). */
  dimension: number;
  /** Character n-gram sizes taken from each query word (default [3, 4]; [] = none). */
  charNgrams: number[];
  /** Word bigrams of the query (default true). */
  wordBigrams: boolean;
  /**
   * Multiplier of the structural tokens (operator, modality, schema, entities, failures, their cross)
   * against the query's lexical ones (default 8). Without it the many character n-grams hold almost
   * all of the vector's mass and the rare rule-deciding fields (e.g. "has entities") are under-fit.
   */
  structuralWeight: number;
  /**
   * Also read the plan's offline analysis (./plan-features.ts: answer kind, cell mentions, SQL
   * template, passage bridge) as structural tokens. Absent or false in models trained before it.
   */
  planTokens?: boolean;
}

export const DEFAULT_FEATURE_SETTINGS: HashedFeatureSettings = {
  dimension: 4096,
  charNgrams: [3, 4],
  wordBigrams: true,
  structuralWeight: 8,
};
const LEXICAL = /^(q|q2|c\d+|head|first):/;

const SEGMENT = /\[(QUERY|OP|MOD|ENT|SCHEMA|GLOBAL|UNCERTAINTY|FAILED|SCHEMA_DETAIL)\] /g;
const WORD = /[\p{L}\p{N}]+/gu;
const ROUTE_ITEM = /(TEXT|SQL|RETRIEVE|HYBRID)(?:->(TEXT|SQL|RETRIEVE|HYBRID))?(?::([\d.]+))?(?=, |$)/g;

/** The text's segments by tag (a tag that appears twice keeps the last value). */
export function segments(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const marks = [...text.matchAll(SEGMENT)];
  marks.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1]!.index! : text.length;
    out.set(m[1]!, text.slice(start, end).trim());
  });
  return out;
}

const bucket = (n: number) => (n >= 3 ? "3+" : String(n));

/** The tagged tokens of one router input text (before hashing). Exported for tests and inspection. */
export function routerTokens(text: string, settings: HashedFeatureSettings = DEFAULT_FEATURE_SETTINGS): string[] {
  const seg = segments(text);
  const tokens: string[] = ["bias"];
  const words = [...normaliseForMatch(seg.get("QUERY") ?? "").matchAll(WORD)].map((m) => m[0]);
  words.forEach((w, i) => {
    tokens.push(`q:${w}`);
    if (settings.wordBigrams && i > 0) tokens.push(`q2:${words[i - 1]} ${w}`);
    for (const n of settings.charNgrams) {
      const padded = `<${w}>`;
      for (let j = 0; j + n <= padded.length; j++) tokens.push(`c${n}:${padded.slice(j, j + n)}`);
    }
  });
  if (words.length) tokens.push(`head:${words.slice(0, 2).join(" ")}`, `first:${words[0]}`);
  for (const tag of ["OP", "MOD", "SCHEMA", "GLOBAL"]) if (seg.has(tag)) tokens.push(`${tag}=${seg.get(tag)}`);
  const ent = seg.get("ENT");
  const entCount = ent === undefined || ent === "none" ? "0" : bucket(ent.split(", ").length);
  if (ent !== undefined) tokens.push(`ENT#=${entCount}`);
  // The routing rules (§5.1/§5.2) are conjunctions of these fields: one crossed token per combination.
  tokens.push(`X:${seg.get("OP")}|${seg.get("MOD")}|${seg.get("SCHEMA")}|ent${entCount === "0" ? 0 : 1}`);
  const u = Number(seg.get("UNCERTAINTY"));
  if (seg.has("UNCERTAINTY")) tokens.push(`U=${Number.isFinite(u) ? Math.round(u * 5) / 5 : "nan"}`);
  const failed = seg.get("FAILED");
  if (failed !== undefined) {
    const items = failed === "none" ? [] : [...failed.matchAll(ROUTE_ITEM)];
    tokens.push(`F#=${bucket(items.length)}`);
    for (const m of items) {
      const effective = m[2] ?? m[1]!;
      tokens.push(`F:${effective}`, `Fv:${effective}:${m[3] ?? "-"}`);
      if (m[2]) tokens.push(`F:${m[1]}->${m[2]}`);
    }
  }
  const detail = seg.get("SCHEMA_DETAIL");
  if (detail !== undefined && detail !== "none") {
    const types = [...detail.matchAll(/:([a-z_]+)(?= examples=|, |$)/g)].map((m) => m[1]!);
    tokens.push(`cols#=${types.length >= 8 ? "8+" : String(types.length)}`);
    for (const t of new Set(types)) tokens.push(`coltype:${t}`);
  }
  return tokens;
}

/**
 * The feature vector: log(1 + count) per hashed token (structural ones × structuralWeight), L2-normalised.
 * `extra` are structural tokens from outside the text (the plan's analysis when settings.planTokens).
 */
export function featurise(
  text: string,
  settings: HashedFeatureSettings = DEFAULT_FEATURE_SETTINGS,
  extra: readonly string[] = [],
): Float32Array {
  const lexical = new Float32Array(settings.dimension);
  const structural = new Float32Array(settings.dimension);
  for (const token of [...routerTokens(text, settings), ...extra])
    (LEXICAL.test(token) ? lexical : structural)[routerFeatureHash32(token) % settings.dimension]! += 1;
  const out = new Float32Array(settings.dimension);
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    const v = Math.log1p(lexical[i]!) + settings.structuralWeight * Math.log1p(structural[i]!);
    if (v !== 0) {
      out[i] = v;
      norm += v * v;
    }
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) if (out[i] !== 0) out[i]! /= norm;
  return out;
}
