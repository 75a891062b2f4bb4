/**
 * Word lists the matchers share: months and weekdays, ordinals, number words, superlatives, the
 * nouns that say a question asks for a person or a place, and the countries demonyms name (with
 * their codes) and the cells gender words name. One list each, with lookups and the
 * regular-expression alternations built from them (longest alternative first, so "sept" wins over
 * "sep" and "september" over both).
 */

/** Alternation source of `words`, longest first, regex-escaped. */
export function alternation(words: Iterable<string>): string {
  return [...new Set(words)]
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|");
}

// ── months and weekdays ──────────────────────────────────────────────────────────────────────────

export const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;

/** Abbreviations written in tables and passages ("Sept." too). */
export const MONTH_ABBREVIATIONS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const MONTH_NUMBERS: ReadonlyMap<string, number> = new Map([
  ...MONTH_NAMES.map((m, i) => [m, i + 1] as [string, number]),
  ...Object.entries(MONTH_ABBREVIATIONS),
]);

/** 1–12 for a month name or abbreviation in any case, with or without a final dot; else undefined. */
export function monthNumber(word: string): number | undefined {
  return MONTH_NUMBERS.get(word.toLowerCase().replace(/\.$/, ""));
}

/** Alternation of the full month names (lower case; use the `i` flag for other cases). */
export const MONTH_NAME_PATTERN = alternation(MONTH_NAMES);
/** Alternation of full names and abbreviations. */
export const MONTH_PATTERN = alternation(MONTH_NUMBERS.keys());

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** How tables shorten a weekday or month name ("Tue", "Tues", "Sept"): the full name's short forms, longest first. */
export function calendarShortForms(word: string): string[] {
  const w = word.toLowerCase();
  if ((WEEKDAYS as readonly string[]).includes(w))
    return [...(w === "tuesday" ? ["tues"] : w === "thursday" ? ["thurs", "thur", "thu"] : []), w.slice(0, 3)];
  if ((MONTH_NAMES as readonly string[]).includes(w) && w.length > 4)
    return [...(w === "september" ? ["sept"] : []), w.slice(0, 3)];
  return [];
}

// ── ordinals and number words ────────────────────────────────────────────────────────────────────

export const ORDINAL_WORDS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
] as const;
export const ORDINAL_PATTERN = alternation(ORDINAL_WORDS);

/** 1 for "first" or "1st", 12 for "12th"; undefined for anything else. */
export function ordinalValue(word: string): number | undefined {
  const w = word.toLowerCase();
  const digits = /^(\d+)(?:st|nd|rd|th)$/.exec(w);
  if (digits) return Number(digits[1]);
  const i = (ORDINAL_WORDS as readonly string[]).indexOf(w);
  return i >= 0 ? i + 1 : undefined;
}

const UNITS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** Number words with their values: zero–nineteen, the tens, hundred, thousand. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = Object.fromEntries([
  ...UNITS.map((w, i) => [w, i]),
  ...TENS.map((w, i) => [w, 20 + 10 * i]),
  ["hundred", 100],
  ["thousand", 1000],
]);

/** Alternation of the one-word numbers one–ninety (no zero, hundred or thousand). */
export const NUMBER_WORD_PATTERN = alternation([...UNITS.slice(1), ...TENS]);
/** Alternation of the tens ("twenty" … "ninety"), for compounds like "twenty-one". */
export const TENS_PATTERN = alternation(TENS);
/** Alternation of "one" … "nine". */
export const DIGIT_WORD_PATTERN = alternation(UNITS.slice(1, 10));

/** The value of a number word ("seven" → 7, "twenty-one" → 21); undefined for other words. */
export function numberWordValue(word: string): number | undefined {
  const w = word.toLowerCase();
  if (Object.hasOwn(NUMBER_WORDS, w)) return NUMBER_WORDS[w];
  const m = /^([a-z]+)-([a-z]+)$/.exec(w);
  if (m && TENS.includes(m[1]!) && UNITS.indexOf(m[2]!) >= 1 && UNITS.indexOf(m[2]!) <= 9)
    return NUMBER_WORDS[m[1]!]! + UNITS.indexOf(m[2]!);
  return undefined;
}

// ── superlatives ─────────────────────────────────────────────────────────────────────────────────

