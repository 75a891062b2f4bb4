/**
 * Parsing of the evidence texts the graph hands to the offline reader, fusion and verifier:
 * `[Source: file]` chunk blocks (passages and table-chunk markdown), `[Table <id>, row <idx>]` row
 * blocks with indented `col: value` lines, sentences, and word tokens with light stemming.
 */
import { contentWords } from "../../text/tokenise.js";
import { stem } from "../../text/stem.js";
import { boundedMemo } from "../../indexing/bounded-memo.js";

export interface EvidenceBlock {
  source: string;
  text: string;
}

export interface EvidenceRow {
  tableId: string;
  rowIdx: number;
  /** Cells in column order (markdown rows keep empty cells; row blocks list only non-empty ones). */
  cells: Array<{ column: string; value: string }>;
}

const SOURCE_LINE = /^\[Source:\s*(.*?)\]\s*$/;
const ROW_LINE = /^\[Table\s+(.+?),\s*row\s+(\d+)\]\s*$/;

/** Splits `[Source: …]` blocks; text before the first header is one block with source "". */
export function parseBlocks(evidence: string): EvidenceBlock[] {
  const blocks: EvidenceBlock[] = [];
  let current: EvidenceBlock | undefined;
  for (const line of evidence.split("\n")) {
    const m = SOURCE_LINE.exec(line.trim());
    if (m) {
      current = { source: m[1]!, text: "" };
      blocks.push(current);
      continue;
    }
    if (!current) {
      current = { source: "", text: "" };
      blocks.push(current);
    }
    current.text += (current.text ? "\n" : "") + line;
  }
  for (const b of blocks) b.text = b.text.replace(/^\s*File name:[^\n]*\n?/, "").trim();
  return blocks.filter((b) => b.text !== "");
}

function splitMarkdownRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const cells: string[] = [];
  let cur = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\" && inner[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (ch === "|") {
      cells.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  cells.push(cur.trim());
  return cells;
}

/** Rows of markdown tables (`| a | b |` lines after a header and a `---` separator). */
export function parseMarkdownRows(text: string, tableId = ""): EvidenceRow[] {
  const rows: EvidenceRow[] = [];
  const lines = text.split("\n");
  let header: string[] | undefined;
  let name = tableId;
  let idx = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const nm = /^Table name:\s*(.+)$/.exec(line);
    if (nm) {
      name = nm[1]!.trim();
      header = undefined;
      continue;
    }
    if (!line.startsWith("|")) {
      header = undefined;
      continue;
    }
    const cells = splitMarkdownRow(line);
    const next = lines[i + 1]?.trim() ?? "";
    if (!header && /^\|\s*:?-{2,}/.test(next)) {
      header = cells;
      idx = 0;
      i++;
      continue;
    }
    if (!header) continue;
    rows.push({
      tableId: name,
      rowIdx: idx++,
      cells: header.map((column, c) => ({ column, value: cells[c] ?? "" })),
    });
  }
  return rows;
}

/** `[Table <id>, row <idx>]` blocks (reference §6.3 step 5), else markdown table rows. */
export function parseRows(tableContext: string): EvidenceRow[] {
  const rows = rowBlockRows(tableContext);
  if (rows.length > 0) return rows;
  const out: EvidenceRow[] = [];
  for (const block of parseBlocks(tableContext)) out.push(...parseMarkdownRows(block.text, block.source));
  return out;
}

/** The `[Table …, row …]` rows of a text (a key: value line per cell), without the markdown fallback of parseRows. */
export function rowBlockRows(tableContext: string): EvidenceRow[] {
  const rows: EvidenceRow[] = [];
  let current: EvidenceRow | undefined;
  for (const raw of tableContext.split("\n")) {
    const line = raw.trim();
    const m = ROW_LINE.exec(line);
    if (m) {
      current = { tableId: m[1]!, rowIdx: Number(m[2]), cells: [] };
      rows.push(current);
      continue;
    }
    if (current && line !== "") {
      const kv = /^(.+?):\s(.*)$/.exec(line) ?? /^(.+?):$/.exec(line);
      if (kv) current.cells.push({ column: kv[1]!.trim(), value: (kv[2] ?? "").trim() });
      else if (current.cells.length > 0) current.cells[current.cells.length - 1]!.value += ` ${line}`;
    }
  }
  return rows;
}

