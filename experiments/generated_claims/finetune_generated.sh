#!/usr/bin/env bash
# Third stage for the one-sentence verifier (issue 4, session 9, not shipped): the recipe of
# benchmarks/recipes/3_verifier_plain_style.sh, from the shipped verifier, plus pairs
# generated from the embedded corpus's own sentences (`train generate-claims`: SUPPORTS cores, REFUTES
# mutations, same-page NOT ENOUGH INFO), so that the summaries the app opens on are S/R premises too, not
# only NOT ENOUGH INFO distractors (README.md). Same seed and dev split as the recipe.
# Run from the project root:
#   ./experiments/generated_claims/finetune_generated.sh [OUT]     # log: finetune_generated.log
set -euo pipefail
S=../shared/data
OUT=${1:-data/models/verifier-generated}
GENERATED=data/training/embedded-generated
export HF_HUB_OFFLINE=1
[ -f $GENERATED/train.jsonl ] || .venv/bin/python -m fever_core train generate-claims --out $GENERATED
.venv/bin/python -m fever_core train verifier \
  --init assets/models/verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
         $GENERATED/train.jsonl:3000 \
  --nei-from-evidence-fraction 0.35 --plain-style-fraction 0.5 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl $GENERATED/heldout.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 100 \
  2>&1 | tee experiments/generated_claims/finetune_generated.log
