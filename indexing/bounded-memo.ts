/**
 * A bounded memo of a pure function of one string: the last `size` results, least recently used
 * dropped first. For work the same question (or the next one) repeats on the same text — the words of
 * a view entry, a parsed SQL statement, the stems of an evidence sentence. The key is the whole input,
 * so two indexes in one process share an entry only when the input text is the same, where the result
 * is the same too. Results are shared: callers read them, never change them.
 */
export interface BoundedMemo<V> {
  (key: string): V;
  /** Entries held now (at most `limit`). */
  readonly size: number;
  readonly limit: number;
  clear(): void;
}

export function boundedMemo<V>(limit: number, compute: (key: string) => V): BoundedMemo<V> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`boundedMemo: limit must be a positive integer, got ${limit}`);
  const entries = new Map<string, V>();
  const memo = (key: string): V => {
    if (entries.has(key)) {
      const hit = entries.get(key) as V;
      // re-insert: Map order is the recency order
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    }
    const value = compute(key);
    if (entries.size >= limit) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
    return value;
  };
  return Object.defineProperties(Object.assign(memo, { clear: () => entries.clear() }), {
    size: { get: () => entries.size },
    limit: { value: limit },
  }) as BoundedMemo<V>;
}
