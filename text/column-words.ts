/**
 * Column words: how a user's plain wording names a table column whose header uses another word.
 * Hand-written, general English (never a benchmark's wording): a question says "cost" of a `fare`
 * column, "populous" of `population`, "units" of `quantity`, "oldest" of `founded`, "how long" of
 * `duration`. Used by the offline column matcher (nodes/offline/columns.ts `headerMatch`: a word
 * whose related words include a header word names that column, with less weight than the header
 * word itself) and by the question analysis ("how long …" asks for a duration, a number).
 *
 * Keys are question words (or their stems); values are header words (matched stemmed).
 */
import { PERSON_HEADERS } from "./lexicons.js";
import { stem } from "./stem.js";

const STRENGTH = ["rating", "strength", "elo", "power"];
const BUSYNESS = ["riders", "ridership", "passengers", "visitors", "traffic", "footfall", "attendance", "trips"];
const GIVEN = ["amount", "donation", "gift", "total"];

/** Question word → header words it often means. */
export const COLUMN_WORDS: Readonly<Record<string, readonly string[]>> = {
  // People and places.
  who: [...PERSON_HEADERS, "title"],
  where: [
    "venue",
    "location",
    "city",
    "place",
    "country",
    "stadium",
    "site",
    "ground",
    "arena",
    "host",
    "destination",
    "enclosure",
    "habitat",
    "zone",
    "area",
    "office",
    "branch",
    "town",
    "base",
  ],
  // ("where does Nora work?": her Office or Branch.)
  work: ["office", "branch", "site", "workplace", "employer", "location"],
  // ("where does Pika live?", "who looks after Amani?")
  // (Stemmed too: "lives", "looks".)
  live: ["enclosure", "habitat", "address", "city", "town", "home", "residence", "hometown"],
  look: ["keeper", "carer", "caretaker", "guardian", "handler"],
  // ("how many goals did we concede?": the other side's score.)
  concede: ["ga", "against", "conceded", "allowed", "their", "opponent"],
  // ("which project is due first?": its Deadline.)
  due: ["due", "deadline"],
  // ("who was seen most recently?": the last visit.)
  seen: ["visit", "seen", "appointment"],
  // ("faster than 37 kmh": a speed.)
  kmh: ["speed"],
  kph: ["speed"],
  mph: ["speed"],
  // ("how much went out?" of a bank statement: its Debit column.)
  went: ["debit", "withdrawal", "spent", "out"],
  // ("how many miles has the Yaris done?": its Mileage.)
  miles: ["mileage", "odometer", "distance", "mile", "mi"],
  // ("the top 3 earners": the best paid.)
  earner: ["salary", "pay", "wage", "income", "earnings"],
  earners: ["salary", "pay", "wage", "income", "earnings"],
  // ("who is handling T-9?": the ticket's agent.)
  handl: ["agent", "assignee", "assigned", "handler", "owner"],
  handle: ["agent", "assignee", "assigned", "handler", "owner"],
  location: ["location", "bin", "shelf", "aisle"],
  go: ["destination", "to"],
  goes: ["destination", "to"],
  headed: ["destination", "to"],
  destination: ["destination", "to"],
  leave: ["departure", "depart", "departs"],
  leaves: ["departure", "depart", "departs"],
  depart: ["departure", "depart", "departs"],
  departs: ["departure", "depart", "departs"],
  arrive: ["arrival", "arrive", "arrives", "intake", "received"],
  arrives: ["arrival", "arrive", "arrives", "intake", "received"],
  arrived: ["arrival", "arrive", "arrived", "intake", "received"],
  // "who is shipping X", "which courier": the carrier.
  shipping: ["carrier", "courier", "shipper"],
  courier: ["carrier", "courier", "shipper"],
  // Time and dates.
  year: ["year", "season", "date"],
  when: ["date", "year", "season", "time"],
  day: ["date", "day"],
  days: ["date", "day"],
  earliest: ["date", "year", "season", "founded", "established", "opened", "start"],
  latest: ["date", "year", "season"],
  recent: ["date", "year", "season"],
  oldest: ["age", "born", "birth", "dob", "date", "year", "established", "founded", "built"],
  youngest: ["age", "born", "birth", "dob", "date", "year"],
  old: ["age", "founded", "established", "built"],
  age: ["age", "born"],
  // (Not "date": "when was X born?" already asks for a date; "born" says which one.)
  born: ["born", "birth", "year", "dob"],
  founded: ["founded", "established", "year", "date"],
  founding: ["founded", "established", "year", "date"],
  established: ["established", "founded", "year", "date"],
  built: ["built", "year", "date", "completed", "opened"],
  released: ["release", "date", "year", "published", "launched"],
  release: ["release", "date", "year", "published", "launched"],
  published: ["published", "publication", "year", "date", "release"],
  // ("how many animals came in during july": the intake, not the birth date; "how much money came in?" of a bank
  // statement: its Credit column.)
  came: ["intake", "arrival", "arrived", "admitted", "admission", "entry", "credit", "deposit"],
  started: ["start", "hire", "hired", "joined", "date", "since"],
  start: ["start", "hire", "hired", "joined", "date", "since"],
  joined: ["start", "join", "joined", "hire", "hired", "date", "since"],
  join: ["start", "join", "joined", "hire", "hired", "date", "since"],
  hired: ["hire", "hired", "start", "date"],
  // ("which course has the most students?" of an Enrolled column.)
  students: ["enrolled", "enrollment", "enrolment", "pupils"],
  pupils: ["enrolled", "enrollment", "enrolment", "students"],
  // ("how many people ride the buses?" of Daily Riders.)
  ride: ["riders", "ridership", "passengers"],
  enroll: ["enrolled", "enrollment", "enrolment", "date"],
  enrolled: ["enrolled", "enrollment", "enrolment", "date"],
  enrollment: ["enrolled", "enrollment", "enrolment", "date"],
  issued: ["issued", "issue", "date"],
  time: ["time", "duration", "length"],
  // Sizes and measures.
  tallest: ["height", "m", "ft", "feet", "meter", "metre"],
  height: ["height", "ft", "m"],
  tall: ["height", "ft", "m"],
  high: ["height", "elevation", "altitude"],
  longest: ["length", "time", "duration", "km", "mile", "distance", "page", "minute", "hour", "day", "runtime"],
  shortest: ["length", "time", "duration", "km", "mile", "distance", "page", "minute", "hour", "day", "runtime"],
  long: ["length", "time", "duration", "minute", "hour", "runtime"],
  length: ["length", "time", "duration", "km", "mile"],
  duration: ["duration", "time", "length", "minute", "hour", "runtime"],
  runtime: ["runtime", "duration", "length", "minute"],
  fastest: ["time", "speed"],
  slowest: ["time", "speed"],
  speed: ["speed", "time"],
  largest: ["size", "area", "sq", "sqft", "sqm", "population", "capacity", "total", "amount", "value"],
  biggest: ["size", "area", "sq", "sqft", "sqm", "population", "capacity", "total", "amount", "value"],
  smallest: ["size", "area", "sq", "sqft", "sqm", "population", "capacity", "total", "amount", "value"],
  big: ["size", "area", "capacity"],
  area: ["area", "km2", "km²", "size"],
  capacity: ["capacity", "seat"],
  elevation: ["elevation", "height", "altitude"],
  floors: ["floor", "storey", "stories"],
  bedrooms: ["bed", "bedroom", "br", "room"],
  bedroom: ["bed", "bedroom", "br", "room"],
  weight: ["weight", "kg", "lb"],
  weigh: ["weight", "kg", "lb"],
  weighs: ["weight", "kg", "lb"],
  heavy: ["weight", "kg", "lb"],
  heaviest: ["weight", "kg", "lb"],
  lightest: ["weight", "kg", "lb"],
  distance: ["distance", "dist", "km", "mile", "length"],
  // Units and their typed shortenings ("Pax", "Tix", "Sq Ft", "Dist. (km)").
  passengers: ["pax", "passenger", "passengers"],
  prescription: ["rx", "prescription"],
  hear: ["source", "channel", "referral"],
  heard: ["source", "channel", "referral"],
  missed: ["absences", "absence", "absent", "missed"],
  move: ["available", "move", "moving", "start"],
  prescriptions: ["rx", "prescription"],
  passenger: ["pax", "passenger"],
  tickets: ["tix", "ticket", "sold"],
  footage: ["sq", "ft", "sqft", "size", "area"],
  feet: ["sq", "ft", "sqft", "size"],
  square: ["sq", "sqft", "sqm", "area", "size"],
  minutes: ["min", "mins", "minute", "duration"],
  km: ["km", "dist", "distance"],
  // (A unit spelled out names the header that abbreviates it: "how many kilometres …" of "Distance (km)".)
  kilometres: ["km", "kilometre", "distance"],
  kilometers: ["km", "kilometer", "distance"],
  kilograms: ["kg", "kilogram", "weight"],
  kilos: ["kg", "kilo", "weight"],
  litres: ["l", "litre", "volume"],
  liters: ["l", "liter", "volume"],
  mileage: ["mileage", "odometer", "km", "mile", "miles"],
  odometer: ["odometer", "mileage", "km", "mile"],
  far: ["distance", "km", "mile"],
  farthest: ["distance", "dist", "km", "mile"],
  furthest: ["distance", "dist", "km", "mile"],
  deep: ["depth"],
  wide: ["width"],
  // (A temperature's header may be its unit alone: "High (C)", "Low °F".)
  temperature: ["temperature", "temp", "c", "f", "celsius", "fahrenheit"],
  temp: ["temperature", "temp", "c", "f", "celsius", "fahrenheit"],
  hot: ["temperature", "temp", "c", "f", "high", "max"],
  hottest: ["temperature", "temp", "c", "f", "high", "max"],
  warm: ["temperature", "temp", "c", "f", "high", "max"],
  warmest: ["temperature", "temp", "c", "f", "high", "max"],
  cold: ["temperature", "temp", "c", "f", "low", "min"],
  coldest: ["temperature", "temp", "c", "f", "low", "min"],
  rain: ["rain", "rainfall", "precipitation", "mm"],
  rained: ["rain", "rainfall", "precipitation", "mm"],
  rainy: ["rain", "rainfall", "precipitation", "mm"],
  wettest: ["rain", "rainfall", "precipitation", "mm", "moisture", "humidity"],
  driest: ["rain", "rainfall", "precipitation", "mm", "moisture", "humidity"],
  rainiest: ["rain", "rainfall", "precipitation", "mm"],
  // ("above 30 degrees": a temperature.)
  degrees: ["temperature", "temp", "high"],
  coolest: ["temperature", "temp", "c", "f", "low", "min"],
  windiest: ["wind", "gust"],
  sunniest: ["sun", "sunshine"],
  snowiest: ["snow", "snowfall"],
  // A stay is counted in nights.
  stay: ["night", "nights", "stay"],
  stayed: ["night", "nights", "stay"],
  // Energy: "how much electricity did X use" reads the kWh column.
  electricity: ["kwh", "usage", "consumption", "energy"],
  energy: ["kwh", "usage", "consumption", "energy"],
  usage: ["kwh", "usage", "consumption", "used"],
  used: ["kwh", "usage", "consumption", "used"],
  use: ["kwh", "usage", "consumption", "used"],
  consumption: ["kwh", "usage", "consumption"],
  // A garden's or farm's crop.
  harvest: ["yield", "harvest", "crop"],
  harvested: ["yield", "harvest", "crop"],
  produce: ["yield", "harvest", "output", "production", "producer"],
  produced: ["yield", "harvest", "output", "production", "producer"],
  yielded: ["yield", "harvest"],
  germinate: ["germination", "germ"],
  germinated: ["germination", "germ"],
  resolve: ["resolution", "resolved"],
  resolved: ["resolution", "resolved"],
  // "what bird was seen" (in a log of sightings): the species.
  bird: ["species", "bird"],
  // Food: a recipe's energy and servings.
  calories: ["kcal", "calorie", "cal", "energy"],
  calorie: ["kcal", "calorie", "cal", "energy"],
  calorific: ["kcal", "calorie", "cal", "energy"],
  serve: ["serves", "serving", "portion"],
  servings: ["serves", "serving", "portion"],
  // A tree's trunk is measured by its diameter (DBH).
  trunk: ["diameter", "dbh", "girth", "trunk"],
  diameter: ["diameter", "dbh", "width"],
  widest: ["width", "diameter", "dbh", "wide"],
  // Fundraising: "how much did X raise", "the target" of a campaign.
  raise: ["pledged", "raised", "funding", "funded", "donation", "amount"],
  raised: ["pledged", "raised", "funding", "funded", "donation", "amount"],
  target: ["goal", "target", "objective"],
  // Food and licences expire: a "Best Before", "Use By" or "Expiry" date.
  expire: ["expiry", "expires", "expiration", "best", "use"],
  expires: ["expiry", "expires", "expiration", "best", "use"],
  expired: ["expiry", "expires", "expiration", "best", "use"],
  expiry: ["expiry", "expires", "expiration", "best", "use"],
  // A parcel sent is shipped, dispatched or posted.
  sent: ["shipped", "sent", "dispatched", "posted", "mailed"],
  // Whoever teaches a course: "who teaches X?" of a Lecturer or Instructor column.
  teacher: ["teacher", "lecturer", "instructor", "tutor", "professor"],
  instructor: ["teacher", "lecturer", "instructor", "tutor", "professor"],
  lecturer: ["teacher", "lecturer", "instructor", "tutor", "professor"],
  tutor: ["teacher", "lecturer", "instructor", "tutor"],
  // "how many birds were counted", "the biggest flock": a tally column.
  reading: ["kwh", "usage", "reading", "value", "level", "measurement"],
  readings: ["kwh", "usage", "reading", "value", "level", "measurement"],
  paying: ["rate", "price", "pay", "fee", "cost", "amount"],
  counted: ["qty", "quantity", "count", "number", "tally", "total"],
  count: ["qty", "quantity", "count", "number", "tally"],
  observer: ["observer", "seen", "spotted", "recorder", "logged"],
  observers: ["observer", "seen", "spotted", "recorder", "logged"],
  logged: ["logged", "recorded", "seen", "by", "observer", "recorder"],
  flock: ["qty", "quantity", "count", "number"],
  // Counts of people and things.
  populous: ["population", "pop", "inhabitant"],
  populated: ["population", "pop"],
  population: ["population", "pop", "inhabitant"],
  residents: ["population", "pop", "inhabitant"],
  people: [
    "population",
    "attendance",
    "attendee",
    "pop",
    "crowd",
    "party",
    "guest",
    "traveller",
    "traveler",
    "passenger",
    "participant",
    "headcount",
  ],
  guests: ["guest", "party", "pax", "covers"],
  attendance: ["attendance", "attendee", "crowd", "spectator"],
  // ("what kind of animal is Jasper?": its Species.)
  kind: ["species", "category", "variety"],
  attended: ["attendance", "attendee", "crowd", "spectator"],
  attendees: ["attendance", "crowd", "spectator"],
  // ("where is X based?": the office or site a row belongs to.)
  based: ["office", "location", "base", "site", "branch", "hq", "city"],
  headquartered: ["headquarters", "hq", "head", "office", "city"],
  spectators: ["attendance", "crowd", "spectator"],
  fans: ["attendance", "crowd", "fan", "follower"],
  visitors: ["visitor", "attendance", "footfall"],
  crowd: ["attendance", "attendee", "crowd"],
  units: ["quantity", "qty", "stock", "unit", "hand"],
  quantity: ["quantity", "qty", "unit"],
  stock: ["stock", "quantity", "qty", "inventory", "hand"],
  stocked: ["stock", "quantity", "qty"],
  stored: ["stock", "quantity", "qty", "bin", "shelf", "aisle", "location"],
  hand: ["hand", "stock", "quantity", "qty"],
  pieces: ["quantity", "qty", "piece"],
  // Money.
  money: ["prize", "earning", "money", "purse", "gross", "revenue", "budget", "box", "office", "amount", "fee"],
  prize: ["prize", "earning", "winning", "purse", "money"],
  prizes: ["prize", "earning", "winning", "purse", "money"],
  winnings: ["winning", "earning", "prize", "purse", "money"],
  grossed: ["gross", "box", "office", "revenue", "earning"],
  rich: ["gdp", "income", "wealth", "revenue"],
  richest: ["gdp", "income", "wealth", "revenue"],
  wealthiest: ["gdp", "income", "wealth", "revenue"],
  poorest: ["gdp", "income", "wealth", "revenue"],
  popular: [
    "plays",
    "views",
    "streams",
    "listeners",
    "sales",
    "votes",
    "popularity",
    "attendance",
    "enrolled",
    "downloads",
  ],
  // ("the strongest player": the best rated; "the busiest route": the most riders.)
  strong: STRENGTH,
  strongest: STRENGTH,
  busy: BUSYNESS,
  busiest: BUSYNESS,
  powerful: ["horsepower", "hp", "power", "kw"],
  power: ["horsepower", "hp", "power", "kw"],
  efficient: ["mpg", "efficiency", "economy", "consumption"],
  economical: ["mpg", "efficiency", "economy", "consumption"],
  earned: ["earning", "prize", "money", "gross", "point", "salary", "wage", "pay", "income"],
  earn: ["salary", "wage", "pay", "income", "earning"],
  earns: ["salary", "wage", "pay", "income", "earning"],
  // ("entry date" of an Entered column.)
  entry: ["enter", "entered"],
  paid: ["salary", "wage", "pay", "income", "price", "amount", "payment", "total"],
  pay: ["salary", "wage", "pay", "income", "payment"],
  // ("which member pays the most?" of a "Monthly fee" column.)
  pays: ["salary", "wage", "pay", "income", "payment", "fee", "price", "rate"],
  make: ["salary", "wage", "pay", "income", "earning"],
  makes: ["salary", "wage", "pay", "income", "earning"],
  salary: ["salary", "wage", "pay", "income"],
  expensive: ["price", "cost", "fare", "fee", "rate", "rent", "total", "amount"],
  costly: ["price", "cost", "fare", "fee", "rate", "rent", "total", "amount"],
  valuable: ["value", "worth", "price"],
  affordable: ["price", "cost", "fare", "fee", "rate", "rent"],
  cheap: ["price", "cost", "fare", "fee", "rate", "rent"],
  cheapest: ["price", "cost", "fare", "fee", "rate", "rent"],
  priciest: ["price", "cost", "fare", "fee", "rate", "rent"],
  pricey: ["price", "cost", "fare", "fee", "rate", "rent"],
  hourly: ["rate", "hourly", "wage"],
  wage: ["wage", "rate", "salary", "pay"],
  priced: ["price", "cost", "fare"],
  price: ["price", "cost", "fare"],
  cost: ["cost", "price", "budget", "fare", "fee", "charge"],
  costs: ["cost", "price", "fare", "fee", "charge"],
  fare: ["fare", "price", "cost"],
  fee: ["fee", "price", "cost", "charge"],
  bill: ["cost", "amount", "total", "charge", "bill"],
  bills: ["cost", "amount", "total", "charge", "bill"],
  ticket: ["fare", "price", "ticket"],
  billed: ["amount", "total", "billed", "fee", "charge"],
  invoiced: ["amount", "total", "invoiced"],
  charged: ["amount", "charge", "fee", "price"],
  worth: ["value", "worth", "price", "amount"],
  claimed: ["amount", "total", "cost", "claim", "expense"],
  // ("who has given the most in total?": the donations' Amount.)
  given: GIVEN,
  gave: GIVEN,
  donated: GIVEN,
  // ("how much climbing": an Elev. Gain column.)
  climbing: ["elevation", "climb", "ascent", "gain"],
  climb: ["elevation", "climb", "ascent", "gain"],
  // ("the most popular way to pay": a Method column.)
  way: ["method", "mode", "means"],
  spent: ["amount", "total", "cost", "spend", "spending", "expense", "debit", "withdrawal"],
  spend: ["amount", "total", "cost", "spend", "spending", "expense", "debit", "withdrawal"],
  revenue: ["revenue", "sales", "total", "amount", "income"],
  value: ["value", "amount", "total", "price", "worth"],
  sell: ["sale", "sold", "amount", "revenue"],
  salesperson: ["seller", "representative", "rep", "agent", "salesman"],
  salesman: ["seller", "representative", "rep", "agent", "salesperson"],
  supplier: ["vendor", "supplier", "seller", "manufacturer"],
  suppliers: ["vendor", "supplier", "seller", "manufacturer"],
  vendor: ["vendor", "supplier", "seller"],
  // ("who placed the order?": its buyer.)
  placed: ["buyer", "customer", "client", "purchaser", "orderer"],
  expense: ["amount", "cost", "total", "expense", "spend", "debit", "withdrawal"],
  expenses: ["amount", "cost", "total", "expense", "spend", "debit", "withdrawal"],
  sold: ["sale", "sold", "amount", "revenue", "unit", "copy"],
  // ("the highest sales" of a ledger's Amount.)
  sales: ["sale", "amount", "revenue", "turnover"],
  // Results and scores.
  rated: ["rating", "score", "grade", "star"],
  // ("the best average rating" of a Stars column.)
  rating: ["rating", "star", "score"],
  ratings: ["rating", "star", "score"],
  pages: ["page"],
  scored: ["score", "goal", "point", "pts", "mark", "grade", "gf"],
  scorer: ["point", "pts", "ppg", "goal", "gls", "score"],
  conceded: ["ga", "against", "conceded", "allowed", "their", "opponent"],
  against: ["ga", "against", "conceded", "allowed"],
  score: ["score", "point", "pts", "result", "mark", "grade"],
  grade: ["grade", "score", "mark"],
  marks: ["mark", "score", "grade"],
  points: ["point", "pts"],
  point: ["point", "pts"],
  goals: ["goal", "gls"],
  goal: ["goal", "gls"],
  medals: ["total", "medal"],
  medal: ["total", "medal"],
  votes: ["vote", "%"],
  vote: ["vote", "%"],
  percent: ["%", "percent", "percentage", "share"],
  percentage: ["%", "percent", "percentage", "share"],
  seats: ["seat"],
  wins: ["win", "w", "won"],
  won: ["win", "w", "won", "winner", "result"],
  // ("which country grew fastest?" of a "Growth" column.)
  grew: ["grew", "growth"],
  grow: ["grow", "growth"],
  losses: ["loss", "l", "lost"],
  lost: ["loss", "l", "lost"],
  draws: ["draw", "d", "tie"],
  drawn: ["draw", "d", "tie"],
  games: ["game", "gp", "match", "app", "appearance", "played"],
  appearances: ["app", "appearance", "game", "cap", "match"],
  caps: ["cap", "app"],
  laps: ["lap"],
  rank: ["rank", "pos", "position", "place", "#"],
  ranked: ["rank", "pos", "position", "place"],
  place: ["place", "pos", "position", "rank", "finish"],
  position: ["pos", "position", "place", "rank"],
  // (A task is finished when it is done.)
  finished: ["pos", "position", "place", "finish", "result", "done", "complete"],
  completed: ["done", "complete", "completed", "finished"],
  complete: ["done", "complete", "completed", "finished"],
  viewers: ["viewer", "audience", "rating", "million"],
  overtime: ["ot", "overtime"],
  // Works and groups.
  department: ["department", "dept", "division", "team"],
  departments: ["department", "dept", "division", "team"],
  song: ["title", "song", "single", "track"],
  songs: ["title", "song", "single", "track"],
  album: ["album", "title", "release"],
  film: ["title", "film", "movie"],
  movie: ["title", "film", "movie"],
  episode: ["title", "episode"],
  title: ["title", "name"],
  book: ["title", "book"],
  books: ["title", "book"],
  team: ["team", "club", "opponent", "school", "franchise"],
  club: ["club", "team"],
  opponent: ["opponent", "opposition", "against", "team", "vs"],
  nation: ["nation", "country", "noc", "team"],
  country: ["country", "nation", "noc", "nationality"],
  city: ["city", "town", "location", "venue"],
  venue: ["venue", "stadium", "location", "ground", "site", "city"],
  director: ["director", "directed"],
  written: ["writer", "written"],
  directed: ["director", "directed"],
  party: ["party"],
  district: ["district"],
};

