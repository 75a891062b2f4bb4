/**
 * The learned verifier's optional feature families, computed on the answering path only where the
 * shipped model uses them: plan match (`pm:`, sql-writer.ts), SQL siblings (`sqlalt:`), linked row
 * (`lr:`, answer-features.ts) and the reading's own span (`rc:`, the candidate readers of
 * reader-candidates.ts). A model that gives a family no weight (scorer or ranker) does not pay for
 * it; exploration runs for training compute and trace all of them (`verifierFeatures: "all"`,
 * `atr run --verifier_features all`, docs/VERIFIER.md).
 */
import { answerModel, type AnswerModel, type Scorer } from "./answer-model.js";

export const FEATURE_FAMILIES = ["pm:", "sqlalt:", "lr:", "rc:"] as const;
export type FeatureFamily = (typeof FEATURE_FAMILIES)[number];
/** "model": the families the shipped model uses; "all": every family (exploration runs). */
export type FeatureMode = "model" | "all";

function names(scorer: Scorer): string[] {
  return scorer.kind === "logistic"
    ? Object.entries(scorer.weights)
        .filter(([, w]) => w !== 0)
        .map(([f]) => f)
    : scorer.features;
}

const used = new WeakMap<AnswerModel, Set<FeatureFamily>>();

/** The families a model weighs: features of its scorer, of its ranker (`r:` + the family) or of its acceptor (`r:`/`b:` + the family). */
export function familiesOf(model: AnswerModel): Set<FeatureFamily> {
  let out = used.get(model);
  if (!out) {
    const all = [
      ...names(model.scorer),
      ...(model.ranker ? names(model.ranker.scorer) : []),
      ...(model.ranker?.acceptor ? names(model.ranker.acceptor.scorer) : []),
    ];
    out = new Set(
      FEATURE_FAMILIES.filter((f) =>
        all.some((n) => n.startsWith(f) || n.startsWith(`r:${f}`) || n.startsWith(`b:${f}`)),
      ),
    );
    used.set(model, out);
  }
  return out;
}

/** Is the family computed? Always with "all"; else when the shipped model uses it (never without a model). */
export function familyOn(family: FeatureFamily, mode: FeatureMode = "model"): boolean {
  if (mode === "all") return true;
  const model = answerModel();
  return model !== null && familiesOf(model).has(family);
}
