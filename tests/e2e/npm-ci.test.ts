/**
 * `npm ci` accepts the committed lock (CI setups and Docker builds use it): npm checks that
 * package.json and package-lock.json agree before installing anything, which a dry run shows without
 * touching the network or node_modules. And .ci/run installs with `npm ci`.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

describe("npm ci", () => {
  it("accepts package-lock.json as committed (dry run, offline)", () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-npm-ci-"));
    try {
      copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
      copyFileSync(join(ROOT, "package-lock.json"), join(dir, "package-lock.json"));
      // Throws (with npm's "Missing: … from lock file") when the lock is out of sync.
      const out = execFileSync("npm", ["ci", "--dry-run", "--ignore-scripts", "--offline", "--no-audit", "--no-fund"], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: "skip", ONNXRUNTIME_NODE_INSTALL_CUDA: "skip" },
      });
      expect(out).toMatch(/added \d+ packages/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("is what .ci/run installs with", () => {
    const script = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(script).toMatch(/^npm ci\b/m);
    expect(script).not.toMatch(/^npm install\b/m);
  });
});
