/**
 * The prompted `Strategies`: every LLM step of the paper as one structured call to a LangChain chat
 * model (nodes/prompted/call.ts), prompts from nodes/prompts.ts, replies coerced by the reference's
 * rules. Instances are cheap: build one per node call around a cached chat model, so the usage
 * meter is never shared between concurrent questions.
 */
import { isValidAnswer } from "../answer-validity.js";
import {
  DECOMPOSE_PROMPT,
  FUSE_PROMPT,
  LINK_VALUE_PROMPT,
  PRIOR_FINDINGS_BLOCK,
  RECOVERY_HINT_MANY,
  RECOVERY_HINT_ONE,
  ROUTE_PROMPT,
  ROWS_ANSWER_PROMPT,
  SQL_PROMPT,
  SYNTHESIZE_PROMPT,
  TEXT_ANSWER_PROMPT,
  VERIFY_PROMPT,
  fillPrompt,
} from "../prompts.js";
import type {
  DecomposeInput,
  FuseInput,
  LinkValueInput,
  LinkValueOutput,
  ReadRowsInput,
  ReadTextInput,
  RouteProfile,
  Strategies,
  SynthesizeInput,
  VerifyInput,
  VerifyOutput,
  WriteSqlInput,
} from "../strategies.js";
import type { Step, SubQueryPlan } from "../types.js";
import { callStructured, type StructuredCallOptions } from "./call.js";
import { DEFAULT_SQL_DIALECT, dialectLabel } from "../../retrievers/sql-dialect.js";
import { coercePlan, coerceVerdict } from "./coerce.js";

const MARKDOWN_LIMIT = 4000;

/** History text of §3.1: answers of verified steps; NOT FOUND for failed ones, plus a do-not-repeat banner. */
export function formatHistory(history: readonly Step[]): string {
  if (history.length === 0) return "(none yet)";
  const lines: string[] = [];
  const failed: string[] = [];
  history.forEach((step, i) => {
    const notFound = step.failed || !isValidAnswer(step.answer);
    lines.push(`Step ${i + 1}: Q: ${step.subQuery}`);
    lines.push(notFound ? "  A: NOT FOUND" : `  A: ${step.answer}`);
    if (notFound) failed.push(step.subQuery);
  });
  if (failed.length > 0) {
    lines.push("", "These sub-queries found nothing — do not repeat or paraphrase them:");
    for (const q of failed) lines.push(`- ${q}`);
  }
  return lines.join("\n");
}

/** Final-answer post-processing of §2.5: strip answer markers, keep the first line, drop trailing periods. */
export function cleanAnswer(reply: string): string {
  let s = reply.trim();
  for (const marker of [/^<final_answer>:/i, /^<final_answer>/i, /^final answer:/i, /^<answer>:?/i, /^answer:/i]) {
    s = s.replace(marker, "").trim();
  }
  s = (s.split(/\r?\n/)[0] ?? "").trim();
  return s.replace(/\.+$/, "").trim();
}

function planBlock(plan: SubQueryPlan): string {
  return plan.subQuery;
}

export class PromptedStrategies implements Strategies {
  readonly name: string;

  constructor(private readonly call: StructuredCallOptions) {
    this.name = call.modelId;
  }

  async decompose(input: DecomposeInput): Promise<SubQueryPlan> {
    const recovery =
      input.consecutiveFailures >= 2 ? RECOVERY_HINT_MANY : input.consecutiveFailures === 1 ? RECOVERY_HINT_ONE : "";
    const prompt = fillPrompt(DECOMPOSE_PROMPT, {
      question: input.question,
      tableHint: input.tableId
        ? `<table_hint>The answer is expected to be found in table ${input.tableId}.</table_hint>`
        : "",
      recoveryHint: recovery,
      schemaPreview: input.schemaPreview,
      history: input.priorFindings
        ? `${formatHistory(input.history)}\n\n${fillPrompt(PRIOR_FINDINGS_BLOCK, { findings: input.priorFindings })}`
        : formatHistory(input.history),
    });
    return coercePlan(await callStructured(this.call, "decompose", prompt));
  }

