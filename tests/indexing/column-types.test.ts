import { describe, expect, it } from "vitest";
import { inferColumnType, parseDate, parseNumber, typedValue } from "../../indexing/column-types.js";

describe("parseNumber", () => {
  it.each([
    ["1,234", 1234],
    ["$5.2", 5.2],
    ["12%", 12],
    ["(3.4)", -3.4],
    ["$(1,200)", -1200],
    ["-$7", -7],
    ["12 km", 12],
    ["−5", -5],
    ["+3", 3],
    [".5", 0.5],
    ["1,234.56", 1234.56],
    ["42[3]", 42],
    ["€ 10", 10],
    ["2nd", 2],
    ["£16.8M", 16.8],
    ["5 A", 5],
  ])("%s → %d", (text, value) => {
    expect(parseNumber(text)).toBeCloseTo(value, 10);
  });

  it.each(["", "abc", "1,5", "1 234", "2-1", "1999–2000", "12:30", "$", "(x)", "9A", "12B"])(
    "%s is not a number",
    (text) => {
      expect(parseNumber(text)).toBeNull();
    },
  );
});

describe("parseDate", () => {
  it.each([
    ["2019-06-30", "2019-06-30"],
    ["2019/6/3", "2019-06-03"],
    ["6/30/2019", "2019-06-30"],
    ["30/6/2019", "2019-06-30"],
    ["30.06.2019", "2019-06-30"],
    ["June 30, 2019", "2019-06-30"],
    ["June 23 , 1892", "1892-06-23"],
    ["30 June 2019", "2019-06-30"],
    ["Jun. 30 2019", "2019-06-30"],
    ["1st March 2001", "2001-03-01"],
    ["June 2019", "2019-06"],
  ])("%s → %s", (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it.each(["1999", "2019-02-30", "13/13/2019", "Monday", "June", "Summer 2019"])("%s is not a date", (text) => {
    expect(parseDate(text)).toBeNull();
  });
});

describe("inferColumnType", () => {
  it("types integer, real, date and text columns, ignoring empty cells and placeholders", () => {
    expect(inferColumnType(["1", "2,000", "", "-", "(5)"])).toBe("integer");
    expect(inferColumnType(["1", "2.5", "n/a"])).toBe("real");
    expect(inferColumnType(["12%", "3%"])).toBe("real");
    expect(inferColumnType(["June 1, 2001", "2002-03-04"])).toBe("date");
    expect(inferColumnType(["Arsenal", "12"])).toBe("text");
    expect(inferColumnType(["", ""])).toBe("text");
  });

  it("tolerates a few unparseable cells in a long numeric column", () => {
    const values = [...Array.from({ length: 19 }, (_, i) => String(i)), "unknown"];
    expect(inferColumnType(values)).toBe("integer");
    expect(inferColumnType([...values, "x", "y"])).toBe("text");
  });
});

describe("typedValue", () => {
  it("converts by column type and yields null for empty, placeholder or unparseable cells", () => {
    expect(typedValue("1,234", "integer")).toBe(1234);
    expect(typedValue("—", "integer")).toBeNull();
    expect(typedValue("unknown", "real")).toBeNull();
    expect(typedValue("June 30, 2019", "date")).toBe("2019-06-30");
    expect(typedValue("  Leeds ", "text")).toBe("Leeds");
    expect(typedValue("", "text")).toBeNull();
    expect(typedValue("2.5", "integer")).toBeNull();
  });
  it("types a column of year-months ('2024-07') as dates, but not a column of seasons ('2010-11')", () => {
    expect(inferColumnType(["2024-07", "2023-11", "2024-02"])).toBe("date");
    expect(typedValue("2024-07", "date")).toBe("2024-07");
    expect(inferColumnType(["2009-10", "2010-11", "2011-12"])).toBe("text");
  });
  it("reads 'Free' among prices as 0, and keeps such a column numeric", () => {
    expect(typedValue("Free", "real")).toBe(0);
    expect(typedValue("free", "text")).toBe("free");
    expect(inferColumnType(["£4.00", "Free", "£2.50", "£3.00"])).toBe("real");
  });
});

describe("the fast paths (plain digits, no digit, no footnote mark) give the general rule's results", () => {
  it.each([
    ["0042", 42],
    ["1234567890123456789012345678901234567890", Number("1234567890123456789012345678901234567890")],
    ["12345678901234567890123456789012345678901", null], // over 40 characters: never a number
    [" 17 ", 17],
    ["17*", 17],
    ["17 [3]", 17],
    ["17]", null],
    ["Paris", null],
    ["[a]", null],
    ["", null],
  ])("parseNumber(%j) = %j", (text, want) => {
    expect(parseNumber(text)).toBe(want);
  });
  it("dates need a digit; footnote marks are dropped only at the end", () => {
    expect(parseDate("June 30, 2019 [2]")).toBe("2019-06-30");
    expect(parseDate("2019-06-30†")).toBe("2019-06-30");
    expect(parseDate("June thirtieth")).toBeNull();
    expect(inferColumnType(["1", "2", "3*", "4 [n]"])).toBe("integer");
    expect(inferColumnType(["1", "2", "3.5*", "4"])).toBe("real");
  });
});
