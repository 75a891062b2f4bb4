/**
 * manifest.json of an index directory: what was built, from what, with which settings, and a sha256
 * of every other file. `verifyIndexFiles` is the fail-closed check (reference §4.10, adapted to this
 * format): it reads only the manifest and hashes files — nothing heavy — and returns EVERY violation
 * so one message tells the user everything that is wrong.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildSettings, Manifest } from "./types.js";

export const MANIFEST_FILE = "manifest.json";
/** Bumped whenever a file of the index changes shape; the loader refuses any other version. */
export const INDEX_FORMAT_VERSION = 1;
/** The loaded passages, one JSON Passage per line, in load order. */
export const PASSAGES_FILE = "passages.jsonl";
/** Files every index has, whatever the views write. */
export const REQUIRED_FILES = ["tables.sqlite", PASSAGES_FILE] as const;
/** JSON-lines files whose line count must equal a manifest count. */
const COUNTED_FILES: Record<string, keyof Manifest["counts"]> = {
  "passages.jsonl": "passages",
  "docs.jsonl": "docChunks",
  "schema.jsonl": "schemaEntries",
  "cells.jsonl": "cellEntries",
  "rows.jsonl": "rowEntries",
};

export class IndexVerificationError extends Error {
  constructor(
    readonly dir: string,
    readonly violations: string[],
  ) {
    super(
      `index at ${dir} cannot be used (${violations.length} problem${violations.length === 1 ? "" : "s"}):\n` +
        violations.map((v) => `  - ${v}`).join("\n") +
        "\nRebuild every component with `atr build-index`.",
    );
    this.name = "IndexVerificationError";
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) n++;
  return n;
}

/** Regular, non-hidden files of an index directory except manifest.json, sorted. */
function indexFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith(".") && e.name !== MANIFEST_FILE)
    .map((e) => e.name)
    .sort();
}

