/**
 * A JSON model shipped in nodes/offline/models/ (built by a script under training/), read once on
 * first use. A missing file means "no model" (callers fall back to their rules); a file that is
 * not valid JSON, or that its `check` refuses, is an error naming it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

export class ModelFileError extends Error {
  constructor(path: string, cause: string) {
    super(`${path} is not a valid model file (${cause}); rebuild it with its training/ script or delete it`);
    this.name = "ModelFileError";
  }
}

export class ModelFile<T> {
  private value: T | null | undefined;

  /**
   * `name`: file name inside nodes/offline/models/ (or an absolute path: a model of another room); `check` validates the parsed JSON (throwing
   * ModelFileError for the path it is given) and may normalise it.
   */
  constructor(
    private readonly name: string,
    private readonly check?: (value: unknown, path: string) => T,
  ) {}

  /** The model, or null when the file does not exist. */
  get(): T | null {
    if (this.value !== undefined) return this.value;
    const path = isAbsolute(this.name) ? this.name : join(dirname(fileURLToPath(import.meta.url)), "models", this.name);
    if (!existsSync(path)) return (this.value = null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new ModelFileError(path, (error as Error).message);
    }
    return (this.value = this.check ? this.check(parsed, path) : (parsed as T));
  }

  /** Replaces the model (null = none; undefined = read the file again) — tests and training scripts. */
  set(value: T | null | undefined): void {
    this.value = value;
  }
}
