/** `atr doctor`: report the environment — Node, native modules, which vector backend answers searches. */
import { createRequire } from "node:module";
import { formatFlagHelp, parseArgs, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";

const FLAGS: FlagSpecs = {};
const require = createRequire(import.meta.url);

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The CLI cannot work without it. */
  required: boolean;
}

function version(pkg: string): string {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return "?";
  }
}

function probe(name: string, required: boolean, fn: () => string): Check {
  try {
    return { name, ok: true, detail: fn(), required };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
    return { name, ok: false, detail: `not usable: ${message}`, required };
  }
}

export async function runChecks(): Promise<Check[]> {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  const nodeOk = (major === 20 && minor >= 19) || major >= 22;
  const checks: Check[] = [
    {
      name: "node",
      ok: nodeOk,
      detail: `${process.versions.node}${nodeOk ? "" : " (needs >=20.19 <21 or >=22)"}`,
      required: true,
    },
    probe("better-sqlite3", true, () => {
      const Database = require("better-sqlite3") as typeof import("better-sqlite3");
      const db = new Database(":memory:");
      const v = db.prepare("SELECT sqlite_version()").pluck().get() as string;
      db.close();
      return `${version("better-sqlite3")} (SQLite ${v})`;
    }),
    probe("@e965/xlsx", true, () => {
      require("@e965/xlsx");
      return version("@e965/xlsx");
    }),
    probe("onnxruntime-node", false, () => {
      const ort = require("onnxruntime-node") as { InferenceSession?: unknown };
      if (!ort.InferenceSession) throw new Error("no InferenceSession export");
      return `${version("onnxruntime-node")} (local ONNX models: embedder, reranker, learned router)`;
    }),
    probe("faiss-node", false, () => {
      const faiss = require("faiss-node") as { IndexFlatIP: new (d: number) => { add(v: number[]): void } };
      new faiss.IndexFlatIP(2).add([1, 0]);
      return version("faiss-node");
    }),
  ];
  let backend: string;
  try {
    // Guarded: a native module the vector index loads may fail to import; that is reported, not thrown.
    const { vectorBackendName } = await import("../../indexing/vector-index.js");
    backend = vectorBackendName();
  } catch (error) {
    backend = `unavailable (${(error as Error).message.split("\n")[0]})`;
  }
  checks.push({ name: "vector backend", ok: !backend.startsWith("unavailable"), detail: backend, required: false });
  return checks;
}

export const command: Command = {
  summary: "report the environment: Node, native modules, vector backend",
  help: () =>
    ["Usage: atr doctor", "", "Exit code 1 when a required component is missing.", formatFlagHelp(FLAGS)].join("\n"),
  async run(argv) {
    parseArgs(argv, FLAGS);
    const checks = await runChecks();
    for (const c of checks) {
      const mark = c.ok ? "ok  " : c.required ? "FAIL" : "--  ";
      console.log(`${mark} ${c.name.padEnd(17)} ${c.detail}`);
    }
    const failed = checks.filter((c) => c.required && !c.ok);
    if (failed.length)
      console.log(
        `\n${failed.length} required component(s) missing: ${failed.map((c) => c.name).join(", ")}. Run npm install.`,
      );
    return failed.length ? 1 : 0;
  },
};
