#!/usr/bin/env bash
# Second training stage tried (issue 4, not shipped): continue from the shipped verifier with same-page NEI
# pairs, so that on-topic sentences that say nothing about a claim are called NOT ENOUGH INFO. It ran from the
# verifier of the day, the recipe's step 1 model (benchmarks/recipes/1_verifier.sh); assets/models/verifier
# is now step 3's. Run from the project root:
#   ./experiments/nei_stages/finetune_nei.sh      # log: finetune_nei.log
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
  --dev-fraction 0.05 --checkpoint-every 100 \
  2>&1 | tee experiments/nei_stages/finetune_nei.log
