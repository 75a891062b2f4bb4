/**
 * Condition linking: which cells a question's values select. `findMentions` links each span to one
 * column by fixed rules (text columns first, then leftmost; the shortest cell of a partial match).
 * Here the alternatives are enumerated — the same span linked to another column that holds it
 * (exactly or as a whole-word part of its cells), an exact link widened to every cell containing the
 * span, a mention dropped, all mentions dropped — and a learned linear score over named features of
 * each (match quality, header match, column type, how many rows the links select together, whether
 * the plan changes) picks one. The base links are one candidate with their own indicator, so the
 * model changes a question's links only when an alternative scores higher. Trained on WTQ train with
 * execution labels (scripts/train-condition-links.ts: each candidate's first plan is run and judged
 * with the official match); without models/condition-links.json the base links stay.
 */
import type { QuestionAnalysis } from "./analysis.js";
import { headerMatch, isNumericColumn } from "./columns.js";
import { askedWords, findMentions, type EntityMention } from "./mentions.js";
import { ModelFile, ModelFileError } from "./model-file.js";
import { widenToPairedColumns } from "./paired-columns.js";
import { firstPlan } from "./plans/registry.js";
import type { NamedPlan } from "./plans/types.js";
import type { CatalogColumn, TableCatalog } from "./table-catalog.js";
import { linearScore } from "./target-column-model.js";
import { STOP_WORDS } from "../../text/stop-words.js";

/** One way of linking the question's values: the mentions the plan is built from. */
export interface LinkCandidate {
  /** base | drop | relink-exact | relink-part | widen | drop-all */
  kind: "base" | "drop" | "relink-exact" | "relink-part" | "widen" | "drop-all";
  mentions: EntityMention[];
  /** The mention changed (the base's for drop/relink/widen), and its new link (relink/widen). */
  from?: EntityMention;
  to?: EntityMention;
}

/** Cells of a column a span names: exactly, or as a whole-word part (at most `maxValues` distinct cells). */
function spanLink(
  catalog: TableCatalog,
  c: CatalogColumn,
  m: EntityMention,
  how: "exact" | "part",
  maxValues = 6,
): EntityMention | undefined {
  if (how === "exact") {
    const rows = c.distinct.get(m.text);
    if (!rows || rows.length === 0) return undefined;
    return {
      ...m,
      column: c.schema.name,
      columnIndex: c.index,
      value: c.raw[rows[0]!]!,
      kind: "exact",
      score: 1,
      rows,
    };
  }
  const tokens = m.text.split(" ").filter((t) => t !== "");
  let keys: Set<string> | undefined;
  for (const t of tokens) {
    const set = catalog.tokenIndex.get(t);
    if (!set) return undefined;
    keys = keys ? new Set([...keys].filter((k) => set.has(k))) : new Set(set);
  }
  const phrase = ` ${m.text} `;
  const prefix = `${c.index}:`;
  const values = [...(keys ?? [])]
    // (Not a cell that negates the phrase: "fiction" is no "Non-fiction".)
    .filter(
      (k) =>
        k.startsWith(prefix) &&
        ` ${k.slice(prefix.length)} `.includes(phrase) &&
        !/ (?:non|not|no|anti)$/.test(` ${k.slice(prefix.length)} `.split(phrase)[0]!),
    )
    .map((k) => k.slice(prefix.length));
  if (values.length === 0 || values.length > maxValues) return undefined;
  const rows = [...new Set(values.flatMap((v) => c.distinct.get(v) ?? []))].sort((x, y) => x - y);
  if (rows.length === 0) return undefined;
  const words = values.reduce((s, v) => s + v.split(" ").length, 0) / values.length;
  return {
    ...m,
    column: c.schema.name,
    columnIndex: c.index,
    value: c.raw[rows[0]!]!,
    kind: "partial",
    score: Math.min(0.95, 0.5 + (0.45 * tokens.length) / Math.max(tokens.length, words)),
    rows,
  };
}

