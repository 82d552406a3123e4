#!/usr/bin/env bash
# The MPNet verifier, run 4 (issue 52): run 3c's adapter trained one pass on ~36k pairs, more of the data we hold
# and the plain-language pairs written by hand, blind (benchmarks/recipes/plain-pairs/, 2,640 claims on training
# pages, their SUPPORTS / REFUTES pairs twice): FEVER's training split (a new draw), VitaminC real and synthetic,
# SNLI, the NLI phenomena sets, FEVER NOT ENOUGH INFO claims with retrieved sentences, and claims generated from
# the embedded corpus with FEVER's labels (a subject swap on a relation with one value is REFUTES: "Bergen is the
# capital of Norway." against Oslo's sentence; generated_claims.one_valued).
# No reserved page (../shared/data/reserved-pages.txt) reaches any pair (fever_core/training/reserved.py), and no
# yardstick page: the generated and contrast claims hold out 10 % of pages by a hash of the title, the plain pairs'
# pages exclude every yardstick's. Evaluated at the end on the reader probe set and the plain pairs held out.
# Resumable (checkpoints every 50 steps, outside the work tree); from the project root:
#   ./benchmarks/recipes/mpnet_verifier_4.sh [RUN_DIR]   # default /work/runs/r4; model RUN_DIR/verifier-mpnet-4
set -euo pipefail
S=../shared/data
P=$S/nli/phenomena
R=${1:-/work/runs/r4}
export HF_HUB_OFFLINE=1 FEVER_DATA_DIR="$R/data"
PY=${PY:-.venv/bin/python}
PLAIN=benchmarks/recipes/plain-pairs

[ -f "$R/prepared/vitaminc-real-heldout.jsonl" ] || $PY -m fever_core train prepare-data --nli $S/nli --out "$R/prepared"
[ -f "$R/cache/embedded-generated-4/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --out "$R/cache/embedded-generated-4"
[ -f "$R/cache/embedded-contrast-4/train.jsonl" ] || \
  $PY -m fever_core train generate-claims --contrast --out "$R/cache/embedded-contrast-4"
$PY -m fever_core train verifier --init assets/models/verifier-mpnet --lora-rank 16 \
  --data $PLAIN/plain-pairs-train.jsonl $PLAIN/plain-pairs-train-sr.jsonl \
         "$R/prepared/fever-train-titled.jsonl:7000" $S/nli/fever-train-nei-claims.jsonl:2000 \
         "$R/prepared/vitaminc-real-train.jsonl:4000" $S/nli/vitaminc-synthetic.jsonl:1500 $S/nli/snli.jsonl:2000 \
         $P/conjnli.jsonl:800 $P/cad-nli.jsonl:800 $P/breaking-nli.jsonl:600 $P/taxinli.jsonl:700 \
         $P/med.jsonl:200 $P/help.jsonl:200 $P/scone.jsonl:200 $S/nli/mnli-stress.jsonl:500 \
         "$R/cache/embedded-generated-4/train.jsonl:3000" "$R/cache/embedded-contrast-4/train.jsonl:2000" \
  --eval benchmarks/reader_probe/probe-pairs.jsonl $PLAIN/plain-pairs-heldout.jsonl \
         $S/nli/fever-symmetric-dev.jsonl "$R/prepared/vitaminc-real-heldout.jsonl" \
         "$R/cache/embedded-generated-4/heldout.jsonl" \
  --out "$R/verifier-mpnet-4" --cache-dir "$R/cache" --nei-from-evidence-fraction 0.01 \
  --epochs 1 --batch-size 32 --lr 1e-4 --max-length 160 --seed 52 --threads 2 --fixed-threads \
  --dev-fraction 0.03 --checkpoint-every 50 --time-budget-min 80 \
  >> "$R/verifier-mpnet-4.log" 2>&1
