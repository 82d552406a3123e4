#!/usr/bin/env bash
# The verdict rebuilt on the plain-style verifier (issue 4; README.md, "Asides"): after
# finetune_plain_style.sh, check the verdict's paper_test claims end to end with the new verifier, fine-tune
# the joint verifier one more epoch with the same augmentation, and refit the verdict with its weight.
# Run from the project root (resumable: runs and checkpoints are kept):
#   ./benchmarks/training/plain_style.sh [VERIFIER_DIR] [JOINT_DIR]   # logs: plain_style-*.log
set -euo pipefail
S=../shared/data
V=${1:-data/models/verifier-plain}
J=${2:-data/models/joint-verifier-plain}
PAIRS=data/training/joint-pairs-plain
export HF_HUB_OFFLINE=1
AGGREGATOR_ARGS=(--pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl
                 --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0)

# 1. the end-to-end runs with the new verifier, as joint-verifier pairs too
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-pairs-out $PAIRS \
  > benchmarks/training/plain_style-pairs.log 2>&1

# 2. one more epoch for the shipped joint verifier, half its pairs also without asides
.venv/bin/python -m fever_core train verifier \
  --data $PAIRS/joint-train.jsonl --eval $PAIRS/joint-heldout.jsonl --max-per-source 100000 \
  --init assets/models/joint-verifier --out "$J" --plain-style-fraction 0.5 \
  --epochs 1 --batch-size 16 --lr 2e-5 --max-length 256 --seed 13 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  > benchmarks/training/plain_style-joint.log 2>&1

# 3. the verdict refit on the new runs, the joint verifier's weight chosen on the held-out claims
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-model "$J" \
  > benchmarks/training/plain_style-aggregator.log 2>&1
