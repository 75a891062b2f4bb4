/** `atr convert wtq|tatqa|hybridqa`: official release files → the benchmark layout of shared/data. */
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";

const FLAGS: FlagSpecs = {
  src: {
    kind: "string",
    help: "wtq: release root; tatqa: tatqa_dataset_<split>.json; hybridqa: released_data/<split>.json",
  },
  out_dir: { kind: "string", help: "output folder (questions.jsonl, tables/, passages/, SOURCE.md)" },
  split: {
    kind: "string",
    help: "wtq: split name (tagged/data/<split>.tagged or data/<split>.tsv)",
    default: "pristine-unseen-tables",
  },
  tables_dir: { kind: "string", help: "hybridqa: WikiTables-WithLinks tables_tok/ folder" },
  passages_dir: { kind: "string", help: "hybridqa: WikiTables-WithLinks request_tok/ folder" },
  limit: { kind: "number", help: "convert only the first N questions" },
};

export const command: Command = {
  summary: "convert official benchmark release files (wtq, tatqa, hybridqa) to the dataset layout",
  help: () =>
    [
      "Usage: atr convert wtq|tatqa|hybridqa --src PATH --out_dir DIR [flags]",
      "",
      formatFlagHelp(FLAGS),
      "",
      "Files read:",
      "  wtq       tagged/data/<split>.tagged (else data/<split>.tsv), csv/<A>-csv/<B>.csv, page/<A>-page/<B>.json",
      "  tatqa     the given tatqa_dataset_<split>.json",
      "  hybridqa  the given <split>.json, <split>_reference.json and <split>.traced.json beside it (when present),",
      "            --tables_dir/<table_id>.json and --passages_dir/<table_id>.json",
      "",
      "Examples:",
      "  atr convert wtq --src WikiTableQuestions --split pristine-unseen-tables --out_dir data/wtq/test",
      "  atr convert tatqa --src TAT-QA/dataset_raw/tatqa_dataset_dev.json --out_dir data/tatqa/dev",
      "  atr convert hybridqa --src HybridQA/released_data/dev.json --tables_dir WikiTables-WithLinks/tables_tok \\",
      "                       --passages_dir WikiTables-WithLinks/request_tok --out_dir data/hybridqa/dev",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    const [bench, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (!flags.src) throw new UsageError("--src is required");
    if (!flags.out_dir) throw new UsageError("--out_dir is required");
    const src = String(flags.src);
    const outDir = String(flags.out_dir);
    const limit = flags.limit === undefined ? undefined : Number(flags.limit);
    let counts: { questions: number; tables: number; passages: number };
    if (bench === "wtq") {
      const { convertWtq } = await import("../../evals/convert/wtq.js");
      counts = convertWtq({ src, outDir, split: String(flags.split), limit });
    } else if (bench === "tatqa") {
      const { convertTatqa } = await import("../../evals/convert/tatqa.js");
      counts = convertTatqa({ src, outDir, limit });
    } else if (bench === "hybridqa") {
      if (!flags.tables_dir || !flags.passages_dir)
        throw new UsageError("hybridqa needs --tables_dir (tables_tok/) and --passages_dir (request_tok/)");
      const { convertHybridqa } = await import("../../evals/convert/hybridqa.js");
      counts = convertHybridqa({
        src,
        outDir,
        tablesDir: String(flags.tables_dir),
        passagesDir: String(flags.passages_dir),
        limit,
      });
    } else {
      throw new UsageError(
        `name the benchmark: atr convert wtq|tatqa|hybridqa (got ${bench === undefined ? "nothing" : `"${bench}"`})`,
      );
    }
    console.log(`${outDir}: ${counts.questions} questions, ${counts.tables} tables, ${counts.passages} passage files`);
    return 0;
  },
};
