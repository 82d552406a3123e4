#!/usr/bin/env bash
# The verifier trained on FEVER's full training split and VitaminC (issue 17), one epoch from the packaged
# all-MiniLM-L6-v2. Run from the project root; re-run the same command to resume an interrupted run.
#   ./experiments/full_data_verifier/verifier_full_data.sh [RUN_DIR]     # default /work/runs (outside the work tree)
# RUN_DIR keeps the prepared data, the pair cache, the checkpoints and the model, so a later session resumes
# where this one stopped. The log goes to RUN_DIR/verifier-full-data.log.
set -euo pipefail
S=../shared/data
R=${1:-/work/runs}
export HF_HUB_OFFLINE=1
PY=${PY:-.venv/bin/python}

# 1. FEVER's training split with guessed page titles; VitaminC-real split by page (12 % of pages held out)
$PY -m fever_core train prepare-data --nli $S/nli --out "$R/prepared"
# 2. claims generated from the embedded corpus (10 % of pages held out)
[ -f "$R/cache/embedded-generated/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --out "$R/cache/embedded-generated"
# 3. one epoch over ~150k pairs; NOT ENOUGH INFO premises retrieved from the same kinds of text as the
#    SUPPORTS / REFUTES ones (FEVER evidence, VitaminC, embedded summaries)
$PY -m fever_core train verifier \
  --data "$R/prepared/fever-train-titled.jsonl:60000" $S/nli/fever-train-nei-claims.jsonl:20000 \
         "$R/prepared/vitaminc-real-train.jsonl" $S/nli/vitaminc-synthetic.jsonl:8000 \
         $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         "$R/cache/embedded-generated/train.jsonl:10000" $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.1 --nei-claims-pool-evidence \
  --eval $S/nli/fever-symmetric-dev.jsonl "$R/prepared/vitaminc-real-heldout.jsonl" \
         "$R/cache/embedded-generated/heldout.jsonl" $S/claims/fever-dev.jsonl $S/nli/fm2-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$R/verifier-full-data" --cache-dir "$R/cache" \
  --epochs 1 --batch-size 32 --lr 5e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.03 --checkpoint-every 200 \
  >> "$R/verifier-full-data.log" 2>&1
