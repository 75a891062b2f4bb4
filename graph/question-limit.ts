/**
 * The question-length limit (`maxQuestionChars`): a question over it is refused before any work,
 * by the graph's entry and by `answerQuestion`.
 */
import type { Configuration } from "./configuration.js";

export class QuestionTooLongError extends Error {
  constructor(length: number, limit: number) {
    super(
      `question is ${length} characters long, over the limit of ${limit} (maxQuestionChars, --max_question_chars); shorten it or raise the limit`,
    );
    this.name = "QuestionTooLongError";
  }
}

/** Refuses a question over `maxQuestionChars` before any work (answering time grows faster than its length). */
export function checkQuestionLength(question: unknown, c: Pick<Configuration, "maxQuestionChars">): void {
  const length = typeof question === "string" ? question.length : 0;
  if (length > c.maxQuestionChars) throw new QuestionTooLongError(length, c.maxQuestionChars);
}