/** Superlatives that ask for a maximum (then comparatives, which analysis reads the same way). */
export const MAX_SUPERLATIVES = [
  "most",
  "highest",
  "largest",
  "biggest",
  "greatest",
  "top",
  "best",
  "maximum",
  "longest",
  "tallest",
  "heaviest",
  "oldest",
  "farthest",
  "furthest",
  "fastest",
  "quickest",
  "latest",
  "newest",
  "deepest",
  "widest",
  "busiest",
  "strongest",
  "richest",
  "hottest",
  "priciest",
  "dearest",
  "wettest",
  "warmest",
  "windiest",
  "rainiest",
  "sunniest",
  "snowiest",
] as const;
export const MIN_SUPERLATIVES = [
  "least",
  "lowest",
  "smallest",
  "fewest",
  "minimum",
  "shortest",
  "worst",
  "earliest",
  "youngest",
  "slowest",
  "lightest",
  "closest",
  "nearest",
  "cheapest",
  "coldest",
  "weakest",
  "driest",
  "coolest",
] as const;
export const MAX_COMPARATIVES = [
  "higher",
  "larger",
  "bigger",
  "greater",
  "longer",
  "taller",
  "better",
  "more",
  "heavier",
  "older",
  "faster",
  "quicker",
  "later",
  "newer",
  "deeper",
  "wider",
  "busier",
  "stronger",
  "richer",
  "hotter",
] as const;
export const MIN_COMPARATIVES = [
  "lower",
  "smaller",
  "fewer",
  "shorter",
  "less",
  "worse",
  "earlier",
  "younger",
  "slower",
  "lighter",
  "closer",
  "nearer",
  "cheaper",
  "colder",
  "weaker",
] as const;

/** Alternation of every superlative (max and min). */
export const SUPERLATIVE_PATTERN = [...MAX_SUPERLATIVES, ...MIN_SUPERLATIVES].join("|");

/** "max", "min" or undefined for one word (superlatives, comparatives, "max"/"min" themselves). */
export function superlativeDirection(word: string): "max" | "min" | undefined {
  const w = word.toLowerCase();
  if (
    w === "max" ||
    w === "highest-ranked" ||
    (MAX_SUPERLATIVES as readonly string[]).includes(w) ||
    (MAX_COMPARATIVES as readonly string[]).includes(w)
  )
    return "max";
  if (
    w === "min" ||
    (MIN_SUPERLATIVES as readonly string[]).includes(w) ||
    (MIN_COMPARATIVES as readonly string[]).includes(w)
  )
    return "min";
  return undefined;
}

// ── nouns that name the kind of answer ───────────────────────────────────────────────────────────

/** Nouns for people ("which player", "the coach of"). Singular; `nounPattern` adds plurals. */
export const PERSON_NOUNS = [
  "person",
  "people",
  "player",
  "man",
  "woman",
  "driver",
  "athlete",
  "coach",
  "manager",
  "actor",
  "actress",
  "singer",
  "artist",
  "director",
  "author",
  "writer",
  "candidate",
  "member",
  "rider",
  "runner",
  "swimmer",
  "winner",
  "champion",
  "captain",
  "president",
  "governor",
  "mayor",
  "skier",
  "skater",
  "boxer",
  "wrestler",
  "pitcher",
  "golfer",
  "cyclist",
  "composer",
  "producer",
  "founder",
  "owner",
  "politician",
  "footballer",
  "scorer",
  "opponent",
  "competitor",
  "contestant",
  "king",
  "queen",
  "senator",
  "representative",
  "nominee",
  "chairman",
  "leader",
  "minister",
  "husband",
  "wife",
  "son",
  "daughter",
  "father",
  "mother",
  "brother",
  "sister",
  "curator",
  "teacher",
  "doctor",
  "mechanic",
  "technician",
  "instructor",
  "chef",
  "applicant",
  "volunteer",
  "salesperson",
  "salesman",
  "saleswoman",
] as const;

/**
 * Header words of a column that holds people: what a "who" question's column is called, and the
 * columns a person answer prefers (nodes/offline/columns.ts).
 */
export const PERSON_HEADERS = [
  "name",
  "player",
  "athlete",
  "driver",
  "rider",
  "winner",
  "artist",
  "candidate",
  "member",
  "person",
  "coach",
  "manager",
  "champion",
  "actor",
  "actress",
  "director",
  "author",
  "writer",
  "pilot",
  "skier",
  "wrestler",
  "boxer",
  "incumbent",
  "representative",
  "nominee",
  "cyclist",
  "swimmer",
  "runner",
  "competitor",
  "performer",
  "singer",
  "composer",
  "governor",
  "mayor",
  "president",
  "holder",
  "student",
  "employee",
  "client",
  "customer",
  "passenger",
  "pupil",
  "borrower",
  "buyer",
  "seller",
  "tenant",
  "owner",
  "teacher",
  "patient",
  "guest",
  "doctor",
  "physician",
  "nurse",
  "instructor",
  "trainer",
  "assignee",
  "assigned",
  "supplier",
  "vendor",
  "creator",
  "founder",
  "observer",
  "organiser",
  "organizer",
  "mechanic",
  "technician",
  "curator",
  "volunteer",
  "applicant",
  "vet",
  "chef",
  "agent",
  "baker",
  "translator",
  "hygienist",
] as const;

