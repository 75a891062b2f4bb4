/** Ctrl-C during `atr run`: the first finishes the questions in flight (a resumable file), the second quits. */
export function interruptOnSigint(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    console.error(
      "\natr run: interrupted — finishing the questions in flight (Ctrl-C again to quit now; --rerun resumes)",
    );
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}
