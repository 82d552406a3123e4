#!/usr/bin/env bash
# The MPNet verifier, run 5 (issue 52, the capacity and new-data arm): run 4's rank-16 adapter widened to rank 64
# (its trained ranks kept, 48 new ones starting at zero: `train verifier --lora-rank 64` on an adapter of lower rank),
# trained one pass on a new draw (--seed 53) of the data we hold, more of VitaminC (for NOT ENOUGH INFO), and claims
# generated again by the audited generators (no head-noun swap; a subject swap on a one-valued relation is REFUTES).
# The plain-language pairs written by hand (benchmarks/recipes/plain-pairs/) are read again.
# No reserved page and no yardstick page reaches a pair (see mpnet_verifier_4.sh); evaluated at the end on the reader
# probe set and the plain pairs held out. Resumable (checkpoints every 50 steps, outside the work tree); from the
# project root, after run 4 is in assets/models/verifier-mpnet:
#   ./benchmarks/recipes/mpnet_verifier_5.sh [RUN_DIR]   # default /work/runs/r5; model RUN_DIR/verifier-mpnet-5
set -euo pipefail
S=../shared/data
P=$S/nli/phenomena
R=${1:-/work/runs/r5}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}
PLAIN=benchmarks/recipes/plain-pairs

[ -f "$R/prepared/vitaminc-real-heldout.jsonl" ] || $PY -m fever_core train prepare-data --nli $S/nli --out "$R/prepared"
[ -f "$R/cache/embedded-generated-5/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --out "$R/cache/embedded-generated-5"
[ -f "$R/cache/embedded-contrast-5/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --contrast --out "$R/cache/embedded-contrast-5"
$PY -m fever_core train verifier --init assets/models/verifier-mpnet --lora-rank 64 \
  --data $PLAIN/plain-pairs-train.jsonl $PLAIN/plain-pairs-train-sr.jsonl \
         "$R/prepared/fever-train-titled.jsonl:7000" $S/nli/fever-train-nei-claims.jsonl:2000 \
         "$R/prepared/vitaminc-real-train.jsonl:5500" $S/nli/vitaminc-synthetic.jsonl:1500 $S/nli/snli.jsonl:1500 \
         $P/conjnli.jsonl:800 $P/cad-nli.jsonl:1000 $P/breaking-nli.jsonl:600 $P/taxinli.jsonl:700 \
         $P/med.jsonl:200 $P/help.jsonl:200 $P/scone.jsonl:200 $S/nli/mnli-stress.jsonl:500 \
         "$R/cache/embedded-generated-5/train.jsonl:3000" "$R/cache/embedded-contrast-5/train.jsonl:2000" \
  --eval benchmarks/reader_probe/probe-pairs.jsonl $PLAIN/plain-pairs-heldout.jsonl \
         $S/nli/fever-symmetric-dev.jsonl "$R/prepared/vitaminc-real-heldout.jsonl" \
         "$R/cache/embedded-generated-5/heldout.jsonl" \
  --out "$R/verifier-mpnet-5" --cache-dir "$R/cache" --nei-from-evidence-fraction 0.01 \
  --epochs 1 --batch-size 32 --lr 1e-4 --max-length 160 --seed 53 --threads 2 --fixed-threads \
  --dev-fraction 0.03 --checkpoint-every 50 --time-budget-min 85 \
  >> "$R/verifier-mpnet-5.log" 2>&1
