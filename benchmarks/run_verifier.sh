#!/usr/bin/env bash
# The verifier alone on held-out pair sets, the scores in its model card (assets/models/verifier/MODEL_CARD.md),
# from the project root (about 23,000 pair scorings; FM2's 1,169 pairs take about a minute on 2 cores):
#   ./benchmarks/run_verifier.sh [VERIFIER [OUT]]     # defaults assets/models/verifier, benchmarks/verifier
# Reports land in OUT: eval-SET.json with argmax and NEI-rule figures for FeverSymmetric,
# fever-dev's oracle pairs (all, and those with asides, as they are and without), the embedded corpus's
# generated held-out pairs (when `python -m fever_core train generate-claims` has written them); and
# eval-fm2-dev-pairs.json, eval-glue-diagnostic-pairs.json with the model's NEI rule. The summary: evaluate.log.
set -euo pipefail
S=../shared/data
V=${1:-assets/models/verifier}
OUT=${2:-benchmarks/verifier}
PY=.venv/bin/python
export HF_HUB_OFFLINE=1
mkdir -p "$OUT"
PYTHONPATH=. $PY benchmarks/verifier/evaluate_verifier.py "$V" "$OUT" | tee "$OUT/evaluate.log"
for set in fm2-dev glue-diagnostic; do
  FEVER_VERIFIER_MODEL="$V" $PY -m fever_core evaluate-pairs --pairs $S/nli/$set.jsonl \
    --report "$OUT/eval-$set-pairs.json" > /dev/null
done
