/**
 * What counts as an answer (reference §2.3 step 6): non-empty after trimming and not, case-
 * insensitively, one of the placeholder strings. The executor's failure sentinel "not found" is one
 * of them, so it can never become a step's answer or the final answer.
 */

import { NOT_FOUND } from "./sql-evidence.js";

/** The literal the reference writes when nothing was found (one definition: nodes/sql-evidence.ts). */
export { NOT_FOUND };

const PLACEHOLDERS = new Set(["none", "null", "n/a", "na", "not found", "error"]);

export function isValidAnswer(answer: string | null | undefined): answer is string {
  if (typeof answer !== "string") return false;
  const t = answer.trim();
  return t !== "" && !PLACEHOLDERS.has(t.toLowerCase());
}
