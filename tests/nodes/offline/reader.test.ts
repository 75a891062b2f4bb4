import { describe, expect, it } from "vitest";
import {
  askedPhrase,
  asksMeasureWithoutUnit,
  readRows,
  readText,
  readTextWith,
  respectiveAmount,
  respectiveList,
  spansFor,
  withMeasureUnit,
  withoutTrailingNote,
  type Bridge,
} from "../../../nodes/offline/reader.js";
import { createReaders } from "../../../nodes/offline/readers.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { LinkedValue, SubQueryPlan } from "../../../nodes/types.js";

function plan(q: string, entityMentions: string[] = []): SubQueryPlan {
  const a = analyzeQuestion(q, { hasPassages: true });
  return {
    subQuery: q,
    requiredModalities: "both",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions,
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

const PASSAGES = [
  "[Source: teen.json]",
  "Manchester , New Hampshire : Manchester is a city in Hillsborough County , New Hampshire . As of the 2010 census , the city had a population of 109,565 , and the estimated population in 2019 was 112,525 . It was incorporated in 1846 .",
  "",
  "[Source: teen.json]",
  "Ruth Zakarian : Ruth Zakarian ( born February 6 , 1966 ) is an American actress and beauty queen who was the winner of the first ever Miss Teen USA pageant , held in 1983 in Lakeland , Florida .",
  "",
  "[Source: teen.json]",
  "Madison Square Garden : Madison Square Garden is a multi-purpose indoor arena in New York City . It is the home of the New York Rangers and the New York Knicks .",
].join("\n");

async function ask(q: string, evidence = PASSAGES, mentions: string[] = []): Promise<string> {
  return readText({ question: q, subQuery: q, plan: plan(q, mentions), evidence });
}

describe("offline reader: TEXT", () => {
  it("reads a sentence opening with a pronoun as about the passage's subject", async () => {
    const bio = [
      "[Source: staff_notes.json]",
      "Lena Vogel : Lena Vogel is a recruiter in HR . She left Hamburg in 2023 and previously worked for an agency .",
    ].join("\n");
    expect(await ask("Which city did Lena Vogel leave in 2023?", bio)).toBe("Hamburg");
  });

  it("meets a question's verb in the passage's past tense ('did he move' in 'he moved')", async () => {
    const notes = [
      "[Source: staff_notes.json]",
      "Jonas Eklund : Jonas Eklund works in Finance . He moved from Bergen in 2018 and joined the audit team .",
    ].join("\n");
    expect(await ask("Which city did Jonas Eklund move from?", notes)).toBe("Bergen");
  });

  it("meets an agent noun in its verb's participle ('the founder' in 'Founded by'), never taking the participle", async () => {
    const notes = [
      "[Source: shop_notes.json]",
      "Harbor Bikes : Harbor Bikes is a bicycle shop in Westport run by Ivo Brandt . Founded by Nora Quist in 2015 , it repairs city bikes .",
    ].join("\n");
    expect(await ask("Who is the founder of Harbor Bikes?", notes)).toBe("Nora Quist");
    expect(
      spansFor("Founded in 1810 , the Kestrel Academy moved to Dunmore .", "entity").map((s) => s.text),
    ).not.toContain("Founded");
  });

  it("takes the number next to the asked attribute", async () => {
    expect(await ask("What is the estimated population of Manchester , New Hampshire in 2019 ?")).toBe("112,525");
  });

  it("takes a date, a month or a year as the question asks", async () => {
    expect(await ask("When was Ruth Zakarian born ?")).toBe("February 6 , 1966");
    expect(await ask("What was the birth month of Ruth Zakarian ?")).toBe("February");
    expect(await ask("In what year was Manchester incorporated ?")).toBe("1846");
  });

  it("never returns the entity the question names", async () => {
    const a = await ask("Where do the New York Knicks play their home games ?");
    expect(a).toBe("Madison Square Garden");
    expect(await ask("Which county is Manchester in ?")).not.toBe("Manchester");
  });

  it("answers not found when the evidence shares no word with the question", async () => {
    expect(await ask("What is the boiling point of tungsten ?")).toBe("not found");
    expect(await ask("Who won ?", "")).toBe("not found");
  });

  it("reads table chunks in the evidence like rows", async () => {
    const evidence = [
      "[Source: medals.csv]",
      "Table name: medals",
      "| Nation | Gold | Silver |",
      "| --- | --- | --- |",
      "| Norway | 14 | 14 |",
      "| Germany | 14 | 10 |",
    ].join("\n");
    expect(await ask("How many silver medals did Germany win ?", evidence)).toBe("10");
  });

  it("extracts spans of each kind", () => {
    expect(spansFor("He was born on 3 July 1973 in Oslo .", "date").map((s) => s.text)).toContain("3 July 1973");
    expect(spansFor("Attendance was 12,000 in 1999 .", "count").map((s) => s.text)).toEqual(["12,000"]);
    expect(spansFor("The Prince of Wales Falls drop 18 m .", "entity").map((s) => s.text)).toContain(
      "Prince of Wales Falls",
    );
  });
});

describe("offline reader: RETRIEVE", () => {
  const context = [
    "[Table results, row 0]",
    "  Year: 1983",
    "  Miss Teen USA: Ruth Zakarian",
    "  State Represented: New York",
    "  Hometown: Amsterdam",
    "",
    "[Table results, row 1]",
    "  Year: 1984",
    "  Miss Teen USA: Cherise Haugen",
    "  State Represented: Illinois",
    "  Hometown: Sleepy Hollow",
  ].join("\n");
  const binding = (value: string, column: string): LinkedValue => ({
    entity: value,
    tableId: "results",
    column,
    matchedValue: value,
    confidence: 1,
    fallbackLevel: 0,
  });

  it("reads the target column of the bound row and not the filter value", async () => {
    const q = "What is the hometown of Cherise Haugen ?";
    const a = await readRows({
      question: q,
      subQuery: q,
      plan: plan(q, ["Cherise Haugen"]),
      schemaInfo: "",
      cellInfo: "",
      tableContext: context,
      bindings: [binding("Cherise Haugen", "Miss Teen USA")],
    });
    expect(a).toBe("Sleepy Hollow");
  });

  it("uses the wh-word's kind for the column: a year for 'what year'", async () => {
    const q = "What year did the winner from Illinois win ?";
    const a = await readRows({
      question: q,
      subQuery: q,
      plan: plan(q, ["Illinois"]),
      schemaInfo: "",
      cellInfo: "",
      tableContext: context,
      bindings: [binding("Illinois", "State Represented")],
    });
    expect(a).toBe("1984");
  });

  it("reads TAT-QA style rows by row label and year header, with the declared scale", async () => {
    const md = [
      "[Source: t.csv]",
      "Table name: t (in thousands)",
      "| Item | 2019 | 2018 |",
      "| --- | --- | --- |",
      "| Net bookings | $6,388 | $7,262 |",
      "| In-game net bookings | $3,366 | $4,203 |",
    ].join("\n");
    const q = "What were the in-game net bookings in 2018?";
    const a = await readRows({
      question: q,
      subQuery: q,
      plan: plan(q),
      schemaInfo: "",
      cellInfo: "",
      tableContext: md,
      bindings: [],
    });
    expect(a).toBe("$4,203 thousand");
  });

  it("answers not found without rows", async () => {
    const q = "What is the hometown of Ruth Zakarian ?";
    expect(
      await readRows({
        question: q,
        subQuery: q,
        plan: plan(q),
        schemaInfo: "",
        cellInfo: "",
        tableContext: "",
        bindings: [],
      }),
    ).toBe("not found");
  });
});

describe("offline reader: words that are also object keys", () => {
  it("reads passages containing 'constructor' or 'toString' without error", async () => {
    const q = "Who was the constructor of the winning car ?";
    const ev =
      "[Source: race.json]\nThe winning car was built by the constructor Ferrari , whose toString method is irrelevant .";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("Ferrari");
  });
});

describe("offline reader: places with their region, numbers in words", () => {
  it("keeps the region of a place and reads hyphenated number words", async () => {
    const ev =
      "[Source: r.json]\nThe ride was built in Budapest , Hungary by HUSS in 1985 . The country is formed by thirty-two departments .";
    expect(
      await readText({
        question: "Where was the ride built ?",
        subQuery: "Where was the ride built ?",
        plan: plan("Where was the ride built ?"),
        evidence: ev,
      }),
    ).toBe("Budapest , Hungary");
    const q = "How many departments form the country ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("thirty-two");
  });
});

describe("offline reader: lifespans", () => {
  it("takes the second date of a lifespan for a death question and the first for a birth question", async () => {
    const ev =
      "[Source: k.json]\nAbel Kiviat\nAbel Richard Kiviat ( June 23 , 1892 - August 24 , 1991 ) was an American middle-distance runner .";
    const died = "When did Abel Kiviat die ?";
    const born = "When was Abel Kiviat born ?";
    expect(await readText({ question: died, subQuery: died, plan: plan(died), evidence: ev })).toBe("August 24 , 1991");
    expect(await readText({ question: born, subQuery: born, plan: plan(born), evidence: ev })).toBe("June 23 , 1892");
  });
});

describe("offline reader: the row a HybridQA question describes", () => {
  // One medal row whose Name and Event cells link to passages; the bridge hands that row over.
  const row: DescribedRow = {
    tableId: "medals",
    rowId: 3,
    columns: ["Medal", "Name", "Games", "Event"],
    values: ["Bronze", "Giorgi Vazagashvili", "2000 Sydney", "Men 's 73 kg"],
    passages: [
      {
        id: "/wiki/Men66",
        title: "Judo at the 2000 Summer Olympics - Men 's 73 kg",
        text: "The men 's 73 kg competition in judo was held on September 17 .",
        file: "medals.json",
        tableId: "medals",
        cells: [[3, 3]],
      },
      {
        id: "/wiki/GV",
        title: "Giorgi Vazagashvili",
        text: "Giorgi Vazagashvili ( born 20 April 1974 ) is a Georgian judoka .",
        file: "medals.json",
        tableId: "medals",
        cells: [[3, 1]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign((q: string) => `${q} (about: Giorgi Vazagashvili)`, {
    findRow: (_q: string, hint?: string) => (hint === "medals" ? row : undefined),
  });
  const evidence = [
    "[Source: medals.json]",
    "Judo at the 2000 Summer Olympics - Men 's 73 kg",
    "The men 's 73 kg competition in judo was held on September 17 .",
    "",
    "[Source: medals.json]",
    "Giorgi Vazagashvili",
    "Giorgi Vazagashvili ( born 20 April 1974 ) is a Georgian judoka .",
    "",
    "[Source: other.json]",
    "Lakeland",
    "Lakeland hosted the pageant in May 1983 .",
  ].join("\n");
  const { readText: read, readRows: rows } = createReaders(() => "", bridge);
  const planFor = (q: string): SubQueryPlan => ({
    ...plan(q),
    analysis: { ...plan(q).analysis, grounding: { tableId: "medals" } },
  });

  it("reads the linked passage the question does not name (the medalist's, not the event's)", async () => {
    const q = "What was the birth month for the judoka who took the 2000 Sydney bronze at the men 's 73 kg event ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).toBe("April");
  });

  it("returns the row's cell when the question's opening names its column", async () => {
    const q = "What event did the 2000 Sydney bronze medalist Giorgi Vazagashvili win ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).toBe("Men 's 73 kg");
    expect(
      await rows({
        question: q,
        subQuery: q,
        plan: planFor(q),
        schemaInfo: "",
        cellInfo: "",
        tableContext: "",
        bindings: [],
      }),
    ).toBe("Men 's 73 kg");
  });

  it("returns the row's person cell for a 'who' question that does not name it", async () => {
    const q = "Who won bronze for Georgia in the men 's 73 kg event at the 2000 Sydney games ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).toBe("Giorgi Vazagashvili");
  });

  it("reads the row's linked passages even when retrieval did not bring them", async () => {
    const q = "What was the birth month for the judoka who took the 2000 Sydney bronze at the men 's 73 kg event ?";
    const retrieved = evidence.split("\n").slice(0, 3).join("\n");
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence: retrieved })).toBe("April");
  });

  it("takes the column the wh-phrase names, not a column the row description names", async () => {
    // "medal" describes the row ("Medal" column); the question asks for a nationality the passages give.
    const q = "What nationality was the medal winner in the men 's 73 kg event at the 2000 Sydney games ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).toBe("Georgian");
    // An opening that is no wh-phrase describes the row.
    const t = "The medal winner in the men 's 73 kg event at the 2000 Sydney games is of what nationality ?";
    expect(await read({ question: t, subQuery: t, plan: planFor(t), evidence })).toBe("Georgian");
  });

  it("returns the row's person cell for 'which/what PERSON-NOUN …' that does not name it", async () => {
    const q = "Which athlete took bronze for Georgia in the men 's 73 kg event at the 2000 Sydney games ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).toBe("Giorgi Vazagashvili");
  });

  it("does not answer 'who … of the …' with the row's person", async () => {
    const q = "Who was the coach of the 2000 Sydney bronze medalist in the men 's 73 kg event ?";
    expect(await read({ question: q, subQuery: q, plan: planFor(q), evidence })).not.toBe("Giorgi Vazagashvili");
  });

  it("reads as before without a described row", async () => {
    const q = "When was the pageant hosted in Lakeland ?";
    const p = { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "other" } } };
    const lakeland = evidence.split("\n").slice(8).join("\n");
    expect(await read({ question: q, subQuery: q, plan: p, evidence: lakeland })).toBe("May 1983");
  });
});

describe("offline reader: the phrase a wh-word asks for", () => {
  it("finds the asked noun phrase, after a preposition or a copula, and none after do/did", () => {
    expect(askedPhrase("What position does the striker play ?")).toEqual(["position"]);
    expect(askedPhrase("What is the stadium capacity of the club ?")).toEqual(["stadium", "capacity"]);
    expect(askedPhrase("In which venue was the game played ?")).toEqual(["venue"]);
    expect(askedPhrase("How many goals were scored by him ?")).toEqual(["goals"]);
    expect(askedPhrase("Who did the champion beat ?")).toEqual([]);
    expect(askedPhrase("Where did the director study ?")).toEqual([]);
    expect(askedPhrase("The 2000 winner is of what nationality ?")).toEqual(["nationality"]);
    expect(askedPhrase("The host was a guest on what date ?")).toEqual(["date"]);
    expect(askedPhrase("The 2000 winner plays what sport ?")).toEqual(["sport"]);
    expect(askedPhrase("The award which he won in 1999 went to whom ?")).toBeUndefined();
    expect(askedPhrase("The 2000 winner came from a club which Cy Moss owned ?")).toBeUndefined();
    expect(askedPhrase("Which is the name of the picture whose director was born in 1971 ?")).toEqual([
      "name",
      "picture",
    ]);
  });
});

describe("offline reader: the row cell the asked phrase names", () => {
  const row: DescribedRow = {
    tableId: "squad",
    rowId: 0,
    columns: ["Pos", "Player", "Transferred from", "Stadium", "Capacity", "Score", "Picture", "Route length", "Status"],
    values: [
      "10",
      "Jaime Penedo",
      "C.S.D. Municipal",
      "Estadio Monumental",
      "80,093",
      "4 - 3",
      "Unnai Charanadainthen",
      "88 km ( 55 mi )",
      "? ? ( on hold )",
    ],
    passages: [
      {
        id: "/wiki/JP",
        title: "Jaime Penedo",
        text: "Jaime Penedo is a Panamanian goalkeeper .",
        file: "squad.json",
        tableId: "squad",
        cells: [[0, 1]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === "squad" ? row : undefined),
  });
  const { readText: read } = createReaders(() => "", bridge);
  const ask = (q: string) =>
    read({
      question: q,
      subQuery: q,
      plan: { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "squad" } } },
      evidence: "",
    });

  it("matches abbreviated headers, the head noun of a copula phrase and the noun before a verb", async () => {
    expect(await ask("What was the position of the goalkeeper who joined in 2013 ?")).toBe("10");
    expect(await ask("What is the stadium capacity of the club that signed the goalkeeper in 2013 ?")).toBe("80,093");
    expect(await ask("Which player transferred from the side that has won the league 30 times ?")).toBe("Jaime Penedo");
    expect(await ask("Which is the name of the picture whose director was born in 1971 ?")).toBe(
      "Unnai Charanadainthen",
    );
  });

  it("takes a number-like cell such as a score for a number question", async () => {
    expect(await ask("What is the final score of the champion born on 11 June 1965 ?")).toBe("4 - 3");
  });

  it("drops the note in parentheses that ends a cell, unless the note is all the cell holds", async () => {
    expect(await ask("What is the route length of the line the goalkeeper's club runs ?")).toBe("88 km");
    expect(withoutTrailingNote("Jane Roe ( Captain )")).toBe("Jane Roe");
    expect(withoutTrailingNote("1647 ( Completed )")).toBe("1647");
    expect(withoutTrailingNote("? ? ( on hold )")).toBe("? ? ( on hold )");
    expect(withoutTrailingNote("Lyon ( Rhône ) FC")).toBe("Lyon ( Rhône ) FC");
  });
});

