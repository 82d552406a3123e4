#!/usr/bin/env bash
# The claim-level verdict (issue 4): 8,052 FEVER paper_test claims (S/R claims whose gold evidence is
# in the fever-dev corpus pages, and NEI claims; never fever-dev claims) checked end to end on the
# fever-dev corpus with the shipped verifier, then a logistic regression over the evidence's scores and
# stances, saved as assets/models/verifier/aggregator.json. Resumable: the end-to-end runs are kept in
# data/training/aggregator-runs-fever-dev-<verifier fingerprint>.jsonl. Since a fix to evidence_sentences
# (session 5) it checks 8,981 claims. The shipped aggregator.json comes from plain_style.sh (the same
# command on the second-stage verifier, with the joint verifier's weight; README.md, "Asides").
# Run from the project root:
#   ./benchmarks/training/aggregator.sh
set -euo pipefail
S=../shared/data
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train aggregator \
  --pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl \
  --pages $S/corpus/fever-pages.jsonl --corpus fever-dev \
  --model assets/models/verifier --seed 0 \
  2>&1 | tee benchmarks/training/aggregator.log