/**
 * Agent nouns of a verb ("supplies" → supplier, "teaches" → teacher, "drives" → driver, "borrowed" →
 * borrower): who does what a question's verb says is the column named for the doer. Spelled forms
 * only (stemmed by the caller's matcher); irregular ones ("won" → winner) are in COLUMN_WORDS.
 */
export function agentNouns(word: string): string[] {
  const base = stem(word);
  if (base.length < 3 || !/[a-z]$/.test(base)) return [];
  // ("supply" → supplier, "drive" → driver, "direct" → director, "teach" → teacher.)
  if (base.endsWith("y")) return [`${base.slice(0, -1)}ier`];
  if (base.endsWith("e")) return [`${base}r`];
  // ("runs" → runner, "wins" → winner: a short consonant-vowel-consonant verb doubles its last letter.)
  if (/^[^aeiou][aeiou][^aeiouwy]$/.test(base)) return [`${base}${base.slice(-1)}er`];
  return [`${base}er`, `${base}or`];
}

/** Verbs of reporting lines and the header words of the person they point to ("reports to X": X is a Manager). */
export const REPORTING_WORDS: Readonly<Record<string, readonly string[] | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    reports: ["manager", "supervisor", "boss", "lead", "report"],
    report: ["manager", "supervisor", "boss", "lead", "report"],
    managed: ["manager"],
    supervised: ["supervisor"],
  },
);