describe("offline reader: the time cell a question's event names", () => {
  const row: DescribedRow = {
    tableId: "shows",
    rowId: 0,
    columns: ["Program", "Channel", "Debut date", "Match date", "Died"],
    values: ["Evening Tides", "Channel 9", "20 May", "9 June", "c. 1509"],
    passages: [
      {
        id: "/wiki/ET",
        title: "Evening Tides",
        text: "Evening Tides is a talk show hosted by a former footballer . It first aired in 1998 .",
        file: "shows.json",
        tableId: "shows",
        cells: [[0, 0]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === "shows" ? row : undefined),
  });
  const { readText: read } = createReaders(() => "", bridge);
  const ask = (q: string) =>
    read({
      question: q,
      subQuery: q,
      plan: { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "shows" } } },
      evidence: "",
    });

  it("reads the time column whose header names the question's event, a day and month included", async () => {
    expect(await ask("When did the show hosted by a former footballer make its debut ?")).toBe("20 May");
    expect(await ask("What year did the host of the talk show die ?")).toBe("c. 1509");
    expect(await ask("What is the match date of the talk show hosted by a former footballer ?")).toBe("9 June");
  });

  it("leaves a time question whose event no header names to the passages", async () => {
    expect(await ask("In what year did the talk show hosted by a former footballer first air ?")).toBe("1998");
  });
});

