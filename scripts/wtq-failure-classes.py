"""Classes of the SQL harness's wrong WTQ answers (scripts/offline-dev.ts --out), checked against the tables' cells.

    python3 scripts/wtq-failure-classes.py --harness OD.jsonl --questions ../shared/data/wtq/train/questions.jsonl \
        --tables ../shared/data/wtq/train/tables [--only SPLIT.jsonl] [--examples OUT.json]

Each wrong answer gets the first class that holds: no plan; an empty result; the same number written
differently (train gold has no answer_canon); gold is part of the answer cell or the reverse; gold is a
number inside the cell; some gold items but the wrong count of items; else where gold is in the table:
in the plan's target column (the rows are wrong), in another column (the target is wrong), a cell but
the plan has no single target column, a number no cell holds (counts, sums), no cell at all (text).
Per class, the plan templates it falls in. Normalisation is the official evaluator's (evals/scoring/wtq.ts).
"""
import argparse, collections, csv, json, re, unicodedata

ap = argparse.ArgumentParser()
ap.add_argument("--harness", required=True)
ap.add_argument("--questions", required=True)
ap.add_argument("--tables", required=True)
ap.add_argument("--only", help="a questions file: classify only its questions (e.g. the held-out tables)")
ap.add_argument("--examples", help="write up to 400 examples per class here (JSON)")
args = ap.parse_args()

Q = {}
for line in open(args.questions):
    q = json.loads(line)
    Q[q["question_id"]] = q
only = {json.loads(l)["question_id"] for l in open(args.only)} if args.only else None
rows = [json.loads(l) for l in open(args.harness)]
rows = [r for r in rows if only is None or r["question_id"] in only]


def norm(x):
    x = unicodedata.normalize("NFKD", x)
    x = "".join(c for c in x if not unicodedata.combining(c))
    x = re.sub(r"[‘’´`]", "'", x)
    x = re.sub(r"[“”]", '"', x)
    x = re.sub(r"[‐‑‒–—−]", "-", x)
    while True:
        old = x
        x = re.sub(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$", "", x.strip())
        x = re.sub(r"(?<!^)( \([^)]*\))*$", "", x.strip())
        x = re.sub(r'^"([^"]*)"$', r"\1", x.strip())
        if x == old:
            break
    if x.endswith("."):
        x = x[:-1]
    return re.sub(r"\s+", " ", x).lower().strip()


tables = {}


def table(tid):
    if tid not in tables:
        with open(f"{args.tables}/{tid}.csv", newline="") as f:
            tables[tid] = list(csv.reader(f))
    return tables[tid]


def num(s):
    try:
        return float(s.replace(",", "").strip())
    except ValueError:
        return None


def classify(r, q):
    gold, items = q["answer"], [p.strip() for p in r["prediction"].split("|") if p.strip()]
    gn, pn = [norm(g) for g in gold], [norm(p) for p in items]
    numeric = all(num(g) is not None for g in gold)
    if not items:
        return "no plan" if r["template"] == "none" else "empty result"
    if len(items) == len(gold):
        if numeric and sorted(num(g) for g in gold) == sorted(num(p) if num(p) is not None else -1e99 for p in items):
            return "format: the same number written differently (train gold has no canon)"
        if not numeric and all(any(g in p or p in g for p in pn) for g in gn):
            return "format: gold is part of the answer cell (or the reverse)"
        if numeric and all(any(re.match(re.escape(g) + r"\b", p) or re.search(r"\b" + re.escape(g) + "$", p) for p in pn) for g in gn):
            return "format: gold is a number inside the answer cell"
    elif set(gn) & set(pn):
        return "list: some gold items, the wrong count of items"
    t = table(q["table_id"])
    hdr, body = t[0], t[1:]
    cols = [set() for _ in hdr]
    for row in body:
        for i, v in enumerate(row[: len(hdr)]):
            cols[i].add(norm(v))
    tc = hdr.index(r["targetColumn"]) if r.get("targetColumn") in hdr else None
    holders = [i for i in range(len(hdr)) if all(g in cols[i] for g in gn)]
    if not holders:
        return "gold is a number no cell holds" if numeric else "gold is no cell (text)"
    if tc is not None and tc in holders:
        return "gold is in the plan's target column: the rows are wrong"
    if tc is not None:
        return "gold is in another column: the target column is wrong"
    return "gold is a cell, the plan has no single target column (counts)"


cls, by_tpl, ex = collections.Counter(), collections.defaultdict(collections.Counter), collections.defaultdict(list)
for r in rows:
    if r["ok"]:
        continue
    q = Q[r["question_id"]]
    c = classify(r, q)
    cls[c] += 1
    by_tpl[c][r["template"]] += 1
    if len(ex[c]) < 400:
        ex[c].append([r["template"], q["question"], q["answer"], r["prediction"], r.get("targetColumn")])
wrong = sum(cls.values())
print(f"{len(rows)} questions, {len(rows) - wrong} right, {wrong} wrong")
print("| class | wrong | mostly in (plan template) |\n|---|---:|---|")
for c, n in cls.most_common():
    print(f"| {c} | {n} | {', '.join(f'{k} {v}' for k, v in by_tpl[c].most_common(5))} |")
if args.examples:
    json.dump(ex, open(args.examples, "w"), indent=0)