/** Header words a question word names besides itself: its related words (COLUMN_WORDS), else its agent nouns. */
export function relatedHeaderWords(word: string): readonly string[] | undefined {
  const own = (k: string) => (Object.hasOwn(COLUMN_WORDS, k) ? COLUMN_WORDS[k] : undefined);
  return own(word) ?? own(stem(word)) ?? (/(?:s|ed|es)$/.test(word) ? agentNouns(word) : undefined);
}

/**
 * "how long/tall/old/far/heavy/much …": the adjective after "how" asks for a measure, a number, named
 * by these header words ("how long is the flight?" → a duration or length column).
 */
export const MEASURE_CUES: Readonly<Record<string, readonly string[]>> = {
  long: ["duration", "length", "time", "runtime", "minute", "hour", "day"],
  tall: ["height"],
  hard: ["difficulty", "grade", "level"],
  difficult: ["difficulty", "grade", "level"],
  high: ["height", "elevation", "altitude"],
  old: ["age"],
  far: ["distance"],
  heavy: ["weight"],
  powerful: ["horsepower", "power"],
  big: ["size", "area", "capacity"],
  large: ["size", "area", "capacity"],
  deep: ["depth"],
  wide: ["width"],
  hot: ["temperature"],
  warm: ["temperature"],
  cold: ["temperature"],
  much: ["amount", "total", "price", "cost", "value", "fare", "fee"],
};

