/**
 * CPU time of running processes from /proc (Linux): a process's own, and its whole tree's (itself
 * and every descendant still running) — what `atr run` spends in its answer processes and their
 * SQL children. Times of processes that have exited are not in it. Null off Linux.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const TICKS_PER_SECOND = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** The running child processes of `pid` (every thread's). */
export function childPids(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  if (!existsSync(taskDir)) return [];
  const pids: number[] = [];
  for (const tid of readdirSync(taskDir)) {
    try {
      const children = readFileSync(join(taskDir, tid, "children"), "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // the thread ended between the two reads
    }
  }
  return pids;
}

/** CPU ms (user + system) of one running process; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    // Fields after the parenthesised command name: state is 3rd, utime 14th, stime 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU ms of `pid`'s running descendants (not `pid` itself); null off Linux. */
export function descendantsCpuMs(pid: number = process.pid): number | null {
  if (!existsSync(`/proc/${pid}/task`)) return null;
  let ms = 0;
  for (const child of childPids(pid)) ms += processCpuMs(child) + (descendantsCpuMs(child) ?? 0);
  return ms;
}
