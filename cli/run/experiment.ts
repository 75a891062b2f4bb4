/**
 * `atr run`'s experiment bookkeeping: the run metadata every question's run carries in LangSmith
 * (full configuration with the baseline's settings, its hash, prompt versions, commit, tags) and the
 * optional upload of the finished results file as a LangSmith experiment.
 */
import { ensureConfiguration, type Configuration } from "../../graph/configuration.js";
import { datasetOf } from "../../evals/dataset.js";
import type { ExperimentPlan } from "../../evals/langsmith-experiment.js";
import { timestamp } from "../../evals/results-file.js";
import { ablationTags, configHash, gitCommit, type ExperimentInfo } from "../../evals/run-metadata.js";

/** The run's metadata from its flags, configuration and question file. */
export async function experimentInfo(
  flags: Record<string, unknown>,
  config: Configuration,
  dataPath: string,
): Promise<ExperimentInfo> {
  const baseline = flags.baseline as string | undefined;
  const guessed = datasetOf(dataPath);
  const dataset = (flags.dataset as string | undefined) ?? guessed.dataset;
  const split = (flags.split as string | undefined) ?? guessed.split;
  const baselineSettings = baseline
    ? {
        baseline,
        baselineMode: flags.baseline_mode,
        baselineTopK: flags.baseline_top_k,
        scSamples: flags.sc_samples,
        scTemperature: flags.sc_temperature,
        reactMaxSteps: flags.react_max_steps,
      }
    : {};
  const oracleVerifier = Boolean(flags.oracle_verifier);
  const fullConfig: Record<string, unknown> = {
    ...config,
    ...baselineSettings,
    ...(oracleVerifier ? { oracleVerifier } : {}),
  };
  const hash = configHash(fullConfig);
  const { PROMPTS_VERSION } = await import("../../nodes/prompts.js");
  const { CONSTRAINED_SQL_PROMPT_VERSION } = await import("../../nodes/constrained-sql.js");
  const { BASELINE_PROMPTS_VERSION } = await import("../../evals/baselines/prompts.js");
  const defaults = ensureConfiguration({});
  const info: ExperimentInfo = {
    experiment:
      (flags.experiment as string | undefined) ??
      [dataset, split, baseline, hash, timestamp()].filter(Boolean).join("-"),
    dataset,
    split,
    config: fullConfig,
    configHash: hash,
    promptVersions: baseline
      ? { baselines: BASELINE_PROMPTS_VERSION }
      : { prompts: PROMPTS_VERSION, constrained_sql: CONSTRAINED_SQL_PROMPT_VERSION },
    git: gitCommit(),
    baseline,
    indexPath: config.indexPath || undefined,
    tags: [],
  };
  info.tags = [
    "atr",
    dataset,
    split,
    `exp:${info.experiment}`,
    `backbone:${config.backbone}`,
    ...(baseline ? [`baseline:${baseline}`] : [`router:${config.routerType}`]),
    ...ablationTags(config as unknown as Record<string, unknown>, defaults as unknown as Record<string, unknown>),
    ...(oracleVerifier ? ["oracle_verifier"] : []),
  ].filter((t) => t !== "");
  return info;
}

/** Records the finished results file as a LangSmith experiment; the results file stays as it is whatever happens. */
export async function uploadExperiment(
  plan: ExperimentPlan,
  outputPath: string,
  info: ExperimentInfo,
): Promise<number> {
  const { readResults } = await import("../../evals/results-file.js");
  try {
    const result = await plan.upload({
      records: readResults(outputPath).records,
      info,
      resultsPath: outputPath,
      log: (line) => console.error(`atr run: LangSmith ${line}`),
    });
    const metrics = Object.entries(result.official)
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ");
    console.error(
      `atr run: LangSmith experiment ${result.experimentName}: ${result.runs} runs, ${result.feedback} feedback scores (${plan.bench}: ${metrics})`,
    );
    return 0;
  } catch (error) {
    console.error(
      `atr run: LangSmith upload failed (the results file is complete; rerun with --rerun ${outputPath} --langsmith_dataset ${plan.datasetName} to retry): ${(error as Error).message}`,
    );
    return 1;
  }
}