const MEASURE_CUE = new RegExp(`\\bhow (${Object.keys(MEASURE_CUES).join("|")})\\b`);

/** The measure a "how <adjective>" question asks for ("how long is …" → long), or undefined. */
export function measureCue(q: string): string | undefined {
  return MEASURE_CUE.exec(q)?.[1];
}

/** Header words of money columns, the hints of a condition on a sum of money ("orders over $500"). */
export const MONEY_HEADER_WORDS: readonly string[] = ["amount", "total", "price", "cost", "fee", "fine", "rent"];

/**
 * Header words of a column that holds an amount of things, which "how many X … in total" sums when X
 * is a value of the table (an item) rather than the row noun.
 */
export const QUANTITY_HEADERS: ReadonlySet<string> = new Set([
  "quantity",
  "qty",
  "unit",
  "stock",
  "inventory",
  "count",
  "piece",
  "volume",
  "hand",
  "number",
]);

/**
 * A header word that modifies the next one rather than naming the column: a "unit cost" column is a
 * cost, not a number of units.
 */
export const MODIFIER_HEADER_WORDS: ReadonlySet<string> = new Set(["unit"]);

/**
 * Abbreviations people type in headers, and the word each stands for: "Wt (kg)" is a weight, "Total Amt ($)"
 * an amount, "Resolution (hrs)" hours, "DOB" a date of birth. The catalogue adds the word after the
 * abbreviation (nodes/offline/table-catalog.ts `headerWordsOf`), so every word related to "weight" names "Wt".
 */
