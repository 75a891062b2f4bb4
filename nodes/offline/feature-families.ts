/**
 * The learned verifier's optional feature families, computed on the answering path only where the
 * shipped model uses them: plan match (`pm:`, sql-writer.ts), SQL siblings (`sqlalt:`), linked row
 * (`lr:`, answer-features.ts), the reading's own span (`rc:`, the candidate readers of
 * reader-candidates.ts) and the margins of the learned link, column and row choices (`mg:`,
 * choice-margins.ts). A model that gives a family no weight (scorer or ranker) does not pay for
 * it; a family only the question-level acceptor weighs is computed only on an index whose kind of
 * evidence the acceptor may accept (a threshold below 1). Exploration runs for training compute and
 * trace all of them (`verifierFeatures: "all"`, `atr run --verifier_features all`, docs/VERIFIER.md).
 */
import { answerModel, type Acceptor, type AnswerModel, type Scorer } from "./answer-model.js";

export const FEATURE_FAMILIES = ["pm:", "sqlalt:", "lr:", "rc:", "mg:"] as const;
export type FeatureFamily = (typeof FEATURE_FAMILIES)[number];
/** "model": the families the shipped model uses; "all": every family (exploration runs). */
export type FeatureMode = "model" | "all";
/** What the graph knows of a question's evidence before any feature is computed: the kind of its index. */
export interface IndexKind {
  /** Does the index hold passages beside its tables? */
  hasPassages: boolean;
}

function names(scorer: Scorer): string[] {
  return scorer.kind === "logistic"
    ? Object.entries(scorer.weights)
        .filter(([, w]) => w !== 0)
        .map(([f]) => f)
    : scorer.features;
}

function familiesNamed(all: readonly string[]): Set<FeatureFamily> {
  return new Set(
    FEATURE_FAMILIES.filter((f) =>
      all.some((n) => n.startsWith(f) || n.startsWith(`r:${f}`) || n.startsWith(`b:${f}`)),
    ),
  );
}

/**
 * May the acceptor accept a question over an index of this kind? Its kind of evidence is the first
 * of `acceptor.kinds` the question's first attempt carries (answer-ranker.ts `acceptorKind`), else
 * `rest`. `tables-only` and `passages` follow from the index alone; any other kind (a report table
 * in the evidence) may or may not apply, so its threshold counts and the search goes on.
 */
export function acceptorMayAccept(acceptor: Acceptor, index: IndexKind): boolean {
  const known: Record<string, boolean> = { "tables-only": !index.hasPassages, passages: index.hasPassages };
  for (const kind of acceptor.kinds) {
    // a kind of several features ("tables-only&pm:table-clean=1") applies only if none is known absent, surely if all are known
    const parts = kind.feature.split("&").map((f) => known[f]);
    const applies = parts.includes(false) ? false : parts.every((p) => p === true) ? true : undefined;
    if (applies === false) continue;
    if (kind.threshold < 1) return true;
    if (applies === true) return false;
  }
  return acceptor.rest.threshold < 1;
}

const used = new WeakMap<AnswerModel, Map<string, Set<FeatureFamily>>>();

/**
 * The families a model weighs: features of its scorer, of its ranker (`r:` + the family) or of its
 * acceptor (`r:`/`b:` + the family); with `index`, the acceptor's count only where it may accept.
 */
export function familiesOf(model: AnswerModel, index?: IndexKind): Set<FeatureFamily> {
  let byKind = used.get(model);
  if (!byKind) used.set(model, (byKind = new Map()));
  const key = index === undefined ? "any" : index.hasPassages ? "passages" : "tables-only";
  let out = byKind.get(key);
  if (!out) {
    const acceptor = model.ranker?.acceptor;
    const all = [
      ...names(model.scorer),
      ...(model.ranker ? names(model.ranker.scorer) : []),
      ...(acceptor && (index === undefined || acceptorMayAccept(acceptor, index))
        ? [acceptor.scorer, ...[...acceptor.kinds, acceptor.rest].flatMap((k) => (k.scorer ? [k.scorer] : []))].flatMap(
            names,
          )
        : []),
    ];
    byKind.set(key, (out = familiesNamed(all)));
  }
  return out;
}

/**
 * Is the family computed? Always with "all"; else when the shipped model uses it (never without a
 * model) — on an index of this kind when `index` is given.
 */
export function familyOn(family: FeatureFamily, mode: FeatureMode = "model", index?: IndexKind): boolean {
  if (mode === "all") return true;
  const model = answerModel();
  return model !== null && familiesOf(model, index).has(family);
}

/**
 * Is the reading's own span (`rc:`) computed? The offline strategies give candidate readers only
 * beside passages (nodes/offline/index.ts), so a reading that can have them is over such an index.
 */
export function readerFamilyOn(mode: FeatureMode = "model"): boolean {
  return familyOn("rc:", mode, { hasPassages: true });
}
