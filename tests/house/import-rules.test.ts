/**
 * DESIGN.md's one-way imports, checked over the source: text ← indexing ← retrievers ← nodes ← graph ←
 * {evals, training, cli} ← scripts, where nodes may import graph/state.ts and graph/configuration.ts
 * (types and the configuration, as the LangGraph templates do); and no cycle of value imports
 * between files.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, normalize, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const ORDER: Record<string, number> = {
  text: 0,
  indexing: 1,
  retrievers: 2,
  nodes: 3,
  graph: 4,
  evals: 5,
  training: 5,
  cli: 5,
  scripts: 6,
};
const ALLOWED_UP = new Set(["nodes>graph/state.ts", "nodes>graph/configuration.ts"]);
const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
        ? [join(dir, e.name)]
        : [],
  );
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of Object.keys(ORDER)
    .filter((r) => existsSync(join(ROOT, r)))
    .flatMap(sources)) {
    const src = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const m of src.matchAll(IMPORT)) {
      const spec = m[3] ?? m[4];
      if (!spec?.startsWith(".")) continue;
      let to = normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts");
      if (!to.endsWith(".ts")) to += existsSync(join(ROOT, `${to}.ts`)) ? ".ts" : "/index.ts";
      out.push({ from: file, to: relative(ROOT, join(ROOT, to)), typeOnly: Boolean(m[2]) });
    }
  }
  return out;
}

describe("house rules: imports", () => {
  const all = edges();

  it("finds the imports it checks", () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all.some((e) => e.from === "graph/graph.ts" && e.to === "nodes/verify.ts")).toBe(true);
  });

  it("no room imports a room above it", () => {
    const up = all.filter((e) => {
      const a = e.from.split("/")[0]!;
      const b = e.to.split("/")[0]!;
      return b in ORDER && ORDER[b]! > ORDER[a]! && !ALLOWED_UP.has(`${a}>${e.to}`);
    });
    expect(up.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("what several nodes share lives in its own module: only graph/graph.ts imports a graph node's file", () => {
    const nodeFiles = new Set(
      all.filter((e) => e.from === "graph/graph.ts" && e.to.startsWith("nodes/") && !e.typeOnly).map((e) => e.to),
    );
    expect(nodeFiles.has("nodes/retrieve.ts")).toBe(true);
    const shared = all.filter(
      (e) => nodeFiles.has(e.to) && e.from !== "graph/graph.ts" && /^(nodes|graph)\//.test(e.from) && !e.typeOnly,
    );
    expect(shared.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("no cycle of value imports between files", () => {
    const graph = new Map<string, string[]>();
    for (const e of all) if (!e.typeOnly) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
    // Tarjan's strongly connected components, iterative
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (root: string) => {
      const work: Array<[string, number]> = [[root, 0]];
      index.set(root, counter);
      low.set(root, counter++);
      stack.push(root);
      onStack.add(root);
      while (work.length) {
        const top = work[work.length - 1]!;
        const [v, i] = top;
        const next = graph.get(v) ?? [];
        if (i < next.length) {
          top[1]++;
          const w = next[i]!;
          if (!index.has(w)) {
            index.set(w, counter);
            low.set(w, counter++);
            stack.push(w);
            onStack.add(w);
            work.push([w, 0]);
          } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
          continue;
        }
        work.pop();
        if (work.length) {
          const parent = work[work.length - 1]![0];
          low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
        }
        if (low.get(v) === index.get(v)) {
          const comp: string[] = [];
          let w: string;
          do {
            w = stack.pop()!;
            onStack.delete(w);
            comp.push(w);
          } while (w !== v);
          if (comp.length > 1) cycles.push(comp.sort());
        }
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(cycles.map((c) => c.join(" ↔ "))).toEqual([]);
  });
});
