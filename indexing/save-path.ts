/**
 * Safety of `--save_path`: what a build may replace, and the leftovers of interrupted builds.
 *
 * - A build replaces an existing `--save_path` only when it is empty or PROVABLY an index written by
 *   `atr build-index`: a manifest.json with an integer `formatVersion` and a `checksums` map listing
 *   tables.sqlite and passages.jsonl, every file of the directory listed there, every checksum
 *   matching. Anything else (a folder that merely has some manifest.json, an index edited by hand, a
 *   symbolic link, a file) is refused and nothing is touched.
 * - A save path that is, or contains, an input folder is refused (replacing it would delete the input).
 * - Builds write `<save_path>.tmp-<pid>` holding the marker file BUILD_MARKER; the swap puts the old
 *   index aside as `<save_path>.old-<pid>`. A later build of the same save path removes a marked temp
 *   directory whose pid is no longer alive, and an `.old-<pid>` left by a dead build (restoring it when
 *   the save path itself is missing). Unmarked, live or unproven leftovers are only reported.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve, isAbsolute } from "node:path";
import { MANIFEST_FILE, REQUIRED_FILES, sha256 } from "./manifest.js";

/** Marker written first into a build's temp directory: what makes a leftover safe to delete. */
export const BUILD_MARKER = ".atr-build-in-progress";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Why `dir` (which exists) may NOT be replaced by a build, or undefined when it may: it is empty, or
 * every check of the file comment passes. Hashes the index files, so it costs one read of the index.
 */
export function replaceRefusal(dir: string): string | undefined {
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink()) return "it is a symbolic link (give the real directory, or remove the link yourself)";
  if (!stats.isDirectory()) return "it is a file, not a directory";
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.length === 0) return undefined;
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!entries.some((e) => e.name === MANIFEST_FILE && e.isFile()))
    return `it is not an index directory (no ${MANIFEST_FILE})`;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    return `its ${MANIFEST_FILE} is not JSON, so it is not an index written by atr build-index`;
  }
  if (!isObject(manifest) || !Number.isInteger(manifest.formatVersion) || !isObject(manifest.checksums)) {
    return `its ${MANIFEST_FILE} has no formatVersion and checksums, so it is not an index written by atr build-index`;
  }
  const checksums = manifest.checksums as Record<string, unknown>;
  const missing = REQUIRED_FILES.filter((f) => !(f in checksums));
  if (missing.length)
    return `its ${MANIFEST_FILE} does not list ${missing.join(", ")}, so it is not an index written by atr build-index`;
  for (const entry of entries) {
    if (entry.name === MANIFEST_FILE || entry.name === BUILD_MARKER) continue;
    if (!entry.isFile() || !(entry.name in checksums)) return `it holds ${entry.name}, which is not part of the index`;
  }
  for (const [file, digest] of Object.entries(checksums)) {
    if (file === "" || /[/\\]/.test(file) || file.startsWith("."))
      return `its ${MANIFEST_FILE} lists an invalid file name ${JSON.stringify(file)}`;
    const path = join(dir, file);
    if (!existsSync(path)) return `${file} listed in its ${MANIFEST_FILE} is missing`;
    if (sha256(readFileSync(path)) !== digest) return `${file} does not match its checksum (changed since the build)`;
  }
  return undefined;
}

/** Real path of `path` even when it does not exist yet (resolved through its nearest existing ancestor). */
function realPathOf(path: string): string {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realPathOf(parent), basename(abs));
}

const inside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/** Why building into `savePath` is refused before anything is read, or undefined. */
export function savePathRefusal(savePath: string, inputs: Array<{ flag: string; dir: string }>): string | undefined {
  const target = realPathOf(savePath);
  for (const { flag, dir } of inputs) {
    const input = realPathOf(dir);
    if (inside(input, target)) {
      return `refusing --save_path ${savePath}: it ${input === target ? "is" : "contains"} ${flag} ${dir}, and replacing the index would delete the input; choose a save path outside the input folders`;
    }
  }
  if (existsSync(savePath) || lstatSafe(savePath)) {
    const why = replaceRefusal(savePath);
    if (why)
      return `refusing to replace --save_path ${savePath}: ${why}. Nothing was deleted; choose another --save_path or remove it yourself`;
  }
  return undefined;
}

function lstatSafe(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what interrupted builds of `savePath` left beside it (see the file comment); returns one
 * sentence per leftover found, removed or kept.
 */
export function cleanStaleBuilds(savePath: string): string[] {
  const target = resolve(savePath);
  const parent = dirname(target);
  if (!existsSync(parent)) return [];
  const base = basename(target);
  const notes: string[] = [];
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(tmp|old)-(\\d+)$`);
  for (const name of readdirSync(parent)) {
    const match = pattern.exec(name);
    if (!match) continue;
    const kind = match[1]!;
    const pid = Number(match[2]);
    const path = join(parent, name);
    if (pid === process.pid || pidAlive(pid)) {
      notes.push(`${path} belongs to a build that is still running (pid ${pid}); left alone`);
      continue;
    }
    if (kind === "tmp") {
      if (existsSync(join(path, BUILD_MARKER))) {
        rmSync(path, { recursive: true, force: true });
        notes.push(`removed ${path}, left by an interrupted build (pid ${pid} is gone)`);
      } else
        notes.push(
          `${path} looks like a leftover build but has no ${BUILD_MARKER} marker; left alone (remove it yourself)`,
        );
      continue;
    }
    const why = replaceRefusal(path);
    if (why) {
      notes.push(`${path} looks like a previous index put aside by an interrupted build, but ${why}; left alone`);
    } else if (!existsSync(target)) {
      renameSync(path, target);
      notes.push(`restored ${target} from ${path} (a build was interrupted while swapping indexes)`);
    } else {
      rmSync(path, { recursive: true, force: true });
      notes.push(`removed ${path}, the previous index an interrupted build had put aside`);
    }
  }
  return notes;
}

/**
 * Until the returned function is called, SIGINT/SIGTERM/SIGHUP remove `tmp` and then take their usual
 * effect (the signal is raised again when no one else listens for it).
 */
export function removeOnSignal(tmp: string): () => void {
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  const handler = (signal: NodeJS.Signals): void => {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    detach();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const detach = (): void => {
    for (const s of signals) process.off(s, handler);
  };
  for (const s of signals) process.on(s, handler);
  return detach;
}
