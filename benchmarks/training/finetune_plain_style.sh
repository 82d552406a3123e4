#!/usr/bin/env bash
# Second stage for the one-sentence verifier (issue 4): the shipped verifier's training data again, plus
# half of each pair file's pairs with the premise's parenthetical asides removed (--plain-style-fraction),
# the way the embedded corpus (Wikipedia lead summaries) writes its sentences. Without them the verifier
# had learned that a lead sentence without asides says nothing about the claim (README.md, "Asides").
# Same seed and dev split as run.sh. Run from the project root:
#   ./benchmarks/training/finetune_plain_style.sh [OUT [LOG [MORE TRAIN-VERIFIER OPTIONS...]]]
#                                                      # default log: finetune_plain_style.log
# Other stages on this recipe call it with their own OUT, LOG and options (finetune_same_page.sh).
set -euo pipefail
S=../shared/data
OUT=${1:-data/models/verifier-plain}
LOG=${2:-benchmarks/training/finetune_plain_style.log}
shift $(( $# < 2 ? $# : 2 ))
export HF_HUB_OFFLINE=1
.venv/bin/python -m fever_core train verifier \
  --init assets/models/verifier \
  --data $S/nli/fever-paper-test.jsonl $S/nli/fever-paper-test-nei-claims.jsonl \
         $S/nli/snli.jsonl:8000 $S/nli/climate-fever.jsonl:3000 $S/nli/mnli-stress.jsonl:1500 \
  --nei-from-evidence-fraction 0.35 --plain-style-fraction 0.5 \
  --eval $S/nli/fever-symmetric-dev.jsonl $S/claims/fever-dev.jsonl \
  --corpus $S/corpus/fever-pages.jsonl \
  --out "$OUT" \
  --epochs 1 --batch-size 32 --lr 2e-5 --max-length 128 --seed 13 --threads 2 \
  --dev-fraction 0.04 --checkpoint-every 100 "$@" \
  2>&1 | tee "$LOG"