export const HEADER_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  amt: ["amount"],
  qty: ["quantity"],
  wt: ["weight"],
  hrs: ["hour"],
  hr: ["hour"],
  mins: ["minute"],
  yrs: ["year"],
  yr: ["year"],
  dob: ["birth", "born"],
  temp: ["temperature"],
  pct: ["percent"],
  dept: ["department"],
  addr: ["address"],
  dist: ["distance"],
  ht: ["height"],
  bal: ["balance"],
  emp: ["employee"],
  cust: ["customer"],
  mgr: ["manager"],
  kcal: ["calorie"],
  dbh: ["diameter", "trunk"],
  yob: ["birth", "born", "year"],
  rep: ["representative"],
  // Units a header names its quantity by ("Yield (t)", "Area (ha)").
  t: ["tonne", "ton"],
  ha: ["hectare"],
  h: ["hour"],
  dur: ["duration"],
  elev: ["elevation", "climb"],
  mph: ["speed"],
  kph: ["speed"],
  kmh: ["speed"],
  bp: ["blood", "pressure"],
  // ("SqMeters", "SqFt" written as one word: an area.)
  sqmeters: ["sqm", "area"],
  sqmetres: ["sqm", "area"],
  sqfeet: ["sqft", "area"],
  // A league table's columns ("GF", "GA", "GD", "Pld"; "Pts" is named by "points" through COLUMN_WORDS).
  gf: ["goal", "for", "scored"],
  ga: ["goal", "against", "conceded"],
  gd: ["goal", "difference"],
  pld: ["played"],
  // Days of the week as a timesheet's or a timetable's columns ("Mon", "Tue" … "Sun").
  mon: ["monday"],
  tue: ["tuesday"],
  tues: ["tuesday"],
  wed: ["wednesday"],
  thu: ["thursday"],
  thur: ["thursday"],
  thurs: ["thursday"],
  fri: ["friday"],
  sat: ["saturday"],
  sun: ["sunday"],
};

/** A header's words with the word each abbreviation stands for after it ("wt" → "wt", "weight"). */
export function withAbbreviations(words: readonly string[]): string[] {
  return words.flatMap((w, i) =>
    // ("km/h" is a speed, not hours.)
    w === "h" && /^(km|mi|m|ft)$/.test(words[i - 1] ?? "")
      ? [w, "speed"]
      : Object.hasOwn(HEADER_ABBREVIATIONS, w)
        ? [w, ...HEADER_ABBREVIATIONS[w]!]
        : [w],
  );
}
