/** The generated tables of `npm run bench:scale`: what the bench's checks rely on. */
import { describe, expect, it } from "vitest";
import { cityOf, CITY_COUNT, nameOf, scoreOf } from "../../scripts/scale-data.js";

describe("scale data", () => {
  it("names are unique (the lookups ask for one row), cities repeat, one row holds each extreme score", () => {
    const n = 200_000;
    const names = new Set<string>();
    for (let i = 0; i < n; i++) names.add(nameOf(i).toLowerCase());
    expect(names.size).toBe(n);
    expect(new Set(Array.from({ length: 1000 }, (_, i) => cityOf(i))).size).toBe(CITY_COUNT);
    const scores = Array.from({ length: n }, (_, i) => scoreOf(i, n));
    expect(scores.filter((s) => s >= 1_000_000)).toHaveLength(1);
    expect(scores.filter((s) => s <= 10)).toHaveLength(1);
  });
});
