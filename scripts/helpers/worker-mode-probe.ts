/**
 * The worker of scripts/bench-worker-modes.ts, run as a worker thread or as a child process: loads
 * the graph and opens the index as an answer worker does (cli/run/graph-worker.ts), says `ready`,
 * then echoes every message back (the IPC round trip of a results record).
 */
import { parentPort, workerData } from "node:worker_threads";

const indexPath = (
  parentPort ? (workerData as { payload: { indexPath: string } }).payload : JSON.parse(process.env.PROBE ?? "{}")
).indexPath as string;
const send = (m: unknown) => (parentPort ? parentPort.postMessage(m) : process.send!(m));
const [{ ensureConfiguration }, { pinIndex }] = await Promise.all([
  import("../../graph/configuration.js"),
  import("../../graph/resources.js"),
  import("../../graph/answer.js"),
]);
await pinIndex(ensureConfiguration({ configurable: { indexPath } }));
const onMessage = (m: unknown) => (m === "exit" ? process.exit(0) : send(m));
if (parentPort) parentPort.on("message", onMessage);
else process.on("message", onMessage);
send("ready");