/** The base links and their alternatives (see the file's comment); at most `cap` candidates, the base first. */
export function linkCandidates(catalog: TableCatalog, mentions: EntityMention[], cap = 16): LinkCandidate[] {
  const out: LinkCandidate[] = [{ kind: "base", mentions }];
  mentions.forEach((m, i) => {
    const others = mentions.filter((_, j) => j !== i);
    const put = (kind: LinkCandidate["kind"], to?: EntityMention) => {
      if (out.length >= cap) return;
      const next = to ? [...others.slice(0, i), to, ...others.slice(i)] : others;
      out.push({ kind, mentions: next, from: m, ...(to ? { to } : {}) });
    };
    // (A number its neighbour word names the column of keeps that column: "2 bedrooms" is no Bathrooms cell.)
    if (!m.columnNamed) put("drop");
    for (const c of catalog.columns) {
      if (c.index === m.columnIndex) {
        const wide = m.kind === "exact" ? spanLink(catalog, c, m, "part") : undefined;
        // (Not back to the cells a sign set apart: "O+" is not widened to O- as well.)
        const own = Math.max(m.rows.length, c.distinct.get(m.text)?.length ?? 0);
        if (wide && wide.rows.length > own) put("widen", wide);
        continue;
      }
      if (m.columnNamed) continue;
      const exact = spanLink(catalog, c, m, "exact");
      const part = exact ? undefined : spanLink(catalog, c, m, "part");
      if (exact) put("relink-exact", exact);
      else if (part) put("relink-part", part);
    }
  });
  if (mentions.length >= 2 && out.length < cap) out.push({ kind: "drop-all", mentions: [] });
  return out;
}

/** The rows every mention selects (their intersection; all rows when there is none). */
function jointRows(catalog: TableCatalog, mentions: EntityMention[]): number {
  if (mentions.length === 0) return catalog.rowCount;
  let rows = new Set(mentions[0]!.rows);
  for (const m of mentions.slice(1)) rows = new Set(m.rows.filter((r) => rows.has(r)));
  return rows.size;
}

const KINDS = ["drop", "relink-exact", "relink-part", "widen", "drop-all"] as const;
const OPS = ["count", "lookup", "superlative", "other"] as const;

export const LINK_FEATURES: readonly string[] = [
  "base",
  ...KINDS,
  ...OPS.flatMap((o) => KINDS.map((k) => `${o}×${k}`)),
  "from:exact",
  "from:partial",
  "from:fuzzy",
  "from:score",
  "from:words1",
  "from:number",
  "from:asked",
  "from:stop",
  "from:headerNamed",
  "from:numericColumn",
  "from:rowsLog",
  "to:score",
  "to:headerNamed",
  "to:numericColumn",
  "to:leftOf",
  "to:rowsLog",
  "to:valuesMore",

  "joint:0",
  "joint:1",
  "joint:many",
  "base:joint0",
  "planChanged",
  "targetIsLink",
  "mentions2+",
];

/** The operator class of the question for the features. */
function opClass(a: QuestionAnalysis): (typeof OPS)[number] {
  if (a.operator === "count") return "count";
  if (a.operator === "sort" || a.position !== null) return "superlative";
  if (a.operator === "lookup" || a.operator === "filter") return "lookup";
  return "other";
}

/** The feature vector of one candidate (LINK_FEATURES order); `basePlan`/`plan` are the first plans of the base and the candidate. */
export function linkFeatureVector(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  cand: LinkCandidate,
  base: LinkCandidate,
  basePlan: NamedPlan | null,
  plan: NamedPlan | null,
): number[] {
  const f = new Map<string, number>();
  const words = a.contentWords;
  const named = (c: CatalogColumn) => (headerMatch(words, c, false) >= 1.5 ? 1 : 0);
  const joint = jointRows(catalog, cand.mentions);
  f.set("joint:0", joint === 0 ? 1 : 0);
  f.set("joint:1", joint === 1 ? 1 : 0);
  f.set("joint:many", joint > 1 ? 1 : 0);
  f.set("base:joint0", jointRows(catalog, base.mentions) === 0 ? 1 : 0);
  f.set("mentions2+", base.mentions.length >= 2 ? 1 : 0);
  if (cand.kind === "base") f.set("base", 1);
  else {
    f.set(cand.kind, 1);
    f.set(`${opClass(a)}×${cand.kind}`, 1);
    f.set("planChanged", plan?.generator !== basePlan?.generator || plan?.template !== basePlan?.template ? 1 : 0);
  }
  const m = cand.from;
  if (m) {
    const c = catalog.columns[m.columnIndex]!;
    f.set(`from:${m.kind}`, 1);
    f.set("from:score", m.score);
    f.set("from:words1", m.end - m.start === 1 ? 1 : 0);
    f.set("from:number", /^\d+( \d+)*$/.test(m.text) ? 1 : 0);
    f.set("from:asked", m.text.split(" ").some((w) => askedWords(a).includes(w)) ? 1 : 0);
    f.set("from:stop", m.text.split(" ").some((w) => STOP_WORDS.has(w)) ? 1 : 0);
    f.set("from:headerNamed", named(c));
    f.set("from:numericColumn", isNumericColumn(c) ? 1 : 0);
    f.set("from:rowsLog", Math.log1p(m.rows.length) / 3);
  }
  const t = cand.to;
  if (t && m) {
    const c = catalog.columns[t.columnIndex]!;
    f.set("to:score", t.score);
    f.set("to:headerNamed", named(c));
    f.set("to:numericColumn", isNumericColumn(c) ? 1 : 0);
    f.set("to:leftOf", t.columnIndex < m.columnIndex ? 1 : 0);
    f.set("to:rowsLog", Math.log1p(t.rows.length) / 3);
    f.set("to:valuesMore", t.rows.length > m.rows.length ? 1 : 0);
  }
  // The plan answers from a column a link selects by: the link is likely the asked-about value.
  const target = plan?.targetColumn;
  f.set("targetIsLink", target && cand.mentions.some((x) => x.column === target) ? 1 : 0);
  return LINK_FEATURES.map((name) => f.get(name) ?? 0);
}

