#!/usr/bin/env bash
# Second stage tried in session 10 (issue 4, not shipped): the shipped verifier's plain-style recipe
# (finetune_plain_style.sh) plus on-topic NOT ENOUGH INFO pairs (--nei-same-page-fraction 0.6: a
# SUPPORTS claim with the evidence of another claim about the same page). The question was whether
# the verdict gets more from stances that tell "refutes" from "on topic, says nothing"
# (README.md, "Session 10"). Same seed and dev split as run.sh. Run from the project root:
#   ./benchmarks/training/finetune_same_page.sh      # log: finetune_same_page.log
set -euo pipefail
S=../shared/data
OUT=${1:-data/models/verifier-samepage}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --init assets/models/verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.35 --plain-style-fraction 0.5 --nei-same-page-fraction 0.6 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 100 \
  2>&1 | tee benchmarks/training/finetune_same_page.log
