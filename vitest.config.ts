import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Native modules (better-sqlite3, onnxruntime) are happier in forks than in threads.
    pool: "forks",
    // One temporary folder per run, removed at the end (ATR_KEEP_TEST_TMP=1 keeps it for debugging).
    globalSetup: ["tests/setup/temp-dir.ts"],
  },
});
