/** `atr run`'s check of the index and the questions' table ids before any question is answered. */
import { UsageError } from "../args.js";
import type { Configuration } from "../../graph/configuration.js";

/**
 * Opens the index before any work (a corrupt index stops the run here, naming every violation,
 * instead of turning each question into an error record) and checks every question's table_id.
 */
export async function checkIndexAndTables(
  config: Configuration,
  questions: Array<Record<string, unknown>>,
  dataPath: string,
): Promise<void> {
  if (!config.indexPath) return;
  const { getIndex } = await import("../../graph/resources.js");
  const index = await getIndex(config);
  const unknown = new Map<string, number[]>();
  questions.forEach((q, i) => {
    const id = q.table_id;
    if (id === undefined || id === null || id === "" || index.tables.has(String(id))) return;
    unknown.set(String(id), [...(unknown.get(String(id)) ?? []), i + 1]);
  });
  if (unknown.size > 0) {
    const shown = [...unknown]
      .slice(0, 10)
      .map(
        ([id, items]) =>
          `"${id}" (item${items.length > 1 ? "s" : ""} ${items.slice(0, 5).join(", ")}${items.length > 5 ? ", …" : ""})`,
      );
    const known = [...index.tables.keys()];
    throw new UsageError(
      `${dataPath}: table_id ${shown.join(", ")}${unknown.size > 10 ? ` and ${unknown.size - 10} more` : ""} name no table of ${config.indexPath} ` +
        `(tables: ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … ${known.length - 20} more` : ""}); fix the question file or build the index over those tables`,
    );
  }
}
