/**
 * `atr report` end to end in a real headless Chromium (Debian's chromium through playwright-core):
 * two traced runs over examples/ (one with a question that carries markup) → one HTML file →
 * loaded from file://: charts drawn, table rendered, filters hide rows, the trace viewer opens (with
 * the record's evidence), the markup shows as text and never runs, nothing is fetched, and a screenshot is saved.
 * Without chromium the test is skipped with a message, unless CI is set: then it fails.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { EXAMPLES, useExampleIndex } from "../fixtures/example-index.js";
import { runCli } from "../fixtures/run-cli.js";

function findChromium(): string | undefined {
  try {
    return (
      execFileSync("which", ["chromium"], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}

const CHROMIUM = findChromium();
const IN_CI = /^(true|1)$/i.test(process.env.CI ?? "");
const MARKUP = `Which club has <script>window.__atrXss = 1</script><img src=x onerror="window.__atrXss = 2"> the stadium Station Field?`;

if (!CHROMIUM && !IN_CI)
  console.warn(
    "tests/evals/report-chromium.test.ts: SKIPPED — no `chromium` on PATH (apt-get install -y chromium); with CI=true this fails instead",
  );

describe("atr report in Chromium", () => {
  if (!CHROMIUM) {
    if (IN_CI)
      it("needs chromium on PATH in CI", () =>
        expect.fail("CI is set but `which chromium` finds nothing: .ci/run installs it with apt-get"));
    else it.skip("needs chromium on PATH (apt-get install -y chromium)", () => {});
    return;
  }
  const index = useExampleIndex();
  const dir = mkdtempSync(join(tmpdir(), "atr-report-"));
  const screenshot = join(dir, "report.png");
  let html = "";
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    const examples = readFileSync(join(EXAMPLES, "questions.jsonl"), "utf8").trim().split("\n").slice(0, 7);
    const questions = join(dir, "questions.jsonl");
    writeFileSync(
      questions,
      [
        JSON.stringify({
          question_id: "xss-1",
          question: MARKUP,
          table_id: "clubs",
          answer: ["Fenwick <b>City</b>"],
          type: "lookup",
        }),
        ...examples,
      ].join("\n") + "\n",
    );
    const paths: string[] = [];
    // "default" accepts from P 0.7 so that some answers are verified (the learned verifier's own threshold accepts none of these).
    for (const [name, extra] of [
      ["default", ["--accept_threshold", "0.7"]],
      ["text-only", ["--router_type", "fixed", "--force_route", "TEXT"]],
    ] as const) {
      const run = await runCli([
        "run",
        "--data_file_path",
        questions,
        "--index_path",
        index.dir,
        "--save_file_path",
        join(dir, `${name}.jsonl`),
        "--emit_trace",
        "--no_progress",
        ...extra,
      ]);
      expect(run.code, run.err).toBe(0);
      paths.push(run.out.trim());
    }
    // Evidence the record carries (provenance fields) is shown in the trace viewer, escaped like the rest.
    const first = readFileSync(paths[0]!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    first[1].atr_evidence = {
      table_id: "clubs",
      rows: [2],
      columns: ["Stadium"],
      passage_sentence: "<i>Station Field</i> opened in 1911.",
    };
    writeFileSync(paths[0]!, first.map((r) => JSON.stringify(r)).join("\n") + "\n");
    html = join(dir, "report.html");
    const report = await runCli([
      "report",
      ...paths,
      "--gold",
      questions,
      "--bench",
      "wtq",
      "--label",
      "default",
      "--label",
      "text-only",
      "--out",
      html,
    ]);
    expect(report.code, report.err).toBe(0);
    expect(report.out.trim()).toBe(html);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on(
      "console",
      (m) => (m.type() === "error" || m.type() === "warning") && problems.push(`console ${m.type()}: ${m.text()}`),
    );
    await page.goto(`file://${html}`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("draws the charts as SVG with content", async () => {
    const charts = await page.$$eval("figure.chart svg", (svgs) =>
      svgs.map((s) => s.querySelectorAll("rect.bar, rect.node, path.flow").length),
    );
    expect(charts.length).toBeGreaterThanOrEqual(8); // accuracy ×4+, 2 route flows, latency, LLM calls, tokens
    expect(charts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(6);
    expect(await page.locator("svg path.flow").count()).toBeGreaterThan(0);
    expect(await page.locator('figure[data-dimension="final_route"] rect.bar').count()).toBeGreaterThan(0);
    expect(await page.locator('figure[data-dimension="type"] rect.bar').count()).toBeGreaterThan(0);
  });

  it("renders one row per question, shows markup as text and never runs it, fetches nothing", async () => {
    expect(await page.locator("#questions tbody tr").count()).toBe(8);
    expect(await page.locator("#questions tbody tr").first().locator("td.q").textContent()).toBe(MARKUP);
    expect(await page.evaluate(() => (globalThis as { __atrXss?: number }).__atrXss)).toBeUndefined();
    expect(await page.locator("#questions img, #trace img").count()).toBe(0);
    expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
    expect(problems).toEqual([]);
    // The summary reports the paired comparison.
    expect(await page.locator(".card .paired").textContent()).toMatch(/vs default: \d+ better · \d+ worse/);
  });

  it("hides rows with the filters", async () => {
    const visible = () => page.locator("#questions tbody tr:not([hidden])");
    await page.locator("#f-wrong").check();
    const wrong = await visible().count();
    expect(wrong).toBeGreaterThan(0);
    expect(wrong).toBeLessThan(8);
    for (const row of await visible().all()) expect(await row.locator("td.bad").count()).toBeGreaterThan(0);
    await page.locator("#f-wrong").uncheck();
    const data = JSON.parse((await page.locator("#atr-data").textContent())!);
    // The route filter keeps the questions whose final route (in either run) is the chosen one.
    type Q = { runs: Array<{ final: string; verified?: boolean }> };
    const withRoute = (route: string) => data.questions.filter((q: Q) => q.runs.some((r) => r.final === route)).length;
    const finals: string[] = [...new Set<string>(data.questions.flatMap((q: Q) => q.runs.map((r) => r.final)))];
    const route = finals.find((f) => withRoute(f) < 8)!;
    expect(route, `a final route that not every question took: ${finals.join(", ")}`).toBeDefined();
    const expected = withRoute(route);
    await page.locator("#f-route").selectOption(route);
    expect(await visible().count()).toBe(expected);
    for (const row of await visible().all()) expect(await row.textContent()).toContain(route);
    await page.locator("#f-route").selectOption("");
    // The verified filter keeps the questions with an answer the verifier accepted (in either run).
    const verified = data.questions.filter((q: Q) => q.runs.some((r) => r.verified === true)).length;
    await page.locator("#f-verified").selectOption("yes");
    expect(await visible().count()).toBe(verified);
    expect(verified).toBeGreaterThan(0);
    expect(verified).toBeLessThan(8);
    await page.locator("#f-verified").selectOption("");
    // The change filter agrees with the paired counts in the data.
    expect(data.runs[1].paired.worse).toBeGreaterThan(0); // forcing TEXT loses table answers
    await page.locator("#f-change").selectOption("worse");
    expect(await visible().count()).toBe(data.runs[1].paired.worse);
    for (const row of await visible().all()) expect(await row.locator("td").last().textContent()).toBe("worse");
    await page.locator("#f-change").selectOption("");
    expect(await visible().count()).toBe(8);
  });

  it("opens the trace viewer with sub-queries, routes, verdicts, reasons and SQL, and saves a screenshot", async () => {
    await page.locator("#questions tbody tr").nth(2).click();
    const dialog = page.locator("dialog#trace");
    await expect.poll(() => dialog.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    expect(await dialog.locator(".trace-run").count()).toBe(2);
    const text = (await dialog.textContent()) ?? "";
    expect(text).toContain("sub-query:");
    expect(text).toMatch(/attempt 1/);
    expect(text).toMatch(/verdict (0|0\.5|1)/);
    expect(text).toContain("reason:");
    expect(
      await dialog
        .locator(".step pre")
        .filter({ hasText: /SELECT/ })
        .count(),
    ).toBeGreaterThan(0);
    await page.screenshot({ path: screenshot });
    await page.locator("#trace-close").click();
    await page.locator("#questions tbody tr").nth(1).click();
    const evidence = (await dialog.locator(".trace-run").first().textContent()) ?? "";
    expect(evidence).toContain("evidence");
    expect(evidence).toContain('"passage_sentence": "<i>Station Field</i> opened in 1911."');
    expect(await dialog.locator("i").count()).toBe(0);
    await page.locator("#trace-close").click();
    await page.locator("#questions tbody tr").first().click();
    expect(await page.locator("#trace-title").textContent()).toContain("<script>window.__atrXss = 1</script>");
    expect(await page.evaluate(() => (globalThis as { __atrXss?: number }).__atrXss)).toBeUndefined();
    await page.locator("#trace-close").click();
    await page.screenshot({ path: join(dir, "report-full.png"), fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(20_000);
    console.info(`report screenshots: ${screenshot} and ${join(dir, "report-full.png")}`);
  });
});
