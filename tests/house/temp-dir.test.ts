import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";

describe("test temporary files", () => {
  it("go to the run's own folder, which the global setup removes at the end", () => {
    expect(basename(tmpdir())).toMatch(/^atr-tests-/);
    expect(dirname(tmpdir())).not.toBe(tmpdir());
  });
});
