/**
 * The features of one candidate answer that the learned verifier (answer-model.ts) scores: which
 * route produced it and how, what the rule verifier's checks say (answer-checks.ts), the answer's
 * shape, and whether earlier attempts of the same question — other routes over other evidence —
 * produced the same answer. Every feature is named (`route=SQL`, `rule=sql-low-confidence`,
 * `agree=2+`), binary unless it is a score in 0..1, so a trace shows why a verdict was given.
 */
import { answerKindOf, fitsKind, isYear, numericValue } from "./answer-kind.js";
import { cleanAnswer, scaleFromEvidence, splitList, withoutScale } from "./answer-format.js";
import {
  asksForName,
  describesLinkedRow,
  evidenceRows,
  fromCells,
  fromSql,
  groundedIn,
  isFilterEntity,
  rowColumnProblem,
  rowsNamingMentions,
  sqlShapeProblem,
  supportOf,
} from "./answer-checks.js";
import { analysisOf } from "./analysis.js";
import { rowsFeature } from "./confidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { describedRowEvidence, describedRowOf, type Bridge } from "./reader.js";
import type { DescribedRow } from "./bridge.js";
import { keyStems } from "./evidence.js";
import { parseSqlRows } from "./sql-result.js";
import { resultShape, TARGET_SPELLED_TEXT, TARGET_YEARS } from "./plans/candidate-features.js";
import { hasPeriodTable } from "./table-cells.js";
import { familyOn } from "./feature-families.js";
import { rowChoiceMargins } from "./choice-margins.js";
import type { VerifyInput } from "../strategies.js";
import type { Route } from "../types.js";

export type Features = Record<string, number>;

/** What the features see beyond the verifier's input. */
export interface FeatureContext {
  /** The rule verifier's code for this answer (verifier.ts RULE_CODES). */
  ruleCode: string;
  /** Does the index hold passages beside its tables? */
  hasPassages: boolean;
  bridge?: Bridge;
}

/** Routes that compute from the table (SQL) and routes that read evidence. */
function family(route: Route): "sql" | "read" {
  return route === "SQL" || route === "HYBRID" ? "sql" : "read";
}

function bucket(n: number, edges: readonly number[], labels: readonly string[]): string {
  for (let i = 0; i < edges.length; i++) if (n <= edges[i]!) return labels[i]!;
  return labels[labels.length - 1]!;
}

/**
 * Agreement with the question's earlier attempts (same normalised answer), by route family; and
 * how many found the same value under another scale word ("54,330" and "54,330 thousand").
 */
function agreement(
  input: Pick<VerifyInput, "route" | "earlier">,
  answer: string,
): { same: number; sameOther: number; other: number; sameValue: number } {
  const key = normaliseForContainment(answer);
  const value = normaliseForContainment(withoutScale(answer));
  let same = 0;
  let sameOther = 0;
  let other = 0;
  let sameValue = 0;
  for (const e of input.earlier ?? []) {
    const earlier = cleanAnswer(e.answer);
    const k = normaliseForContainment(earlier);
    if (k === "" || k === "not found") continue;
    if (normaliseForContainment(withoutScale(earlier)) === value) sameValue++;
    if (k === key) {
      same++;
      if (family(e.route) !== family(input.route)) sameOther++;
    } else other++;
  }
  return { same, sameOther, other, sameValue };
}

/** The features that depend on the attempts before this one (its number, agreement with earlier answers). */
export const ORDER_FEATURE =
  /^(attempt=|retry-sub-query$|agree=|disagree=|agree-other-family$|agree-value=|route=[A-Z]+\|(agree=|agree-other-family$))/;

/**
 * The features of `answer` that depend on the attempts before it (ORDER_FEATURE): what
 * training/route-replay.ts recomputes when it replays a question's attempts in another route order.
 */
