#!/usr/bin/env bash
# `atr run --max_workers 2` on the full dev splits in each --worker_mode given, back to back per split
# (docs/BENCHMARKS.md "Workers"): for each run a Markdown row with the load average at start and end,
# p50/p95 of atr_stats.latency_ms, wall time, CPU (user + sys of the whole process tree, from
# /usr/bin/time -v), the parent's peak RSS and each child's, and the results file; then, per split,
# `atr score` of every run against the first (answers: better / worse).
#
#   bash scripts/bench-worker-runs.sh [OUT_DIR] [MODES] [SPLITS] [-- extra atr run flags]
#   e.g. bash scripts/bench-worker-runs.sh /tmp/procs/runs "main process" "wtq tatqa hybridqa" -- --emit_trace
#
# Indexes: /tmp/s4/idx/<split>-index (override with INDEX_DIR); questions: ../shared/data/<split>/dev
# (override the data folder with DATA_DIR).
set -euo pipefail
out=${1:-/tmp/bench-worker-runs}
modes=${2:-"main process"}
splits=${3:-"wtq tatqa hybridqa"}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = "--" ] && shift
extra=("$@")
index_dir=${INDEX_DIR:-/tmp/s4/idx}
data_dir=${DATA_DIR:-../shared/data}
mkdir -p "$out"
load() { cut -d' ' -f1 /proc/loadavg; }
echo "| split | mode | load (1 min, start → end) | p50 ms | p95 ms | wall s | CPU s (ms/question) | peak RSS MB (parent; children) | results |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |"
for split in $splits; do
  first=""
  for mode in $modes; do
    l0=$(load)
    /usr/bin/time -v -o "$out/$split-$mode.time" node bin/atr.js run \
      --data_file_path "$data_dir/$split/dev/questions.jsonl" --index_path "$index_dir/$split-index" \
      --save_file_path "$out/$split-$mode.jsonl" --no_progress --max_workers 2 --worker_mode "$mode" "${extra[@]}" \
      >"$out/$split-$mode.path" 2>"$out/$split-$mode.log"
    l1=$(load)
    results=$(tail -1 "$out/$split-$mode.path")
    first=${first:-$results}
    node -e '
      const fs = require("fs");
      const [results, timeFile, logFile, split, mode, l0, l1] = process.argv.slice(1);
      const recs = fs.readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const lat = recs.map((r) => r.atr_stats.latency_ms).sort((a, b) => a - b);
      const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
      const t = fs.readFileSync(timeFile, "utf8");
      const num = (re) => Number(re.exec(t)[1]);
      const cpu = num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/);
      const wallParts = /Elapsed \(wall clock\) time .*: ([\d:.]+)/.exec(t)[1].split(":").map(Number);
      const wall = wallParts.reduce((s, x) => s * 60 + x, 0);
      const log = fs.readFileSync(logFile, "utf8");
      const children = [...log.matchAll(/RSS ≤ (\d+) MB/g)].map((m) => m[1]);
      const parent = /(?:parent|process) peak RSS (\d+) MB/.exec(log)?.[1] ?? Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024);
      console.log(`| ${split} | ${mode} | ${l0} → ${l1} | ${q(0.5)} | ${q(0.95)} | ${wall.toFixed(0)} | ${cpu.toFixed(1)} (${Math.round((cpu * 1000) / recs.length)}) | ${parent}${children.length ? "; " + children.join(", ") : ""} | ${results} |`);
    ' "$results" "$out/$split-$mode.time" "$out/$split-$mode.log" "$split" "$mode" "$l0" "$l1"
  done
  for mode in $modes; do
    results=$(tail -1 "$out/$split-$mode.path")
    [ "$results" = "$first" ] && continue
    echo "$split $mode against the first: $(node bin/atr.js score --bench "$split" --gold "$data_dir/$split/dev/questions.jsonl" --pred "$first" --pred "$results" | tail -1)"
  done
done
