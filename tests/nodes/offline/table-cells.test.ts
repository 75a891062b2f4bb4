import { describe, expect, it } from "vitest";
import { answerFromCells, cellOperation, ratioPhrases } from "../../../nodes/offline/table-cells.js";
import { parseMarkdownRows } from "../../../nodes/offline/evidence.js";
import { BOOKINGS_MARKDOWN } from "./fixtures.js";

const BOOKINGS = parseMarkdownRows(BOOKINGS_MARKDOWN);
const PRICES = parseMarkdownRows(
  [
    "Table name: prices",
    "| col_1 | High | Low |",
    "| --- | --- | --- |",
    "| 2019: |  |  |",
    "| Fourth Quarter | $11.44 | $9.47 |",
    "| Third Quarter | $14.96 | $10.26 |",
    "| 2018: |  |  |",
    "| Fourth Quarter | $12.16 | $7.43 |",
  ].join("\n"),
);
const ORDERS = parseMarkdownRows(
  [
    "Table name: orders",
    "| col_1 | col_2 | Fiscal year | col_4 | % Change |",
    "| --- | --- | --- | --- | --- |",
    "| (in millions of €) | 2019 | 2018 | Actual | Comp. |",
    "| Orders | 12,749 | 11,875 | 7 % | 7 % |",
    "| Revenue | 10,227 | 9,122 | 12 % | 12 % |",
  ].join("\n"),
);
const RATES = parseMarkdownRows(
  [
    "Table name: rates",
    "| col_1 | 2019 | 2018 | 2017 |",
    "| --- | --- | --- | --- |",
    "| Expected volatility | 27.1% | 28.7% | 30.2% |",
    "| Revenues from services | 148 | 151 | 133 |",
  ].join("\n"),
);
const PERSONNEL = parseMarkdownRows(
  [
    "Table name: personnel",
    "| col_1 | December 31, | col_3 |",
    "| --- | --- | --- |",
    "|  | 2018 | 2019 |",
    "| Wages and salaries | 158,371 | 191,459 |",
    "| Pension expenses | 6,937 | 8,408 |",
    "| Total | 188,503 | 227,727 |",
  ].join("\n"),
);
const SEGMENTS = parseMarkdownRows(
  [
    "Table name: segments",
    "| col_1 | Mission Solutions | Global Defense |",
    "| --- | --- | --- |",
    "| Net balances at September 30, 2018 | 138,127 | 145,713 |",
    "| Acquisitions | 40,392 | 0 |",
    "| Net balances at September 30, 2019 | 181,424 | 142,081 |",
  ].join("\n"),
);
const SCALE = "Net bookings were as follows (amounts in millions):";

