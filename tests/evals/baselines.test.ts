import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBaseline, parseReactReply } from "../../evals/baselines/baselines.js";
import { extractAnswer, majorityVote } from "../../evals/baselines/common.js";
import { REACT_PROMPT } from "../../evals/baselines/prompts.js";
import { fillPrompt } from "../../nodes/prompts.js";
import { normalizeSquad } from "../../evals/scoring/hybridqa.js";
import type { DocChunk, Hit, TableSchema } from "../../indexing/types.js";
import type { IndexSearch } from "../../retrievers/types.js";
import type { SqlExecutor } from "../../retrievers/sql-executor.js";
import { TextChatModel } from "./helpers/text-chat-model.js";

const call = { configurable: {}, runName: "naive:test", tags: ["t"], metadata: { experiment: "e" } };

function chunk(id: number, text: string, tableId?: string): DocChunk {
  return {
    id,
    type: tableId ? "table" : "text",
    source: tableId ? `${tableId}.csv` : `doc${id}.txt`,
    text,
    ...(tableId ? { tableId } : {}),
  };
}

/** A search that returns fixed chunks, hinted-table chunks only for a query naming the table. */
function fakeSearch(chunks: DocChunk[], hinted: DocChunk[] = []): IndexSearch & { queries: string[] } {
  const queries: string[] = [];
  const hits = (list: DocChunk[]): Array<Hit<DocChunk>> => list.map((entry, i) => ({ entry, score: 1 - i / 100 }));
  return {
    queries,
    async documents(query, k) {
      queries.push(query);
      return hits([...(hinted.length && query.startsWith("clubs ") ? hinted : []), ...chunks].slice(0, k));
    },
    async schema() {
      return [];
    },
    async cells() {
      return [];
    },
    async rows() {
      return [];
    },
    async schemaCells(_q, entities) {
      return {
        columns: [],
        candidates: Object.fromEntries(
          entities.map((e) => [e, [{ tableId: "clubs", column: "Club", value: "Dunmere FC", freq: 1, text: "" }]]),
        ),
      };
    },
  };
}

describe("baseline prompts", () => {
  it("a placeholder left without a value is an error naming it, not a literal {x} sent to the model", () => {
    expect(() => fillPrompt(REACT_PROMPT, { question: "Which club was founded first?", scratchpad: "" })).toThrow(
      /\{hint\}/,
    );
    expect(fillPrompt(REACT_PROMPT, { question: "Which club?", hint: "", scratchpad: "" })).not.toMatch(/\{\w+\}/);
  });
});

describe("answer extraction and voting", () => {
  it("takes the line after <Answer>:, else the last line, without trailing periods or quotes", () => {
    expect(extractAnswer("Let me think.\n<Answer>: Paris.")).toBe("Paris");
    expect(extractAnswer('<Answer>:\n\n  "1,234"  \nextra')).toBe("1,234");
    expect(extractAnswer("reasoning\nStation Field")).toBe("Station Field");
    expect(extractAnswer("")).toBe("not found");
  });
  it("votes on SQuAD-normalised answers, ties to the first occurrence", () => {
    expect(majorityVote(["The Beatles", "Oasis", "beatles", "Oasis"], normalizeSquad).answer).toBe("The Beatles");
    expect(majorityVote(["b", "a", "a"], normalizeSquad)).toEqual({ answer: "a", votes: { b: 1, a: 2 } });
  });
});

