#!/usr/bin/env bash
# The three steps that build the learned verdict and a joint verifier on a given verifier; recipe steps 2
# and 4 call it with their settings (README.md). Resumable: the runs and checkpoints are kept.
#   benchmarks/recipes/joint_steps.sh VERIFIER JOINT_OUT JOINT_INIT PAIRS_DIR LOG_PREFIX EPOCHS LR [train options]
#   a. FEVER paper_test claims (S/R claims whose gold evidence is in the fever-dev corpus's pages, and NEI
#      claims; never fever-dev claims) checked end to end on the fever-dev corpus with VERIFIER; the regression
#      fit on them (verdict.json beside VERIFIER); the runs written as joint-verifier pairs into PAIRS_DIR;
#   b. the joint verifier fine-tuned from JOINT_INIT on those pairs into JOINT_OUT;
#   c. the verdict refit with the joint verifier's weight chosen on the held-out claims.
# Logs: LOG_PREFIX-pairs.log, -train.log, -verdict.log.
set -euo pipefail
S=../shared/data
V=$1 J=$2 J_INIT=$3 PAIRS=$4 LOG=$5 EPOCHS=$6 LR=$7
shift 7
export HF_HUB_OFFLINE=1
VERDICT_ARGS=(--pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl
                 --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model "$V" --seed 0)

.venv/bin/python -m fever_core train verdict "${VERDICT_ARGS[@]}" --joint-pairs-out "$PAIRS" \
  > "$LOG-pairs.log" 2>&1
.venv/bin/python -m fever_core train verifier \
  --data "$PAIRS/joint-train.jsonl" --eval "$PAIRS/joint-heldout.jsonl" --max-per-source 100000 \
  --init "$J_INIT" --out "$J" "$@" \
  --epochs "$EPOCHS" --batch-size 16 --lr "$LR" --max-length 256 --seed 13 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  > "$LOG-train.log" 2>&1
.venv/bin/python -m fever_core train verdict "${VERDICT_ARGS[@]}" --joint-model "$J" \
  > "$LOG-verdict.log" 2>&1
