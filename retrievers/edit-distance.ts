/**
 * Bounded edit distance between two words, shared by the offline mention finder and the lexical
 * reranker's typo-tolerant mention score. With `transpositions`, swapping two adjacent letters
 * costs one edit (optimal string alignment), the commonest typing error ("sapin" → "spain").
 */
export function editDistance(a: string, b: string, max: number, options: { transpositions?: boolean } = {}): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = []; // row i-2, for transpositions
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (options.transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, before[j - 2]! + 1);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}