describe("baselines with a scripted chat model", () => {
  it("NaiveLLM closed book: question only, one call, usage counted", async () => {
    const model = new TextChatModel(["I recall it.\n<Answer>: Oskar Lind"]);
    const answer = createBaseline("naive_llm", { search: fakeSearch([]), model });
    const out = await answer({ question: "Who manages Dunmere FC?", table_id: "clubs" }, call);
    expect(out.answer).toBe("Oskar Lind");
    expect(out.usage).toMatchObject({ llmCalls: 1, totalTokens: 12 });
    expect(model.prompts[0]).toContain("Who manages Dunmere FC?");
    expect(model.prompts[0]).not.toContain("<context>");
  });

  it("NaiveLLM full context: the hinted table as markdown then its passages; a path-like or missing table is an error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-full-"));
    writeFileSync(join(dir, "clubs.csv"), "Club,Manager\nDunmere FC,Oskar Lind\nFenwick City,Ada Moss\n");
    const model = new TextChatModel(["<Answer>: Oskar Lind", "<Answer>: not found"]);
    const passages = [{ id: "p1", text: "Dunmere FC was founded in 1902.", file: "clubs.json", tableId: "clubs" }];
    const answer = createBaseline(
      "naive_llm",
      { search: fakeSearch([]), model, tableDir: dir, passages },
      { mode: "full_context" },
    );
    await answer({ question: "Who manages Dunmere FC?", table_id: "clubs" }, call);
    expect(model.prompts[0]).toContain("| Dunmere FC | Oskar Lind |");
    expect(model.prompts[0]).toContain("founded in 1902");
    expect(model.prompts[0]!.indexOf("Oskar Lind")).toBeLessThan(model.prompts[0]!.indexOf("founded in 1902"));
    await expect(answer({ question: "q?", table_id: "../clubs" }, call)).rejects.toThrow(
      /table_id "..\/clubs" cannot name a file/,
    );
    await expect(answer({ question: "q?", table_id: "teams" }, call)).rejects.toThrow(
      /no table file .*teams\.csv — pass --table_dir/,
    );
    expect(model.prompts).toHaveLength(1);
  });

  it("NaiveRAG puts the hinted table's chunk first when retrieval missed it", async () => {
    const search = fakeSearch(
      [chunk(1, "Brookhaven has 212000 people."), chunk(2, "Other text.")],
      [chunk(9, "| Club | Manager |\n| --- | --- |\n| Dunmere FC | Oskar Lind |", "clubs")],
    );
    const model = new TextChatModel(["<Answer>: Oskar Lind"]);
    const out = await createBaseline(
      "naive_rag",
      { search, model },
      { topK: 2 },
    )({ question: "Who manages Dunmere FC?", table_id: "clubs" }, call);
    expect(out.answer).toBe("Oskar Lind");
    const prompt = model.prompts[0]!;
    expect(prompt.indexOf("[Source: clubs.csv]")).toBeLessThan(prompt.indexOf("[Source: doc1.txt]"));
    expect(prompt).not.toContain("doc2.txt"); // still top-k chunks in all
  });

  it("NaiveRAG-SC@5 samples five times from the sampler and returns the majority", async () => {
    const model = new TextChatModel([]);
    const sampler = new TextChatModel([
      "<Answer>: 1971",
      "<Answer>: 1902",
      "<Answer>: 1902.",
      "<Answer>: 1971",
      "<Answer>: 1902",
    ]);
    const out = await createBaseline(
      "naive_rag_sc",
      { search: fakeSearch([chunk(1, "text")]), model, sampler },
      { samples: 5 },
    )({ question: "When?" }, call);
    expect(out.answer).toBe("1902");
    expect(model.prompts).toHaveLength(0);
    expect(out.usage).toMatchObject({ llmCalls: 5 });
    expect(out.trace).toMatchObject({ candidates: ["1971", "1902", "1902", "1971", "1902"] });
  });

  it("ReAct: tools feed observations back; SQL passes the guard before it runs; refused SQL never runs", async () => {
    const schema: TableSchema = {
      tableId: "clubs",
      physical: "clubs",
      file: "clubs.csv",
      rowCount: 2,
      columns: [
        { name: "Club", physical: "club", rawPhysical: "club__raw", type: "text", examples: [] },
        { name: "Founded", physical: "founded", rawPhysical: "founded__raw", type: "integer", examples: [] },
      ],
    };
    const executed: string[] = [];
    const sql: SqlExecutor = {
      async execute(text) {
        executed.push(text);
        return { result: '[{"founded": 1902}]', ok: true, rowCount: 1, truncated: false, ms: 1 };
      },
      async close() {},
    };
    const model = new TextChatModel([
      "Thought: find the club\nAction: retrieve_cells[Dunmere]",
      "Thought: try to cheat\nAction: execute_sql[DELETE FROM clubs]",
      "Thought: query it\nAction: execute_sql[SELECT founded FROM clubs WHERE club = 'Dunmere FC']",
      "Thought: done\nFinal Answer: 1902",
    ]);
    const answer = createBaseline("react", {
      search: fakeSearch([]),
      model,
      sql,
      tables: new Map([["clubs", schema]]),
    });
    const out = await answer({ question: "When was Dunmere FC founded?", table_id: "clubs" }, call);
    expect(out.answer).toBe("1902");
    expect(executed).toEqual(["SELECT founded FROM clubs WHERE club = 'Dunmere FC'"]);
    expect(model.prompts[1]).toContain('Observation: table clubs, column "Club": Dunmere FC');
    expect(model.prompts[2]).toMatch(/Observation: refused by the SQL guard/);
    expect(model.prompts[3]).toContain('Observation: [{"founded": 1902}]');
    expect(parseReactReply("Thought: hmm")).toEqual({});
  });
});

describe("baselines on the offline backbone", () => {
  it("closed book and ReAct answer 'not found' without a model; NaiveRAG reads the retrieved chunks", async () => {
    const search = fakeSearch([
      chunk(1, "File name: clubs.json\nFenwick City play their home games at Station Field, opened in 1931."),
    ]);
    expect((await createBaseline("naive_llm", { search })({ question: "Who?" }, call)).answer).toBe("not found");
    expect((await createBaseline("react", { search })({ question: "Who?" }, call)).answer).toBe("not found");
    const rag = await createBaseline("naive_rag", { search })(
      { question: "What is the name of Fenwick City's stadium?" },
      call,
    );
    expect(rag.answer).toBe("Station Field");
    expect(rag.usage).toMatchObject({ llmCalls: 0 });
  });
});