describe("offline reader: the described row's own words in its linked passages", () => {
  // The words that located the row (its cells' values) are all over its linked passages; the
  // answer sentence is the one holding the rest of the question.
  const row: DescribedRow = {
    tableId: "pitchers",
    rowId: 0,
    columns: ["Season", "Player", "Team"],
    values: ["1925", "Sam Jones", "New York Yankees"],
    passages: [
      {
        id: "/wiki/Sam_Jones",
        title: "Sam Jones",
        text: "Sam Jones pitched for the New York Yankees in 1925 under manager Miller Huggins . He died in 1966 and was buried in Woodsfield , Ohio .",
        file: "pitchers.json",
        tableId: "pitchers",
        cells: [[0, 1]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === "pitchers" ? row : undefined),
  });
  const { readText: read } = createReaders(() => "", bridge);

  it("reads the sentence of the asked words, not the one repeating the row's cells", async () => {
    const q = "Where was the 1925 New York Yankees pitcher buried ?";
    const p = { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "pitchers" } } };
    expect(await read({ question: q, subQuery: q, plan: p, evidence: "" })).toBe("Woodsfield , Ohio");
  });
});

describe("offline reader: the asked noun beside a span of the described row's passages", () => {
  // A bakery's page names the builder right after "rebuilt by" and the architect right after "architect": the
  // question's verb sits beside the builder, its asked noun beside the person.
  const row: DescribedRow = {
    tableId: "bakeries",
    rowId: 0,
    columns: ["Bakery", "Town", "Opened"],
    values: ["Rye and Crumb", "Lowfield", "1998"],
    passages: [
      {
        id: "/wiki/Rye_and_Crumb",
        title: "Rye and Crumb",
        text: "Rye and Crumb is a bakery in Lowfield . In 2010 it was rebuilt by Gransden Builders with help from the architect Ida Marsh .",
        file: "bakeries.json",
        tableId: "bakeries",
        cells: [[0, 0]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === "bakeries" ? row : undefined),
  });
  const { readText: read } = createReaders(() => "", bridge);
  const ask = (q: string) =>
    read({
      question: q,
      subQuery: q,
      plan: { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "bakeries" } } },
      evidence: "",
    });

  it("takes the span written after the asked noun over the one after the question's verb", async () => {
    expect(await ask("In 2010 the bakery in Lowfield was rebuilt by which architect ?")).toBe("Ida Marsh");
    expect(await ask("What architect rebuilt the Lowfield bakery in 2010 ?")).toBe("Ida Marsh");
  });
});

