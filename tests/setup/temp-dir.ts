// Every test run writes its temporary files (indexes, runs, caches) under one folder of its own, removed
// when the run ends, so a run leaves nothing behind in the system's temp folder. Test workers are forked
// after this runs, so they inherit TMPDIR and os.tmpdir() points inside the run's folder.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const runDir = mkdtempSync(join(tmpdir(), "atr-tests-"));
  // Like /tmp itself: tests that run a child as another user (e.g. nobody) need to make folders here.
  chmodSync(runDir, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (!process.env.ATR_KEEP_TEST_TMP) rmSync(runDir, { recursive: true, force: true });
  };
}
