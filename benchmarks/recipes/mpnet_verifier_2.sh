#!/usr/bin/env bash
# The MPNet verifier, run 2 (issue 25): the run-1 adapter (mpnet_verifier.sh) trained one more epoch, at half its
# learning rate, on ~38k pairs: claims generated from the embedded corpus again, 30 % of them also read as two-hop
# chains after a sentence of another page that names theirs (the form of second-hop evidence), with fresh samples
# of FEVER training, FEVER NEI, VitaminC and MNLI stress pairs so it does not forget them. FEVER paper_test is left
# out, so its never-trained claims stay free for the verdict's fit (mpnet_verdict.sh).
# Resumable like run 1; from the project root:
#   ./benchmarks/recipes/mpnet_verifier_2.sh [RUN_DIR]    # default /work/runs; model in RUN_DIR/verifier-mpnet-2
set -euo pipefail
S=../shared/data
R=${1:-/work/runs}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}

[ -f "$R/verifier-mpnet/verifier.json" ] || { echo "run 1 first: benchmarks/recipes/mpnet_verifier.sh $R" >&2; exit 2; }
# claims generated with two-hop chains (generate-claims writes them since run 2)
[ -f "$R/cache/embedded-generated-2/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --out "$R/cache/embedded-generated-2"
$PY -m fever_core train verifier --init "$R/verifier-mpnet" --lora-rank 16 \
  --data "$R/cache/embedded-generated-2/train.jsonl:20000" \
         "$R/prepared/fever-train-titled.jsonl:7000" $S/nli/fever-train-nei-claims.jsonl:3000 \
         "$R/prepared/vitaminc-real-train.jsonl:6000" $S/nli/vitaminc-synthetic.jsonl:1500 \
         $S/nli/mnli-stress.jsonl:800 \
  --nei-from-evidence-fraction 0.01 \
  --eval $S/nli/fever-symmetric-dev.jsonl "$R/prepared/vitaminc-real-heldout.jsonl" \
         "$R/cache/embedded-generated-2/heldout.jsonl" $S/claims/fever-dev.jsonl $S/nli/fm2-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$R/verifier-mpnet-2" --cache-dir "$R/cache" \
  --epochs 1 --batch-size 32 --lr 1e-4 --max-length 160 --seed 26 --threads 2 --fixed-threads \
  --dev-fraction 0.03 --checkpoint-every 100 --time-budget-min 80 \
  >> "$R/verifier-mpnet-2.log" 2>&1