/** Nouns of people as rows are people: the person nouns and person headers, not "name", "holder", "assigned". */
export const PEOPLE_NOUNS: readonly string[] = [...PERSON_NOUNS, ...PERSON_HEADERS].filter(
  (n) => !/^(name|holder|assigned)$/.test(n),
);

/** Nouns for places ("which city", "the venue of"). Singular; `nounPattern` adds plurals. */
export const PLACE_NOUNS = [
  "country",
  "nation",
  "city",
  "town",
  "state",
  "county",
  "province",
  "region",
  "place",
  "location",
  "venue",
  "stadium",
  "arena",
  "village",
  "district",
  "island",
  "continent",
  "borough",
  "municipality",
  "capital",
  "hometown",
  "birthplace",
  "headquarters",
  "address",
  "street",
  "river",
  "mountain",
  "neighborhood",
  "suburb",
] as const;

/** Alternation of nouns with their plurals ("city" → "city|cities", "coach" → "coach|coaches"). */
export function nounPattern(nouns: readonly string[]): string {
  const plural = (n: string) =>
    /[^aeiou]y$/.test(n)
      ? `${n.slice(0, -1)}ies`
      : /(s|x|ch|sh)$/.test(n)
        ? `${n}es`
        : n === "man"
          ? "men"
          : n === "woman"
            ? "women"
            : n === "people"
              ? n
              : `${n}s`;
  return alternation(nouns.flatMap((n) => [n, plural(n)]));
}

/**
 * Units of weight, length, area, volume, energy and money as questions and headers write them: amounts
 * measured, not things counted ("how many tonnes …" may be 234.2; "how many crates …" is whole).
 */
const MEASURE_UNIT_WORDS: ReadonlySet<string> = new Set(
  (
    "km m cm mm mi mile miles kilometer kilometers kilometre kilometres meter meters metre metres feet ft sq " +
    "inch inches kg g gram grams kilo kilos kilogram kilograms lb lbs pound pounds ton tons tonne tonnes " +
    "litre litres liter liters l ml gallon gallons acre acres hectare hectares ha kwh dollars euros percent"
  ).split(" "),
);

/** A unit of a measured amount (MEASURE_UNIT_WORDS) or of time ("hours"): 52.5 of them is an answer. */
export function isMeasureUnit(word: string): boolean {
  return MEASURE_UNIT_WORDS.has(word) || minutesPerTimeUnit(word) !== undefined;
}

/** Units of time as questions and headers write them, in minutes ("over an hour" of a "Delay (min)" column is 60). */
const MINUTES_PER_TIME_UNIT: Readonly<Record<string, number>> = {
  second: 1 / 60,
  seconds: 1 / 60,
  sec: 1 / 60,
  secs: 1 / 60,
  minute: 1,
  minutes: 1,
  min: 1,
  mins: 1,
  hour: 60,
  hours: 60,
  hr: 60,
  hrs: 60,
  day: 1440,
  days: 1440,
  week: 10080,
  weeks: 10080,
};

/** Minutes per unit of a time word ("hrs" → 60); undefined for other words. */
export function minutesPerTimeUnit(word: string): number | undefined {
  return Object.hasOwn(MINUTES_PER_TIME_UNIT, word) ? MINUTES_PER_TIME_UNIT[word] : undefined;
}

/** Irregular verb forms and their base: "spent" of a "Spend" header, "sell" of "Units Sold". */
const IRREGULAR_VERBS: Readonly<Record<string, readonly string[]>> = {
  spend: ["spent"],
  sell: ["sold"],
  pay: ["paid"],
  buy: ["bought"],
  win: ["won"],
  lose: ["lost"],
  make: ["made"],
  build: ["built"],
  teach: ["taught"],
  write: ["wrote", "written"],
  drive: ["drove", "driven"],
  give: ["gave", "given"],
  take: ["took", "taken"],
  leave: ["left"],
  begin: ["began", "begun"],
  hold: ["held"],
  meet: ["met"],
  run: ["ran"],
  swim: ["swam", "swum"],
  ride: ["rode", "ridden"],
  eat: ["ate", "eaten"],
  grow: ["grew", "grown"],
  fly: ["flew", "flown"],
  draw: ["drew", "drawn"],
  beat: ["beaten"],
  bring: ["brought"],
  keep: ["kept"],
  send: ["sent"],
  find: ["found"],
  throw: ["threw", "thrown"],
  wear: ["wore", "worn"],
  choose: ["chose", "chosen"],
  catch: ["caught"],
};
const IRREGULAR_FORMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(IRREGULAR_VERBS).flatMap(([base, forms]) => {
    const all = [base, ...forms];
    return all.map((f) => [f, all.filter((x) => x !== f)] as const);
  }),
);