describe("cell arithmetic over report tables", () => {
  it("classifies the operation", () => {
    expect(cellOperation("What was the percentage change in net bookings between 2018 and 2019?")).toBe(
      "percent_change",
    );
    expect(cellOperation("What is the average net bookings for 2018 and 2019?")).toBe("average");
    expect(cellOperation("What was the change in net bookings from 2018 to 2019?")).toBe("difference");
    expect(cellOperation("What were the net bookings in 2019 and 2018 respectively?")).toBe("list");
    expect(cellOperation("What were the net bookings in 2019?")).toBe("lookup");
  });

  it("computes percentage change, change, average and sum from (row, year) cells", () => {
    expect(
      answerFromCells("What was the percentage change for in-game net bookings from 2018 to 2019?", BOOKINGS, SCALE)
        ?.answer,
    ).toBe("-19.91%");
    expect(answerFromCells("What was the change in net bookings from 2018 to 2019?", BOOKINGS, SCALE)?.answer).toBe(
      "-874 million",
    );
    expect(
      answerFromCells("What is the average in-game net bookings for 2018 and 2019?", BOOKINGS, SCALE)?.answer,
    ).toBe("3784.5 million");
    expect(
      answerFromCells("What is the sum of in-game net bookings and net bookings in 2019?", BOOKINGS, SCALE)?.answer,
    ).toBe("9754 million");
  });

  it("reads lookups and respective lists as stored, with the declared scale", () => {
    expect(answerFromCells("What were the in-game net bookings in 2018?", BOOKINGS, SCALE)?.answer).toBe(
      "$4,203 million",
    );
    expect(answerFromCells("What were the net bookings in 2019 and 2018 respectively?", BOOKINGS, SCALE)?.answer).toBe(
      "$6,388 | $7,262 million",
    );
  });

  it("uses period sections and the column the question names", () => {
    const r = answerFromCells(
      "How big was the difference in high and low share prices during the 2019 fourth quarter?",
      PRICES,
    );
    expect(r?.answer).toBe("1.97");
    expect(answerFromCells("What was the low price in the fourth quarter of 2018?", PRICES)?.answer).toBe("$7.43");
  });

  it("reads period columns from a header row whose first cell is a unit note", () => {
    const ev = "(in millions of €)";
    expect(answerFromCells("What were the average orders for 2018 and 2019?", ORDERS, ev)?.answer).toBe(
      "12312 million",
    );
    expect(answerFromCells("What was the change in revenue from 2018 to 2019?", ORDERS, ev)?.answer).toBe(
      "1105 million",
    );
  });

  it("averages and sums over a year range or every period, and keeps percentages as percentages", () => {
    expect(answerFromCells("What is the average of Revenues from services?", RATES)?.answer).toBe("144");
    expect(answerFromCells("What is the total revenues from services from 2017 to 2019?", RATES)?.answer).toBe("432");
    expect(answerFromCells("What is the average revenues from services for 2018 and 2019?", RATES)?.answer).toBe(
      "149.5",
    );
    expect(answerFromCells("Give the average expected volatility for 2017 and 2018?", RATES)?.answer).toBe("29.45%");
    expect(answerFromCells("What was the change in expected volatility from 2018 to 2019?", RATES)?.answer).toBe(
      "-1.6%",
    );
  });

  it("reports the gap between two named columns as a positive amount", () => {
    expect(
      answerFromCells("During the 2019 fourth quarter, what was the difference between its low and high price?", PRICES)
        ?.answer,
    ).toBe("1.97");
  });

  it("reads the Total row for a 'total …' question and the row whose label names the asked year", () => {
    expect(
      answerFromCells("What was the change from 2018 to 2019 in total personnel expenses?", PERSONNEL)?.answer,
    ).toBe("39224");
    expect(
      answerFromCells(
        "What is the difference between the net balances at September 30, 2019 between Mission Solutions and Global Defense?",
        SEGMENTS,
      )?.answer,
    ).toBe("39343");
  });

  it("answers period questions: the years covered, the highest/lowest year, the years past a threshold and their count", () => {
    expect(answerFromCells("For which years does the table give figures on the revenues?", RATES)?.answer).toBe(
      "2019 | 2018 | 2017",
    );
    expect(answerFromCells("What years are covered by the table?", RATES)?.answer).toBe("2019 | 2018 | 2017");
    expect(answerFromCells("In which year were net bookings higher?", BOOKINGS, SCALE)?.answer).toBe("2018");
    expect(answerFromCells("In which year was the revenues from services the lowest?", RATES)?.answer).toBe("2017");
    expect(answerFromCells("In which year was revenues from services less than 150?", RATES)?.answer).toBe(
      "2019 | 2017",
    );
    expect(answerFromCells("How many years did revenues from services exceed 140?", RATES)?.answer).toBe("2");
  });

  it("counts the years past a threshold stated in another scale, however the count is worded", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: expenses",
        "| col_1 | 2021 | 2020 | 2019 |",
        "| --- | --- | --- | --- |",
        "| Marketing | 3,120 | 2,480 | 1,905 |",
        "| Freight | 740 | 810 | 655 |",
      ].join("\n"),
    );
    const scale = "Expenses by function (in thousands):";
    // 2.5 million is 2,500 in the table's thousands: one year, not all three (each is above 2.5).
    expect(answerFromCells("How many years did marketing exceed $2.5 million?", rows, scale)?.answer).toBe("1");
    expect(
      answerFromCells("From 2019 to 2021, how many of the years was marketing more than 2 million?", rows, scale)
        ?.answer,
    ).toBe("2");
    expect(answerFromCells("In which year was marketing less than 2,000 thousand?", rows, scale)?.answer).toBe("2019");
  });

  it("lists the two columns or rows a respective question names", () => {
    expect(
      answerFromCells("What were the respective high and low sale prices during the 2019 fourth quarter?", PRICES)
        ?.answer,
    ).toBe("$11.44 | $9.47");
    expect(
      answerFromCells("What are the respective wages and salaries and pension expenses for 2019?", PERSONNEL)?.answer,
    ).toBe("191,459 | 8,408");
  });

  it("divides an item by the Total row for 'percentage of the total' questions", () => {
    expect(
      answerFromCells(
        "What is the pension expenses as a percentage of the total personnel expenses in 2019?",
        PERSONNEL,
      )?.answer,
    ).toBe("3.69%");
  });

  it("reads 'the ratio of total A to total B' as two items' totals, not a share of the Total row", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: commitments",
        "| Commitments | Total | Within 1 Year | 1-3 Years | Later |",
        "| --- | --- | --- | --- | --- |",
        "| Office leases | 240.0 | 60.0 | 100.0 | 80.0 |",
        "| Software licences | 30.0 | 30.0 | — | — |",
        "| Total | 270.0 | 90.0 | 100.0 | 80.0 |",
      ].join("\n"),
    );
    const reading = answerFromCells(
      "What is the ratio (in percentage) of total software licences to total office leases?",
      rows,
    );
    expect(reading?.answer).toBe("12.5%");
    // (a reading of the report's own structure, which the graph's readers trust like a period table's)
    expect(reading?.periodTable).toBe(true);
  });

  it("reads an unlabelled last row that sums the rows above as the Total row", () => {
    const table = (last: string) =>
      parseMarkdownRows(
        [
          "Table name: regions",
          "| col_1 | 2021 | 2020 |",
          "| --- | --- | --- |",
          "| North | 410 | 520 |",
          "| South | 300 | 150 |",
          `| ${last} |`,
        ].join("\n"),
      );
    const question = "Between 2020 and 2021, which year had higher total sales?";
    expect(answerFromCells(question, table(" | 710 | 670"))?.answer).toBe("2021");
    // (a row that is not the sum of the rows above is no total)
    expect(answerFromCells(question, table(" | 700 | 670"))).toBeUndefined();
  });

  it("divides the part that lies in the whole's own section when several sections hold it", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: margins",
        "| col_1 | 2021 | 2020 |",
        "| --- | --- | --- |",
        "| Sales by channel ($M) |  |  |",
        "| Retail stores | 800 | 700 |",
        "| Online shop | 200 | 100 |",
        "|  | 1,000 | 800 |",
        "| Gross margin by channel ($M) |  |  |",
        "| Retail stores | 120 | 110 |",
        "| Online shop | 80 | 40 |",
        "|  | 200 | 150 |",
      ].join("\n"),
    );
    expect(
      answerFromCells("What is the percentage constitution of online shop in gross margin by channel in 2021?", rows)
        ?.answer,
    ).toBe("40%");
  });

  it("reads fiscal short forms (FY19, F18) as years", () => {
    const rows = parseMarkdownRows(
      ["Table name: fy", "| col_1 | FY19 | FY18 |", "| --- | --- | --- |", "| Solar levy | -27,603 | 0 |"].join("\n"),
    );
    expect(answerFromCells("What is the change in Solar levy from FY18 to FY19?", rows)?.answer).toBe("-27603");
  });

  it("leaves filtered counts over items to SQL", () => {
    expect(answerFromCells("How many items had net bookings above 5,000 in 2019?", BOOKINGS, SCALE)).toBeUndefined();
  });

  it("gives up when no row matches the question", () => {
    expect(answerFromCells("What was the dividend per share in 2019?", BOOKINGS, SCALE)).toBeUndefined();
  });
});

