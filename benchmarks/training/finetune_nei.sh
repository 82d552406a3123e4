#!/usr/bin/env bash
# Second training stage (issue 4): continue from the shipped verifier with same-page NEI pairs, so
# that on-topic sentences that say nothing about a claim are called NOT ENOUGH INFO.
# Run from the project root:  ./benchmarks/training/finetune_nei.sh
set -euo pipefail
S=../shared/data
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --init assets/models/verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:3000 $S/nli/climate-fever.jsonl:1000 \
  --nei-from-evidence-fraction 0.2 --nei-same-page-fraction 0.9 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out data/models/verifier-nei \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 17 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100
