#!/usr/bin/env bash
# The pipeline benchmarks quoted in README.md, docs/models.md and the model cards (FEVER metrics, recall, latency), from the
# project root:
#   ./benchmarks/run_pipeline.sh            # everything (about an hour on 2 cores)
# Reports land in benchmarks/pipeline/*.json (committed), predictions in data/benchmarks/pipeline/ (not committed).
set -euo pipefail
S=../shared/data
OUT=benchmarks/pipeline
PREDICTIONS=data/benchmarks/pipeline
PY=.venv/bin/python
mkdir -p $OUT
run() {
  name=$1; shift
  $PY -m fever_core evaluate "$@" --report $OUT/$name.json --predictions $PREDICTIONS/$name.predictions.jsonl > /dev/null
}

# Side by side on the same random 600 fever-dev claims: baselines and two-hop off.
for retriever in fused tfidf bm25; do
  run fever-dev-sample600-$retriever --claims $S/claims/fever-dev.jsonl --corpus fever-dev --sample 600 --seed 1 --retriever $retriever
done
run fever-dev-sample600-fused-no-two-hop --claims $S/claims/fever-dev.jsonl --corpus fever-dev --sample 600 --seed 1 --no-two-hop
FEVER_JOINT_VERIFIER_MODEL= run fever-dev-sample600-fused-no-joint --claims $S/claims/fever-dev.jsonl --corpus fever-dev --sample 600 --seed 1
# (tfidf and bm25 use the best-sentence rule: the learned verdict was trained on the fused retriever's scores)

# The verifier alone: gold evidence of the SUPPORTS/REFUTES claims; FeverSymmetric pairs.
run fever-dev-oracle --claims $S/claims/fever-dev.jsonl --corpus fever-dev --oracle-evidence
$PY -m fever_core evaluate-pairs --pairs $S/nli/fever-symmetric-dev.jsonl --report $OUT/fever-symmetric-pairs.json > /dev/null
# Headline: the whole development files, default pipeline (fused retrieval, two-hop on, shipped verifier).
run fever-dev-fused --claims $S/claims/fever-dev.jsonl --corpus fever-dev
# fever-dev's pages as the embedded corpus writes its sentences, without parenthetical asides
PYTHONPATH=. $PY benchmarks/corpus/plain_style_pages.py > /dev/null
$PY -m fever_core corpus build fever-dev-plain --source fever:data/plain-style/fever-pages.jsonl --source embedded > /dev/null 2>&1
run fever-dev-plain-sample1000 --claims $S/claims/fever-dev.jsonl --corpus fever-dev-plain --sample 1000 --seed 1
run fm2-fused --claims $S/claims/fm2-dev.jsonl --corpus fm2
# The learned verdict without the joint verifier (the regression over one-sentence stances alone).
FEVER_JOINT_VERIFIER_MODEL= run fever-dev-fused-no-joint --claims $S/claims/fever-dev.jsonl --corpus fever-dev
FEVER_JOINT_VERIFIER_MODEL= run fm2-fused-no-joint --claims $S/claims/fm2-dev.jsonl --corpus fm2
# The same with the best-sentence rule instead of the learned verdict.
run fever-dev-fused-rule --claims $S/claims/fever-dev.jsonl --corpus fever-dev --verdict rule
run fm2-fused-rule --claims $S/claims/fm2-dev.jsonl --corpus fm2 --verdict rule

$PY benchmarks/summarise.py $OUT > $OUT/SUMMARY.md
cat $OUT/SUMMARY.md
