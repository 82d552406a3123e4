#!/usr/bin/env bash
# The embedded corpus's two yardsticks (benchmarks/embedded/README.md), from the project root after `make corpus`:
#   ./benchmarks/run_embedded.sh       # generating the claims takes about 4 minutes on 2 cores, once
# Reports land in benchmarks/embedded/, predictions in data/benchmarks/embedded/ (not committed).
set -euo pipefail
OUT=benchmarks/embedded
GENERATED=data/training/embedded-generated
PY=.venv/bin/python
export HF_HUB_OFFLINE=1
# 36 claims written by hand about the embedded corpus's held-out pages, end to end
$PY -m fever_core evaluate --claims assets/claims/hand-claims.jsonl --corpus embedded \
  --predictions data/benchmarks/embedded/hand-claims.predictions.jsonl --report $OUT/hand-claims-report.json > /dev/null
# the verifier alone on the claims generated from those pages
[ -f $GENERATED/heldout.jsonl ] || $PY -m fever_core train generate-claims --out $GENERATED
$PY -m fever_core evaluate-pairs --pairs $GENERATED/heldout.jsonl --report $OUT/generated-heldout-pairs.json > /dev/null