describe("offline reader: ordinals and regions", () => {
  it("reads an ordinal whole", () => {
    expect(spansFor("London ranks 26th out of 300 major cities", "number").map((s) => s.text)).toContain("26th");
  });

  it("answers 'in what state' with the region of a 'Place , Region' span", async () => {
    const ev =
      "[Source: firms.json]\nKelly Services\nKelly Services was founded in 1946 and is headquartered in Troy , Michigan .";
    const q = "In what state is Kelly Services headquartered ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("Michigan");
    // "In what city" asks the place alone (tests/nodes/offline/settlement-without-region.test.ts).
    const c = "In what city is Kelly Services headquartered ?";
    expect(await readText({ question: c, subQuery: c, plan: plan(c), evidence: ev })).toBe("Troy");
  });
});

describe("offline reader: the noun a 'how many' question counts", () => {
  it("takes the number written before the counted noun", async () => {
    const ev =
      "[Source: bases.json]\nLogistics Base Albany\nThe Albany logistics base employed 2,400 civilians in 2002 , when its land covered 3,300 acres .";
    const q = "How many acres does the logistics base in Albany occupy ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("3,300");
  });

  const marsh = (orchids: string) =>
    `[Source: parks.json]\nHarlow Marsh\nHarlow Marsh covers 1,200 hectares and is visited by 40,000 walkers a year ; ${orchids} grow in its meadows .`;

  it("takes the counted noun after one word that qualifies it", async () => {
    const q = "How many orchids grow in Harlow Marsh ?";
    const ev =
      "[Source: parks.json]\nHarlow Marsh\nOrchids grow by 12 ponds in Harlow Marsh , which keeps 45 native orchids .";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("45");
  });

  it("counts no verb's words after a later 'how many'", async () => {
    const q = "Of the 50 cafes the group bought , how many are now run by franchisees ?";
    const ev =
      "[Source: cafes.json]\nCafes\nIn 2017 the group bought 50 cafes ; franchisees now run 42 of them , while its 12 bakeries run night shifts .";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("42");
  });

  it("reads the counted noun after a 'how many' later in the question", async () => {
    const q = "Visited by walkers , Harlow Marsh has how many orchids ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: marsh("45 orchids") })).toBe("45");
  });
});

