// Browser script of the ATR run report (inlined into the page by evals/report-html.ts): builds the
// question table, its filters and the trace viewer from the JSON data block. Untrusted text only
// ever reaches the page through textContent (the `el` helper), never through innerHTML.
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("atr-data").textContent);
  const runs = data.runs;
  const two = runs.length > 1;
  const hasGold = data.metric !== undefined;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  const isWrong = (run) => run.score !== undefined && run.score < 1;
  function change(q) {
    if (!two) return "";
    const [a, b] = q.runs;
    if (a.score !== undefined && b.score !== undefined) {
      if (b.score > a.score) return "better";
      if (b.score < a.score) return "worse";
    }
    return a.answer !== b.answer ? "changed" : "same";
  }

  // Filters ---------------------------------------------------------------------------------------
  const filters = document.getElementById("filters");
  const wrong = el("input", { type: "checkbox", id: "f-wrong", disabled: !hasGold });
  const routeSel = el("select", { id: "f-route" }, el("option", { value: "" }, "any"));
  const finals = [...new Set(data.questions.flatMap((q) => q.runs.map((r) => r.final)))].sort();
  for (const f of finals) routeSel.append(el("option", { value: f }, f));
  const verifiedSel = el(
    "select",
    { id: "f-verified" },
    el("option", { value: "" }, "any"),
    el("option", { value: "yes" }, "verified"),
    el("option", { value: "no" }, "not verified"),
  );
  const changeSel = el(
    "select",
    { id: "f-change" },
    el("option", { value: "" }, "any"),
    el("option", { value: "better" }, "better"),
    el("option", { value: "worse" }, "worse"),
    el("option", { value: "changed" }, "answer changed"),
    el("option", { value: "same" }, "same answer"),
  );
  const text = el("input", { type: "search", id: "f-text", placeholder: "question, id or answer contains…" });
  const shown = el("span", { id: "f-count", class: "muted" });
  filters.append(
    el("label", {}, wrong, hasGold ? " wrong only" : " wrong only (needs --gold)"),
    el("label", {}, "final route ", routeSel),
    el("label", {}, "verified ", verifiedSel),
    two ? el("label", {}, `${runs[1].label} vs ${runs[0].label} `, changeSel) : null,
    text,
    shown,
  );

  // Table -----------------------------------------------------------------------------------------
  const thead = document.querySelector("#questions thead");
  const tbody = document.querySelector("#questions tbody");
  const perRunHeads = (label) =>
    [
      `${two ? `${label}: ` : ""}answer`,
      hasGold ? "score" : null,
      "verified",
      "route (first → final)",
      "attempts",
      "ms",
    ].filter(Boolean);
  thead.append(
    el(
      "tr",
      {},
      [
        "#",
        "id",
        "question",
        hasGold ? "gold" : null,
        ...runs.flatMap((r) => perRunHeads(r.label)),
        two ? "change" : null,
      ]
        .filter((h) => h !== null)
        .map((h) => el("th", {}, h)),
    ),
  );

  function scoreCell(run) {
    if (run.missing) return el("td", { class: "muted" }, "missing");
    if (run.score === undefined) return null;
    const metrics = run.metrics
      ? Object.entries(run.metrics)
          .map(([k, v]) => `${k} ${Math.round(v * 100) / 100}`)
          .join(", ")
      : "";
    return el(
      "td",
      { class: run.score >= 1 ? "ok" : "bad", title: metrics },
      run.score >= 1 ? "✓" : run.score > 0 ? String(Math.round(run.score * 100) / 100) : "✗",
    );
  }
  function runCells(run) {
    return [
      el("td", { class: "a" }, run.error ? `error: ${run.error}` : run.answer),
      hasGold ? scoreCell(run) || el("td", {}) : null,
      el("td", {}, run.verified === true ? "yes" : run.verified === false ? "no" : "–"),
      el("td", {}, run.firstRequested === run.final ? run.final : `${run.firstRequested} → ${run.final}`),
      el("td", { class: "num" }, run.attempts ?? "–"),
      el("td", { class: "num" }, run.latencyMs ?? "–"),
    ].filter(Boolean);
  }
  const rows = data.questions.map((q, i) => {
    const c = change(q);
    const tr = el(
      "tr",
      { "data-index": i, onclick: () => openTrace(i) },
      el("td", { class: "num" }, i + 1),
      el("td", {}, q.id),
      el("td", { class: "q" }, q.question),
      hasGold ? el("td", { class: "a" }, q.gold ?? "") : null,
      ...q.runs.flatMap(runCells),
      two ? el("td", { class: c === "better" ? "ok" : c === "worse" ? "bad" : "muted" }, c) : null,
    );
    tbody.append(tr);
    return {
      tr,
      q,
      change: c,
      haystack: `${q.id}\n${q.question}\n${q.runs.map((r) => r.answer).join("\n")}`.toLowerCase(),
    };
  });

  function applyFilters() {
    const needle = text.value.trim().toLowerCase();
    let n = 0;
    for (const row of rows) {
      const { q } = row;
      const visible =
        (!wrong.checked || q.runs.some(isWrong)) &&
        (!routeSel.value || q.runs.some((r) => r.final === routeSel.value)) &&
        (!verifiedSel.value || q.runs.some((r) => r.verified === (verifiedSel.value === "yes"))) &&
        (!changeSel.value || row.change === changeSel.value) &&
        (!needle || row.haystack.includes(needle));
      row.tr.hidden = !visible;
      if (visible) n++;
    }
    shown.textContent = `${n} of ${rows.length} questions shown · click a row for its trace`;
  }
  for (const input of [wrong, routeSel, verifiedSel, changeSel]) input.addEventListener("change", applyFilters);
  text.addEventListener("input", applyFilters);
  applyFilters();

  // Trace viewer ----------------------------------------------------------------------------------
  const dialog = document.getElementById("trace");
  const title = document.getElementById("trace-title");
  const body = document.getElementById("trace-body");
  document.getElementById("trace-close").addEventListener("click", () => dialog.close());

  const pre = (t) => el("pre", {}, t);
  const json = (v) => JSON.stringify(v, null, 2);
  function stepView(s) {
    const verdict = s.verdict === null ? "no verdict" : `verdict ${s.verdict}`;
    return el(
      "div",
      { class: `step ${s.accepted ? "accepted" : "rejected"}` },
      el(
        "div",
        {},
        el("span", { class: "tag" }, `attempt ${s.attempt ?? "?"}`),
        el(
          "span",
          { class: "tag" },
          s.requested === s.effective ? s.effective : `${s.requested} → ${s.effective} (requested → ran)`,
        ),
        el("span", { class: "tag" }, verdict),
        el("b", { class: s.accepted ? "ok" : "bad" }, s.accepted ? "accepted" : "rejected"),
      ),
      el("div", {}, "answer: ", el("b", {}, s.answer || "(none)")),
      s.reason ? el("div", { class: "muted" }, "reason: ", s.reason) : null,
      s.table
        ? el(
            "div",
            { class: "muted" },
            `table ${s.table}`,
            s.columns.length ? ` · columns: ${s.columns.join(", ")}` : "",
          )
        : null,
      s.sql ? [el("div", {}, "SQL"), pre(s.sql)] : null,
      s.sqlRefused.length ? [el("div", { class: "bad" }, "SQL refused"), pre(s.sqlRefused.join("\n"))] : null,
      Object.keys(s.extra).length
        ? el("details", {}, el("summary", {}, "more (evidence, linked values, analysis)"), pre(json(s.extra)))
        : null,
    );
  }
  function runView(run, label) {
    const parts = [
      el("h4", {}, label),
      el(
        "div",
        {},
        "answer: ",
        el("b", {}, run.missing ? "(no record)" : run.answer),
        run.score !== undefined
          ? el("span", { class: run.score >= 1 ? "ok" : "bad" }, run.score >= 1 ? "  ✓ correct" : "  ✗ wrong")
          : null,
      ),
      el(
        "div",
        { class: "muted" },
        `route ${run.firstRequested} → ${run.firstEffective} → ${run.final} · attempts ${run.attempts ?? "–"} · ${run.latencyMs ?? "–"} ms · LLM calls ${run.llmCalls ?? "–"} · tokens ${run.tokens ?? "–"} · verified ${run.verified === undefined ? "–" : run.verified ? "yes" : "no"}`,
      ),
      run.error ? el("div", { class: "bad" }, `error: ${run.error}`) : null,
      run.evidence ? [el("div", {}, "evidence"), pre(json(run.evidence))] : null,
    ];
    if (run.traceOmitted)
      parts.push(
        el(
          "p",
          { class: "muted" },
          "Trace left out of this page (atr report --max_traces keeps the traces of the first N questions).",
        ),
      );
    else if (!run.trace)
      parts.push(
        el(
          "p",
          { class: "muted" },
          "No atr_trace in this record (run `atr run` with --emit_trace to see sub-queries, routes and verdicts).",
        ),
      );
    else {
      let last = null;
      for (const s of run.trace) {
        if (s.subQuery !== last) parts.push(el("div", { class: "subq" }, "sub-query: ", s.subQuery));
        last = s.subQuery;
        parts.push(stepView(s));
      }
    }
    return el("div", { class: "trace-run" }, parts);
  }
  function openTrace(i) {
    const q = data.questions[i];
    title.replaceChildren(
      `${q.id ? `${q.id} · ` : ""}${q.question}`,
      q.gold !== undefined ? el("div", { class: "muted" }, `gold: ${q.gold}`) : "",
    );
    body.replaceChildren(...q.runs.map((run, r) => runView(run, runs[r].label)));
    dialog.showModal();
  }
})();
