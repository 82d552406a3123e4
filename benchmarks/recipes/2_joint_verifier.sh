#!/usr/bin/env bash
# Step 2 of the shipped models' recipe (README.md): the claim-level verdict and the first joint verifier,
# both built on step 1's verifier.
#   a. FEVER paper_test claims (S/R claims whose gold evidence is in the fever-dev corpus's pages, and NEI
#      claims; never fever-dev claims) checked end to end on the fever-dev corpus; a logistic regression over
#      the evidence's scores and stances fit on them (aggregator.json, written beside the verifier); the runs
#      written as joint-verifier pairs (top five sentences joined, claim, label), split by the verdict's hold-out;
#   b. the joint verifier fine-tuned from step 1's verifier on those pairs;
#   c. the verdict refit with the joint verifier's weight chosen on the held-out claims.
# Run from the project root after step 1 (resumable: the runs are kept in data/training/, checkpoints in OUT):
#   ./benchmarks/recipes/2_joint_verifier.sh [VERIFIER [OUT]]   # defaults data/models/verifier-stage1,
#                                                               # data/models/joint-verifier-stage1; logs logs/2_*
set -euo pipefail
S=../shared/data
V=${1:-data/models/verifier-stage1}
J=${2:-data/models/joint-verifier-stage1}
PAIRS=data/training/joint-pairs
LOGS=benchmarks/recipes/logs
export HF_HUB_OFFLINE=1
AGGREGATOR_ARGS=(--pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl
                 --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0)

# a. the end-to-end runs, the regression alone, and the runs as joint-verifier pairs
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-pairs-out $PAIRS \
  > $LOGS/2_joint_verifier-pairs.log 2>&1

# b. the joint verifier, from step 1's verifier
.venv/bin/python -m fever_core train verifier \
  --data $PAIRS/joint-train.jsonl --eval $PAIRS/joint-heldout.jsonl --max-per-source 100000 \
  --init "$V" --out "$J" \
  --epochs 2 --batch-size 16 --lr 3e-5 --max-length 256 --seed 13 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  2>&1 | tee $LOGS/2_joint_verifier-train.log

# c. the verdict refit, the joint verifier's weight chosen on the held-out claims
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --joint-model "$J" \
  2>&1 | tee $LOGS/2_joint_verifier-verdict.log
