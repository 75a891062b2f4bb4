/**
 * Synthetic plain tables for training the verifier: clean generated spreadsheets in domains of
 * their own (mountain peaks, satellites, board games, bridges, albums, museums, wines, ships,
 * airports, volcanoes, lighthouses, apps — none of the everyday suites' domains, which stay the
 * check) with templated everyday questions whose gold is computed from the rows. Answered through
 * the real graph (an exploration run, scripts/bench-verifier.sh), they are a training "benchmark"
 * (`plain`) that shows the verifier what a clean plan over a clean table looks like when it is
 * right — and when, on such tables, it is still wrong.
 *
 * `plainCorpus(seed)` is deterministic. `plainCorrect` is its scorer (numbers within 0.006, dates
 * by day, strings case-insensitively, lists as sets).
 */
import { seededRandom } from "./student.js";

export type PlainCell = string | number | null;

export interface PlainTable {
  id: string;
  header: string[];
  rows: PlainCell[][];
}

export interface PlainQuestion {
  id: string;
  table: string;
  kind: string;
  question: string;
  gold: Array<string | number>;
}

interface NumberColumn {
  header: string;
  /** What a question calls it ("height", "launch mass"). */
  word: string;
  lo: number;
  hi: number;
  /** Decimal places. */
  decimals: number;
  /** Superlatives for the maximum and the minimum ("highest"/"lowest", "heaviest"/"lightest"). */
  max: string;
  min: string;
}

interface Domain {
  name: string;
  /** The entity column, its noun and plural ("peak", "peaks"), and how names are made. */
  entity: { header: string; noun: string; plural: string; first: readonly string[]; second: readonly string[] };
  /** "which" or "who" for the entity. */
  which: string;
  categories: Array<{ header: string; word: string; values: readonly string[] }>;
  numbers: NumberColumn[];
  /** A date column and the verb of its event ("opened"). */
  date?: { header: string; verb: string; from: number; to: number };
  /** A year column and the verb of its event ("built"). */
  year?: { header: string; verb: string; from: number; to: number };
}

const num = (
  header: string,
  word: string,
  lo: number,
  hi: number,
  decimals: number,
  max = "highest",
  min = "lowest",
): NumberColumn => ({ header, word, lo, hi, decimals, max, min });

