/**
 * The everyday-questions suites (tests/e2e/everyday.test.ts, tests/e2e/everyday-second.test.ts) as a
 * script: builds the index of the generated tables, answers every question through the real graph
 * (offline backbone, default configuration) and prints per-kind accuracy, how many answers the
 * verifier accepted, and the wrong answers.
 *
 *   npx tsx scripts/everyday.ts [--suite first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh] [--fresh] [--seed N] [--hint] [--kind K] [--show wrong|none] [--export DIR]
 *
 * `--suite second` is tests/fixtures/everyday-second-tables.ts (other domains and wordings; seed 5 by
 * default), `--suite third` tests/fixtures/everyday-third-tables.ts (headers with units and
 * abbreviations, search-box wording; seed 3), `--suite fourth` tests/fixtures/everyday-fourth-tables.ts
 * (payroll, clinic, fleet, marathon, stock, events; seed 4; `--fresh` asks its later block of 40 new
 * wordings instead), `--suite fifth` tests/fixtures/everyday-fifth-tables.ts (hotel, meters, tickets,
 * garden, shelter, shipments; seed 5; `--fresh` likewise), `--suite sixth`
 * tests/fixtures/everyday-sixth-tables.ts (gym, recipes, podcast, park trees, crowdfunding, bird
 * sightings; seed 6; `--fresh` likewise), `--suite seventh` tests/fixtures/everyday-seventh-tables.ts
 * (basketball roster, purchase orders, monthly KPIs, expense claims, wine cellar, golf leaderboard, car
 * sales; money with symbols, dates in several formats; seed 7; `--fresh` likewise), `--suite eighth`
 * tests/fixtures/everyday-eighth-tables.ts (library loans, flight departures, student grades, apartment
 * listings, bike-share trips, concert tickets, pharmacy stock; written blind, as a measuring instrument;
 * seed 8; no fresh block), `--suite ninth` tests/fixtures/everyday-ninth-tables.ts (vet clinic visits,
 * restaurant reservations, farm harvest, museum exhibits, volunteer shifts, car repairs, job
 * applications; written blind likewise; seed 9; no fresh block), `--suite tenth`
 * tests/fixtures/everyday-tenth-tables.ts (dental recalls, film festival screenings, cycling race results,
 * bakery production, translation projects, hiking trails, charity donations; written blind likewise;
 * seed 10; no fresh block), `--suite eleventh` tests/fixtures/everyday-eleventh-tables.ts (café menu,
 * course catalogue, taxi drivers, zoo animals, phone catalogue, bus routes, chess club members; written
 * blind likewise, deliberately ordinary questions; seed 11; no fresh block); the first suite's default
 * seed is 16.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { closeResources } from "../graph/resources.js";
import { everydayCorpus } from "../tests/fixtures/everyday-tables.js";
import { everydaySecondCorpus } from "../tests/fixtures/everyday-second-tables.js";
import { everydayThirdCorpus } from "../tests/fixtures/everyday-third-tables.js";
import { everydayFourthCorpus } from "../tests/fixtures/everyday-fourth-tables.js";
import { everydayFifthCorpus } from "../tests/fixtures/everyday-fifth-tables.js";
import { everydaySixthCorpus } from "../tests/fixtures/everyday-sixth-tables.js";
import { everydaySeventhCorpus } from "../tests/fixtures/everyday-seventh-tables.js";
import { everydayEighthCorpus } from "../tests/fixtures/everyday-eighth-tables.js";
import { everydayNinthCorpus } from "../tests/fixtures/everyday-ninth-tables.js";
import { everydayTenthCorpus } from "../tests/fixtures/everyday-tenth-tables.js";
import { everydayEleventhCorpus } from "../tests/fixtures/everyday-eleventh-tables.js";
import {
  buildEverydayIndex,
  everydayReport,
  removeEverydayIndex,
  scoreEveryday,
} from "../tests/fixtures/everyday-run.js";

const { values } = parseArgs({
  options: {
    suite: { type: "string", default: "first" },
    seed: { type: "string" },
    hint: { type: "boolean", default: false },
    show: { type: "string", default: "wrong" },
    kind: { type: "string" },
    fresh: { type: "boolean", default: false },
    export: { type: "string" },
  },
});
const suites = {
  first: () => everydayCorpus(Number(values.seed ?? 16)),
  second: () => everydaySecondCorpus(Number(values.seed ?? 5)),
  third: () => everydayThirdCorpus(Number(values.seed ?? 3)),
  fourth: () => {
    const c = everydayFourthCorpus(Number(values.seed ?? 4));
    return values.fresh ? { tables: c.tables, questions: c.fresh } : c;
  },
  fifth: () => {
    const c = everydayFifthCorpus(Number(values.seed ?? 5));
    return values.fresh ? { tables: c.tables, questions: c.fresh } : c;
  },
  sixth: () => {
    const c = everydaySixthCorpus(Number(values.seed ?? 6));
    return values.fresh ? { tables: c.tables, questions: c.fresh } : c;
  },
  seventh: () => {
    const c = everydaySeventhCorpus(Number(values.seed ?? 7));
    return values.fresh ? { tables: c.tables, questions: c.fresh } : c;
  },
  eighth: () => everydayEighthCorpus(Number(values.seed ?? 8)),
  ninth: () => everydayNinthCorpus(Number(values.seed ?? 9)),
  tenth: () => everydayTenthCorpus(Number(values.seed ?? 10)),
  eleventh: () => everydayEleventhCorpus(Number(values.seed ?? 11)),
};
if (!(values.suite! in suites))
  throw new Error(
    `--suite must be "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth" or "eleventh", not "${values.suite}"`,
  );
if (values.fresh && !["fourth", "fifth", "sixth", "seventh"].includes(values.suite!))
  throw new Error("--fresh is a block of the fourth to seventh suites: add --suite fourth, fifth, sixth or seventh");
const corpus = suites[values.suite as keyof typeof suites]();
if (values.export) {
  // The suite for the SQL-plans harness: its index and its questions as WTQ-style records
  // (npx tsx scripts/offline-dev.ts --index DIR/index --questions DIR/questions.jsonl).
  const root = await buildEverydayIndex(corpus);
  rmSync(values.export, { recursive: true, force: true });
  renameSync(root, values.export);
  const records = corpus.questions.map((q, i) =>
    JSON.stringify({
      question_id: `${values.suite}-${i}`,
      question: q.question,
      table_id: q.table,
      answer: q.gold.map(String),
      kind: q.kind,
    }),
  );
  writeFileSync(join(values.export, "questions.jsonl"), records.join("\n") + "\n");
  console.log(`wrote ${values.export}/index and ${values.export}/questions.jsonl (${records.length} questions)`);
  process.exit(0);
}
const root = await buildEverydayIndex(corpus);
try {
  const s = await scoreEveryday(corpus, root, values.hint, values.kind);
  console.log(
    everydayReport(
      `everyday, ${values.suite} suite (${values.hint ? "table hint" : "no hint"})`,
      s,
      values.show === "wrong",
    ),
  );
} finally {
  await closeResources();
  removeEverydayIndex(root);
}