export function orderFeatures(
  input: Pick<VerifyInput, "route" | "subQuery" | "attempt" | "earlier">,
  answer: string,
): string[] {
  const on = [`attempt=${bucket(input.attempt ?? 1, [1, 2, 3], ["1", "2", "3", "4+"])}`];
  if ((input.earlier ?? []).some((e) => e.subQuery !== input.subQuery)) on.push("retry-sub-query");
  const agree = agreement(input, answer);
  const agreeLabel = bucket(agree.same, [0, 1], ["0", "1", "2+"]);
  on.push(
    `agree=${agreeLabel}`,
    `route=${input.route}|agree=${agreeLabel}`,
    `disagree=${bucket(agree.other, [0, 1], ["0", "1", "2+"])}`,
  );
  if (agree.sameOther > 0) on.push("agree-other-family", `route=${input.route}|agree-other-family`);
  on.push(`agree-value=${bucket(agree.sameValue, [0, 1], ["0", "1", "2+"])}`);
  return on;
}

/** The answer's scale word against the scale the evidence declares ("in thousands"). */
function scaleFeatures(answer: string, evidence: string): string[] {
  const said = /\b(thousand|million|billion)s?\s*$/i.exec(answer)?.[1]?.toLowerCase() ?? "";
  const declared = scaleFromEvidence(evidence);
  const relation = said === declared ? "same" : said === "" ? "missing" : declared === "" ? "undeclared" : "other";
  return [`scale=${said || "none"}`, `scale-vs-evidence=${relation}`];
}

function answerShape(answer: string, items: string[]): string[] {
  const tokens = answer.split(/\s+/).filter((t) => t !== "").length;
  const shape = [
    `ans:tokens=${bucket(tokens, [1, 3, 6], ["1", "2-3", "4-6", "7+"])}`,
    `ans:items=${bucket(items.length, [1, 2], ["1", "2", "3+"])}`,
  ];
  const value = numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, ""));
  if (value !== null) shape.push("ans:number", value === 0 ? "ans:zero" : value < 0 ? "ans:negative" : "ans:positive");
  if (isYear(answer)) shape.push("ans:year");
  if (/%$/.test(answer)) shape.push("ans:percent");
  if (/\b(thousand|million|billion)$/i.test(answer)) shape.push("ans:scale");
  if (/^(yes|no)$/i.test(answer)) shape.push("ans:yesno");
  return shape;
}

/** The SQL plan's shape, as the offline decomposer recorded it (analysis.grounding.features). */
function planShape(input: VerifyInput): string[] {
  const f = analysisOf(input.plan)?.grounding?.features;
  if (!f) return ["plan:none"];
  let rows: unknown[] = [];
  const parsed = parseSqlRows(input.sqlResult);
  if (parsed) rows = parsed;
  const r = rowsFeature(rows);
  // (An alternative SQL candidate has its own template; the decomposer's plan is the first candidate's.)
  const template = input.sqlPlan?.template ?? f.template;
  return [
    `tpl=${template}`,
    `tpl=${template}|target=${f.target}`,
    `tpl=${template}|rows=${r}`,
    `grounding=${f.grounding}`,
    `mentions=${f.mentions}`,
    `target=${f.target}`,
    `rows=${r}`,
  ];
}

