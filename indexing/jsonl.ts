/** JSON lines read back whole (passages.jsonl: bounded by the passage files, not by table sizes). */
import { readFile } from "node:fs/promises";

export class JsonlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonlError";
  }
}

export async function readJsonl<T>(path: string): Promise<T[]> {
  const text = await readFile(path, "utf8");
  const out: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== "") {
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        throw new JsonlError(`${path}: line ${out.length + 1} is not JSON — rebuild the index`);
      }
    }
    start = end + 1;
  }
  return out;
}
