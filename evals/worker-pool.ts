/**
 * The one bounded-concurrency loop of the batch tools (`atr run`, the LLM judge, the LangSmith
 * upload): `limit` workers take the next item in input order until none is left or `signal` aborts.
 */

export interface PoolOutcome {
  /** True when `signal` aborted while items were still waiting (they were not started). */
  interrupted: boolean;
}

export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<PoolOutcome> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`worker pool: limit must be a positive integer, got ${limit}`);
  let next = 0;
  let interrupted = false;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      if (signal?.aborted) {
        interrupted = true;
        return;
      }
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, items.length)) }, worker));
  return { interrupted };
}
