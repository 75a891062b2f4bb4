/**
 * Decoding an input text file (.csv, .txt, .md, .json) with encoding detection, so a file is either
 * read correctly or refused with a message saying what it is — never turned into a garbage table.
 *
 * - Byte-order marks: UTF-8 (dropped), UTF-16 LE/BE (decoded); UTF-32 is refused.
 * - UTF-16 without a BOM is recognised by its zero bytes at every other position (warning).
 * - Binary data is refused: a known signature (zip/xlsx, PDF, gzip, OLE/.xls, PNG, JPEG), or C0
 *   control bytes in the first BINARY_SAMPLE_BYTES above BINARY_CONTROL_SHARE (invalid UTF-8) or
 *   BINARY_TEXT_CONTROL_SHARE (valid UTF-8).
 * - Bytes that are not valid UTF-8 are decoded as Windows-1252 (a superset of Latin-1, the usual
 *   culprit from spreadsheet exports), with a warning.
 * - NUL characters are removed (SQLite and most tools treat NUL as end of text), with a warning.
 */
import { readFileSync } from "node:fs";
import { isUtf8 } from "node:buffer";

/** Bytes looked at to tell text from binary. */
export const BINARY_SAMPLE_BYTES = 64 * 1024;
/** Share of C0 control bytes (other than tab, LF, VT, FF, CR, ESC) above which invalid UTF-8 is binary. */
export const BINARY_CONTROL_SHARE = 0.02;
/** … and above which even valid UTF-8 is binary (e.g. a zero-filled file). */
export const BINARY_TEXT_CONTROL_SHARE = 0.1;

/** The bytes are not text this loader can read; the message says what they look like. */
export class NotTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotTextError";
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
// Node's TextDecoder("windows-1252") decodes 0x80–0x9F as C1 controls (Latin-1), so map that row here.
const CP1252_80_9F =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeCp1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const codes = Array.from(bytes.subarray(i, i + CHUNK), (b) =>
      b >= 0x80 && b <= 0x9f ? CP1252_80_9F.charCodeAt(b - 0x80) : b,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

export interface DecodedText {
  text: string;
  /** Encoding the text was read as. */
  encoding: "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
  /** Set when the bytes were not valid UTF-8 and were decoded as Windows-1252. */
  fallback?: "windows-1252";
  /** Repairs made while decoding (UTF-16 without BOM, NULs removed, Windows-1252), one sentence each. */
  warnings: string[];
}

const startsWith = (bytes: Uint8Array, magic: number[]): boolean => magic.every((b, i) => bytes[i] === b);

/** Signatures of binary formats users plausibly rename or mis-save as text. */
const SIGNATURES: Array<{ magic: number[]; what: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: "a zip archive (an .xlsx workbook? give it the .xlsx extension)" },
  {
    magic: [0xd0, 0xcf, 0x11, 0xe0],
    what: "an OLE file (a legacy .xls or an encrypted workbook; save it as .xlsx or .csv)",
  },
  { magic: [0x25, 0x50, 0x44, 0x46], what: "a PDF document" },
  { magic: [0x1f, 0x8b], what: "gzip-compressed data (decompress it first)" },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], what: "a JPEG image" },
];

/** Which UTF-16 byte order the zero bytes of a BOM-less sample suggest, if any. */
function sniffUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > 0.4 * pairs && evenZeros < 0.05 * pairs) return "utf-16le";
  if (evenZeros > 0.4 * pairs && oddZeros < 0.05 * pairs) return "utf-16be";
  return undefined;
}

/** Share of control bytes in the sample; 0 when there are too few (under 16) to tell anything. */
function controlShare(bytes: Uint8Array): number {
  const n = Math.min(bytes.length, BINARY_SAMPLE_BYTES);
  if (n === 0) return 0;
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) controls++;
  }
  return controls < 16 ? 0 : controls / n;
}

function decodeUtf16(bytes: Uint8Array, encoding: "utf-16le" | "utf-16be"): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new NotTextError(`not valid ${encoding.toUpperCase()} text (broken surrogate pairs or an odd byte count)`);
  }
}

/** Decodes a file's bytes; throws NotTextError for binary data and unsupported encodings. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const warnings: string[] = [];
  let text: string;
  let encoding: DecodedText["encoding"];
  let fallback: DecodedText["fallback"];
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00]) || startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) {
    throw new NotTextError("UTF-32 text is not supported; re-save the file as UTF-8");
  } else if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    encoding = bytes[0] === 0xff ? "utf-16le" : "utf-16be";
    text = decodeUtf16(bytes.subarray(2), encoding);
  } else {
    const signature = SIGNATURES.find((s) => startsWith(bytes, s.magic));
    if (signature) throw new NotTextError(`not a text file: the bytes are ${signature.what}`);
    const utf16 = sniffUtf16(bytes);
    if (utf16) {
      encoding = utf16;
      text = decodeUtf16(bytes.subarray(0, bytes.length & ~1), utf16);
      warnings.push(`no byte-order mark; read as ${utf16.toUpperCase()} (detected from its zero bytes)`);
    } else {
      const share = controlShare(bytes);
      // Valid UTF-8 with a few NULs is a text file with bad cells (NULs are removed below).
      if (share > BINARY_TEXT_CONTROL_SHARE || (share > BINARY_CONTROL_SHARE && !isUtf8(bytes))) {
        throw new NotTextError(
          `looks like binary data, not text (${(share * 100).toFixed(1)}% control bytes in the first ${Math.min(bytes.length, BINARY_SAMPLE_BYTES)} bytes)`,
        );
      }
      try {
        text = utf8.decode(bytes);
        encoding = "utf-8";
      } catch {
        text = decodeCp1252(bytes);
        encoding = fallback = "windows-1252";
        warnings.push("not valid UTF-8; decoded as Windows-1252 (re-save the file as UTF-8 to silence this)");
      }
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\u0000")) {
    let nuls = 0;
    for (let i = text.indexOf("\u0000"); i >= 0; i = text.indexOf("\u0000", i + 1)) nuls++;
    text = text.replaceAll("\u0000", "");
    warnings.push(`${nuls} NUL character${nuls === 1 ? "" : "s"} removed`);
  }
  const out: DecodedText = { text, encoding, warnings };
  if (fallback) out.fallback = fallback;
  return out;
}

export function readTextFile(path: string): DecodedText {
  return decodeText(readFileSync(path));
}
