#!/usr/bin/env bash
# The real verifier training run (issue 4), launched from the project root with
#   ./benchmarks/training/run.sh
set -euo pipefail
S=../shared/data
export HF_HUB_OFFLINE=1
nohup .venv/bin/python -m fever_core.training.verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.35 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl $S/nli/glue-diagnostic.jsonl $S/nli/fm2-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out assets/models/verifier \
  --epochs 3 --batch-size 32 --lr 4e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 200 --time-budget-min 66 \
  > benchmarks/training/train.log 2>&1 &
echo $! > /tmp/verifier_train.pid
