#!/usr/bin/env bash
# Step 2 of the shipped models' recipe (README.md): the learned verdict and the first joint verifier,
# both built on step 1's verifier.
#   a. FEVER paper_test claims (S/R claims whose gold evidence is in the fever-dev corpus's pages, and NEI
#      claims; never fever-dev claims) checked end to end on the fever-dev corpus; a logistic regression over
#      the evidence's scores and stances fit on them (verdict.json, written beside the verifier); the runs
#      written as joint-verifier pairs (top five sentences joined, claim, label), split by the verdict's hold-out;
#   b. the joint verifier fine-tuned from step 1's verifier on those pairs;
#   c. the verdict refit with the joint verifier's weight chosen on the held-out claims.
# Run from the project root after step 1 (resumable: the runs are kept in data/training/, checkpoints in OUT):
#   ./benchmarks/recipes/2_joint_verifier.sh [VERIFIER [OUT]]   # defaults data/models/verifier-stage1,
#                                                               # data/models/joint-verifier-stage1; logs logs/2_*
set -euo pipefail
V=${1:-data/models/verifier-stage1}
J=${2:-data/models/joint-verifier-stage1}
# the joint verifier starts from step 1's verifier: 2 epochs at 3e-5
benchmarks/recipes/joint_steps.sh "$V" "$J" "$V" data/training/joint-pairs benchmarks/recipes/logs/2_joint_verifier 2 3e-5
