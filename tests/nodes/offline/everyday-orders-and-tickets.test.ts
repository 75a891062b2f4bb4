/**
 * An order book and a support queue asked in passing: "what did Noor order in May?" asks for what was ordered (the
 * Product), not the order number the verb spells, and "which tickets does Abe have open?" keeps "open" as the status
 * cell it is (it names the Opened date only as the closing verb of "how many tickets did Abe open?").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "orders",
    file: "orders.csv",
    header: ["Order ID", "Customer", "Date", "Product", "Qty", "Total", "Status"],
    rows: [
      ["B-201", "Noor Haddad", "2026-04-11", "Kettle", "1", "35", "Shipped"],
      ["B-202", "Elan Price", "2026-05-02", "Toaster", "1", "49", "Open"],
      ["B-203", "Noor Haddad", "2026-05-19", "Blender", "2", "176", "Open"],
      ["B-204", "Ivy Lowe", "2026-05-21", "Kettle", "3", "105", "Shipped"],
      ["B-205", "Elan Price", "2026-06-08", "Blender", "1", "88", "Cancelled"],
      ["B-206", "Ivy Lowe", "2026-06-12", "Toaster", "2", "98", "Shipped"],
    ],
  },
  {
    id: "queue",
    file: "queue.csv",
    header: ["Ticket", "Opened", "Assignee", "Status"],
    rows: [
      ["Q-1", "2026-06-01", "Abe", "Open"],
      ["Q-2", "2026-06-02", "Abe", "Closed"],
      ["Q-3", "2026-06-04", "Ruth", "Open"],
      ["Q-4", "2026-06-05", "Abe", "Open"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("orders and tickets asked in passing", () => {
  it("answers what was ordered, not the order number the verb spells", () => {
    expect(answer("What did Noor Haddad order in May?", "orders")).toEqual(["Blender"]);
    expect(answer("What did Ivy Lowe order in June?", "orders")).toEqual(["Toaster"]);
  });
  it("reads 'open' after 'have' as the status, and as the Opened date's verb only when it closes a did-question", () => {
    expect(answer("Which tickets does Abe have open?", "queue")).toEqual(["Q-1", "Q-4"]);
    expect(answer("How many tickets did Abe open?", "queue")).toEqual(["3"]);
  });
});