/**
 * A sentence ends at ". " before a capital or digit, or at a tokenised " . " (HybridQA text), but not
 * after an initial or a title: "W. C. Handy", "W.P . Kinsella", "Dr. Ames" are one name.
 */
const SENTENCE_BREAK =
  /(?<=[.!?])(?<!(?:^|\s)(?:\p{Lu}(?:\.\p{Lu})*\s?|Mr|Mrs|Ms|Dr|St)\.)\s+(?=["“(]?[\p{Lu}0-9])|(?<!(?:^|\s)\p{Lu}(?:\.\p{Lu})*)\s+[.!?]\s+(?=\S)/u;

/** Sentences of a passage: ". " / " . " boundaries (HybridQA text is tokenised), newlines. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n+/)) {
    const parts = para.split(SENTENCE_BREAK);
    for (const p of parts) {
      const s = p.trim();
      if (s !== "") out.push(s);
    }
  }
  return out;
}

/** Words whose answers are written with another word in passages ("birth" ↔ "born"). */
const SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    birth: ["born"],
    born: ["birth"],
    death: ["died", "die"],
    die: ["death", "died"],
    died: ["death"],
    found: ["establish", "formed", "form", "creat"],
    establish: ["found", "formed", "form"],
    open: ["inaugurat"],
    build: ["built", "construct"],
    built: ["construct"],
    population: ["inhabitant", "resident", "people"],
    locat: ["in", "situat", "based"],
    headquarter: ["based", "headquartered"],
    release: ["releas", "publish"],
    capacity: ["seat", "spectator", "hold"],
    enrollment: ["student", "enrol"],
    height: ["tall"],
    nickname: ["known"],
  }),
);

/**
 * The stems of a text, remembered: a question stems the same cells, rows and sentences again and
 * again (each reader, the fuser and the verifier, for every attempt) — ~6 calls per distinct text on
 * WTQ dev. Stored as a frozen list; every caller gets its own Set.
 */
const rememberedKeyStems = boundedMemo(4096, (text: string): readonly string[] => {
  const out = new Set<string>();
  for (const w of contentWords(text)) {
    const s = stem(w);
    out.add(s);
    for (const syn of SYNONYMS.get(s) ?? []) out.add(stem(syn));
  }
  return Object.freeze([...out]);
});

/** Stemmed content words of a text, each with its synonyms' stems. */
export function keyStems(text: string): Set<string> {
  return new Set(rememberedKeyStems(text));
}

/** A sub-query without the "(columns: …)" note the offline decomposer appends for retrieval. */
export function withoutColumnNote(subQuery: string): string {
  // (Column names may hold brackets themselves: "(columns: col_1, Increase (Decrease))".)
  return subQuery.replace(/\s*\(columns:(?:[^()]|\([^()]*\))*\)\s*$/, "").trim();
}

/** The bridge note "(about: A; B)" (bridge.ts); a title may hold parentheses ("Steve King (Colorado legislator)"). */
const ABOUT_NOTE = /\s*\(about:\s*((?:[^()]|\([^()]*\))*)\)/;

/** The passage titles a bridged sub-query names, as written. */
export function aboutTitles(subQuery: string): string[] {
  const about = ABOUT_NOTE.exec(subQuery)?.[1] ?? "";
  return about
    .split(";")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** The sub-query without its bridge note: the titles name passages, they are not question words. */
export function withoutAboutNote(subQuery: string): string {
  return subQuery.replace(ABOUT_NOTE, " ").replace(/\s+/g, " ").trim();
}

/** What the sub-query asks, without the notes the offline decomposer appends ("(about: …)", "(columns: …)"). */
export function questionPart(subQuery: string): string {
  return withoutAboutNote(withoutColumnNote(subQuery));
}

/** Stemmed content words in order. */
export function stemsOf(text: string): string[] {
  return contentWords(text).map(stem);
}