describe("offline reader: a row described only through its passages is itself the answer", () => {
  // A radio-station row: its Name cell links to the station's page, its Area cell to a town's page.
  const row: DescribedRow = {
    tableId: "stations",
    rowId: 2,
    columns: ["Name", "Area", "Frequency"],
    values: ["Riverside FM", "Millbrook", "97.2"],
    passages: [
      {
        id: "/wiki/Riverside_FM",
        title: "Riverside FM",
        text: "Riverside FM is a community radio station based in Millbrook . It began in 2009 .",
        file: "stations.json",
        tableId: "stations",
        cells: [[2, 0]],
      },
      {
        id: "/wiki/Millbrook",
        title: "Millbrook",
        text: "Millbrook is a market town on the River Wend . Its abbey was founded by monks .",
        file: "stations.json",
        tableId: "stations",
        cells: [[2, 1]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  const bridge: Bridge = Object.assign(() => undefined, {
    findRow: (_q: string, hint?: string) => (hint === "stations" ? row : undefined),
  });
  const { readText: read } = createReaders(() => "", bridge);
  const evidence = row.passages.map((p) => `[Source: ${p.file}]\n${p.title}\n${p.text}`).join("\n\n");
  const ask = (q: string) =>
    read({
      question: q,
      subQuery: q,
      plan: { ...plan(q), analysis: { ...plan(q).analysis, grounding: { tableId: "stations" } } },
      evidence,
    });

  it("answers the row's name when its page says it is what the question asks for", async () => {
    expect(await ask("Which station broadcasts to the market town on the River Wend ?")).toBe("Riverside FM");
  });

  it("also answers the row's name when the question names another of its cells", async () => {
    expect(await ask("Which station broadcasts to Millbrook on 97.2 ?")).toBe("Riverside FM");
  });

  it("reads the passages when the asked noun is something else", async () => {
    // "monks", "river": not what the station's page says it is.
    expect(await ask("Which monks founded the abbey of the town on the River Wend ?")).not.toBe("Riverside FM");
    expect(await ask("Which river flows through Millbrook ?")).not.toBe("Riverside FM");
  });
});

describe("offline reader: a demonym before a noun is an adjective, not the name asked for", () => {
  it("who-questions pass over the adjective to the name", async () => {
    const ev =
      "[Source: towns.json]\nPort Vale City\nPort Vale City was founded by British settlers led by John Hale in 1788 .";
    const q = "Who founded Port Vale City ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("John Hale");
  });
});

describe("offline reader: a measure keeps the unit it is written in", () => {
  const ev =
    "[Source: trails.json]\nRidge Trail\nThe Ridge Trail opened in 1998 . It runs 42 kilometres from Oldbridge to the coast and climbs to 1,250 m .";

  it("a distance asked without a unit is read with the text's unit", async () => {
    const q = "What is the length of the trail that opened in 1998 ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("42 kilometres");
  });

  it("a question naming the unit gets the bare number", async () => {
    const q = "What is the length in kilometres of the trail that opened in 1998 ?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence: ev })).toBe("42");
  });

  it("only a measure unit right after the number; counts and other questions are unchanged", () => {
    expect(withMeasureUnit("It covers 3.5 million hectares .", { text: "3.5 million", at: 2 })).toBe(
      "3.5 million hectares",
    );
    expect(withMeasureUnit("The tempo is 96 beats per minute .", { text: "96", at: 3 })).toBe("96 beats per minute");
    expect(withMeasureUnit("It won 12 matches .", { text: "12", at: 2 })).toBe("12");
    expect(withMeasureUnit("It opened on 3 May .", { text: "May", at: 4 })).toBe("May");
    expect(asksMeasureWithoutUnit("How far is the lake from the town ?")).toBe(true);
    expect(asksMeasureWithoutUnit("How far , in miles , is the lake from the town ?")).toBe(false);
    expect(asksMeasureWithoutUnit("Who founded the town ?")).toBe(false);
  });
});

describe("offline reader: the bridge note's titles", () => {
  it("weigh less than question words: they name the passages, not the answer sentence", async () => {
    const ev = [
      "[Source: p.json]\nOhio River Valley\nThe Ohio River Valley , home of Sam Jones , lies near Marietta .",
      "[Source: p.json]\nSam Jones\nHe was buried in Woodsfield .",
    ].join("\n\n");
    const q = "Where was the pitcher buried ?";
    const sub = `${q} (about: Ohio River Valley; Sam Jones)`;
    expect(await readText({ question: q, subQuery: sub, plan: plan(q), evidence: ev })).toBe("Woodsfield");
  });
});

describe("offline reader: numbers inside dates", () => {
  it("does not read the day or year of a date as a count", () => {
    expect(
      spansFor("The series aired from March 18 , 2005 , to September 1 , 2008 with 4 million viewers", "count").map(
        (s) => s.text,
      ),
    ).toEqual(["4 million"]);
    expect(spansFor("Morrison ( born 8 January 1991 ) made 40 appearances", "number").map((s) => s.text)).toContain(
      "40",
    );
    expect(spansFor("Morrison ( born 8 January 1991 ) made 40 appearances", "number").map((s) => s.text)).not.toContain(
      "8",
    );
  });
});

describe("offline reader: ranges and records", () => {
  it("reads '25-44' and '22-16-3' whole for a number question, and no part of them alone", () => {
    const texts = spansFor(
      "AC radio targets the 25-44 age group ; his record was 22-16-3 over 1974-1981 with 5 titles",
      "number",
    ).map((s) => s.text);
    expect(texts).toEqual(expect.arrayContaining(["25-44", "22-16-3", "5"]));
    for (const part of ["25", "-44", "-16", "-3", "1974-1981", "-1981"]) expect(texts).not.toContain(part);
  });
});

describe("lists a sentence gives 'respectively'", () => {
  it("reads the amounts listed before 'respectively', as many as the periods asked", () => {
    const s =
      "Of the $40.0 million plan, depreciation expense was $12.5 million and $11.9 million for 2021 and 2020, respectively.";
    expect(respectiveList(s, 2).map((x) => x.text)).toEqual(["$12.5 million | $11.9 million"]);
    expect(respectiveList(s, 4)).toEqual([]);
    expect(respectiveList("Depreciation expense was $12.5 million in 2021.", 2)).toEqual([]);
  });

  it("answers a question for several periods with the sentence's list", () => {
    const evidence = [
      "[Source: plant.json]",
      "Depreciation expense from continuing operations was $8,140 and $7,920 for 2021 and 2020, respectively.",
      "Maintenance costs are expensed as incurred.",
    ].join("\n");
    const q = "What was the depreciation expense from continuing operations in 2021 and 2020, respectively?";
    expect(readTextWith({ question: q, subQuery: q, plan: plan(q), evidence })).toBe("$8,140 | $7,920");
  });

  it("reads the amount in the asked year's place", () => {
    const s =
      "For the years ended June 30, 2021 and 2020, the company expensed $4.4 billion and $3.1 billion, respectively.";
    expect(respectiveAmount(s, "2020")?.pick.text).toBe("$3.1 billion");
    expect(respectiveAmount(s, "2019")).toBeUndefined();
    expect(respectiveAmount("Freight was $4.4 billion and $3.1 billion in 2021.", "2021")).toBeUndefined();
    const evidence = [
      "[Source: freight.json]",
      "For the years ended June 30, 2021 and 2020, the company expensed $4.4 billion and $3.1 billion, respectively, for freight and storage.",
      "Freight contracts run for one to three years.",
    ].join("\n");
    const q = "What was the freight and storage expense in 2020?";
    expect(readTextWith({ question: q, subQuery: q, plan: plan(q), evidence })).toBe("$3.1 billion");
  });
});