/** The other forms of an irregular verb ("spent" → spend; "sell" → sold), or none. */
export function irregularForms(word: string): readonly string[] {
  return IRREGULAR_FORMS.get(word) ?? [];
}

/**
 * The singulars a plural noun may have ("batteries" → battery, "boxes" → box, "loaves" → loaf, loafe), or none
 * for a word that is no regular plural. Candidates only: the caller keeps the one a table holds.
 */
export function singularForms(word: string): string[] {
  if (!/[^s]s$/.test(word)) return [];
  return [
    word.endsWith("ies") ? `${word.slice(0, -3)}y` : word.slice(0, -1),
    // ("canvases" of Canvas, "buses" of Bus.)
    ...(/(?:ch|sh|x|ss|[aeiou]s|z)es$/.test(word) ? [word.slice(0, -2)] : []),
    // ("sourdough loaves" of Sourdough Loaf, "knives" of Knife.)
    ...(/ves$/.test(word) ? [`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`] : []),
  ];
}

// ── countries, genders and compass points ──────────────────────────────────────────────────────────────

/** Compass words → the point as a wind or a bearing column writes it (normalised): "north" of N. */
export const COMPASS_CELLS: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    north: "n",
    south: "s",
    east: "e",
    west: "w",
    northeast: "ne",
    northwest: "nw",
    southeast: "se",
    southwest: "sw",
    northerly: "n",
    southerly: "s",
    easterly: "e",
    westerly: "w",
  },
);

/** A column of compass points: every filled cell is one (N, SW, NNE). */
export const COMPASS_POINT = /^(?:n|s|e|w|ne|nw|se|sw|nne|ene|ese|sse|ssw|wsw|wnw|nnw)$/;

const FEMALE = ["f", "female", "w", "women", "woman"];
const MALE = ["m", "male", "men", "man"];
/** Gender words → the cells a gender column writes them as. */
export const GENDER_CELLS: Record<string, string[] | undefined> = Object.assign(Object.create(null) as object, {
  women: FEMALE,
  woman: FEMALE,
  female: FEMALE,
  females: FEMALE,
  ladies: FEMALE,
  girls: FEMALE,
  men: MALE,
  man: MALE,
  male: MALE,
  males: MALE,
  boys: MALE,
});

/** Common demonyms → the country name as normalised cell text (general English, not a data list). */
const DEMONYMS: Record<string, string> = {
  american: "united states",
  americans: "united states",
  british: "great britain",
  english: "england",
  scottish: "scotland",
  welsh: "wales",
  irish: "ireland",
  french: "france",
  german: "germany",
  germans: "germany",
  italian: "italy",
  italians: "italy",
  spanish: "spain",
  spaniards: "spain",
  portuguese: "portugal",
  dutch: "netherlands",
  belgian: "belgium",
  belgians: "belgium",
  swiss: "switzerland",
  austrian: "austria",
  austrians: "austria",
  swedish: "sweden",
  swedes: "sweden",
  norwegian: "norway",
  norwegians: "norway",
  danish: "denmark",
  danes: "denmark",
  finnish: "finland",
  finns: "finland",
  russian: "russia",
  russians: "russia",
  polish: "poland",
  poles: "poland",
  czech: "czech republic",
  hungarian: "hungary",
  hungarians: "hungary",
  romanian: "romania",
  romanians: "romania",
  bulgarian: "bulgaria",
  greek: "greece",
  greeks: "greece",
  turkish: "turkey",
  ukrainian: "ukraine",
  ukrainians: "ukraine",
  croatian: "croatia",
  serbian: "serbia",
  slovak: "slovakia",
  slovenian: "slovenia",
  japanese: "japan",
  chinese: "china",
  korean: "south korea",
  koreans: "south korea",
  indian: "india",
  indians: "india",
  pakistani: "pakistan",
  thai: "thailand",
  vietnamese: "vietnam",
  filipino: "philippines",
  indonesian: "indonesia",
  malaysian: "malaysia",
  australian: "australia",
  australians: "australia",
  canadian: "canada",
  canadians: "canada",
  mexican: "mexico",
  mexicans: "mexico",
  brazilian: "brazil",
  brazilians: "brazil",
  argentine: "argentina",
  argentinian: "argentina",
  argentines: "argentina",
  chilean: "chile",
  colombian: "colombia",
  peruvian: "peru",
  venezuelan: "venezuela",
  cuban: "cuba",
  cubans: "cuba",
  jamaican: "jamaica",
  jamaicans: "jamaica",
  kenyan: "kenya",
  kenyans: "kenya",
  ethiopian: "ethiopia",
  ethiopians: "ethiopia",
  nigerian: "nigeria",
  egyptian: "egypt",
  moroccan: "morocco",
  israeli: "israel",
  iranian: "iran",
  zealanders: "new zealand",
  estonian: "estonia",
  latvian: "latvia",
  lithuanian: "lithuania",
  icelandic: "iceland",
  belarusian: "belarus",
  kazakh: "kazakhstan",
  georgian: "georgia",
  armenian: "armenia",
};

