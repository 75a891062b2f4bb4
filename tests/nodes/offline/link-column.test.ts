/**
 * "What is the album of the singer who was born on May 4 , 1970 ?" over a table whose singer's page is
 * linked from her own row ("Singer") and from another row ("Guests"): the page's words match both rows
 * alike and the first one won. The row linking the page from the column the question names ("the singer
 * …") is the one described (nodes/offline/link-column.ts, used by the bridge); the asked column ("Who
 * was the guest …") names no such link.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linkedRowFinder } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "atr-link-column-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rows tied by a page they both link", () => {
  const findRow = linkedRowFinder(
    dir,
    {
      id: "albums",
      file: "albums.csv",
      header: ["Year", "Singer", "Album", "Guests"],
      rows: [
        ["2001", "Rua Tell", "Salt Roads", "Ima Venn"],
        ["2003", "Ima Venn", "Night Ferry", "Oto Brann"],
      ],
    },
    [
      ["Rua Tell", "Rua Tell is a singer from Cork .", 0, 1],
      ["Ima Venn", "Ima Venn ( born May 4 , 1970 ) is a singer and pianist from Graz .", 0, 3],
      ["Ima Venn", "Ima Venn ( born May 4 , 1970 ) is a singer and pianist from Graz .", 1, 1],
      ["Oto Brann", "Oto Brann is a drummer from Linz .", 1, 3],
    ],
  );

  it("takes the row that links the page from the column the question names", () => {
    expect(findRow("What is the album of the singer who was born on May 4 , 1970 ?", "albums")?.rowId).toBe(1);
    expect(findRow("What is the album whose guest was born on May 4 , 1970 ?", "albums")?.rowId).toBe(0);
  });
});
