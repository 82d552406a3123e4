#!/usr/bin/env bash
# Does the joint verifier gain from starting at the same-page verifier? (issue 4, session 10, not shipped)
# The same-page verifier's stances gave the regression more but nothing once mixed with the joint verifier
# (README.md), so the joint verifier may already read what they add, or may read it better
# from that start. This trains a joint verifier as the shipped one was (the 8,981 runs' claim-level pairs,
# 80 % of claims, plain-style half) for 2 epochs from data/models/verifier-samepage, then refits the verdict
# over the *shipped* verifier's stances with it, on a copy of the shipped verifier (aggregator.json is
# written into the --model directory). Run from the project root after finetune_same_page.sh and
# experiments/refit_verdict.sh on it:
#   ./experiments/same_page_nei/same_page_joint.sh     # ~60 min; logs same_page_joint-{train,verdict}.log
set -euo pipefail
S=../shared/data
PAIRS=data/training/joint-pairs-samepage
J=data/models/joint-verifier-samepage
SHIPPED_COPY=data/models/verifier-shipped-copy
export HF_HUB_OFFLINE=1
AGGREGATOR_ARGS=(--pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl
                 --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --seed 0)

.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --model data/models/verifier-samepage \
  --joint-model assets/models/joint-verifier --joint-pairs-out $PAIRS > /dev/null

.venv/bin/python -m fever_core train verifier \
  --data $PAIRS/joint-train.jsonl --eval $PAIRS/joint-heldout.jsonl --max-per-source 100000 \
  --init data/models/verifier-samepage --out "$J" --plain-style-fraction 0.5 \
  --epochs 2 --batch-size 16 --lr 3e-5 --max-length 256 --seed 13 --threads 2 \
  --dev-fraction 0.05 --checkpoint-every 100 \
  2>&1 | tee experiments/same_page_nei/same_page_joint-train.log

rm -rf $SHIPPED_COPY && cp -r assets/models/verifier $SHIPPED_COPY
.venv/bin/python -m fever_core train aggregator "${AGGREGATOR_ARGS[@]}" --model $SHIPPED_COPY --joint-model "$J" \
  > experiments/same_page_nei/same_page_joint-verdict.log
