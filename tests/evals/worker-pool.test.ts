import { describe, expect, it } from "vitest";
import { forEachConcurrently } from "../../evals/worker-pool.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("forEachConcurrently", () => {
  it("runs every item once, never more than `limit` at a time, passing input indexes", async () => {
    let running = 0;
    let peak = 0;
    const seen: Array<[string, number]> = [];
    const out = await forEachConcurrently(["a", "b", "c", "d", "e"], 2, async (item, index) => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      seen.push([item, index]);
      running--;
    });
    expect(out.interrupted).toBe(false);
    expect(peak).toBe(2);
    expect(seen.sort()).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 2],
      ["d", 3],
      ["e", 4],
    ]);
  });

  it("starts nothing new once the signal aborts and says items were left", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const out = await forEachConcurrently(
      [0, 1, 2, 3, 4, 5],
      1,
      async (item) => {
        started.push(item);
        if (item === 1) controller.abort();
        await tick();
      },
      controller.signal,
    );
    expect(started).toEqual([0, 1]);
    expect(out.interrupted).toBe(true);
  });

  it("refuses a limit that is not a positive integer", async () => {
    await expect(forEachConcurrently([1], 0, async () => {})).rejects.toThrow(
      /limit must be a positive integer, got 0/,
    );
  });
});