/** The SQL statement's structure: conditions, ordering, grouping, and the size of a single numeric result. */
function sqlShape(sql: string | undefined, sqlResult: string): string[] {
  if (!sql) return ["sql:none"];
  const where = /\bWHERE\b([\s\S]*?)(?:\bGROUP BY\b|\bORDER BY\b|\bLIMIT\b|$)/i.exec(sql)?.[1] ?? "";
  const conditions = where.trim() === "" ? 0 : where.split(/\bAND\b|\bOR\b/i).length;
  const shape = [`sql:conditions=${bucket(conditions, [0, 1, 2], ["0", "1", "2", "3+"])}`];
  if (/\bLIKE\b/i.test(sql)) shape.push("sql:like");
  if (/\bORDER BY\b[\s\S]*\bLIMIT\b/i.test(sql)) shape.push("sql:order-limit");
  if (/\bGROUP BY\b/i.test(sql)) shape.push("sql:group-by");
  if (/\bDISTINCT\b/i.test(sql)) shape.push("sql:distinct");
  if (/\(\s*SELECT\b/i.test(sql)) shape.push("sql:sub-query");
  const rows = parseSqlRows(sqlResult);
  const only = rows?.length === 1 && rows[0]!.length === 1 ? rows[0]![0] : undefined;
  const n = typeof only === "number" ? only : typeof only === "string" ? numericValue(only) : null;
  if (n !== null && n !== undefined)
    shape.push(`sql:value=${bucket(Math.abs(n), [0, 1, 3, 10, 100], ["0", "1", "2-3", "4-10", "11-100", ">100"])}`);
  return shape;
}

/**
 * The table row a TEXT/RETRIEVE reading was bridged through (bridge.ts), as `lr:…` features: how
 * clearly it won over the runner-up row, and whether the answer is one of its cells or comes from a
 * passage it links to. On HybridQA train the readings that scored high and were wrong mostly gave a
 * cell of the row (a year, a name) where the question asks for something of the entity the row
 * links to ("the birth year of the singer who …": a relative clause after the asked phrase).
 */
export function linkedRowFeatures(row: DescribedRow | undefined, answer: string, question: string): Features {
  if (!row) return {};
  const f: Features = { "lr:row": 1 };
  f["lr:row-margin"] =
    row.score > 0 ? Math.round(Math.max(0, Math.min(1, (row.score - row.runnerUp) / row.score)) * 1000) / 1000 : 0;
  const key = normaliseForContainment(answer);
  if (key === "") return f;
  const cell = row.values.findIndex((v) => normaliseForContainment(v) === key);
  const hop = /\b(?:the|a|an)\s+[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2}\s+(?:that|who|whose|which|where)\b/i.test(
    question,
  );
  if (hop) f["lr:hop"] = 1;
  if (cell >= 0) {
    f["lr:answer=cell"] = 1;
    if (hop) f["lr:answer=cell|hop"] = 1;
    // The cell's column named by the question ("what position …" → Position).
    const asked = keyStems(question);
    if ([...keyStems(row.columns[cell] ?? "")].some((w) => asked.has(w))) f["lr:cell-column-named"] = 1;
  } else if (row.passages.some((p) => normaliseForContainment(p.text).includes(key))) f["lr:answer=linked-passage"] = 1;
  else f["lr:answer=elsewhere"] = 1;
  return f;
}

/**
 * Agreement with the same SQL attempt's other candidates (other plan generators, the next-best
 * target column): two plans that read the question differently and still give the same answer
 * make it likelier; a rival plan with another answer marks an uncertain column or template choice.
 */
export function siblingAgreement(answer: string, siblings: readonly string[]): Features {
  const key = normaliseForContainment(answer);
  const valid = siblings
    .map((s) => normaliseForContainment(cleanAnswer(s)))
    .filter((s) => s !== "" && s !== "not found");
  if (valid.length === 0) return { "sqlalt:none": 1 };
  const same = valid.filter((s) => s === key).length;
  return {
    [same > 0 ? "sqlalt:agree" : "sqlalt:disagree"]: 1,
    "sqlalt:agree-share": Math.round((same / valid.length) * 1000) / 1000,
  };
}

/** The candidate's features. */
export function answerFeatures(input: VerifyInput, context: FeatureContext): Features {
  const answer = cleanAnswer(input.answer ?? "");
  const items = splitList(answer);
  const route = input.route;
  const question = input.subQuery || input.question;
  const kind = answerKindOf(input.plan, question);
  const operator = input.plan.expectedOperator;
  const on: string[] = [
    "bias",
    `route=${route}`,
    `rule=${context.ruleCode}`,
    `route=${route}|rule=${context.ruleCode}`,
    `kind=${kind}`,
    `route=${route}|kind=${kind}`,
    `op=${operator}`,
    `route=${route}|op=${operator}`,
    `mod=${input.plan.requiredModalities}`,
    context.hasPassages ? "passages" : "tables-only",
    `route=${route}|${context.hasPassages ? "passages" : "tables-only"}`,
    ...answerShape(answer, items),
  ];
  const values: Features = {};
  // The question-analysis detectors that decided the operator and the answer kind (analysis.ts).
  const detectors = analysisOf(input.plan)?.detectors;
  if (detectors) on.push(`det:op=${detectors.operator}`, `det:kind=${detectors.answerKind}`);
  if (input.requestedRoute && input.requestedRoute !== route) on.push("route-changed");
  on.push(...orderFeatures(input, answer));
  if (/\(about:/.test(input.subQuery)) on.push("about-note");
  if (numericValue(withoutScale(answer).replace(/%$/, "")) !== null) on.push(...scaleFeatures(answer, input.evidence));

  if (family(route) === "sql") {
    on.push(...planShape(input), ...sqlShape(input.sql, input.sqlResult));
    if (familyOn("sqlalt:", input.verifierFeatures, context))
      Object.assign(values, siblingAgreement(answer, input.sqlSiblingAnswers ?? []));
    // The SQL candidate's generator, rank and kind agreement (plans/candidate-features.ts), and its result's shape.
    if (input.sqlPlan) {
      Object.assign(values, input.sqlPlan.features);
      on.push(...resultShape(input.sqlResult, input.sqlPlan.template));
    }
    if (fromSql(answer, input.sqlResult)) on.push("from-sql");
    if (sqlShapeProblem(input, kind, items.length)) on.push("sql-shape-problem");
  }
  const columnFacts = {
    yearColumn: input.sqlPlan?.features[TARGET_YEARS] === 1,
    spelledTextColumn: input.sqlPlan?.features[TARGET_SPELLED_TEXT] === 1,
  };
  if (!items.every((item) => fitsKind(item, kind, columnFacts))) on.push("kind-mismatch");
  if (asksForName(question, kind) && items.length > 0 && items.every((item) => numericValue(item) !== null))
    on.push("number-for-which");
  if (isFilterEntity(answer, input)) on.push("filter-entity");
  const rows = evidenceRows(input.evidence);
  if (hasPeriodTable(rows)) on.push("period-table", `route=${route}|period-table`);
  if (describesLinkedRow(input, context.bridge)) on.push("linked-row", `route=${route}|linked-row`);
  const cells = fromCells(answer, input);
  if (cells) {
    on.push(`cells=${cells.operation}`);
    values["cells-confidence"] = cells.confidence;
  }
  if (route === "RETRIEVE" && rowColumnProblem(input, answer, kind)) on.push("row-column-problem");
  if (route === "RETRIEVE" || route === "TEXT") {
    const spread = rowsNamingMentions(input);
    if (spread > 1) on.push("spread-rows");
  }
  const row =
    route === "TEXT" || route === "RETRIEVE" ? describedRowOf(context.bridge, input, input.evidence) : undefined;
  const evidenceText = [input.evidence, input.sqlResult, row ? describedRowEvidence(row) : ""]
    .filter((s) => s && s.trim())
    .join("\n\n");
  const grounded = items.length > 0 && items.every((item) => groundedIn(item, evidenceText));
  on.push(grounded ? "grounded" : "ungrounded");
  if (answer !== "" && items.length > 0) {
    const support = Math.min(...items.map((item) => supportOf(input.question, input.subQuery, item, input.evidence)));
    values.support = Math.round(support * 1000) / 1000;
    on.push(`support=${bucket(support, [0, 0.3, 0.45, 0.7], ["0", "<.3", "<.45", "<.7", ">=.7"])}`);
  }
  for (const name of on) values[name] = 1;
  if (familyOn("lr:", input.verifierFeatures, context))
    Object.assign(values, linkedRowFeatures(row, answer, input.question));
  if (familyOn("mg:", input.verifierFeatures, context)) Object.assign(values, rowChoiceMargins(row));
  // The reader's own features of this candidate among its others (reader-candidates.ts, `rc:…`).
  for (const [name, value] of Object.entries(input.readerFeatures ?? {}))
    if (name.startsWith("rc:") && Number.isFinite(value)) values[name] = value;
  return values;
}
