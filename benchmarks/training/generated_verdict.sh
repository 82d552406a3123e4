#!/usr/bin/env bash
# The verdict refit on the verifier of finetune_generated.sh (issue 4; README.md, "Generated claims"):
# the verdict's 8,981 paper_test claims checked end to end with the new verifier, then the regression and
# the shipped joint verifier's weight refit on them (chosen on the held-out claims, nothing on fever-dev).
# aggregator.json is written beside the verifier. Run from the project root (resumable: runs are kept):
#   ./benchmarks/training/generated_verdict.sh [VERIFIER_DIR]   # log: generated_verdict.log
set -euo pipefail
S=../shared/data
V=${1:-data/models/verifier-generated}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train aggregator \
  --pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl \
  --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0 \
  --joint-model assets/models/joint-verifier \
  > benchmarks/training/generated_verdict.log 2>&1
