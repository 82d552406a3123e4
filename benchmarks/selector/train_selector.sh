#!/usr/bin/env bash
# A sentence selector trained as Papelo did (issue 4, item 2), from the project root:
#   ./benchmarks/selector/train_selector.sh
# 1. pairs: gold evidence sentence -> the claim's label, other retrieved sentences -> NOT ENOUGH INFO
#    (paper_test claims, the verdict's hold-out written apart; make_pairs.py);
# 2. one epoch from the shipped verifier on 15,000 of them (label-balanced draw), to data/models/selector.
set -euo pipefail
export HF_HUB_OFFLINE=1 PYTHONPATH=.
P=data/training/selector-pairs
.venv/bin/python benchmarks/selector/make_pairs.py $P
.venv/bin/python -m fever_core.training.verifier \
  --data $P/selector-train.jsonl:15000 --eval $P/selector-heldout.jsonl \
  --init assets/models/verifier --out data/models/selector \
  --epochs 1 --batch-size 32 --lr 3e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.03 --checkpoint-every 200