const UNITS = parseMarkdownRows(
  [
    "Table name: units",
    "| col_1 | 2021 | 2020 |",
    "| --- | --- | --- |",
    "|  | £m | £m |",
    "| Licence income | 40.5 | 32.0 |",
    "| Basic earnings per share (pence) | 12.4 | 9.8 |",
    "| Staff (number of people) |  |  |",
    "| Engineers ($M) | 7.5 | 6.0 |",
  ].join("\n"),
);
const QUARTERS = parseMarkdownRows(
  [
    "Table name: quarters",
    "| col_1 | First Quarter | Second Quarter | Third Quarter | Fourth Quarter |",
    "| --- | --- | --- | --- | --- |",
    "| Turnover | 1,200 | 1,500 | 1,350 | 1,300 |",
  ].join("\n"),
);
const COMMITMENTS = parseMarkdownRows(
  [
    "Table name: commitments",
    "| col_1 | Total | Less Than 1 Year | 1-3 Years | More Than 3 Years |",
    "| --- | --- | --- | --- | --- |",
    "| Office leases | 400 | 100 | 200 | 100 |",
    "| Licences | 50 | 20 | 20 | 10 |",
    "| Total | 450 | 120 | 220 | 110 |",
  ].join("\n"),
);
const HOLDINGS = parseMarkdownRows(
  [
    "Table name: holdings",
    "| col_1 | Cost | Gains | col_4 |",
    "| --- | --- | --- | --- |",
    "|  |  | As of June 30, 2021 |  |",
    "| Bonds | 300 | 30 |  |",
    "| Total | 500 | 40 |  |",
    "|  |  | As of June 30, 2020 |  |",
    "| Bonds | 250 | 10 |  |",
    "| Total | 400 | 50 |  |",
  ].join("\n"),
);

