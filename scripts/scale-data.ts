/**
 * Generated tables for `npm run bench:scale` (scripts/bench-scale.ts): one plain table of N rows
 * (`id, name, city, score, date`) and a corpus of many small tables. Deterministic (no randomness):
 * row i's values are arithmetic functions of i, names are unique (a bijection of i onto five
 * syllables of two letters, no syllable twice), and exactly one row holds the highest and one the lowest score.
 */
import { mkdirSync, openSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";

const SYLLABLES =
  "ka lo mi re ta vo su ne ri da pe go ba lu fi ho ze mu tu ki no sa ve ro li ga de bo nu pi ma te ko ra si le jo wa xu yi".split(
    " ",
  );
const S = SYLLABLES.length;
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Unique name of row i (i < S^5): first name of two syllables, family name of three. */
export function nameOf(i: number): string {
  // a fixed odd multiplier mod S^5 permutes the ids so neighbouring rows do not share syllables
  const m = S ** 5;
  let x = (i * 7_368_787) % m;
  const d: string[] = [];
  for (let k = 0; k < 5; k++) {
    d.push(SYLLABLES[x % S]!);
    x = Math.floor(x / S);
  }
  return `${cap(d[0]! + d[1]!)} ${cap(d[2]! + d[3]! + d[4]!)}`;
}

export const CITY_COUNT = 200;
export function cityOf(i: number): string {
  const c = (i * 31) % CITY_COUNT;
  return `${cap(SYLLABLES[c % S]! + SYLLABLES[(c * 7 + 3) % S]!)}ville${c >= S ? ` ${Math.floor(c / S)}` : ""}`;
}

/** Scores 1000..999999 spread over rows; row `top` gets the unique maximum, row `bottom` the unique minimum. */
export function scoreOf(i: number, n: number): number {
  if (i === Math.floor(n / 3)) return 1_000_000;
  if (i === Math.floor((2 * n) / 3)) return 10;
  return 1000 + ((i * 48_271) % 998_000);
}

export function dateOf(i: number): string {
  const d = new Date(Date.UTC(2000, 0, 1) + ((i * 7919) % 9000) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** Writes `<dir>/<tableId>.csv` with n rows; returns the path. */
export function writeScaleTable(dir: string, tableId: string, n: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${tableId}.csv`);
  const fd = openSync(path, "w");
  try {
    let buf = "id,name,city,score,date\n";
    for (let i = 0; i < n; i++) {
      buf += `${i + 1},${nameOf(i)},${cityOf(i)},${scoreOf(i, n)},${dateOf(i)}\n`;
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = "";
      }
    }
    writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Writes `count` small tables (5–14 rows each, same columns) named t00000…; returns their ids. */
export function writeSmallCorpus(dir: string, count: number): string[] {
  mkdirSync(dir, { recursive: true });
  const ids: string[] = [];
  let row = 0;
  for (let t = 0; t < count; t++) {
    const id = `t${String(t).padStart(5, "0")}`;
    const n = 5 + (t % 10);
    let text = "id,name,city,score,date\n";
    for (let i = 0; i < n; i++, row++)
      text += `${i + 1},${nameOf(row)},${cityOf(row)},${scoreOf(row, 1 << 30)},${dateOf(row)}\n`;
    const fd = openSync(join(dir, `${id}.csv`), "w");
    writeSync(fd, text);
    closeSync(fd);
    ids.push(id);
  }
  return ids;
}
