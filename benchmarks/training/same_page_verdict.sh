#!/usr/bin/env bash
# The verdict refit on the same-page verifier's stances (issue 4, session 10, not shipped): the 8,981
# paper_test claims checked end to end with data/models/verifier-samepage (finetune_same_page.sh), the
# regression and the shipped joint verifier's weight refit and scored on the 1,778 held-out claims, as
# generated_verdict.sh does. Writes aggregator.json into the verifier's directory. Run from the root:
#   ./benchmarks/training/same_page_verdict.sh     # 20 min, log: same_page_verdict.log
set -euo pipefail
S=../shared/data
V=${1:-data/models/verifier-samepage}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train aggregator \
  --pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl \
  --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0 \
  --joint-model assets/models/joint-verifier \
  > benchmarks/training/same_page_verdict.log    # the report; progress goes to the terminal