/** Writes manifest.json into `dir`, checksumming every other file there. Returns the manifest. */
export function writeManifest(dir: string, fields: Omit<Manifest, "formatVersion" | "checksums">): Manifest {
  const checksums: Record<string, string> = {};
  for (const file of indexFiles(dir)) checksums[file] = sha256(readFileSync(join(dir, file)));
  const manifest: Manifest = { formatVersion: INDEX_FORMAT_VERSION, ...fields, checksums };
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Violations of the build settings (empty = the loader can honour them). */
export function settingsViolations(settings: unknown): string[] {
  if (!isObject(settings)) return ["settings is missing or not an object"];
  const s = settings as Partial<Record<keyof BuildSettings, unknown>>;
  const out: string[] = [];
  const positive = ["documentChunkSize", "cellBudget", "cellPerTableQuota", "embeddingDim"] as const;
  const nonNegative = ["documentChunkOverlap", "rowBudget", "rowPerTableQuota", "maxRowChars"] as const;
  for (const key of positive) if (!isInt(s[key]) || (s[key] as number) <= 0) out.push(`settings.${key} must be a positive integer, got ${JSON.stringify(s[key])}`);
  for (const key of nonNegative) if (!isInt(s[key]) || (s[key] as number) < 0) out.push(`settings.${key} must be a non-negative integer, got ${JSON.stringify(s[key])}`);
  if (isInt(s.documentChunkSize) && isInt(s.documentChunkOverlap) && s.documentChunkOverlap >= s.documentChunkSize) {
    out.push(`settings.documentChunkOverlap (${s.documentChunkOverlap}) must be smaller than documentChunkSize (${s.documentChunkSize})`);
  }
  for (const key of ["chunkUnit", "embeddingModel"] as const) {
    if (typeof s[key] !== "string" || (s[key] as string).trim() === "") out.push(`settings.${key} must be a non-empty string`);
  }
  return out;
}

/**
 * Checks an index directory without loading anything heavy. Returns the parsed manifest (when it
 * parses) and every violation: missing/foreign manifest, wrong format version, invalid settings or
 * counts, missing/unlisted/changed files, line counts that disagree with the manifest.
 */
export function verifyIndexFiles(dir: string): { manifest?: Manifest; violations: string[] } {
  if (!existsSync(dir)) return { violations: [`${dir} does not exist`] };
  if (!statSync(dir).isDirectory()) return { violations: [`${dir} is not a directory`] };
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return { violations: [`no ${MANIFEST_FILE}: ${dir} is not an index directory built by atr build-index`] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { violations: [`${MANIFEST_FILE} is not valid JSON (${(error as Error).message})`] };
  }
  if (!isObject(raw)) return { violations: [`${MANIFEST_FILE} is not a JSON object`] };
  const m = raw as Partial<Manifest> & Record<string, unknown>;
  const violations: string[] = [];
  if (m.formatVersion !== INDEX_FORMAT_VERSION) {
    violations.push(`formatVersion is ${JSON.stringify(m.formatVersion)}, this build reads ${INDEX_FORMAT_VERSION} (index from another format or program)`);
  }
  if (typeof m.createdAt !== "string" || Number.isNaN(Date.parse(m.createdAt))) violations.push("createdAt is missing or not a date");
  violations.push(...settingsViolations(m.settings));

  const counts = isObject(m.counts) ? (m.counts as Record<string, unknown>) : undefined;
  const countKeys = ["tables", "rows", "passages", "docChunks", "schemaEntries", "cellEntries", "rowEntries"] as const;
  if (!counts) violations.push("counts is missing or not an object");
  else {
    for (const key of countKeys) if (!isInt(counts[key]) || (counts[key] as number) < 0) violations.push(`counts.${key} must be a non-negative integer`);
    const s = isObject(m.settings) ? (m.settings as Record<string, unknown>) : {};
    if (isInt(counts.cellEntries) && isInt(s.cellBudget) && counts.cellEntries > s.cellBudget) {
      violations.push(`counts.cellEntries (${counts.cellEntries}) exceeds the recorded cell budget (${s.cellBudget})`);
    }
    if (isInt(counts.rowEntries) && isInt(s.rowBudget) && s.rowBudget > 0 && counts.rowEntries > s.rowBudget) {
      violations.push(`counts.rowEntries (${counts.rowEntries}) exceeds the recorded row budget (${s.rowBudget})`);
    }
    if (isInt(counts.rows) && counts.rows > 0 && counts.rowEntries === 0) violations.push("tables have rows but counts.rowEntries is 0");
  }

  const sources = m.sources as unknown;
  if (!isObject(sources) || !Array.isArray(sources.tables) || !Array.isArray(sources.documents) || !Array.isArray(sources.skipped)) {
    violations.push("sources must be an object with tables, documents and skipped lists");
  }

  if (!isObject(m.checksums)) {
    violations.push("checksums is missing or not an object");
  } else {
    const listed = m.checksums as Record<string, unknown>;
    for (const required of REQUIRED_FILES) if (!(required in listed)) violations.push(`checksums does not list ${required}`);
    for (const [file, digest] of Object.entries(listed)) {
      // Names come from an untrusted file: only plain names inside the directory are looked at.
      if (file === "" || file.startsWith(".") || /[/\\]/.test(file) || file === MANIFEST_FILE) {
        violations.push(`checksums lists an invalid file name ${JSON.stringify(file)}`);
        continue;
      }
      const filePath = join(dir, file);
      if (!existsSync(filePath)) {
        violations.push(`${file} is listed in the manifest but missing`);
        continue;
      }
      const bytes = readFileSync(filePath);
      if (typeof digest !== "string" || sha256(bytes) !== digest) violations.push(`${file} does not match its checksum (changed after the build)`);
      const countKey = COUNTED_FILES[file];
      if (countKey && counts && isInt(counts[countKey]) && countLines(bytes) !== counts[countKey]) {
        violations.push(`${file} has ${countLines(bytes)} lines but counts.${countKey} is ${counts[countKey] as number}`);
      }
    }
    for (const file of indexFiles(dir)) if (!(file in listed)) violations.push(`${file} is in the index directory but not in the manifest`);
  }
  return { manifest: m as Manifest, violations };
}

/** Verifies and returns the manifest, or throws IndexVerificationError listing every violation. */
export function readVerifiedManifest(dir: string): Manifest {
  const { manifest, violations } = verifyIndexFiles(dir);
  if (violations.length > 0 || !manifest) throw new IndexVerificationError(dir, violations);
  return manifest;
}
