/**
 * The offline backbone (`backbone: "offline"`, the embedded default): every LLM step of the paper
 * as deterministic code over the opened index. Question understanding and NL→SQL live in
 * analysis/mentions/columns/decompose/sql-writer/link-value/choose-route; reading, fusion,
 * verification and synthesis in reader/fuse/verifier/synthesize.
 */
import type { SearchableIndex as OpenedIndex } from "../../retrievers/open-search.js";
import type { Strategies } from "../strategies.js";
import { createBridge } from "./bridge.js";
import { chooseRoute } from "./choose-route.js";
import { createDecompose } from "./decompose.js";
import { createFuse } from "./fuse.js";
import { linkValue } from "./link-value.js";
import { createReaders } from "./readers.js";
import { createCandidateReaders } from "./reader-candidates.js";
import { createWriteSql, createWriteSqlCandidates } from "./sql-writer.js";
import { synthesize } from "./synthesize.js";
import { passageScaleContext } from "./table-context.js";
import { createVerify } from "./verifier.js";

export function createOfflineStrategies(index: OpenedIndex): Strategies {
  // Readers and fusion may read the scale a table's passages declare ("amounts in thousands").
  const scaleContext = passageScaleContext(index.passages);
  const bridge = createBridge(index);
  const { readText, readRows } = createReaders(scaleContext, bridge);
  // Beside passages each reading also proposes its other best answers, judged and traced by the
  // verify node; a tables-only index (WTQ-like) keeps one answer per reading, as the verifier was trained.
  const candidates = index.passages.length > 0 ? createCandidateReaders(scaleContext, bridge) : {};
  const fuse = createFuse(scaleContext);
  return {
    name: "offline",
    // Scalars too go through fusion, which formats them (%, the declared scale word).
    fuseScalars: true,
    decompose: createDecompose(index, bridge),
    chooseRoute,
    linkValue,
    writeSql: createWriteSql(index),
    writeSqlCandidates: createWriteSqlCandidates(index),
    readText,
    readRows,
    ...candidates,
    fuse,
    verify: createVerify(bridge, { hasPassages: index.passages.length > 0 }),
    synthesize,
  };
}
