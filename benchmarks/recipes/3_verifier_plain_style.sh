#!/usr/bin/env bash
# Step 3 of the shipped models' recipe (README.md, "Asides"): one more epoch for step 1's verifier on its own
# recipe's data, plus half of each pair file's pairs with the premise's parenthetical asides removed
# (--plain-style-fraction), the way the embedded corpus (Wikipedia lead summaries) writes its sentences.
# Same seed and dev split as step 1. Run from the project root (resumable):
#   ./benchmarks/recipes/3_verifier_plain_style.sh [INIT [OUT [LOG [MORE TRAIN-VERIFIER OPTIONS...]]]]
#       # defaults data/models/verifier-stage1, data/models/verifier-plain, logs/3_verifier_plain_style.log
# Experiments on this recipe call it with their own INIT, OUT, LOG and options
# (experiments/same_page_nei/finetune_same_page.sh).
set -euo pipefail
S=../shared/data
INIT=${1:-data/models/verifier-stage1}
OUT=${2:-data/models/verifier-plain}
LOG=${3:-benchmarks/recipes/logs/3_verifier_plain_style.log}
shift $(( $# < 3 ? $# : 3 ))
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --init "$INIT" \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.35 --plain-style-fraction 0.5 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 100 "$@" \
  2>&1 | tee "$LOG"
