import { describe, expect, it } from "vitest";
import { CsvParseError, parseCsv, raggedRows, sniffDelimiter } from "../../indexing/csv.js";

describe("parseCsv", () => {
  it("drops a BOM and reads plain rows with CRLF, LF and CR line ends", () => {
    expect(parseCsv("\uFEFFa,b\r\n1,2\n3,4\r5,6")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
      ["5", "6"],
    ]);
  });

  it("reads quoted fields with commas, escaped quotes and embedded newlines", () => {
    const rows = parseCsv('name,note\n"Smith, J.","said ""hi""\nthen left"\n');
    expect(rows).toEqual([
      ["name", "note"],
      ["Smith, J.", 'said "hi"\nthen left'],
    ]);
  });

  it("keeps empty fields, including a trailing one, and skips blank lines", () => {
    expect(parseCsv("a,b,c\n,,\n\n1,,\n")).toEqual([
      ["a", "b", "c"],
      ["", "", ""],
      ["1", "", ""],
    ]);
    expect(parseCsv('a\n""\n')).toEqual([["a"], [""]]);
  });

  it("rejects an unterminated quote, naming the line", () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(CsvParseError);
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(/line 2/);
  });

  it("reads a very large quoted cell", () => {
    const big = "x".repeat(5_000_000);
    const rows = parseCsv(`a,b\n"${big}",1\n`);
    expect(rows[1]![0]!.length).toBe(5_000_000);
    expect(rows[1]![1]).toBe("1");
  });

  it("reports rows whose width differs from the header", () => {
    expect(raggedRows([["a", "b"], ["1"], ["1", "2"], ["1", "2", "3"]])).toEqual([
      { row: 2, width: 1 },
      { row: 4, width: 3 },
    ]);
  });
});

describe("sniffDelimiter", () => {
  it("picks the delimiter the header line and most rows agree on; a tie or none goes to the comma", () => {
    expect(sniffDelimiter("a;b;c\n1,5;2;3\n")).toBe(";");
    expect(sniffDelimiter('name\tnote\n"x\ty"\tz\n')).toBe("\t");
    expect(sniffDelimiter("a|b\n1|2\n")).toBe("|");
    expect(sniffDelimiter("a,b\n1,2\n")).toBe(",");
    expect(sniffDelimiter("single\n1\n")).toBe(",");
    expect(sniffDelimiter("\n\na;b\n1;2")).toBe(";");
    expect(parseCsv('a;b\n1;"x;y"\n', ";")).toEqual([
      ["a", "b"],
      ["1", "x;y"],
    ]);
  });
});
