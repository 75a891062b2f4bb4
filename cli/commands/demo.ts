/**
 * `atr demo` (`npm run demo`): the README's first command. Builds the index of examples/ in a
 * temporary directory (or --index_dir), answers every question of examples/questions.jsonl with the
 * offline backbone through the full graph (decompose → gather → route → primitive → verify →
 * synthesize), and prints each answer next to the gold answer with the routes requested and taken.
 * No network, no credentials, no model download.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import type { TraceDecision } from "../../graph/state.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const FLAGS: FlagSpecs = {
  examples_dir: { kind: "string", help: "corpus folder with tables/, docs/ and questions.jsonl", default: "examples" },
  index_dir: {
    kind: "string",
    help: "build (or reuse, with --reuse) the index here and keep it; default: a temporary directory, removed afterwards",
  },
  reuse: { kind: "boolean", help: "reuse --index_dir when it already holds an index" },
  router_type: { kind: "string", help: "heuristic | fixed (with --force_route)", default: "heuristic" },
  force_route: { kind: "string", help: "TEXT | SQL | RETRIEVE | HYBRID (fixed router)" },
  trace: { kind: "boolean", help: "print every attempt (sub-query, route, answer, verdict)" },
};

interface DemoQuestion {
  question_id: string;
  question: string;
  table_id?: string;
  answer: string[];
}

function readQuestions(path: string): DemoQuestion[] {
  if (!existsSync(path)) throw new UsageError(`no questions file at ${path} (expected <examples_dir>/questions.jsonl)`);
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line, i) => {
      try {
        return JSON.parse(line) as DemoQuestion;
      } catch {
        throw new UsageError(`${path}:${i + 1}: not a JSON object`);
      }
    });
}

/** Whether the answer was accepted, and the verifier's reason for the attempt that gave it (features cut). */
export function verdictLine(answer: string, verified: boolean, decisions: readonly TraceDecision[]): string {
  const giving = decisions.filter((d) => d.produced_answer.trim() === answer.trim());
  const best = giving.reduce<TraceDecision | undefined>(
    (b, d) => (!b || (d.p_correct ?? -1) > (b.p_correct ?? -1) ? d : b),
    undefined,
  );
  const reason = (best?.reason ?? "").replace(/\s*\[[^\]]*\]\s*$/, "");
  if (!best) return verified ? "accepted" : "not verified: no attempt produced an answer";
  const note = reason.replace(/^(accepted|rejected|not verified),\s*/, "");
  return `${verified ? "accepted" : "not verified"} (${best.effective_route}, attempt ${best.attempt}): ${note}`;
}

export const command: Command = {
  summary: "answer the example questions offline (builds the examples index; no network)",
  help: () =>
    [
      "Usage: atr demo [flags]",
      "",
      "Builds the index of examples/ (tables/ and docs/), answers every question of",
      "examples/questions.jsonl with the offline backbone through the ATR graph, and prints each",
      "answer, the gold answer (✓/✗) and the routes requested → taken for every attempt.",
      "",
      "Flags:",
      formatFlagHelp(FLAGS),
      "",
      "Examples:",
      "  npm run demo",
      "  atr demo --trace",
      "  atr demo --router_type fixed --force_route TEXT",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const examples = resolve(process.cwd(), flags.examples_dir as string);
    const examplesDir = existsSync(examples) ? examples : resolve(ROOT, flags.examples_dir as string);
    const questions = readQuestions(join(examplesDir, "questions.jsonl"));
    const keep = typeof flags.index_dir === "string" && flags.index_dir !== "";
    const indexDir = keep
      ? resolve(flags.index_dir as string)
      : join(mkdtempSync(join(tmpdir(), "atr-demo-")), "index");

    const [{ buildIndex }, { answerQuestion }, { wtqCorrect }, { closeCachedIndexes }, { closeResources }] =
      await Promise.all([
        import("../../indexing/build-index.js"),
        import("../../graph/answer.js"),
        import("../../evals/scoring/wtq.js"),
        import("../../graph/resources.js"),
        import("../../graph/resources.js"),
      ]);
    // WTQ denotation, also accepting a number written with thousands separators ("212,000" = 212000).
    const matches = (gold: string[], answer: string) =>
      wtqCorrect({ answer: gold }, answer) || wtqCorrect({ answer: gold }, answer.replace(/(\d),(?=\d{3}\b)/g, "$1"));
    try {
      const started = performance.now();
      if (!(flags.reuse && existsSync(join(indexDir, "manifest.json")))) {
        const built = await buildIndex({
          excelDir: join(examplesDir, "tables"),
          docDir: join(examplesDir, "docs"),
          savePath: indexDir,
        });
        const c = built.manifest.counts;
        console.log(
          `Index of ${examplesDir}: ${c.tables} tables, ${c.passages} passages (${Math.round(performance.now() - started)} ms) → ${indexDir}`,
        );
      }
      console.log(`Answering ${questions.length} questions offline (backbone offline, router ${flags.router_type}):\n`);
      let right = 0;
      const times: number[] = [];
      for (const q of questions) {
        const t0 = performance.now();
        const result = await answerQuestion(
          { question: q.question, question_id: q.question_id, ...(q.table_id ? { table_id: q.table_id } : {}) },
          {
            configurable: {
              indexPath: indexDir,
              backbone: "offline",
              routerType: flags.router_type as never,
              ...(flags.force_route ? { forceRoute: flags.force_route as never } : {}),
            },
          },
        );
        times.push(performance.now() - t0);
        const ok = matches(q.answer, result.answer);
        if (ok) right++;
        // Per sub-query: requested → taken route of each attempt; ✓ marks the accepted attempt
        // (alternative SQL plans are candidates of their attempt, not routes).
        const decisions = result.trace.verifier_decisions;
        const routes = decisions
          .filter((d) => !d.alternative)
          .map(
            (d) =>
              `${d.requested_route === d.effective_route ? d.effective_route : `${d.requested_route}→${d.effective_route}`}${d.accepted ? "✓" : d.verdict === 0 ? "✗" : "?"}`,
          )
          .join(" ");
        console.log(`${ok ? "✓" : "✗"} ${q.question_id}  ${q.question}`);
        console.log(`      answer: ${result.answer}    gold: ${q.answer.join(" | ")}    routes: ${routes || "(none)"}`);
        console.log(`      ${verdictLine(result.answer, result.answerVerified, decisions)}`);
        if (flags.trace) {
          for (const d of decisions)
            console.log(
              `        · attempt ${d.attempt} [${d.requested_route}→${d.effective_route}] ${d.sub_query} ⇒ ${d.produced_answer} (verdict ${d.verdict})`,
            );
        }
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? 0;
      console.log(
        `\n${right}/${questions.length} correct (WTQ denotation match; 212,000 = 212000); median ${median.toFixed(0)} ms per question.`,
      );
      console.log(
        "Routes: attempts as requested→taken route, ✓ accepted by the verifier, ? plausible but not verified, ✗ rejected by a check (each not accepted attempt is re-routed).",
      );
      console.log(
        "Accepted: the verifier's P(correct) reached its threshold; not verified: the best answer found, below it.",
      );
      return 0;
    } finally {
      await closeResources();
      closeCachedIndexes();
      if (!keep) rmSync(dirname(indexDir), { recursive: true, force: true });
    }
  },
};
