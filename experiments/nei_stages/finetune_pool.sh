#!/usr/bin/env bash
# Second training stage tried (issue 4, not shipped): continue from the first-stage verifier with NOT ENOUGH
# INFO claims paired with on-topic FEVER evidence sentences (--nei-claims-pool-evidence), so that true
# sentences about a claim's subject that don't settle it are called NOT ENOUGH INFO. The first-stage verifier
# is the recipe's step 1 model (benchmarks/recipes/1_verifier.sh, data/models/verifier-stage1);
# assets/models/verifier, the default, is now step 3's. Run from the project root:
#   ./experiments/nei_stages/finetune_pool.sh [INIT_MODEL] [OUT_DIR]      # log: finetune_pool.log
set -euo pipefail
S=../shared/data
INIT=${1:-assets/models/verifier}
OUT=${2:-data/models/verifier-pool}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --init "$INIT" \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:3000 $S/nli/climate-fever.jsonl:1000 $S/nli/mnli-stress.jsonl:1000 \
  --nei-claims-pool-evidence --nei-from-evidence-fraction 0.2 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 17 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  2>&1 | tee experiments/nei_stages/finetune_pool.log
