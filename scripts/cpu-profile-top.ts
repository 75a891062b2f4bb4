/**
 * The top self-time functions (and files) of a V8 CPU profile (`node --cpu-prof`), for finding the
 * per-question hot spots of `atr run` (docs/BENCHMARKS.md "Per-question CPU"). With `--after NAME`
 * samples count from the first one with a function NAME on its stack (`answerQuestion`: the
 * questions' work, not the start-up before the first one — module loading, opening the index);
 * `(idle)` is left out, `(program)` and `(garbage collector)` are kept. A third table gives the
 * project's named functions by inclusive time (on the stack; asynchronous callers are not).
 *
 *   node --cpu-prof --cpu-prof-dir /tmp/prof bin/atr.js run --max_workers 1 …
 *   npx tsx scripts/cpu-profile-top.ts /tmp/prof/CPU.*.0.001.cpuprofile [--top 25] [--after answerQuestion] [--root .]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: "string", default: "25" },
    after: { type: "string" },
    root: { type: "string", default: process.cwd() },
  },
});
if (positionals.length === 0) throw new Error("give one or more .cpuprofile files");
const top = Number(values.top);
const after = values.after;
const root = values.root!.replace(/\/$/, "");

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
/** Time with a project function on the stack (each function counted once per sample). */
const inclusive = new Map<string, number>();
let busyUs = 0;
let idleUs = 0;
const where = (url: string) => {
  const path = url.replace(/^file:\/\//, "");
  if (path.startsWith(root + "/node_modules/"))
    return path
      .slice(root.length + 1)
      .split("/")
      .slice(0, 3)
      .join("/");
  if (path.includes("/node_modules/"))
    return "node_modules/" + path.split("/node_modules/").pop()!.split("/").slice(0, 2).join("/");
  return path.startsWith(root + "/") ? path.slice(root.length + 1) : path || "(native)";
};
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inside = new Map<number, boolean>();
  const isUnder = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const value = nodes.get(id)!.callFrame.functionName === after || (up !== undefined && isUnder(up));
    inside.set(id, value);
    return value;
  };
  let started = !after;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    started ||= isUnder(id);
    if (!started) return;
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") {
      idleUs += dt;
      return;
    }
    busyUs += dt;
    const file = where(frame.url);
    const key = `${frame.functionName || "(anonymous)"} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
    const seen = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const f = nodes.get(up)!.callFrame;
      const path = f.url.replace(/^file:\/\//, "");
      if (!path.startsWith(root + "/") || path.includes("/node_modules/") || !f.functionName) continue;
      const k = `${f.functionName} ${path.slice(root.length + 1)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
}
const table = (title: string, map: Map<string, number>) => {
  console.log(`\n| ${title} | self ms | share of busy |`);
  console.log("| --- | ---: | ---: |");
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${k.replaceAll("|", "\\|")} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busyUs).toFixed(1)} % |`);
};
console.log(
  `busy ${(busyUs / 1000).toFixed(0)} ms, idle ${(idleUs / 1000).toFixed(0)} ms${after ? ` (from the first sample under ${after})` : ""}`,
);
table("function (file:line)", byFunction);
table("file or package", byFile);
table("project function, inclusive (on the stack)", inclusive);
