#!/usr/bin/env bash
# The learned verifier's figures, train and dev side by side, for all three benchmarks:
#   npm run bench:verifier                 # evaluate the shipped model (cross-validated train figures are in the model file)
#   npm run bench:verifier -- --train      # retrain it first (writes nodes/offline/models/answer-verifier.json)
# Builds each split's index, makes an exploration run of each split (atr run --emit_trace --verifier_features all
# --accept_threshold 1: every route tried, every attempt's features traced), then runs
# `atr train-verifier`. Env: DATA (default ../shared/data), WORK (default /tmp/atr-verifier; runs
# and indexes already in it are reused), INDEX_DIR (prebuilt indexes INDEX_DIR/<bench>-<split>, e.g.
# /tmp/atr-idx; default WORK/<bench>-<split>-index), WTQ_TRAIN_SAMPLE (default 2500 questions of
# wtq/train, seeded), PLAIN_SEEDS (the synthetic plain tables' seeds, default 1,2,3), WORKERS
# (default 2), TRAIN_FLAGS (more atr train-verifier flags, e.g. "--scorer logistic").
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/atr-verifier}
SAMPLE=${WTQ_TRAIN_SAMPLE:-2500}
INDEX_DIR=${INDEX_DIR:-}
WORKERS=${WORKERS:-2}
TRAIN=0
[ "${1:-}" = "--train" ] && TRAIN=1
mkdir -p "$WORK"
[ -d "$DATA/wtq/train" ] || { echo "bench-verifier: no $DATA/wtq/train (set DATA to the benchmark data folder)" >&2; exit 1; }

# A seeded sample of wtq/train (14,142 questions) keeps the exploration run short (kept when WORK has one).
[ -f "$WORK/wtq-train-questions.jsonl" ] || node -e '
const fs = require("fs");
const lines = fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
let seed = 16; const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let i = lines.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [lines[i], lines[j]] = [lines[j], lines[i]]; }
fs.writeFileSync(process.argv[2], lines.slice(0, Number(process.argv[3])).join("\n") + "\n");
' "$DATA/wtq/train/questions.jsonl" "$WORK/wtq-train-questions.jsonl" "$SAMPLE"

# The synthetic plain tables (training/plain-tables.ts): a training benchmark of clean spreadsheets
# in domains the everyday suites do not have (they stay the check); PLAIN_SEEDS (default 1,2,3).
[ -f "$WORK/plain-train/questions.jsonl" ] || npx tsx scripts/plain-tables.ts --out "$WORK/plain-train" --seeds "${PLAIN_SEEDS:-1,2,3}"

questions() {
  case "$1" in
    wtq/train) echo "$WORK/wtq-train-questions.jsonl" ;;
    plain/train) echo "$WORK/plain-train/questions.jsonl" ;;
    *) echo "$DATA/$1/questions.jsonl" ;;
  esac
}
for split in tatqa/train hybridqa/train wtq/train plain/train tatqa/dev hybridqa/dev wtq/dev; do
  name=${split/\//-}
  src=$DATA/$split
  [ "$split" = plain/train ] && src=$WORK/plain-train
  index=${INDEX_DIR:+$INDEX_DIR/$name}
  [ "$split" = plain/train ] && index=""
  index=${index:-$WORK/$name-index}
  [ -f "$WORK/$name.jsonl" ] || [ -f "$index/manifest.json" ] || node bin/atr.js build-index --excel_dir "$src/tables" --doc_dir "$src/passages" --save_path "$index" --quiet
  if [ ! -f "$WORK/$name.jsonl" ]; then
    rm -rf "$WORK/$name-run" && mkdir -p "$WORK/$name-run"
    node bin/atr.js run --data_file_path "$(questions $split)" --index_path "$index" --save_file_path "$WORK/$name-run/run.jsonl" \
      --emit_trace --no_progress --accept_threshold 1 --verifier_features all --max_workers "$WORKERS" >&2
    mv "$WORK/$name-run"/run_*.jsonl "$WORK/$name.jsonl"
    git rev-parse --short HEAD > "$WORK/$name.commit"
  fi
done

args=()
for b in wtq tatqa hybridqa; do args+=(--evaluate "$b=$DATA/$b/dev/questions.jsonl,$WORK/$b-dev.jsonl"); done
if [ $TRAIN = 1 ]; then
  for b in wtq tatqa hybridqa plain; do args+=(--data "$b=$(questions $b/train),$WORK/$b-train.jsonl"); done
  args+=(--note "wtq/train: a seeded sample of $SAMPLE of its 14,142 questions (scripts/bench-verifier.sh); tatqa/train and hybridqa/train whole; plain: scripts/plain-tables.ts --seeds ${PLAIN_SEEDS:-1,2,3}")
  commits=$(for b in wtq tatqa hybridqa plain; do cat "$WORK/$b-train.commit" 2>/dev/null || echo "unrecorded"; done | sort -u | tr '\n' ' ')
  args+=(--note "exploration runs: atr run --emit_trace --accept_threshold 1 in $WORK at commit(s) ${commits% }; trained at $(git rev-parse --short HEAD)")
else
  # train splits scored by the shipped model (in-sample: the cross-validated figures are in the model file's trainedOn)
  for b in wtq tatqa hybridqa plain; do args+=(--evaluate "$b=$(questions $b/train),$WORK/$b-train.jsonl"); done
fi
# shellcheck disable=SC2086 # TRAIN_FLAGS is a list of flags
node bin/atr.js train-verifier "${args[@]}" ${TRAIN_FLAGS:-}
