#!/usr/bin/env bash
# Step 4 of the shipped models' recipe (README.md, "Asides"): the verdict rebuilt on step 3's verifier. The
# verdict's paper_test claims checked end to end again with it, one more epoch for step 2's joint verifier
# on those runs with half its pairs also without asides, and the verdict refit with the joint verifier's
# weight chosen on the held-out claims (verdict.json, written beside VERIFIER).
# Also the command to run after retraining the verifier: give it the new verifier, an output folder and the
# shipped joint verifier to continue from (assets/models/joint-verifier).
# Run from the project root (resumable: runs and checkpoints are kept):
#   ./benchmarks/recipes/4_joint_plain_style.sh [VERIFIER [OUT [JOINT_INIT]]]
#       # defaults data/models/verifier-plain, data/models/joint-verifier-plain,
#       # data/models/joint-verifier-stage1; logs logs/4_*
set -euo pipefail
V=${1:-data/models/verifier-plain}
J=${2:-data/models/joint-verifier-plain}
J_INIT=${3:-data/models/joint-verifier-stage1}
# one more epoch for the joint verifier at 2e-5, half its pairs also without asides
benchmarks/recipes/joint_steps.sh "$V" "$J" "$J_INIT" data/training/joint-pairs-plain \
  benchmarks/recipes/logs/4_joint_plain_style 1 2e-5 --plain-style-fraction 0.5
