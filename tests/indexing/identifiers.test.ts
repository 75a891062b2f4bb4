import { describe, expect, it } from "vitest";
import {
  physicalColumnNames,
  physicalIdentifier,
  physicalTableName,
  tableNameVariants,
  uniqueNames,
} from "../../indexing/identifiers.js";

describe("physical identifiers (reference §6.6 step 3)", () => {
  it("keeps [A-Za-z0-9_], collapses underscores, strips them around longer names, lower-cases", () => {
    expect(physicalIdentifier("Home Wins (2023)")).toBe("home_wins_2023");
    expect(physicalIdentifier("__Club__")).toBe("club");
    expect(physicalIdentifier("Nation.Code")).toBe("nation");
  });

  it("prefixes t_ before a digit and hashes names longer than 64 characters", () => {
    expect(physicalIdentifier("2023 season")).toBe("t_2023_season");
    const long = physicalIdentifier("x".repeat(80));
    expect(long).toMatch(/^x{20}_[0-9a-f]{8}$/);
  });

  it("never yields an empty name, and table names drop spreadsheet suffixes", () => {
    expect(physicalIdentifier("%%%")).toBe("c");
    expect(physicalTableName("Season.2023.xlsx")).toBe("season_2023");
  });

  it("numbers colliding column names in schema order and never starts a data column with _", () => {
    expect(physicalColumnNames(["Club", "club", "CLUB!", "_x"])).toEqual(["club", "club_1", "club_2", "c_x"]);
  });
});

describe("uniqueNames", () => {
  it("keeps the first occurrence and suffixes later ones from the given number, skipping taken names", () => {
    expect(uniqueNames(["a", "a", "a_2", "a"], 2)).toEqual(["a", "a_2", "a_2_2", "a_3"]);
    expect(uniqueNames(["b", "b"], 1)).toEqual(["b", "b_1"]);
  });
});

describe("tableNameVariants (§2.1)", () => {
  it("lists the id, lower-case, normalised and t_-prefixed forms once each, in order", () => {
    expect(tableNameVariants("204-Season")).toEqual([
      "204-Season",
      "204-season",
      "204_season",
      "t_204_season",
      "t_204-season",
    ]);
    expect(tableNameVariants("t_clubs")).toEqual(["t_clubs", "clubs"]);
  });
});
