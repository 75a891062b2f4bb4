import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Native modules (better-sqlite3, onnxruntime) are happier in forks than in threads.
    pool: "forks",
  },
});
