/** Where `atr run` answers (cli/run/workers.ts planWorkers): the mode, the worker count and the memory cap. */
import { describe, expect, it } from "vitest";
import { AUTO_PROCESS_MIN_QUESTIONS, PROCESS_BASE_MB, planWorkers } from "../../cli/run/workers.js";

const base = { maxWorkers: 2, questions: 400, mode: "auto" as const, indexPath: "/idx", heapLimitMb: 0 };

describe("planWorkers", () => {
  it("auto: child processes for a run of many questions, the main thread for a short one", () => {
    expect(planWorkers(base)).toEqual({
      mode: "process",
      workers: 2,
      reason: "2 child processes, each with its own index handle",
    });
    const short = planWorkers({ ...base, questions: AUTO_PROCESS_MIN_QUESTIONS - 1 });
    expect(short.mode).toBe("main");
    expect(short.reason).toContain(`fewer than ${AUTO_PROCESS_MIN_QUESTIONS}`);
  });

  it("the main thread with --max_workers 1, --worker_mode main, a baseline, or no index", () => {
    expect(planWorkers({ ...base, maxWorkers: 1 }).mode).toBe("main");
    expect(planWorkers({ ...base, mode: "main" }).mode).toBe("main");
    expect(planWorkers({ ...base, baseline: "naive_rag" }).reason).toBe("baseline naive_rag");
    expect(planWorkers({ ...base, indexPath: "" }).reason).toBe("no --index_path");
  });

  it("explicit process or thread modes hold for short runs; never more workers than questions", () => {
    expect(planWorkers({ ...base, mode: "process", questions: 1, maxWorkers: 4 })).toMatchObject({
      mode: "process",
      workers: 1,
    });
    expect(planWorkers({ ...base, mode: "thread", questions: 10, maxWorkers: 3 })).toEqual({
      mode: "thread",
      workers: 3,
      reason: "3 worker threads, each with its own index handle",
    });
  });

  it("--worker_heap_mb caps the workers by the free memory (a child process also counts its base)", () => {
    const capped = planWorkers({ ...base, maxWorkers: 4, heapLimitMb: 500, freeMb: 2 * (500 + PROCESS_BASE_MB) + 10 });
    expect(capped.workers).toBe(2);
    expect(capped.reason).toContain("exceeds the");
    expect(planWorkers({ ...base, mode: "thread", maxWorkers: 4, heapLimitMb: 500, freeMb: 1010 }).workers).toBe(2);
    expect(planWorkers({ ...base, maxWorkers: 4, heapLimitMb: 500, freeMb: 100 }).workers).toBe(1);
  });
});
