#!/usr/bin/env bash
# Step 4 of the shipped models' recipe (README.md, "Asides"): the verdict rebuilt on step 3's verifier. The
# verdict's paper_test claims checked end to end again with it, one more epoch for step 2's joint verifier
# on those runs with half its pairs also without asides, and the verdict refit with the joint verifier's
# weight chosen on the held-out claims (aggregator.json, written beside VERIFIER).
# Also the command to run after retraining the verifier: give it the new verifier, an output folder and the
# shipped joint verifier to continue from (assets/models/joint-verifier).
# Run from the project root (resumable: runs and checkpoints are kept):
#   ./benchmarks/recipes/4_joint_plain_style.sh [VERIFIER [OUT [JOINT_INIT]]]
#       # defaults data/models/verifier-plain, data/models/joint-verifier-plain,
#       # data/models/joint-verifier-stage1; logs logs/4_*
set -euo pipefail
S=../shared/data
V=${1:-data/models/verifier-plain}
J=${2:-data/models/joint-verifier-plain}
J_INIT=${3:-data/models/joint-verifier-stage1}
PAIRS=data/training/joint-pairs-plain
LOGS=benchmarks/recipes/logs
export HF_HUB_OFFLINE=1
AGGREGATOR_ARGS=(--pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl
                 --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0)

# a. the end-to-end runs with the new verifier, as joint-verifier pairs too
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-pairs-out $PAIRS \
  > $LOGS/4_joint_plain_style-pairs.log 2>&1

# b. one more epoch for the joint verifier, half its pairs also without asides
.venv/bin/python -m fever_core train verifier \
  --data $PAIRS/joint-train.jsonl --eval $PAIRS/joint-heldout.jsonl --max-per-source 100000 \
  --init "$J_INIT" --out "$J" --plain-style-fraction 0.5 \
  --epochs 1 --batch-size 16 --lr 2e-5 --max-length 256 --seed 13 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  > $LOGS/4_joint_plain_style-train.log 2>&1

# c. the verdict refit on the new runs, the joint verifier's weight chosen on the held-out claims
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-model "$J" \
  > $LOGS/4_joint_plain_style-verdict.log 2>&1
