import { describe, expect, it } from "vitest";
import { isEmptySqlResult, isUninformativeScalar, sqlScalar } from "../../nodes/sql-evidence.js";

describe("sqlScalar (§8.1)", () => {
  it.each([
    ['[["Alpha FC"]]', "Alpha FC"],
    ["[42]", "42"],
    ['[{"n": 3}]', "3"],
    ['{"club": "Alpha FC"}', "Alpha FC"],
    ['[{"x": 0.30000000000000004}]', "0.3"],
    ['[{"x": -12.5}]', "-12.5"],
    ["[[true]]", "true"],
    ["Alpha FC", "Alpha FC"],
  ])("%s → %s", (result, scalar) => {
    expect(sqlScalar(result)).toBe(scalar);
  });

  it.each([
    ["not found"],
    ["Not Found"],
    ["SQL execution failed: time limit of 2000 ms exceeded"],
    [""],
    ["(none)"],
    ["null"],
    ["[]"],
    ['[{"m": null}]'],
    ['[["a"],["b"]]'],
    ['[{"a": 1, "b": 2}]'],
    ['[{"a": "not found"}]'],
    ['[["Alpha'],
    ["line one\nline two"],
    ["x".repeat(200)],
  ])("%j yields no scalar (never the sentinel)", (result) => {
    expect(sqlScalar(result)).toBeUndefined();
  });
});

describe("isEmptySqlResult", () => {
  it("treats the sentinel, failures and row-less results as empty", () => {
    for (const r of ["not found", "SQL execution failed: x", "", "[]", "{}", "null", "[[null]]", '[{"a":null}]'])
      expect(isEmptySqlResult(r), r).toBe(true);
    for (const r of ['[{"a":0}]', "[[1]]", "Alpha FC"]) expect(isEmptySqlResult(r), r).toBe(false);
  });

  it("flags scalars the conditional fusion mode does not trust alone", () => {
    for (const v of ["0", "0.0", "[]", "null", "None"]) expect(isUninformativeScalar(v)).toBe(true);
    for (const v of ["10", "0.5", "Alpha"]) expect(isUninformativeScalar(v)).toBe(false);
  });
});