describe("units and signs of cell answers", () => {
  it("takes the scale from the table the value comes from before the passages, none for per-share amounts", () => {
    const passages = "Amounts in this note are in thousands unless stated otherwise.";
    expect(answerFromCells("What was the change in licence income from 2020 to 2021?", UNITS, passages)?.answer).toBe(
      "8.5 million",
    );
    expect(answerFromCells("What was the basic earnings per share in 2021?", UNITS, passages)?.answer).toBe("12.4");
    expect(answerFromCells("What is the average engineers for 2020 and 2021?", UNITS)?.answer).toBe("6.75 million");
  });

  it("reports a 'difference' or a fall as a size, a change with its sign", () => {
    expect(answerFromCells("What is the difference in licence income between 2020 and 2021?", UNITS)?.answer).toBe(
      "8.5 million",
    );
    expect(answerFromCells("How much did basic earnings per share decrease by from 2021 to 2020?", UNITS)?.answer).toBe(
      "2.6",
    );
    expect(answerFromCells("What was the change in licence income from 2021 to 2020?", UNITS)?.answer).toBe(
      "8.5 million",
    );
    expect(answerFromCells("What was the % change in licence income from 2020 to 2021?", UNITS)?.answer).toBe("26.56%");
  });

  it("computes a change between two named period columns from the first-named to the second-named", () => {
    expect(
      answerFromCells("What was the change in turnover between the third quarter and the fourth?", QUARTERS)?.answer,
    ).toBe("-50");
    expect(
      answerFromCells("What was the percentage change for turnover between the first quarter and the second?", QUARTERS)
        ?.answer,
    ).toBe("25%");
  });

  it("divides by the row's own Total column when the question's total names the row", () => {
    const share = answerFromCells(
      "What is the percentage of the office leases of more than 3 years in the total office leases?",
      COMMITMENTS,
    );
    expect(share?.answer).toBe("25%");
    // A share of a Total is a report-table reading, though the table has no period columns.
    expect(share?.periodTable).toBe(true);
    expect(answerFromCells("What is the office leases of more than 3 years?", COMMITMENTS)?.periodTable).toBe(false);
  });

  it("reads rows of a dated section in the column the question names", () => {
    expect(
      answerFromCells("What percentage of the total gains is generated from bonds in 2020?", HOLDINGS)?.answer,
    ).toBe("20%");
  });

  it("reads, averages or sums a row that already holds percentages instead of dividing again", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: shares",
        "| col_1 | 2021 | 2020 |",
        "| --- | --- | --- |",
        "| Revenue | 100% | 100% |",
        "| Cost of goods | 40% | 45% |",
      ].join("\n"),
    );
    expect(
      answerFromCells("Give the average cost of goods as a percentage of revenue for 2020 and 2021?", rows)?.answer,
    ).toBe("42.5%");
    expect(
      answerFromCells("What were the cost of goods as a percentage of revenue for 2020 and 2021 respectively?", rows)
        ?.answer,
    ).toBe("45% | 40%");
  });

  it("averages a percentage row over its period columns, not its columns comparing two years", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: margins",
        "| col_1 | Year ended | Year ended_2 | Year ended_3 | Change | Change_2 |",
        "| --- | --- | --- | --- | --- | --- |",
        "|  | 2021 | 2020 | 2019 | 2021 vs 2020 | 2020 vs 2019 |",
        "| Net sales | $1,200 | $1,000 | $950 | 20.0% | 5.3% |",
        "| Margin (as percentage of net sales) | 30.0% | 34.0% | 35.0% | -400 bps | -100 bps |",
      ].join("\n"),
    );
    expect(answerFromCells("What is the average Margin (as percentage of net sales)?", rows)?.answer).toBe("33%");
  });

  it("averages bracketed costs as a positive amount, other bracketed rows with their sign", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: outflows",
        "| col_1 | 2021 | 2020 |",
        "| --- | --- | --- |",
        "| Interest expense | (300) | (100) |",
        "| Tax benefit | (30) | (10) |",
      ].join("\n"),
    );
    expect(answerFromCells("What was the average interest expense for 2020 and 2021?", rows)?.answer).toBe("200");
    expect(answerFromCells("What was the average tax benefit for 2020 and 2021?", rows)?.answer).toBe("-20");
  });
});