export interface ConditionLinkModel {
  trainedOn: string;
  features: string[];
  weights: number[];
}

/** Validates a parsed model file (features must be LINK_FEATURES, one weight each). */
export function checkConditionLinkModel(value: unknown, path: string): ConditionLinkModel {
  const m = value as ConditionLinkModel;
  if (!m || !Array.isArray(m.features) || !Array.isArray(m.weights) || m.weights.length !== m.features.length)
    throw new ModelFileError(path, "needs features and weights of the same length");
  if (m.features.join("\u0000") !== LINK_FEATURES.join("\u0000"))
    throw new ModelFileError(path, "its features differ from nodes/offline/condition-links.ts LINK_FEATURES");
  return m;
}

const file = new ModelFile<ConditionLinkModel>("condition-links.json", checkConditionLinkModel);

/** Replaces the model (null = the base links; undefined = read the file again) — tests and training. */
export function setConditionLinkModel(model: ConditionLinkModel | null | undefined): void {
  file.set(model);
}

/** The prior of the fit: the base candidate wins every question. */
export function baseLinkWeights(): number[] {
  return LINK_FEATURES.map((name) => (name === "base" ? 1 : 0));
}

/** Tables larger than this keep their base links (the candidates read cells through the catalogue). */
const MAX_ROWS = 5000;

/**
 * The question's mentions after condition linking: findMentions's, or the learned model's choice
 * among their alternatives (ties keep the base).
 */
export function linkMentions(question: string, analysis: QuestionAnalysis, catalog: TableCatalog): EntityMention[] {
  return linkChoice(question, analysis, catalog).mentions;
}

/** How sure the link choice was (the learned verifier's `mg:link-…` features). */
export interface LinkMargin {
  /** Score of the chosen links minus the next alternative's (≥ 0). */
  margin: number;
  /** The next alternative's first plan is the chosen one's statement (so it gives the same answer). */
  samePlan: boolean;
  /** The choice is not the base links. */
  changed: boolean;
}

/** linkMentions's choice with its margin (none when the model had no alternative to weigh). */
export function linkChoice(
  question: string,
  analysis: QuestionAnalysis,
  catalog: TableCatalog,
): { mentions: EntityMention[]; margin?: LinkMargin } {
  const chosen = chooseLinks(question, analysis, catalog);
  return {
    ...chosen,
    mentions: widenToPairedColumns(analysis.normalized.split(/[^a-z0-9]+/), chosen.mentions, catalog),
  };
}

/** The learned choice among the links of findMentions (its first links without the model). */
function chooseLinks(
  question: string,
  analysis: QuestionAnalysis,
  catalog: TableCatalog,
): { mentions: EntityMention[]; margin?: LinkMargin } {
  const mentions = findMentions(question, catalog, { avoidWords: askedWords(analysis) });
  const model = file.get();
  if (!model || mentions.length === 0 || catalog.rowCount > MAX_ROWS) return { mentions };
  const cands = linkCandidates(catalog, mentions);
  if (cands.length <= 1) return { mentions };
  const basePlan = firstPlan({ analysis, catalog, mentions });
  let best = cands[0]!;
  let bestPlan = basePlan;
  let bestScore = linearScore(model.weights, linkFeatureVector(analysis, catalog, best, best, basePlan, basePlan));
  let second: { score: number; plan: NamedPlan | null } | undefined;
  for (const cand of cands.slice(1)) {
    const plan = firstPlan({ analysis, catalog, mentions: cand.mentions });
    if (!plan) continue;
    const s = linearScore(model.weights, linkFeatureVector(analysis, catalog, cand, cands[0]!, basePlan, plan));
    if (s > bestScore) {
      second = { score: bestScore, plan: bestPlan };
      [best, bestScore, bestPlan] = [cand, s, plan];
    } else if (!second || s > second.score) second = { score: s, plan };
  }
  if (!second) return { mentions: best.mentions };
  return {
    mentions: best.mentions,
    margin: {
      margin: bestScore - second.score,
      samePlan: second.plan?.sql === bestPlan?.sql,
      changed: best !== cands[0],
    },
  };
}
