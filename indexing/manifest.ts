/**
 * manifest.json of an index directory: what was built, from what, with which settings, a build id,
 * and the size and sha256 of every other file. `verifyIndexFiles` is the fail-closed check
 * (reference §4.10, adapted to this format) and returns EVERY violation so one message tells the
 * user everything that is wrong. It has two depths:
 * - "open" (every open, cost independent of the index size): the manifest's fields, every listed
 *   file present with its recorded size, no unlisted file;
 * - "full" (`atr inspect-index`, and the build itself when it writes the checksums): the same, plus
 *   each file's sha256 and the line count of every JSON-lines file.
 */
import { createHash, randomUUID } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildSettings, Manifest } from "./types.js";

export const MANIFEST_FILE = "manifest.json";
/** Bumped whenever a file of the index changes shape; the loader refuses any other version. */
export const INDEX_FORMAT_VERSION = 2;
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

/** sha256 and line count of a file, read in chunks (index files can be larger than memory allows). */
function digestFile(path: string): { sha256: string; lines: number } {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(1 << 22);
  const fd = openSync(path, "r");
  let lines = 0;
  let last = -1;
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) {
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      last = chunk[n - 1]!;
    }
  } finally {
    closeSync(fd);
  }
  if (last !== -1 && last !== 10) lines++;
  return { sha256: hash.digest("hex"), lines };
}

/** Regular, non-hidden files of an index directory except manifest.json, sorted. */
function indexFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith(".") && e.name !== MANIFEST_FILE)
    .map((e) => e.name)
    .sort();
}

/** Writes manifest.json into `dir`, checksumming every other file there. Returns the manifest. */
export function writeManifest(
  dir: string,
  fields: Omit<Manifest, "formatVersion" | "buildId" | "checksums" | "sizes">,
): Manifest {
  const checksums: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const file of indexFiles(dir)) {
    checksums[file] = digestFile(join(dir, file)).sha256;
    sizes[file] = statSync(join(dir, file)).size;
  }
  const manifest: Manifest = {
    formatVersion: INDEX_FORMAT_VERSION,
    buildId: randomUUID(),
    ...fields,
    checksums,
    sizes,
  };
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
  for (const key of positive)
    if (!isInt(s[key]) || (s[key] as number) <= 0)
      out.push(`settings.${key} must be a positive integer, got ${JSON.stringify(s[key])}`);
  for (const key of nonNegative)
    if (!isInt(s[key]) || (s[key] as number) < 0)
      out.push(`settings.${key} must be a non-negative integer, got ${JSON.stringify(s[key])}`);
  if (isInt(s.documentChunkSize) && isInt(s.documentChunkOverlap) && s.documentChunkOverlap >= s.documentChunkSize) {
    out.push(
      `settings.documentChunkOverlap (${s.documentChunkOverlap}) must be smaller than documentChunkSize (${s.documentChunkSize})`,
    );
  }
  for (const key of ["chunkUnit", "embeddingModel"] as const) {
    if (typeof s[key] !== "string" || (s[key] as string).trim() === "")
      out.push(`settings.${key} must be a non-empty string`);
  }
  return out;
}

/** How much `verifyIndexFiles` reads: "open" = sizes only, "full" = every byte (checksums, line counts). */
export type VerifyDepth = "open" | "full";

/**
 * Checks an index directory's files against its manifest without loading anything. Returns the
 * parsed manifest (when it parses) and every violation: missing/foreign manifest, wrong format
 * version, invalid settings or counts, missing/unlisted files, sizes that differ; with depth "full"
 * also changed contents (sha256) and line counts that disagree with the manifest.
 */
