/** Converters on tiny hand-made fixtures in the official release formats. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertWtq, parseWtqCsv } from "../../evals/convert/wtq.js";
import { convertTatqa } from "../../evals/convert/tatqa.js";
import { convertHybridqa } from "../../evals/convert/hybridqa.js";
import { parseCsv } from "../../indexing/csv.js";
import { loadQuestions } from "../../evals/dataset.js";
import { wtqCorrect } from "../../evals/scoring/wtq.js";
import { scoreTatqa } from "../../evals/scoring/tatqa.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const jsonl = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("atr convert wtq", () => {
  it("reads the tagged split, unescapes TSV lists, re-encodes the backslash-escaped CSV as RFC 4180", () => {
    const src = tmp("wtq-src-");
    mkdirSync(join(src, "tagged", "data"), { recursive: true });
    mkdirSync(join(src, "csv", "204-csv"), { recursive: true });
    mkdirSync(join(src, "page", "204-page"), { recursive: true });
    const header =
      "id\tutterance\tcontext\ttargetValue\ttokens\tlemmaTokens\tposTags\tnerTags\tnerValues\ttargetCanon\ttargetCanonType";
    writeFileSync(
      join(src, "tagged", "data", "pristine-seen-tables.tagged"),
      [
        header,
        "nt-1\thow many players?\tcsv/204-csv/602.csv\t12,467\tx\tx\tx\tx\tx\t12467.0\tnumber",
        "nt-2\twhich two?\tcsv/204-csv/602.csv\tA\\pB|C\\\\D\tx\tx\tx\tx\tx\tA\\pB|C\\\\D\tstring",
      ].join("\n") + "\n",
    );
    writeFileSync(
      join(src, "csv", "204-csv", "602.csv"),
      '"Name","Note"\n"Jo \\"JJ\\" Smith","a, b"\n"Line","one\ntwo \\\\ end"\n',
    );
    writeFileSync(
      join(src, "page", "204-page", "602.json"),
      JSON.stringify({ title: "Saskatoon Legends", url: "http://x", tableIndex: 0, id: 3962875, revision: 545024924 }),
    );
    const out = tmp("wtq-out-");
    expect(convertWtq({ src, outDir: out, split: "pristine-seen-tables" })).toEqual({
      questions: 2,
      tables: 1,
      passages: 0,
    });
    const qs = jsonl(join(out, "questions.jsonl"));
    expect(qs[0]).toEqual({
      question_id: "nt-1",
      question: "how many players?",
      table_id: "204_602",
      answer: ["12,467"],
      answer_canon: ["12467.0"],
      answer_canon_type: "number",
      table_source: "csv/204-csv/602.csv",
    });
    expect(qs[1].answer).toEqual(["A|B", "C\\D"]);
    expect(parseCsv(readFileSync(join(out, "tables", "204_602.csv"), "utf8"))).toEqual([
      ["Name", "Note"],
      ['Jo "JJ" Smith', "a, b"],
      ["Line", "one\ntwo \\ end"],
    ]);
    expect(JSON.parse(readFileSync(join(out, "tables", "204_602.json"), "utf8"))).toMatchObject({
      page_title: "Saskatoon Legends",
      page_id: 3962875,
      table_index: 0,
    });
    expect(existsSync(join(out, "passages", ".gitkeep"))).toBe(true);
    // The converted gold scores as the official evaluator would: 12467 matches through answer_canon.
    expect(wtqCorrect(loadQuestions(join(out, "questions.jsonl"))[0] as never, "12467")).toBe(true);
  });

  it("parses the release CSV dialect", () => {
    expect(parseWtqCsv('"a","b \\"q\\""\n"",""\n')).toEqual([
      ["a", 'b "q"'],
      ["", ""],
    ]);
  });
});

describe("atr convert tatqa", () => {
  it("writes the table, the paragraphs in order, and gold answers as extract_gold_answers builds them", () => {
    const src = join(tmp("tat-src-"), "tatqa_dataset_dev.json");
    writeFileSync(
      src,
      JSON.stringify([
        {
          table: {
            uid: "t-1",
            table: [
              ["", "2019", "2018"],
              ["Revenue", "$3,366", "$4,203"],
            ],
          },
          paragraphs: [
            { uid: "p2", order: 2, text: "Second." },
            { uid: "p1", order: 1, text: "First." },
          ],
          questions: [
            {
              uid: "q1",
              order: 1,
              question: "Change?",
              answer: -19.91,
              derivation: "(3366-4203)/4203",
              answer_type: "arithmetic",
              answer_from: "table",
              rel_paragraphs: [],
              req_comparison: false,
              scale: "percent",
            },
            {
              uid: "q2",
              order: 2,
              question: "Years?",
              answer: ["2019", "2018"],
              derivation: "",
              answer_type: "multi-span",
              answer_from: "table",
              rel_paragraphs: ["1"],
              req_comparison: false,
              scale: "",
            },
            {
              uid: "q3",
              order: 3,
              question: "How many?",
              answer: 2.0,
              derivation: "",
              answer_type: "count",
              answer_from: "table",
              rel_paragraphs: [],
              req_comparison: false,
              scale: "",
            },
          ],
        },
      ]),
    );
    const out = tmp("tat-out-");
    expect(convertTatqa({ src, outDir: out })).toEqual({ questions: 3, tables: 1, passages: 1 });
    const qs = jsonl(join(out, "questions.jsonl"));
    expect(qs.map((q) => q.answer)).toEqual([["-19.91"], ["2019", "2018"], ["2"]]);
    expect(qs[0]).toMatchObject({
      question_id: "q1",
      table_id: "t-1",
      answer_raw: -19.91,
      scale: "percent",
      passages_id: "t-1",
      order_in_context: 1,
    });
    expect(JSON.parse(readFileSync(join(out, "passages", "t-1.json"), "utf8"))).toEqual([
      { id: "p1", order: 1, text: "First." },
      { id: "p2", order: 2, text: "Second." },
    ]);
    expect(parseCsv(readFileSync(join(out, "tables", "t-1.csv"), "utf8"))[1]).toEqual(["Revenue", "$3,366", "$4,203"]);
    expect(scoreTatqa(qs[0], { answer: ["-19.91"], scale: "percent" }).em).toBe(1);
  });
});

describe("atr convert hybridqa", () => {
  it("joins questions, reference, tables_tok and request_tok; passages list the cells that link to them", () => {
    const root = tmp("hy-src-");
    mkdirSync(join(root, "released_data"));
    mkdirSync(join(root, "tables_tok"));
    mkdirSync(join(root, "request_tok"));
    const src = join(root, "released_data", "dev.json");
    writeFileSync(
      src,
      JSON.stringify([
        {
          question_id: "h1",
          question: "Birth month of the bronze medalist ?",
          table_id: "Olympics_0",
          "answer-text": "April",
          "answer-node": [["Eldar", [0, 1], "/wiki/Eldar_K", "passage"]],
          where: "passage",
        },
        {
          question_id: "h2",
          question: "Which sport ?",
          table_id: "Olympics_0",
          "answer-text": "Judo",
          "answer-node": [],
          where: "table",
        },
      ]),
    );
    writeFileSync(
      join(root, "released_data", "dev_reference.json"),
      JSON.stringify({ reference: { h1: "April", h2: "Judo" }, table: ["h2"], passage: ["h1"] }),
    );
    writeFileSync(
      join(root, "tables_tok", "Olympics_0.json"),
      JSON.stringify({
        url: "https://en.wikipedia.org/wiki/Olympics",
        title: "Olympics",
        section_title: "Medalists",
        section_text: "",
        uid: "Olympics_0",
        header: [
          ["Medal", []],
          ["Name", ["/wiki/Name_(list)"]],
        ],
        data: [
          [
            ["Bronze", []],
            ["Eldar K", ["/wiki/Eldar_K"]],
          ],
          [
            ["Gold", []],
            ["Eldar K", ["/wiki/Eldar_K"]],
          ],
        ],
      }),
    );
    writeFileSync(
      join(root, "request_tok", "Olympics_0.json"),
      JSON.stringify({ "/wiki/Eldar_K": "Eldar K ( born April 1 , 1972 ) is a judoka ." }),
    );
    const out = tmp("hy-out-");
    expect(
      convertHybridqa({
        src,
        tablesDir: join(root, "tables_tok"),
        passagesDir: join(root, "request_tok"),
        outDir: out,
      }),
    ).toEqual({ questions: 2, tables: 1, passages: 1 });
    const qs = jsonl(join(out, "questions.jsonl"));
    expect(qs[0]).toMatchObject({
      question_id: "h1",
      answer: ["April"],
      answer_from: "passage",
      passages_id: "Olympics_0",
    });
    expect(qs[1].answer_from).toBe("table");
    expect(parseCsv(readFileSync(join(out, "tables", "Olympics_0.csv"), "utf8"))).toEqual([
      ["Medal", "Name"],
      ["Bronze", "Eldar K"],
      ["Gold", "Eldar K"],
    ]);
    // Only articles with text become passages; a link without text (the header's) is left out.
    expect(JSON.parse(readFileSync(join(out, "passages", "Olympics_0.json"), "utf8"))).toEqual([
      {
        id: "/wiki/Eldar_K",
        title: "Eldar K",
        text: "Eldar K ( born April 1 , 1972 ) is a judoka .",
        cells: [
          [0, 1],
          [1, 1],
        ],
      },
    ]);
  });

  it("refuses an out dir that already holds a converted split (its tables would mix in)", () => {
    const root = tmp("hy-again-");
    const src = join(root, "dev.json");
    writeFileSync(src, JSON.stringify([{ question_id: "x", question: "q", table_id: "t1", "answer-text": "a" }]));
    const out = tmp("hy-o-");
    mkdirSync(join(out, "tables"));
    writeFileSync(join(out, "tables", "old_table.csv"), "A\n1\n");
    expect(() => convertHybridqa({ src, tablesDir: root, passagesDir: root, outDir: out })).toThrow(
      /already holds a converted split \(tables\)/,
    );
  });

  it("refuses a table id that is not a plain file name", () => {
    const root = tmp("hy-bad-");
    const src = join(root, "dev.json");
    writeFileSync(
      src,
      JSON.stringify([{ question_id: "x", question: "q", table_id: "../../etc/passwd", "answer-text": "a" }]),
    );
    expect(() => convertHybridqa({ src, tablesDir: root, passagesDir: root, outDir: tmp("hy-o-") })).toThrow(
      /cannot be a file name/,
    );
  });
});
