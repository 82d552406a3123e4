#!/usr/bin/env bash
# The claim-level verdict of the MPNet verifier (issue 25, step 2 after mpnet_verifier.sh): FEVER paper_test claims
# that the verifier never trained on (its own pair cache is left out) checked end to end on the fever-dev corpus,
# the regression fit on them, and the joint verifier's share chosen on the held-out claims (its gain decides
# whether the verdict keeps reading it). aggregator.json is written beside the verifier. Resumable (the runs are
# kept). From the project root:
#   ./benchmarks/recipes/mpnet_verdict.sh [VERIFIER [RUN_DIR]]     # default RUN_DIR/verifier-mpnet, /work/runs
set -euo pipefail
S=../shared/data
R=${2:-/work/runs}
V=${1:-$R/verifier-mpnet}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}
TRAINED=$(ls -t "$R"/cache/pairs-*.jsonl | head -1)   # the verifier's training pairs (mpnet_verifier.sh's cache)
$PY -m fever_core train aggregator --pairs $S/nli/fever-paper-test.jsonl \
  --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl --pages $S/corpus/fever-pages.jsonl --corpus fever-dev \
  --model "$V" --exclude-claims "$TRAINED" --joint-model assets/models/joint-verifier --limit 1500 --seed 0 \
  >> "$R/verdict-mpnet.log" 2>&1
