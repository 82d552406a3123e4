#!/usr/bin/env bash
# The MPNet verifier (issue 25): a rank-16 LoRA adapter and a new 3-way head on all-mpnet-base-v2 (109M
# parameters, assembled from its five packages), one epoch over ~57k pairs from FEVER's training split, VitaminC,
# FEVER paper_test and claims generated from the embedded corpus (subject swaps included), bf16 autocast on CPU.
# Run from the project root; re-run the same command to resume an interrupted run (checkpoints every 100 steps):
#   ./benchmarks/recipes/mpnet_verifier.sh [RUN_DIR]     # default /work/runs, outside the work tree
# RUN_DIR keeps the prepared data, the pair cache, the assembled base, the checkpoints and the model
# (RUN_DIR/verifier-mpnet); the log goes to RUN_DIR/verifier-mpnet.log.
set -euo pipefail
S=../shared/data
R=${1:-/work/runs}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}

# 1. FEVER's training split with guessed page titles; VitaminC-real split by page (12 % of pages held out)
[ -f "$R/prepared/vitaminc-real-heldout.jsonl" ] || $PY -m fever_core train prepare-data --nli $S/nli --out "$R/prepared"
# 2. claims generated from the embedded corpus (10 % of pages held out): core claims, one-fact swaps (REFUTES),
#    same-page sentences without the fact and subject swaps (NOT ENOUGH INFO)
[ -f "$R/cache/embedded-generated/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --out "$R/cache/embedded-generated"
# 3. one epoch; NOT ENOUGH INFO premises are FEVER NEI claims with retrieved embedded summaries, VitaminC's real
#    NEI pairs, generated same-page and subject-swap pairs, and similar embedded summaries for 1 % of the titled claims:
#    never "similar but not gold" FEVER evidence, which often settles the claim (issue 17)
$PY -m fever_core train verifier --init mpnet --lora-rank 16 \
  --data "$R/prepared/fever-train-titled.jsonl:20000" $S/nli/fever-train-nei-claims.jsonl:6000 \
         "$R/prepared/vitaminc-real-train.jsonl:10000" $S/nli/vitaminc-synthetic.jsonl:4000 \
         $S/nli/fever-paper-test.jsonl:4000 $S/nli/fever-paper-test-nei-claims.jsonl:2000 \
         "$R/cache/embedded-generated/train.jsonl:9000" $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.01 \
  --eval $S/nli/fever-symmetric-dev.jsonl "$R/prepared/vitaminc-real-heldout.jsonl" \
         "$R/cache/embedded-generated/heldout.jsonl" $S/claims/fever-dev.jsonl $S/nli/fm2-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$R/verifier-mpnet" --cache-dir "$R/cache" \
  --epochs 1 --batch-size 32 --lr 2e-4 --max-length 128 --seed 25 --threads 2 --fixed-threads \
  --dev-fraction 0.03 --checkpoint-every 100 --time-budget-min 95 \
  >> "$R/verifier-mpnet.log" 2>&1
