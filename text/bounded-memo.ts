/**
 * A bounded memo of a pure function of one string, for work the same question (or the next one)
 * repeats on the same text — a normalised cell, the words of a view entry, a parsed SQL statement,
 * the stems of an evidence sentence. The key is the whole input, so two indexes in one process share
 * an entry only when the input text is the same, where the result is the same too. Results are
 * shared: callers read them, never change them.
 *
 * Two generations instead of an exact LRU order: entries go into the young map; when it holds
 * `limit` entries it becomes the old one (the previous old one is dropped), and a hit in the old map
 * moves the entry back into the young one. So every key used since the last turnover is held, at most
 * 2 × `limit` entries are, and a hit costs one or two map lookups — keeping an exact recency order
 * (delete and re-insert on every hit) cost more than the normalisers it saved on WTQ dev.
 */
export interface BoundedMemo<V> {
  (key: string): V;
  /** Entries held now (at most 2 × `limit`). */
  readonly size: number;
  readonly limit: number;
  clear(): void;
}

export function boundedMemo<V>(limit: number, compute: (key: string) => V): BoundedMemo<V> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`boundedMemo: limit must be a positive integer, got ${limit}`);
  let young = new Map<string, V>();
  let old = new Map<string, V>();
  const memo = (key: string): V => {
    const hit = young.get(key);
    if (hit !== undefined || young.has(key)) return hit as V;
    const kept = old.get(key);
    const value = kept !== undefined || old.has(key) ? (kept as V) : compute(key);
    if (young.size >= limit) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
    return value;
  };
  return Object.defineProperties(
    Object.assign(memo, {
      clear: () => {
        young = new Map();
        old = new Map();
      },
    }),
    {
      // An entry promoted from the old map is in both until the next turnover: count it once.
      size: { get: () => young.size + [...old.keys()].filter((k) => !young.has(k)).length },
      limit: { value: limit },
    },
  ) as BoundedMemo<V>;
}
