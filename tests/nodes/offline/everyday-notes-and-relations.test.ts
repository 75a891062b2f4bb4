/**
 * A staff table and a notes file about the same people (`bios.json`, named after no table), asked what only the
 * notes tell: "Which city did Lena Vogel move from?". The notes name the person beside her department ("Lena
 * Vogel works in HR") and tell the move in the next sentence, opening with a pronoun ("She moved from Hamburg
 * in 2019"). The reader had answered "HR": the stemmer cuts "moved" to "mov", so the question's "move" met
 * no word of the second sentence, and the name's words beside "HR" won. A past tense or "-ing" form now also
 * holds its base form's stem ("moved" → "move"; nodes/offline/reader.ts `baseFormStem`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../../graph/answer.js";
import { buildIndex } from "../../../indexing/build-index.js";

const STAFF = [
  "Name,Department,Start year",
  "Lena Vogel,HR,2019",
  "Omar Haddad,Finance,2017",
  "Pia Lund,Sales,2021",
].join("\n");
const BIOS = [
  { id: "b1", title: "Lena Vogel", text: "Lena Vogel works in HR. She moved from Hamburg in 2019." },
  { id: "b2", title: "Omar Haddad", text: "Omar Haddad leads the Finance team. He moved from Lyon in 2017." },
  { id: "b3", title: "Pia Lund", text: "Pia Lund works in Sales. She moved from Oslo in 2021." },
];

let root = "";
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atr-notes-"));
  mkdirSync(join(root, "tables"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "tables", "staff.csv"), `${STAFF}\n`);
  writeFileSync(join(root, "docs", "bios.json"), JSON.stringify(BIOS));
  await buildIndex({ excelDir: join(root, "tables"), docDir: join(root, "docs"), savePath: join(root, "index") });
}, 60_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const ask = async (question: string, hint: boolean) =>
  (
    await answerQuestion(
      { question, ...(hint ? { table_id: "staff" } : {}) },
      { configurable: { indexPath: join(root, "index"), backbone: "offline" } },
    )
  ).answer;

describe("a staff table and notes about its people", () => {
  it("answers where a person moved from with the city of the notes' next sentence, not the department", async () => {
    for (const hint of [false, true]) {
      expect(await ask("Which city did Lena Vogel move from?", hint)).toBe("Hamburg");
      expect(await ask("Which city did Pia Lund move from?", hint)).toBe("Oslo");
      expect(await ask("Where did Omar Haddad move from?", hint)).toBe("Lyon");
    }
  }, 60_000);
});
