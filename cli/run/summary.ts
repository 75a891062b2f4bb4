/** `atr run`'s closing lines: the counts and repairs on stderr, the results file's path on stdout. */
import type { RunBatchSummary } from "../../evals/runner.js";

/** Prints the batch's summary; true when every question answered failed (the run itself is wrong). */
export function printSummary(summary: RunBatchSummary, outputPath: string): boolean {
  const notes = [
    summary.repairedBytes ? `repaired a truncated last line (${summary.repairedBytes} bytes)` : "",
    summary.droppedBadLines ? `dropped ${summary.droppedBadLines} unparseable line(s)` : "",
    summary.droppedDuplicates ? `dropped ${summary.droppedDuplicates} superseded record(s)` : "",
    summary.foreignRecords ? `kept ${summary.foreignRecords} record(s) of questions not in the input at the end` : "",
  ].filter(Boolean);
  console.error(
    `atr run: ${summary.answered} answered, ${summary.skipped} already done, ${summary.failed} failed · ` +
      `LLM calls ${summary.llmCalls} · tokens ${summary.tokens}${notes.length ? ` · ${notes.join(" · ")}` : ""}`,
  );
  console.log(outputPath);
  // Every question failed: something is wrong with the run itself (index, backbone, credentials), not one question.
  const allFailed = summary.answered > 0 && summary.failed === summary.answered;
  if (allFailed)
    console.error(
      `atr run: every question failed (${summary.failed} error records); see the "error" field of ${outputPath}`,
    );
  return allFailed;
}