  async chooseRoute(profile: RouteProfile): Promise<string> {
    const p = profile.plan;
    const prompt = fillPrompt(ROUTE_PROMPT, {
      subQuery: profile.subQuery,
      operator: p.expectedOperator,
      modalities: p.requiredModalities,
      entities: p.entityMentions.length ? p.entityMentions.join(", ") : "none",
      hasSchema: profile.hasSchema ? "yes" : "no",
      global: p.needGlobalTableView ? "yes" : "no",
      uncertainty: p.uncertainty,
      schemaFeature: profile.schemaFeature,
      failedRoutes: profile.failedRoutes.length ? profile.failedRoutes.join(", ") : "none",
      historyFeature: profile.historyFeature,
    });
    return (await callStructured(this.call, "choose_route", prompt)).route;
  }

  async linkValue(input: LinkValueInput): Promise<LinkValueOutput> {
    const primary = input.primaryColumn
      ? `${input.primaryColumn.column} (${input.primaryColumn.type}); examples: ${input.primaryColumn.examples || "none"}`
      : "unknown";
    const prompt = fillPrompt(LINK_VALUE_PROMPT, {
      subQuery: input.subQuery,
      entity: input.entity,
      primaryColumn: primary,
      candidates: input.candidates.map((c, i) => `${i + 1}. [col: ${c.column}] ${c.value}`).join("\n"),
    });
    const reply = await callStructured(this.call, "link_value", prompt);
    return { matchedValue: reply.matched_value, matchedColumn: reply.matched_column, confidence: reply.confidence };
  }

  async writeSql(input: WriteSqlInput): Promise<string> {
    const hasRepairBlock = /STRICT CONSTRAINT REPAIR REQUIRED/.test(input.prompt);
    const repairNote =
      input.repair && !hasRepairBlock
        ? `\nSTRICT CONSTRAINT REPAIR REQUIRED. Rejected SQL: ${input.repair.sql}\nViolations: ${input.repair.violations.join("; ")}\nWrite a new query without relaxing the allowed columns or the value bindings.`
        : "";
    const prompt = fillPrompt(SQL_PROMPT, {
      dialect: dialectLabel(input.dialect ?? DEFAULT_SQL_DIALECT),
      constraintPrompt: input.prompt,
      repairNote,
    });
    return (await callStructured(this.call, "write_sql", prompt)).sql;
  }

  async readText(input: ReadTextInput): Promise<string> {
    const prompt = fillPrompt(TEXT_ANSWER_PROMPT, {
      question: input.question,
      subQuery: planBlock(input.plan),
      evidence: input.evidence,
    });
    return (await callStructured(this.call, "read_text", prompt)).answer.trim();
  }

  async readRows(input: ReadRowsInput): Promise<string> {
    const prompt = fillPrompt(ROWS_ANSWER_PROMPT, {
      question: input.question,
      subQuery: input.subQuery,
      schemaInfo: input.schemaInfo,
      cellInfo: input.cellInfo,
      tableContext: input.tableContext,
    });
    return (await callStructured(this.call, "read_rows", prompt)).answer.trim();
  }

  async fuse(input: FuseInput): Promise<string> {
    const prompt = fillPrompt(FUSE_PROMPT, {
      question: input.question,
      subQuery: input.subQuery,
      textEvidence: input.textEvidence,
      schemaEvidence: input.schemaEvidence,
      route: input.route,
      sqlResult: input.sqlResult || "(none)",
      markdown: input.markdown.slice(0, MARKDOWN_LIMIT),
    });
    return (await callStructured(this.call, "fuse", prompt)).answer.trim();
  }

  async verify(input: VerifyInput): Promise<VerifyOutput> {
    const prompt = fillPrompt(VERIFY_PROMPT, {
      question: input.question,
      subQuery: input.subQuery,
      route: input.route,
      answer: input.answer,
      evidence: input.evidence,
    });
    const reply = await callStructured(this.call, "verify", prompt);
    return { verdict: coerceVerdict(reply.verdict), reason: reply.reason };
  }

  async synthesize(input: SynthesizeInput): Promise<string> {
    const steps = input.steps.map((s, i) => `Step ${i + 1}: Q: ${s.subQuery}\nA: ${s.answer}`).join("\n");
    const prompt = fillPrompt(SYNTHESIZE_PROMPT, { question: input.question, steps });
    return cleanAnswer((await callStructured(this.call, "synthesize", prompt)).answer);
  }
}
