#!/usr/bin/env bash
# Step 1 of the shipped models' recipe (README.md): the one-sentence verifier, 3 epochs from the packaged
# all-MiniLM-L6-v2 on FEVER paper_test claims with retrieved NOT ENOUGH INFO premises, SNLI, Climate-FEVER
# and MultiNLI stress pairs. Run from the project root (resumable: re-run the same command):
#   ./benchmarks/recipes/1_verifier.sh [OUT]     # default data/models/verifier-stage1; log logs/1_verifier.log
set -euo pipefail
S=../shared/data
OUT=${1:-data/models/verifier-stage1}
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.35 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl $S/nli/glue-diagnostic.jsonl $S/nli/fm2-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 3 --batch-size 32 --lr 4e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 200 \
  > benchmarks/recipes/logs/1_verifier.log 2>&1
