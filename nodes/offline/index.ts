/**
 * The offline backbone (`backbone: "offline"`, the embedded default): every LLM step of the paper
 * as deterministic code over the opened index. Question understanding and NL→SQL live in
 * analysis/mentions/columns/decompose/sql-writer/link-value/choose-route; reading, fusion,
 * verification and synthesis in reader/fuse/verifier/synthesize.
 */
import type { OpenedIndex } from "../../indexing/open-index.js";
import type { Strategies } from "../strategies.js";
import { chooseRoute } from "./choose-route.js";
import { createDecompose } from "./decompose.js";
import { fuse } from "./fuse.js";
import { linkValue } from "./link-value.js";
import { readRows, readText } from "./reader.js";
import { createWriteSql } from "./sql-writer.js";
import { synthesize } from "./synthesize.js";
import { verify } from "./verifier.js";

export function createOfflineStrategies(index: OpenedIndex): Strategies {
  return {
    name: "offline",
    decompose: createDecompose(index),
    chooseRoute,
    linkValue,
    writeSql: createWriteSql(index),
    readText,
    readRows,
    fuse,
    verify,
    synthesize,
  };
}
