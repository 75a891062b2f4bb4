/**
 * Strategies.readText / readRows of the offline backbone. They also read the scale declared by the
 * tables' passages and, for TEXT, the row the question describes (bridge.ts): its answer is chosen
 * among the row's cells and its linked passages' spans (row-answers.ts); without such a row, TEXT
 * names the passages linked from an evidence table's row (as the bridge step does) so that the
 * reader prefers them among the retrieved passages.
 */
import { type Bridge, askedCell, bridgedInput, describedRowOf, readRowsWith, readTextWith } from "./reader.js";
import { chooseRowAnswer } from "./row-answers.js";
import type { ScaleContext } from "./table-context.js";
import type { ReadRowsInput, ReadTextInput, Strategies } from "../strategies.js";

export function createReaders(context: ScaleContext, bridge?: Bridge): Pick<Strategies, "readText" | "readRows"> {
  const bridged = (input: ReadTextInput): ReadTextInput => bridgedInput(bridge, input);
  const describedRow = (input: ReadTextInput | ReadRowsInput, evidence: string) =>
    describedRowOf(bridge, input, evidence);
  const readRowCell = (input: ReadRowsInput): string | undefined => {
    const row = describedRow(input, `${input.schemaInfo}\n${input.tableContext}`);
    return row ? askedCell(input, row) : undefined;
  };
  return {
    readText: async (input) => {
      const row = describedRow(input, input.evidence);
      return (
        (row && chooseRowAnswer(input, row)) ?? readTextWith(bridged(input), context(input.evidence), context.ofTable)
      );
    },
    readRows: async (input) =>
      readRowCell(input) ?? readRowsWith(input, context(`${input.schemaInfo}\n${input.tableContext}`), context.ofTable),
  };
}