const DOMAINS: Domain[] = [
  {
    name: "peaks",
    entity: {
      header: "Peak",
      noun: "peak",
      plural: "peaks",
      first: ["Mount", "Pico", "Monte", "Cerro", "Piz"],
      second: [
        "Arvel",
        "Tosca",
        "Brenn",
        "Kalder",
        "Sorrel",
        "Varan",
        "Ospo",
        "Lumen",
        "Grisa",
        "Therm",
        "Hollin",
        "Zenta",
      ],
    },
    which: "which",
    categories: [
      { header: "Range", word: "range", values: ["Alder Range", "Coast Range", "High Ridge", "Ember Chain"] },
      { header: "Country", word: "country", values: ["Norway", "Chile", "Nepal", "Canada", "Italy"] },
    ],
    numbers: [
      num("Height (m)", "height", 1800, 8400, 0, "highest", "lowest"),
      num("Prominence (m)", "prominence", 300, 4200, 0),
    ],
    year: { header: "First ascent", verb: "first climbed", from: 1850, to: 1990 },
  },
  {
    name: "satellites",
    entity: {
      header: "Satellite",
      noun: "satellite",
      plural: "satellites",
      first: ["Astra", "Polar", "Sentinel", "Kestrel", "Orion", "Lyra", "Vega"],
      second: ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"],
    },
    which: "which",
    categories: [
      { header: "Agency", word: "agency", values: ["NOVA", "Orbital Labs", "Skyward", "ESTA"] },
      { header: "Orbit", word: "orbit", values: ["LEO", "MEO", "GEO", "Polar"] },
    ],
    numbers: [num("Mass (kg)", "mass", 80, 6500, 0, "heaviest", "lightest"), num("Power (W)", "power", 150, 12000, 0)],
    date: { header: "Launch date", verb: "launched", from: 1998, to: 2023 },
  },
  {
    name: "board_games",
    entity: {
      header: "Game",
      noun: "game",
      plural: "games",
      first: ["Harbor", "Crystal", "Iron", "Meadow", "Stellar", "Copper", "Jungle", "Tidal"],
      second: ["Quest", "Empires", "Traders", "Gardens", "Legends", "Frontier", "Heist", "Builders"],
    },
    which: "which",
    categories: [
      { header: "Publisher", word: "publisher", values: ["Red Fox", "Meeple Works", "Blue Owl", "Lantern Games"] },
      { header: "Genre", word: "genre", values: ["Strategy", "Party", "Family", "Cooperative"] },
    ],
    numbers: [
      num("Play time (min)", "play time", 15, 240, 0, "longest", "shortest"),
      num("Rating", "rating", 5, 9.5, 1),
      num("Price", "price", 12, 95, 2, "most expensive", "cheapest"),
    ],
    year: { header: "Released", verb: "released", from: 1995, to: 2024 },
  },
  {
    name: "bridges",
    entity: {
      header: "Bridge",
      noun: "bridge",
      plural: "bridges",
      first: ["North", "King", "Old", "River", "Harbour", "Mill", "Tower", "Glen"],
      second: ["Gate Bridge", "Street Bridge", "Crossing", "Viaduct", "Span", "Arch"],
    },
    which: "which",
    categories: [
      { header: "City", word: "city", values: ["Porto", "Quebec", "Dresden", "Sapporo", "Perth"] },
      { header: "Type", word: "type", values: ["Suspension", "Arch", "Cable-stayed", "Truss"] },
    ],
    numbers: [
      num("Main span (m)", "main span", 40, 1900, 0, "longest", "shortest"),
      num("Lanes", "lanes", 2, 10, 0, "most", "fewest"),
    ],
    year: { header: "Opened", verb: "opened", from: 1880, to: 2022 },
  },
  {
    name: "albums",
    entity: {
      header: "Album",
      noun: "album",
      plural: "albums",
      first: ["Neon", "Velvet", "Paper", "Golden", "Static", "Hollow", "Electric", "Silent"],
      second: ["Skies", "Motel", "Hearts", "Signals", "Tides", "Season", "Avenue", "Echoes"],
    },
    which: "which",
    categories: [
      {
        header: "Artist",
        word: "artist",
        values: ["Mara Lind", "The Loomers", "Kit Adair", "Blue Canyon", "Sol Reyes"],
      },
      { header: "Label", word: "label", values: ["Northway", "Pulse", "Riverbed"] },
    ],
    numbers: [
      num("Tracks", "tracks", 7, 22, 0, "most", "fewest"),
      num("Copies sold", "copies sold", 12000, 2400000, 0),
    ],
    date: { header: "Release date", verb: "released", from: 1990, to: 2024 },
  },
  {
    name: "museums",
    entity: {
      header: "Museum",
      noun: "museum",
      plural: "museums",
      first: ["City", "Maritime", "Natural History", "Modern Art", "Railway", "Textile", "Folk", "Science"],
      second: ["Museum of Arden", "Museum of Belmar", "Museum of Corvo", "Museum of Dunmore", "Museum of Elsby"],
    },
    which: "which",
    categories: [{ header: "City", word: "city", values: ["Arden", "Belmar", "Corvo", "Dunmore", "Elsby"] }],
    numbers: [
      num("Annual visitors", "visitors", 8000, 950000, 0, "most", "fewest"),
      num("Ticket price", "ticket price", 0, 28, 2, "most expensive", "cheapest"),
      num("Gallery count", "galleries", 3, 60, 0, "most", "fewest"),
    ],
    year: { header: "Founded", verb: "founded", from: 1820, to: 2015 },
  },
  {
    name: "wines",
    entity: {
      header: "Wine",
      noun: "wine",
      plural: "wines",
      first: ["Chateau", "Domaine", "Bodega", "Tenuta", "Quinta"],
      second: ["Belair", "Rosaly", "Monteverde", "Lasalle", "Corvina", "Saint Amand", "Arroyo", "Valbruna"],
    },
    which: "which",
    categories: [
      { header: "Region", word: "region", values: ["Douro", "Rioja", "Mosel", "Barossa", "Mendoza"] },
      { header: "Grape", word: "grape", values: ["Merlot", "Riesling", "Malbec", "Tempranillo", "Syrah"] },
    ],
    numbers: [
      num("Price (USD)", "price", 9, 180, 2, "most expensive", "cheapest"),
      num("Score", "score", 80, 99, 0),
      num("Alcohol %", "alcohol", 11, 15.5, 1),
    ],
    year: { header: "Vintage", verb: "bottled", from: 1995, to: 2022 },
  },
  {
    name: "ships",
    entity: {
      header: "Ship",
      noun: "ship",
      plural: "ships",
      first: ["MV", "SS", "HMS", "RV"],
      second: [
        "Albatross",
        "Boreal",
        "Calypso",
        "Driftwood",
        "Endeavour",
        "Fulmar",
        "Gannet",
        "Halcyon",
        "Ibis",
        "Juno",
      ],
    },
    which: "which",
    categories: [
      { header: "Class", word: "class", values: ["Ferry", "Tanker", "Research", "Cargo"] },
      { header: "Flag", word: "flag", values: ["Malta", "Panama", "Norway", "Greece"] },
    ],
    numbers: [
      num("Tonnage", "tonnage", 800, 92000, 0, "largest", "smallest"),
      num("Crew", "crew", 6, 240, 0, "largest", "smallest"),
      num("Length (m)", "length", 40, 330, 1, "longest", "shortest"),
    ],
    date: { header: "Launched", verb: "launched", from: 1975, to: 2021 },
  },
  {
    name: "airports",
    entity: {
      header: "Airport",
      noun: "airport",
      plural: "airports",
      first: ["Marlow", "Pendle", "Quarry", "Rhossi", "Tarn", "Ulver", "Wexmoor", "Yarrow", "Zell", "Brisk"],
      second: ["International", "Regional", "Airfield", "Field"],
    },
    which: "which",
    categories: [
      { header: "Country", word: "country", values: ["Ireland", "Portugal", "Finland", "Austria", "Greece"] },
    ],
    numbers: [
      num("Passengers", "passengers", 40000, 31000000, 0, "busiest", "least busy"),
      num("Runways", "runways", 1, 5, 0, "most", "fewest"),
      num("Elevation (ft)", "elevation", 5, 2200, 0),
    ],
    year: { header: "Opened", verb: "opened", from: 1925, to: 2012 },
  },
  {
    name: "volcanoes",
    entity: {
      header: "Volcano",
      noun: "volcano",
      plural: "volcanoes",
      first: ["Mount", "Cerro", "Gunung", "Volcan"],
      second: ["Askel", "Borra", "Calun", "Dorvik", "Etnor", "Fuego Alto", "Guraki", "Hekkla", "Irazo", "Jorull"],
    },
    which: "which",
    categories: [
      { header: "Country", word: "country", values: ["Iceland", "Indonesia", "Chile", "Japan", "Mexico"] },
      { header: "Status", word: "status", values: ["Active", "Dormant", "Extinct"] },
    ],
    numbers: [
      num("Elevation (m)", "elevation", 400, 6100, 0),
      num("Eruptions recorded", "eruptions", 0, 48, 0, "most", "fewest"),
    ],
    year: { header: "Last eruption", verb: "last erupted", from: 1700, to: 2023 },
  },
  {
    name: "lighthouses",
    entity: {
      header: "Lighthouse",
      noun: "lighthouse",
      plural: "lighthouses",
      first: ["Cape", "Point", "Skerry", "Head"],
      second: ["Arlow", "Bressay", "Carrick", "Dunnet", "Ebba", "Fanad", "Girdle", "Hook", "Inish", "Kinnaird"],
    },
    which: "which",
    categories: [
      { header: "Coast", word: "coast", values: ["North Coast", "West Coast", "East Coast", "South Coast"] },
    ],
    numbers: [
      num("Tower height (m)", "tower height", 8, 62, 1, "tallest", "shortest"),
      num("Range (nmi)", "range", 8, 32, 0, "longest", "shortest"),
    ],
    year: { header: "First lit", verb: "first lit", from: 1790, to: 1960 },
  },
  {
    name: "apps",
    entity: {
      header: "App",
      noun: "app",
      plural: "apps",
      first: ["Budget", "Sleep", "Trail", "Recipe", "Photo", "Habit", "Focus", "Language"],
      second: ["Buddy", "Pal", "Pro", "Hub", "Mate", "Box", "Genie", "Nest"],
    },
    which: "which",
    categories: [
      { header: "Category", word: "category", values: ["Finance", "Health", "Travel", "Education", "Lifestyle"] },
      { header: "Developer", word: "developer", values: ["Appleseed Labs", "Brightloop", "Cobalt Apps", "Dewdrop"] },
    ],
    numbers: [
      num("Downloads", "downloads", 1200, 9800000, 0, "most", "fewest"),
      num("Rating", "rating", 2.5, 4.9, 1),
      num("Size (MB)", "size", 8, 420, 1, "largest", "smallest"),
    ],
    date: { header: "Release date", verb: "released", from: 2010, to: 2024 },
  },
];

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function shuffle<T>(rand: () => number, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/** `n` values of a number column: distinct when its range allows (a count of lanes repeats). */
function columnValues(rand: () => number, c: NumberColumn, n: number): number[] {
  const draw = () => round(c.lo + rand() * (c.hi - c.lo), c.decimals);
  if ((c.hi - c.lo) * 10 ** c.decimals + 1 < 2 * n) return Array.from({ length: n }, draw);
  const seen = new Set<number>();
  while (seen.size < n) seen.add(draw());
  return shuffle(rand, [...seen]);
}

/** One table of a domain with `n` rows; dates are distinct, numbers too where their range allows. */
function tableOf(rand: () => number, d: Domain, n: number, id: string): PlainTable {
  const names = shuffle(
    rand,
    d.entity.first.flatMap((a) => d.entity.second.map((b) => `${a} ${b}`)),
  ).slice(0, n);
  const rows = names.length;
  const numbers = d.numbers.map((c) => columnValues(rand, c, rows));
  const dates = new Set<string>();
  while (d.date && dates.size < rows)
    dates.add(
      iso(
        d.date.from + Math.floor(rand() * (d.date.to - d.date.from + 1)),
        1 + Math.floor(rand() * 12),
        1 + Math.floor(rand() * 28),
      ),
    );
  const dateList = shuffle(rand, [...dates]);
  const years = d.year
    ? Array.from({ length: rows }, () => d.year!.from + Math.floor(rand() * (d.year!.to - d.year!.from + 1)))
    : [];
  const header = [
    d.entity.header,
    ...d.categories.map((c) => c.header),
    ...d.numbers.map((c) => c.header),
    ...(d.date ? [d.date.header] : []),
    ...(d.year ? [d.year.header] : []),
  ];
  const body = names.map((name, i) => [
    name,
    ...d.categories.map((c) => pick(rand, c.values)),
    ...numbers.map((col) => col[i] ?? null),
    ...(d.date ? [dateList[i]!] : []),
    ...(d.year ? [years[i]!] : []),
  ]);
  return { id, header, rows: body };
}

type Row = Record<string, PlainCell>;

/** Questions over one table, each kind in a few wordings, gold from the rows. */
function questionsOf(rand: () => number, d: Domain, t: PlainTable): Array<Omit<PlainQuestion, "id">> {
  const out: Array<Omit<PlainQuestion, "id">> = [];
  const R: Row[] = t.rows.map((r) => Object.fromEntries(t.header.map((h, i) => [h, r[i] ?? null])));
  const E = d.entity;
  const add = (kind: string, gold: Array<string | number>, ...wordings: string[]) => {
    // one wording of each question, drawn from several
    out.push({ table: t.id, kind, question: pick(rand, wordings), gold });
  };
  const name = (r: Row) => String(r[E.header]);
  const nums = (c: NumberColumn, rows = R) => rows.map((r) => r[c.header] as number);
  const sumOf = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

  // lookups
  for (const r of shuffle(rand, R).slice(0, 3)) {
    const c = pick(rand, d.numbers);
    add(
      "lookup",
      [r[c.header] as number],
      `What is the ${c.word} of ${name(r)}?`,
      `What ${c.word} does ${name(r)} have?`,
      `${name(r)}: what is its ${c.word}?`,
      `what's the ${c.word} for ${name(r)}`,
    );
    const k = pick(rand, d.categories);
    add(
      "lookup",
      [r[k.header] as string],
      `What is the ${k.word} of ${name(r)}?`,
      `Which ${k.word} is ${name(r)} in?`,
      `${name(r)} belongs to which ${k.word}?`,
    );
  }
  // filtered counts
  for (const k of d.categories) {
    const v = pick(rand, k.values);
    const n = R.filter((r) => r[k.header] === v).length;
    add(
      "count",
      [n],
      `How many ${E.plural} have ${k.word} ${v}?`,
      `How many ${E.plural} are there with ${v} as ${k.word}?`,
      `Number of ${E.plural} in ${v}`,
      `count the ${E.plural} whose ${k.word} is ${v}`,
    );
  }
  add("count", [R.length], `How many ${E.plural} are listed?`, `How many ${E.plural} are in the table?`);
  for (const c of d.numbers) {
    const xs = nums(c);
    const places = Math.max(2, c.decimals);
    // sums and averages
    add(
      "sum",
      [round(sumOf(xs), places)],
      `What is the total ${c.word} of all ${E.plural}?`,
      `Sum of the ${c.word} over every ${E.noun}`,
      `total ${c.word}`,
    );
    add(
      "average",
      [round(sumOf(xs) / xs.length, 2)],
      `What is the average ${c.word}?`,
      `What is the mean ${c.word} of the ${E.plural}?`,
      `average ${c.word} across ${E.plural}`,
    );
    const k = pick(rand, d.categories);
    const v = pick(rand, k.values);
    const sub = R.filter((r) => r[k.header] === v);
    if (sub.length > 0) {
      const ys = nums(c, sub);
      add(
        "sum",
        [round(sumOf(ys), places)],
        `What is the total ${c.word} of ${E.plural} with ${k.word} ${v}?`,
        `total ${c.word} for ${v}`,
      );
      add(
        "average",
        [round(sumOf(ys) / ys.length, 2)],
        `What is the average ${c.word} of the ${v} ${E.plural}?`,
        `average ${c.word} for ${v}`,
      );
      const best = sub.reduce((b, r) => ((r[c.header] as number) > (b[c.header] as number) ? r : b));
      if (ys.filter((y) => y === best[c.header]).length === 1)
        add(
          "argmax",
          [name(best)],
          `Which ${v} ${E.noun} has the ${c.max} ${c.word}?`,
          `Among ${E.plural} with ${k.word} ${v}, which has the ${c.max} ${c.word}?`,
        );
    }
    // extremes and the rows that hold them
    add(
      "max-min value",
      [Math.max(...xs)],
      `What is the ${c.max} ${c.word}?`,
      `What is the maximum ${c.word}?`,
      `${c.max} ${c.word} in the list`,
    );
    add("max-min value", [Math.min(...xs)], `What is the ${c.min} ${c.word}?`, `What is the minimum ${c.word}?`);
    const top = R.reduce((b, r) => ((r[c.header] as number) > (b[c.header] as number) ? r : b));
    const bottom = R.reduce((b, r) => ((r[c.header] as number) < (b[c.header] as number) ? r : b));
    // (a tie at the top has no one answer: no superlative row question over it)
    const unique = (v: number) => xs.filter((y) => y === v).length === 1;
    if (unique(Math.max(...xs)))
      add(
        "argmax",
        [name(top)],
        `${d.which === "who" ? "Who" : `Which ${E.noun}`} has the ${c.max} ${c.word}?`,
        `Which ${E.noun} has the maximum ${c.word}?`,
        `${E.noun} with the ${c.max} ${c.word}`,
      );
    if (unique(Math.min(...xs)))
      add(
        "argmin",
        [name(bottom)],
        `Which ${E.noun} has the ${c.min} ${c.word}?`,
        `Which ${E.noun} has the minimum ${c.word}?`,
        `${E.noun} with the ${c.min} ${c.word}`,
      );
    // thresholds
    const sorted = [...xs].sort((a, b) => a - b);
    const x = sorted[Math.floor(sorted.length * (0.3 + 0.4 * rand()))]!;
    const above = R.filter((r) => (r[c.header] as number) > x);
    const below = R.filter((r) => (r[c.header] as number) < x);
    add(
      "threshold",
      [above.length],
      `How many ${E.plural} have a ${c.word} above ${x}?`,
      `How many ${E.plural} have ${c.word} greater than ${x}?`,
      `number of ${E.plural} with ${c.word} over ${x}`,
    );
    add(
      "threshold",
      [below.length],
      `How many ${E.plural} have a ${c.word} below ${x}?`,
      `How many ${E.plural} have ${c.word} less than ${x}?`,
    );
    if (above.length > 0 && above.length <= 3)
      add(
        "threshold-list",
        above.map(name),
        `Which ${E.plural} have a ${c.word} above ${x}?`,
        `List the ${E.plural} with ${c.word} over ${x}.`,
      );
  }
  // dates and years
  if (d.date) {
    const col = d.date.header;
    const first = R.reduce((b, r) => (String(r[col]) < String(b[col]) ? r : b));
    const last = R.reduce((b, r) => (String(r[col]) > String(b[col]) ? r : b));
    add(
      "date",
      [name(first)],
      `Which ${E.noun} was ${d.date.verb} first?`,
      `Which ${E.noun} has the earliest ${col.toLowerCase()}?`,
    );
    add(
      "date",
      [name(last)],
      `Which ${E.noun} was ${d.date.verb} most recently?`,
      `Which ${E.noun} has the latest ${col.toLowerCase()}?`,
    );
    const r = pick(rand, R);
    add(
      "date",
      [String(r[col])],
      `When was ${name(r)} ${d.date.verb}?`,
      `What is the ${col.toLowerCase()} of ${name(r)}?`,
    );
    const years = R.map((x) => Number(String(x[col]).slice(0, 4))).sort((a, b) => a - b);
    const y = years[Math.floor(years.length / 2)]!;
    add(
      "date",
      [R.filter((x) => Number(String(x[col]).slice(0, 4)) > y).length],
      `How many ${E.plural} were ${d.date.verb} after ${y}?`,
      `How many ${E.plural} were ${d.date.verb} later than ${y}?`,
    );
    const m = 1 + Math.floor(rand() * 12);
    const inMonth = R.filter(
      (x) => Number(String(x[col]).slice(5, 7)) === m && Number(String(x[col]).slice(0, 4)) === y,
    );
    add("date", [inMonth.length], `How many ${E.plural} were ${d.date.verb} in ${MONTHS[m - 1]} ${y}?`);
  }
  if (d.year) {
    const col = d.year.header;
    const ys = R.map((r) => r[col] as number);
    const y = [...ys].sort((a, b) => a - b)[Math.floor(ys.length / 2)]!;
    add(
      "date",
      [ys.filter((v) => v > y).length],
      `How many ${E.plural} were ${d.year.verb} after ${y}?`,
      `How many ${E.plural} were ${d.year.verb} later than ${y}?`,
    );
    add("date", [ys.filter((v) => v < y).length], `How many ${E.plural} were ${d.year.verb} before ${y}?`);
    const r = pick(rand, R);
    add(
      "lookup",
      [r[col] as number],
      `In what year was ${name(r)} ${d.year.verb}?`,
      `When was ${name(r)} ${d.year.verb}?`,
    );
  }
  // two conditions
  const k = d.categories[0]!;
  const c = d.numbers[0]!;
  const v = pick(rand, k.values);
  const xs = nums(c).sort((a, b) => a - b);
  const x = xs[Math.floor(xs.length / 2)]!;
  add(
    "count2",
    [R.filter((r) => r[k.header] === v && (r[c.header] as number) > x).length],
    `How many ${E.plural} with ${k.word} ${v} have a ${c.word} above ${x}?`,
    `How many ${v} ${E.plural} have ${c.word} greater than ${x}?`,
  );
  return out;
}

/** The synthetic tables and questions of one seed: every domain twice, with 12–60 rows. */
export function plainCorpus(seed = 1): { tables: PlainTable[]; questions: PlainQuestion[] } {
  const rand = seededRandom(seed);
  const tables: PlainTable[] = [];
  const questions: PlainQuestion[] = [];
  for (const d of DOMAINS)
    for (let copy = 0; copy < 2; copy++) {
      const most = d.entity.first.length * d.entity.second.length;
      const n = Math.min(most, 12 + Math.floor(rand() * 49));
      const t = tableOf(rand, d, n, `${d.name}_${seed}_${copy}`);
      tables.push(t);
      for (const q of questionsOf(rand, d, t)) questions.push({ id: `plain-${seed}-${questions.length}`, ...q });
    }
  return { tables, questions };
}

/** CSV text of a table (null → empty cell). */
export function plainCsv(t: PlainTable): string {
  const cell = (v: PlainCell) => {
    if (v === null) return "";
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [t.header, ...t.rows].map((r) => r.map(cell).join(",")).join("\n") + "\n";
}

const MONTH_NUMBER = new Map(MONTHS.map((m, i) => [m.toLowerCase(), i + 1]));

/** A date written ISO, "May 3, 2019" or "3 May 2019", as yyyy-mm-dd; else null. */
function dateOf(s: string): string | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return s;
  m = /^([A-Za-z]+)\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m && MONTH_NUMBER.has(m[1]!.toLowerCase()))
    return iso(Number(m[3]), MONTH_NUMBER.get(m[1]!.toLowerCase())!, Number(m[2]));
  m = /^(\d{1,2}) ([A-Za-z]+),? (\d{4})$/.exec(s);
  if (m && MONTH_NUMBER.has(m[2]!.toLowerCase()))
    return iso(Number(m[3]), MONTH_NUMBER.get(m[2]!.toLowerCase())!, Number(m[1]));
  return null;
}

/** Is the answer the gold: numbers within 0.006, dates by day, strings case-insensitively, lists as sets. */
export function plainCorrect(gold: ReadonlyArray<string | number>, answer: string): boolean {
  const items = answer
    .split(/\s*\|\s*|\s*;\s*|,\s+(?=[A-Za-z])|\s+and\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/^the\s+/, "")
      .replace(/[.\s]+$/, "")
      .trim();
  const number = (s: string): number | null => {
    const t = s.replace(/[$€£,\s]/g, "").replace(/%$/, "");
    return /^[-+]?\d+(\.\d+)?$/.test(t) ? Number(t) : null;
  };
  const same = (g: string | number, a: string) => {
    const x = number(String(g));
    const y = number(a);
    if (x !== null && y !== null) return Math.abs(x - y) <= 0.006;
    const dg = dateOf(String(g));
    if (dg !== null && dg === dateOf(a)) return true;
    return norm(String(g)) === norm(a);
  };
  if (gold.length === 1) return same(gold[0]!, answer.trim()) || (items.length === 1 && same(gold[0]!, items[0]!));
  if (items.length !== gold.length) return false;
  return gold.every((g) => items.some((a) => same(g, a))) && items.every((a) => gold.some((g) => same(g, a)));
}
