/**
 * Question files of a batch run (reference §1.1): a JSON array (`.json`) or JSON lines (`.jsonl`),
 * one object per question with at least `question`. Every field is copied through to the output.
 * A question is identified by `question_id`, or by its text when it has none (`questionKey`).
 */
import { readFileSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";

export type QuestionRecord = Record<string, unknown> & { question: string };

export class DatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetError";
  }
}

/** The resume key: `question_id` when present (any JSON scalar), else the question text. */
export function questionKey(record: Record<string, unknown>): string {
  const id = record.question_id;
  if (id !== undefined && id !== null && String(id) !== "") return `id:${String(id)}`;
  return `q:${String(record.question ?? "")}`;
}

/** Reads and validates a question file; errors name the file and the line or item at fault. */
export function loadQuestions(path: string): QuestionRecord[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new DatasetError(`cannot read question file ${path}: ${(error as Error).message}`);
  }
  const records: unknown[] = [];
  const isArray = extname(path).toLowerCase() === ".json" || /^\s*\[/.test(text);
  if (isArray) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new DatasetError(
        `${path} is not valid JSON (${(error as Error).message}); use a JSON array or JSON lines (.jsonl)`,
      );
    }
    if (!Array.isArray(parsed)) throw new DatasetError(`${path}: expected a JSON array of question objects`);
    records.push(...parsed);
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        records.push(JSON.parse(line));
      } catch (error) {
        throw new DatasetError(`${path} line ${i + 1} is not valid JSON: ${(error as Error).message}`);
      }
    });
  }
  return records.map((r, i) => {
    if (!r || typeof r !== "object" || Array.isArray(r))
      throw new DatasetError(`${path} item ${i + 1}: expected an object`);
    const q = (r as Record<string, unknown>).question;
    if (typeof q !== "string" || q.trim() === "") {
      throw new DatasetError(`${path} item ${i + 1}: field "question" is missing or empty`);
    }
    return r as QuestionRecord;
  });
}

/**
 * Dataset and split names for run metadata, guessed from the shared layout
 * `<dataset>/<split>/questions.jsonl` (split = dev, train, test, …); else the folder (for a file
 * named questions.*) or the file stem is the dataset and the split is "".
 */
export function datasetOf(path: string): { dataset: string; split: string } {
  const abs = resolve(path);
  const stem = basename(abs, extname(abs));
  const dir = dirname(abs);
  if (KNOWN_SPLITS.has(basename(dir).toLowerCase())) return { dataset: basename(dirname(dir)), split: basename(dir) };
  return { dataset: stem === "questions" ? basename(dir) : stem, split: "" };
}

const KNOWN_SPLITS = new Set(["dev", "train", "test", "validation", "valid", "val", "heldout", "held-out", "held_out"]);