export function verifyIndexFiles(
  dir: string,
  depth: VerifyDepth = "full",
): { manifest?: Manifest; violations: string[] } {
  if (!existsSync(dir)) return { violations: [`${dir} does not exist`] };
  if (!statSync(dir).isDirectory()) return { violations: [`${dir} is not a directory`] };
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path))
    return { violations: [`no ${MANIFEST_FILE}: ${dir} is not an index directory built by atr build-index`] };
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
    violations.push(
      `formatVersion is ${JSON.stringify(m.formatVersion)}, this build reads ${INDEX_FORMAT_VERSION} (index from another format or program)`,
    );
  }
  if (typeof m.createdAt !== "string" || Number.isNaN(Date.parse(m.createdAt)))
    violations.push("createdAt is missing or not a date");
  if (typeof m.buildId !== "string" || m.buildId === "") violations.push("buildId is missing");
  violations.push(...settingsViolations(m.settings));

  const counts = isObject(m.counts) ? (m.counts as Record<string, unknown>) : undefined;
  const countKeys = ["tables", "rows", "passages", "docChunks", "schemaEntries", "cellEntries", "rowEntries"] as const;
  if (!counts) violations.push("counts is missing or not an object");
  else {
    for (const key of countKeys)
      if (!isInt(counts[key]) || (counts[key] as number) < 0)
        violations.push(`counts.${key} must be a non-negative integer`);
    const s = isObject(m.settings) ? (m.settings as Record<string, unknown>) : {};
    if (isInt(counts.cellEntries) && isInt(s.cellBudget) && counts.cellEntries > s.cellBudget) {
      violations.push(`counts.cellEntries (${counts.cellEntries}) exceeds the recorded cell budget (${s.cellBudget})`);
    }
    if (isInt(counts.rowEntries) && isInt(s.rowBudget) && s.rowBudget > 0 && counts.rowEntries > s.rowBudget) {
      violations.push(`counts.rowEntries (${counts.rowEntries}) exceeds the recorded row budget (${s.rowBudget})`);
    }
  }

  const sources = m.sources as unknown;
  if (
    !isObject(sources) ||
    !Array.isArray(sources.tables) ||
    !Array.isArray(sources.documents) ||
    !Array.isArray(sources.skipped)
  ) {
    violations.push("sources must be an object with tables, documents and skipped lists");
  }

  if (m.sqlStore !== undefined) {
    const st = m.sqlStore as unknown;
    if (
      !isObject(st) ||
      st.kind !== "postgres" ||
      typeof st.url !== "string" ||
      typeof st.schema !== "string" ||
      !/^[a-z0-9_]{1,63}$/.test(st.schema)
    ) {
      violations.push('sqlStore must be {kind: "postgres", url, schema} (schema: lower-case letters, digits, _)');
    } else if (/^[^/]*\/\/[^/@]*:[^/@]*@/.test(st.url)) violations.push("sqlStore.url must not hold a password");
  }

  const sizes = isObject(m.sizes) ? (m.sizes as Record<string, unknown>) : undefined;
  if (!sizes) violations.push("sizes is missing or not an object");
  if (!isObject(m.checksums)) {
    violations.push("checksums is missing or not an object");
  } else {
    const listed = m.checksums as Record<string, unknown>;
    if (sizes)
      for (const file of Object.keys(sizes))
        if (!(file in listed)) violations.push(`sizes lists ${JSON.stringify(file)} but checksums does not`);
    for (const required of REQUIRED_FILES)
      if (!(required in listed)) violations.push(`checksums does not list ${required}`);
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
      const size = statSync(filePath).size;
      const recorded = sizes?.[file];
      if (sizes && (!isInt(recorded) || recorded !== size)) {
        violations.push(
          `${file} has ${size} bytes but the manifest records ${JSON.stringify(recorded ?? null)} (changed or truncated after the build)`,
        );
      }
      if (typeof digest !== "string") violations.push(`checksums.${file} is not a string`);
      if (depth === "open") continue;
      const { sha256, lines } = digestFile(filePath);
      if (typeof digest === "string" && sha256 !== digest)
        violations.push(`${file} does not match its checksum (changed after the build)`);
      const countKey = COUNTED_FILES[file];
      if (countKey && counts && isInt(counts[countKey]) && lines !== counts[countKey]) {
        violations.push(`${file} has ${lines} lines but counts.${countKey} is ${counts[countKey] as number}`);
      }
    }
    for (const file of indexFiles(dir))
      if (!(file in listed)) violations.push(`${file} is in the index directory but not in the manifest`);
  }
  return { manifest: m as Manifest, violations };
}

/** Verifies (at `depth`) and returns the manifest, or throws IndexVerificationError listing every violation. */
export function readVerifiedManifest(dir: string, depth: VerifyDepth = "open"): Manifest {
  const { manifest, violations } = verifyIndexFiles(dir, depth);
  if (violations.length > 0 || !manifest) throw new IndexVerificationError(dir, violations);
  return manifest;
}
