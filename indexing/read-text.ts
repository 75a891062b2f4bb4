/**
 * Reading a text source file with encoding detection. Files are expected to be UTF-8 (a BOM is
 * allowed). Bytes that are not valid UTF-8 are decoded as Windows-1252 (a superset of Latin-1, the
 * usual culprit from spreadsheet exports) and the caller gets a warning naming the file, so the build
 * goes on with readable text instead of U+FFFD garbage or a skipped file.
 */
import { readFileSync } from "node:fs";

const utf8 = new TextDecoder("utf-8", { fatal: true });
// Node's TextDecoder("windows-1252") decodes 0x80–0x9F as C1 controls (Latin-1), so map that row here.
const CP1252_80_9F =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeCp1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const codes = Array.from(bytes.subarray(i, i + CHUNK), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_80_9F.charCodeAt(b - 0x80) : b));
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

export interface DecodedText {
  text: string;
  /** Set when the bytes were not valid UTF-8 and were decoded as Windows-1252. */
  fallback?: "windows-1252";
}

export function decodeText(bytes: Uint8Array): DecodedText {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { text: decodeCp1252(bytes), fallback: "windows-1252" };
  }
}

export function readTextFile(path: string): DecodedText {
  return decodeText(readFileSync(path));
}
