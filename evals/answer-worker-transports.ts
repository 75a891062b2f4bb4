/**
 * The two ways evals/answer-workers.ts reaches an answer worker, behind one channel: a worker thread
 * (node:worker_threads) or a child process (node:child_process `fork`, structured-clone IPC). Both
 * start evals/answer-worker-boot.js, which registers tsx and imports the entry; the pool above sends
 * and receives the same messages over either.
 *
 * Child processes, in particular:
 * - they get the start data after they say `hello` (a message sent before the child listens is lost);
 * - their stdout goes to the parent's stderr (the parent's stdout carries `atr run`'s results path);
 * - Ctrl-C in a terminal reaches the whole process group: the child ignores SIGINT
 *   (evals/answer-worker-serve.ts) and the parent decides — it finishes the questions in flight and
 *   closes the children, or quits on the second Ctrl-C;
 * - none outlives the parent: every live child is SIGKILLed on the parent's `exit` (process.exit
 *   included), and a child whose IPC channel closes (the parent was killed) exits by itself.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SerializedError, WorkerStartData } from "./answer-worker-serve.js";

export type WorkerTransport = "thread" | "process";

const BOOT = fileURLToPath(new URL("./answer-worker-boot.js", import.meta.url));

/** One answer worker as the pool sees it. */
export interface WorkerChannel {
  /** The child's process id (processes only). */
  readonly pid?: number;
  /** Throws when the worker is gone. */
  send(message: unknown): void;
  onMessage(handler: (message: unknown) => void): void;
  /** Called once when the worker is gone, with why ("exit code 7", "signal SIGKILL", the uncaught error). */
  onExit(handler: (why: string) => void): void;
  /** Stops the worker at once (resolves when it is gone). */
  terminate(): Promise<void>;
}

export interface SpawnOptions {
  /** V8 old-generation limit in MB; 0 = Node's default. */
  heapLimitMb: number;
  /** Node flags of a child process (default PROCESS_NODE_FLAGS); threads share the parent's. */
  nodeFlags?: readonly string[];
}

/**
 * A child's own Node flags: a 32 MB young generation (semi-space) — a question allocates short-lived
 * objects fast, and the default 16 MB scavenges them twice as often; measured −5 % CPU per question on
 * WTQ and TAT-QA dev at equal answers (docs/BENCHMARKS.md "Per-question cost"), for ~50 MB more RSS.
 */
export const PROCESS_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=32"];

export function spawnWorker(transport: WorkerTransport, data: WorkerStartData, options: SpawnOptions): WorkerChannel {
  return transport === "thread" ? spawnThread(data, options) : spawnProcess(data, options);
}

function spawnThread(data: WorkerStartData, options: SpawnOptions): WorkerChannel {
  const worker = new Worker(BOOT, {
    workerData: data,
    ...(options.heapLimitMb > 0 ? { resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb } } : {}),
  });
  let lastError: Error | undefined;
  worker.on("error", (error) => (lastError = error));
  return {
    send: (message) => worker.postMessage(message),
    onMessage: (handler) => void worker.on("message", handler),
    onExit: (handler) =>
      void worker.once("exit", (code) =>
        handler(lastError ? `${lastError.name}: ${lastError.message}` : `exit code ${code}`),
      ),
    terminate: async () => void (await worker.terminate()),
  };
}

/** Live children of this process, killed when it exits. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function killChildrenOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of liveChildren) child.kill("SIGKILL");
  });
}

function spawnProcess(data: WorkerStartData, options: SpawnOptions): WorkerChannel {
  killChildrenOnExit();
  const child = fork(BOOT, [data.entry], {
    // Not the parent's flags (a profiler's or a test runner's): its own, and the heap limit when one is set.
    execArgv: [
      ...(options.nodeFlags ?? PROCESS_NODE_FLAGS),
      ...(options.heapLimitMb > 0 ? [`--max-old-space-size=${options.heapLimitMb}`] : []),
    ],
    serialization: "advanced",
    stdio: ["ignore", 2, 2, "ipc"],
  });
  liveChildren.add(child);
  let crash: SerializedError | undefined;
  let gone = false;
  const exited = new Promise<string>((resolve) => {
    const done = (why: string) => {
      if (gone) return;
      gone = true;
      liveChildren.delete(child);
      resolve(crash ? `${crash.name}: ${crash.message}` : why);
    };
    child.once("exit", (code, signal) => done(signal ? `signal ${signal}` : `exit code ${code}`));
    // fork itself failed (no such executable, too many processes): no `exit` follows.
    child.on("error", (error) => {
      if (child.pid === undefined || child.exitCode !== null) done(`${error.name}: ${error.message}`);
    });
  });
  const handlers: Array<(message: unknown) => void> = [];
  child.on("message", (message: { type?: string; error?: SerializedError }) => {
    if (message?.type === "hello") {
      child.send({ type: "start", data }, () => undefined);
      return;
    }
    if (message?.type === "crashed") {
      crash = message.error;
      return;
    }
    for (const h of handlers) h(message);
  });
  return {
    pid: child.pid,
    send: (message) => {
      if (gone || !child.connected) throw new Error(`answer process ${child.pid} is gone`);
      // A send that fails (the child died meanwhile) is reported by its `exit`.
      child.send(message as never, () => undefined);
    },
    onMessage: (handler) => void handlers.push(handler),
    onExit: (handler) => void exited.then(handler),
    terminate: async () => {
      if (!gone) child.kill("SIGKILL");
      await exited;
    },
  };
}