describe("answerFromCells: the decomposer's notes", () => {
  const OTHER_ASSETS = parseMarkdownRows(
    [
      "Table name: other_assets",
      "| col_1 | Year end | col_3 |",
      "| --- | --- | --- |",
      "|  | 2019 | 2018 |",
      "| Prepaid software licences | 4,100 | 3,900 |",
      "| Other assets(1) | 1,200 | 950 |",
      "| Total other assets | 5,300 | 4,850 |",
    ].join("\n"),
  );
  it("locates the row by the question, not by the columns its note names ('col_1' is no footnote mark '(1)')", () => {
    const asked = "What did the Total other assets come to in 2019?";
    expect(answerFromCells(asked, OTHER_ASSETS)?.answer).toBe("5,300");
    expect(answerFromCells(`${asked} (columns: col_1, Year end)`, OTHER_ASSETS)?.answer).toBe("5,300");
  });
});

describe("answerFromCells: operands named in other words, named years", () => {
  const PROFIT = parseMarkdownRows(
    [
      "Table name: profit",
      "| col_1 | 2021 | 2020 |",
      "| --- | --- | --- |",
      "| Operating profit before write-downs | 400 | 360 |",
      "| Write-downs | (100) | (90) |",
      "| Home market | 150 | 120 |",
      "| Abroad | 50 | 60 |",
      "| Earnings before levies | 200 | 180 |",
    ].join("\n"),
  );
  const FX = parseMarkdownRows(
    [
      "Table name: fx",
      "| col_1 | 2021 | 2020 |",
      "| --- | --- | --- |",
      "| Norwegian Krone | 9.10 | 9.40 |",
      "| Swiss Franc | 0.91 | 0.93 |",
    ].join("\n"),
  );
  const STORES = parseMarkdownRows(
    [
      "Table name: stores",
      "| col_1 | 2021 | 2020 | 2019 |",
      "| --- | --- | --- | --- |",
      "| Stores opened | 12 | 9 | 6 |",
    ].join("\n"),
  );

  it("averages over every year the question names one by one", () => {
    expect(
      answerFromCells("What is the average number of stores opened for 2019, 2020 and 2021?", STORES)?.answer,
    ).toBe("9");
  });

  it("reads 'weighted-average' and 'the change in the average …' as names, not as an average to compute", () => {
    expect(cellOperation("What are the weighted-average rates of the krone and the franc in 2021, respectively?")).toBe(
      "list",
    );
    expect(cellOperation("What was the change in the average price per share from 2020 to 2021?")).toBe("difference");
    expect(cellOperation("What was the average change in the price per share?")).toBe("average");
    expect(
      answerFromCells(
        "What were the weighted-average exchange rates of the Norwegian Krone for 2021 and 2020, respectively?",
        FX,
      )?.answer,
    ).toBe("9.10 | 9.40");
  });

  it("finds the part and the whole of a ratio in rows the question names in other words", () => {
    expect(ratioPhrases("What is the percentage constitution of write-downs in operating profit in 2021?")).toEqual([
      "write-downs",
      "operating profit",
    ]);
    expect(
      ratioPhrases("What percentage of the total earnings before levies does the home market make up in 2020?"),
    ).toEqual(["home market", "total earnings before levies"]);
    expect(ratioPhrases("What was abroad as a proportion of earnings before levies in 2021?")).toEqual([
      "abroad",
      "earnings before levies",
    ]);
    expect(ratioPhrases("What is the ratio of home market to abroad in 2021?")).toBeUndefined();
    // 150 / 200; a bracketed part (an amount written down) is a share by its size: 100 / 400.
    expect(
      answerFromCells(
        "What percentage of the total earnings before levies does the home market make up in 2021?",
        PROFIT,
      )?.answer,
    ).toBe("75%");
    expect(
      answerFromCells(
        "What is the percentage constitution of write-downs in operating profit before write-downs in 2021?",
        PROFIT,
      )?.answer,
    ).toBe("25%");
    expect(answerFromCells("What was abroad as a proportion of earnings before levies in 2021?", PROFIT)?.answer).toBe(
      "0.25",
    );
  });
});