/** A country's codes as tables write them (IOC and ISO 3166 alpha-3, normalised), by its DEMONYMS name. */
export const COUNTRY_CODES: Readonly<Record<string, readonly string[] | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    "united states": ["usa", "us"],
    "great britain": ["gbr", "uk"],
    england: ["eng"],
    scotland: ["sco"],
    wales: ["wal"],
    ireland: ["irl"],
    france: ["fra"],
    germany: ["ger", "deu"],
    italy: ["ita"],
    spain: ["esp"],
    portugal: ["por", "prt"],
    netherlands: ["ned", "nld"],
    belgium: ["bel"],
    switzerland: ["sui", "che"],
    austria: ["aut"],
    sweden: ["swe"],
    norway: ["nor"],
    denmark: ["den", "dnk"],
    finland: ["fin"],
    russia: ["rus"],
    poland: ["pol"],
    "czech republic": ["cze"],
    hungary: ["hun"],
    romania: ["rou", "rom"],
    bulgaria: ["bul", "bgr"],
    greece: ["gre", "grc"],
    turkey: ["tur"],
    ukraine: ["ukr"],
    croatia: ["cro", "hrv"],
    serbia: ["srb"],
    slovakia: ["svk"],
    slovenia: ["slo", "svn"],
    japan: ["jpn"],
    china: ["chn"],
    "south korea": ["kor"],
    india: ["ind"],
    pakistan: ["pak"],
    thailand: ["tha"],
    vietnam: ["vie", "vnm"],
    philippines: ["phi", "phl"],
    indonesia: ["ina", "idn"],
    malaysia: ["mas", "mys"],
    australia: ["aus"],
    canada: ["can"],
    mexico: ["mex"],
    brazil: ["bra"],
    argentina: ["arg"],
    chile: ["chi", "chl"],
    colombia: ["col"],
    peru: ["per"],
    venezuela: ["ven"],
    cuba: ["cub"],
    jamaica: ["jam"],
    kenya: ["ken"],
    ethiopia: ["eth"],
    nigeria: ["ngr", "nga"],
    egypt: ["egy"],
    morocco: ["mar"],
    israel: ["isr"],
    iran: ["iri", "irn"],
    "new zealand": ["nzl"],
    estonia: ["est"],
    latvia: ["lat", "lva"],
    lithuania: ["ltu"],
    iceland: ["isl"],
    belarus: ["blr"],
    kazakhstan: ["kaz"],
    georgia: ["geo"],
    armenia: ["arm"],
  },
);

/** (A country's adjective is no singular of its name: "philippine" is not one of "Philippines".) */
export const COUNTRY_NAMES: ReadonlySet<string> = new Set(Object.values(DEMONYMS));

/** The country a demonym names, or undefined. */
export function demonymCountry(word: string): string | undefined {
  return Object.hasOwn(DEMONYMS, word) ? DEMONYMS[word] : undefined;
}

/** The country whose name (one or two words, as COUNTRY_CODES spells it) starts at tokens[s], and its length. */
export function countryNameAt(tokens: readonly string[], s: number): { country: string; n: number } | undefined {
  for (const n of [2, 1]) {
    const name = tokens.slice(s, s + n).join(" ");
    if (s + n <= tokens.length && Object.hasOwn(COUNTRY_CODES, name)) return { country: name, n };
  }
  return undefined;
}
