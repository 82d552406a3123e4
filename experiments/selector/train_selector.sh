#!/usr/bin/env bash
# A sentence selector trained as Papelo did (issue 4, item 2; not shipped), from the project root:
#   ./experiments/selector/train_selector.sh > experiments/selector/train_selector.log 2>&1
# 1. pairs: gold evidence sentence -> the claim's label, other retrieved sentences -> NOT ENOUGH INFO
#    (paper_test claims, the verdict's hold-out written apart; make_pairs.py);
# 2. one epoch from the shipped verifier on 15,000 of them (label-balanced draw), to data/models/selector.
set -euo pipefail
export HF_HUB_OFFLINE=1 PYTHONPATH=.
P=data/training/selector-pairs
.venv/bin/python experiments/selector/make_pairs.py $P
.venv/bin/python -m fever_core train verifier \
  --data $P/selector-train.jsonl:15000 --eval $P/selector-heldout.jsonl \
  --init assets/models/verifier --out data/models/selector \
  --epochs 1 --batch-size 32 --lr 3e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.03 --checkpoint-every 200