describe("answerFromCells: questions answered by row labels", () => {
  const ASSETS = parseMarkdownRows(
    [
      "Table name: assets",
      "| col_1 | 2021 | 2020 |",
      "| --- | --- | --- |",
      "| Due within twelve months: |  |  |",
      "| Loans to affiliates2 | 900 | 800 |",
      "| Prepaid rent | 40 | 50 |",
      "|  | 940 | 850 |",
      "| Due after twelve months: |  |  |",
      "| Long-term deposits | 70 | 20 |",
      "| Pension surplus | 15 | 30 |",
      "|  | 85 | 50 |",
    ].join("\n"),
  );
  const DUES = parseMarkdownRows(
    [
      "Table name: dues",
      "| Commitments | Total | Within 1 year | Later |",
      "| --- | --- | --- | --- |",
      "| Bank loans . | 500 | 100 | 400 |",
      "| Office leases | 650 | 50 | 600 |",
      "| Supplier contracts | 90 | 90 | — |",
      "| Total | 1,240 | 240 | 1,000 |",
    ].join("\n"),
  );

  it("lists the rows of the table, or of the section the question names, without totals and footnote marks", () => {
    expect(answerFromCells("What items are listed in the table?", DUES)?.answer).toBe(
      "Bank loans | Office leases | Supplier contracts",
    );
    expect(answerFromCells("What are the components under Due after twelve months?", ASSETS)?.answer).toBe(
      "Long-term deposits | Pension surplus",
    );
    expect(answerFromCells("What items does due within twelve months consist of?", ASSETS)?.answer).toBe(
      "Loans to affiliates | Prepaid rent",
    );
    // Items named as the subject, not asked for: no list of rows.
    expect(answerFromCells("What do the office leases in the table stand for?", DUES)?.answer ?? "").not.toContain(
      " | ",
    );
  });

  it("ends a section's components at its total: the rows after it are not its items", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: equipment",
        "| col_1 | 2021 | 2020 |",
        "| --- | --- | --- |",
        "| Equipment, at cost: |  |  |",
        "| Vehicles | 120 | 110 |",
        "| Tools | 80 | 70 |",
        "|  | 200 | 180 |",
        "| Less depreciation | (90) | (60) |",
        "| Equipment, net | 110 | 120 |",
      ].join("\n"),
    );
    expect(answerFromCells("What were the components under Equipment, at cost?", rows)?.answer).toBe(
      "Vehicles | Tools",
    );
  });

  it("names the row with the highest or lowest value in the column the question names", () => {
    expect(answerFromCells("Which commitment has the highest total?", DUES)?.answer).toBe("Office leases");
    expect(answerFromCells("Which commitment has the highest amount due within 1 year?", DUES)?.answer).toBe(
      "Bank loans",
    );
    expect(answerFromCells("In which item were the assets the smallest in 2020?", ASSETS)?.answer).toBe(
      "Long-term deposits",
    );
    // Both directions named, or none: no reading of this kind.
    expect(answerFromCells("Which commitment has the highest total and which the lowest?", DUES)?.operation).not.toBe(
      "lookup",
    );
  });
});

