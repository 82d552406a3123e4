#!/usr/bin/env bash
# The learned verdict of the MPNet verifier run 4 (issue 52, item 6), refit on claims that verifier never trained on,
# then calibrated; as mpnet_verdict_plain.sh, with:
#   - FEVER paper_test claims (never in run 4's data) checked end to end on fever-dev, less those on reserved pages;
#   - on the embedded corpus, the 800 hand-written verdict claims (benchmarks/recipes/verdict-claims/, pages run 4
#     never trained on: the plain pairs' pages exclude them) and the SUPPORTS / REFUTES claims generated from the
#     held-out pages, less every page a yardstick, the calibration, the reader probe set or the held-out plain pairs
#     name, and the reserved pages (fever_core/training/reserved.py);
#   - then benchmarks/recipes/mpnet_calibrate.py: the calibration on the calibration claims (less reserved pages).
# FEVER=N and PLAIN=N set how many claims of each are checked (default 800 and 1200: about 35 minutes on 2 cores; the
# runs are resumable, kept in the data folder's training/). From the project root:
#   ./benchmarks/recipes/mpnet_verdict_4.sh VERIFIER [RUN_DIR]   # RUN_DIR default /work/runs/r4
set -euo pipefail
S=../shared/data
V=${1:?the verifier folder}
R=${2:-/work/runs/r4}
export HF_HUB_OFFLINE=1
PY=${PY:-.venv/bin/python}
[ -f "$R/generated-v/heldout.jsonl" ] || $PY -m fever_core train generate-claims --out "$R/generated-v"
[ -f "$R/contrast-v/heldout.jsonl" ] || $PY -m fever_core train generate-claims --contrast --out "$R/contrast-v"
YARDSTICKS=(benchmarks/embedded/plain-claims.jsonl benchmarks/embedded/hand-claims-3.jsonl
            benchmarks/embedded/hand-claims-2.jsonl assets/claims/hand-claims.jsonl
            benchmarks/calibration/calibration-claims.jsonl benchmarks/reader_probe/probe-pairs.jsonl
            benchmarks/recipes/plain-pairs/plain-pairs-heldout.jsonl)
$PY -m fever_core train verdict --pairs $S/nli/fever-paper-test.jsonl \
  --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl --pages $S/corpus/fever-pages.jsonl --corpus fever-dev \
  --model "$V" --joint-model assets/models/joint-verifier --subject-stance-min 0.9 --limit "${FEVER:-800}" --seed 0 \
  --plain-claims benchmarks/recipes/verdict-claims/verdict-claims.jsonl benchmarks/recipes/verdict-claims/verdict-claims-2.jsonl \
                 "$R/generated-v/heldout.jsonl" "$R/contrast-v/heldout.jsonl" --plain-limit "${PLAIN:-1200}" \
  --exclude-pages-of "${YARDSTICKS[@]}"
$PY -m benchmarks.recipes.mpnet_calibrate --verifier "$V"
