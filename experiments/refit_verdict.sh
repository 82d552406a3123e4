#!/usr/bin/env bash
# The verdict refit on a candidate verifier (issue 4): the verdict's 8,981 paper_test claims checked end to
# end with it, then the regression and the shipped joint verifier's weight refit on them (chosen on the
# held-out claims, nothing on fever-dev). aggregator.json is written beside the verifier; the report goes to
# LOG, progress to the terminal. Run from the project root (resumable: runs are kept in data/training/):
#   ./experiments/refit_verdict.sh VERIFIER_DIR LOG
# Used for (generated_claims/README.md, same_page_nei/README.md):
#   ./experiments/refit_verdict.sh data/models/verifier-generated experiments/generated_claims/generated_verdict.log
#   ./experiments/refit_verdict.sh data/models/verifier-samepage experiments/same_page_nei/same_page_verdict.log
set -euo pipefail
S=../shared/data
V=${1:?usage: refit_verdict.sh VERIFIER_DIR LOG}
LOG=${2:?usage: refit_verdict.sh VERIFIER_DIR LOG}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train aggregator \
  --pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl \
  --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0 \
  --joint-model assets/models/joint-verifier \
  > "$LOG"