describe("answerFromCells: roll-forward tables and rows named by position", () => {
  // A balance, its movements, the next balance: the movements belong to the period of the balance they lead to.
  const AWARDS = parseMarkdownRows(
    [
      "Table name: awards",
      "| Unvested units | Units | Weighted-average fair value |",
      "| --- | --- | --- |",
      "| Unvested at June 30, 2020 | 5,000 | $20.00 |",
      "| Granted | 1,000 | $25.00 |",
      "| Vested | (400) | $18.00 |",
      "| Unvested at June 30, 2021 | 5,600 | $21.00 |",
      "| Granted | 2,000 | $30.00 |",
      "| Vested | (600) | $19.00 |",
      "| Forfeited | (100) | $22.00 |",
      "| Unvested at June 30, 2022 | 6,900 | $24.00 |",
    ].join("\n"),
  );
  const BUYBACKS = parseMarkdownRows(
    [
      "Table name: buybacks",
      "| Period | Shares bought | Average price paid per share | Shares bought under the plan |",
      "| --- | --- | --- | --- |",
      "|  | (in thousands) |  | (in thousands) |",
      "| May 1, 2022 - May 31, 2022 | 100 | $ 10.00 | 1,100 |",
      "| June 1, 2022 - June 30, 2022 | 150 | $ 10.50 | 1,250 |",
      "| July 1, 2022 - July 31, 2022 | 130 | $ 11.25 | 1,380 |",
      "| Total | 380 | $ 10.60 |  |",
    ].join("\n"),
  );

  it("reads a movement row in the period of the balance it leads to, and a balance by its own date", () => {
    expect(answerFromCells("How many units were granted in 2022?", AWARDS)?.answer).toBe("2,000");
    expect(answerFromCells("How many units were granted in 2021?", AWARDS)?.answer).toBe("1,000");
    expect(answerFromCells("What is the number of unvested units at June 30, 2021?", AWARDS)?.answer).toBe("5,600");
  });

  it("keeps 'un-' and 'non-' joined to their word ('un-vested units forfeited' is not the Vested row)", () => {
    expect(answerFromCells("How many un-vested units were forfeited in 2022?", AWARDS)?.answer).toBe("(100)");
  });

  it("divides a bracketed movement by the balance as a size", () => {
    expect(
      answerFromCells(
        "What is the units vested in 2022 as a percentage of the total unvested units at June 30, 2022?",
        AWARDS,
      )?.answer,
    ).toBe("8.7%");
  });

  it("takes 'the second month' as the second dated row, in the column the question names, with that column's unit", () => {
    expect(answerFromCells("How many shares were bought in the second month?", BUYBACKS)?.answer).toBe("150 thousand");
    expect(
      answerFromCells(
        "What was the change in the average price paid per share from the first to second month?",
        BUYBACKS,
      )?.answer,
    ).toBe("0.5");
    expect(
      answerFromCells(
        "What was the change in shares bought under the plan between the second and third month?",
        BUYBACKS,
      )?.answer,
    ).toBe("130 thousand");
    expect(
      answerFromCells(
        "What were the shares bought in the first month, taken as a percent of total shares bought in the three months?",
        BUYBACKS,
      )?.answer,
    ).toBe("26.32%");
  });

  it("sums the rows of the section 'the sum of all X' names, in the column every row fills", () => {
    const CARRYFORWARDS = parseMarkdownRows(
      [
        "Table name: carryforwards",
        "| (in thousands) | Expires | Amount |",
        "| --- | --- | --- |",
        "| Operating loss carryforwards:(1) |  |  |",
        "| Home state | 2035 | $1,500 |",
        "| Abroad | 2035 or never | $800 |",
        "| Research credit carryforwards: |  |  |",
        "| Federal | 2030 | $300 |",
        "| Home state | 2031 | $50 |",
      ].join("\n"),
    );
    const sum = answerFromCells("What was the sum of all operating loss carryforwards?", CARRYFORWARDS);
    expect(sum?.answer).toBe("2300 thousand");
    expect(sum?.periodTable).toBe(true);
    expect(answerFromCells("What is the sum of all research credit carryforwards?", CARRYFORWARDS)?.answer).toBe(
      "350 thousand",
    );
  });

  it("leaves rows that name their own position ('Fourth Quarter') to their words", () => {
    const QUARTERS = parseMarkdownRows(
      [
        "Table name: quarters",
        "| col_1 | High | Low |",
        "| --- | --- | --- |",
        "| First Quarter (January 1 - March 31) | 8.00 | 6.00 |",
        "| Second Quarter (April 1 - June 30) | 9.00 | 7.00 |",
      ].join("\n"),
    );
    expect(answerFromCells("What was the high price in the second quarter?", QUARTERS)?.answer).toBe("9.00");
  });
});

describe("nil cells", () => {
  it("reads a dash in a period column as zero in a change", () => {
    const rows = parseMarkdownRows(
      [
        "Table name: gains",
        "| col_1 | 2021 | 2020 |",
        "| --- | --- | --- |",
        "| Gains on swaps | — | (1,500) |",
        "| Other | 40 | 35 |",
      ].join("\n"),
    );
    expect(answerFromCells("What was the change in the gains on swaps from 2020 to 2021?", rows)?.answer).toBe("1500");
  });
});
