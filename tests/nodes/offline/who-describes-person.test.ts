/**
 * "Who is the husband that inspired the baker with the bakery on the pier ?" over a row of bakers (Name, Shop):
 * the row's person is the baker the question describes, and the reader answered with that cell; the one asked
 * for is her husband, told in her page. A "who" question that describes a person of its own now leaves the row's person cell to
 * the passages (nodes/offline/reader.ts `describesRowPerson`); "Who is the baker with the bakery on the pier ?" still takes it.
 */
import { describe, expect, it } from "vitest";
import { askedCell } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { passagePlan, readerOverRow } from "./fixtures.js";

const row: DescribedRow = {
  tableId: "bakers",
  rowId: 0,
  columns: ["Name", "Shop"],
  values: ["Ada Lind", "Pier Loaves"],
  passages: [
    {
      id: "/wiki/Ada_Lind",
      title: "Ada Lind",
      text: "Ada Lind is a Swedish baker . Her husband Nils Berg inspired her to open a bakery in 1990 .",
      file: "bakers.json",
      tableId: "bakers",
      cells: [[0, 0]],
    },
    {
      id: "/wiki/Pier_Loaves",
      title: "Pier Loaves",
      text: "Pier Loaves is a bakery on the pier of Lund .",
      file: "bakers.json",
      tableId: "bakers",
      cells: [[0, 1]],
    },
  ],
  score: 3,
  runnerUp: 1,
};
const ask = readerOverRow(row);

const cell = (q: string) => askedCell({ question: q, subQuery: q, plan: passagePlan(q, "bakers") }, row);

describe("a who question about a person the row's person is related to", () => {
  it("asks no cell of the row when the question describes the row's person", () => {
    expect(cell("Who is the husband that inspired the baker with the bakery on the pier ?")).toBeUndefined();
    expect(cell("Who is the baker with the bakery on the pier ?")).toBe("Ada Lind");
  });
  it("reads the related person from the passages", async () => {
    expect(await ask("Who is the husband that inspired the baker with the bakery on the pier ?")).toBe("Nils Berg");
  });
  it("still takes the row's person when the question asks for her", async () => {
    expect(await ask("Who is the baker with the bakery on the pier ?")).toBe("Ada Lind");
  });
});
