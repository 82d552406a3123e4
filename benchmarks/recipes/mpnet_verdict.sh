#!/usr/bin/env bash
# The learned verdict of the MPNet verifier (issue 25, after mpnet_verifier.sh and mpnet_verifier_2.sh): every
# FEVER paper_test claim that the verifier never trained on (the claims of its runs' pair caches are left out; run 2
# trained on no paper_test claim, so run 1's are the ones left out) checked end to end on the fever-dev corpus,
# the regression fit on them, and the joint verifier's share chosen on the held-out claims (its gain decides
# whether the verdict keeps reading it). verdict.json is written beside the verifier. Resumable (the runs are
# kept). From the project root:
#   ./benchmarks/recipes/mpnet_verdict.sh [VERIFIER [RUN_DIR]]     # default RUN_DIR/verifier-mpnet-2, /work/runs
# LIMIT=N fits on a seeded sample of N of those claims instead (run 1 used 1,500). --subject-stance-min 0.9: the
# page rule (session 17, benchmarks/yardsticks/mpnet-page-rule/): a sure stance of a sentence of a page the claim
# names decides over the regression.
set -euo pipefail
S=../shared/data
R=${2:-/work/runs}
V=${1:-$R/verifier-mpnet-2}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}
# the pair caches of runs 1 and 2 (named by a hash of each run's data and settings; the training log names its own)
TRAINED=(${TRAINED:-"$R/cache/pairs-bb454355f741fe63.jsonl" "$R/cache/pairs-b581f6158314e0a4.jsonl"})
$PY -m fever_core train verdict --pairs $S/nli/fever-paper-test.jsonl \
  --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl --pages $S/corpus/fever-pages.jsonl --corpus fever-dev \
  --model "$V" --exclude-claims "${TRAINED[@]}" --joint-model assets/models/joint-verifier --subject-stance-min 0.9 ${LIMIT:+--limit "$LIMIT"} --seed 0 \
  >> "$R/verdict-mpnet.log" 2>&1
