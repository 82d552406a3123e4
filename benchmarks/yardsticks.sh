#!/usr/bin/env bash
# The balanced table a verifier ships on (issue 17): every yardstick, one command, from the project root.
#   ./benchmarks/yardsticks.sh [VERIFIER [JOINT [OUT]]]
# Defaults: the shipped verifier and joint verifier, reports into benchmarks/yardsticks/shipped/; the predictions
# go to $FEVER_DATA_DIR/benchmarks/yardsticks/<OUT's name>/ (data/ by default) and are not committed.
# An empty JOINT ("") runs without a joint verifier. About 45 minutes on 2 cores with the MiniLM verifier
# (fever-dev and FM2 end to end are most of it; the corpora are built first if needed). SAMPLE=N checks a seeded
# sample of N claims of fever-dev and fm2-dev instead of all (compare candidates on the same N). PAIRS=0 skips the
# gold-evidence and pair rows (when the verifier's training already evaluated them on the same files).
# CHECK_OPTIONS="--no-number-check" passes per-check options to every end-to-end run. Then
#   .venv/bin/python benchmarks/yardsticks.py OUT [BASELINE_OUT]     prints the table (and the change)
set -euo pipefail
S=../shared/data
V=${1:-assets/models/verifier}
J=${2-assets/models/joint-verifier}
OUT=${3:-benchmarks/yardsticks/shipped}
D=${FEVER_DATA_DIR:-data}
PREDICTIONS=$D/benchmarks/yardsticks/$(basename "$OUT")
SAMPLED=(${SAMPLE:+--sample "$SAMPLE" --seed 1})
PY=${PY:-.venv/bin/python}
export HF_HUB_OFFLINE=1 FEVER_VERIFIER_MODEL="$V" FEVER_JOINT_VERIFIER_MODEL="$J"
mkdir -p "$OUT"
claims() {  # NAME CLAIMS CORPUS [evaluate options]
  name=$1 file=$2 corpus=$3; shift 3
  $PY -m fever_core evaluate --claims "$file" --corpus "$corpus" "$@" ${CHECK_OPTIONS:-} --report "$OUT/$name.json" \
    --predictions "$PREDICTIONS/$name.predictions.jsonl" > /dev/null
}
pairs() {  # NAME PAIRS
  $PY -m fever_core evaluate-pairs --pairs "$2" --report "$OUT/$1.json" > /dev/null
}
# the plain-language yardstick (issue 37): the verifier alone on the settling sentences, then end to end
$PY -m benchmarks.plain_claims pairs --verifier "$V" --report "$OUT/plain-claims-pairs.json" > /dev/null
claims plain-claims benchmarks/embedded/plain-claims.jsonl embedded
$PY -m benchmarks.plain_claims end-to-end "$PREDICTIONS/plain-claims.predictions.jsonl" \
  --report "$OUT/plain-claims-e2e.json" > /dev/null
claims hand-claims assets/claims/hand-claims.jsonl embedded
if [ -f benchmarks/embedded/hand-claims-2.jsonl ]; then
  claims hand-claims-2 benchmarks/embedded/hand-claims-2.jsonl embedded
  $PY benchmarks/yardsticks.py by-label "$PREDICTIONS/hand-claims-2.predictions.jsonl" "$OUT/hand-claims-2-by-label.json"
fi
claims fever-dev $S/claims/fever-dev.jsonl fever-dev "${SAMPLED[@]}"
claims fm2-dev $S/claims/fm2-dev.jsonl fm2 "${SAMPLED[@]}"
if [ "${PAIRS:-1}" != 0 ]; then
  # data the pair yardsticks read that is derived from ../shared (held-out pages only, never trained on)
  [ -f "$D/training/prepared/vitaminc-real-heldout.jsonl" ] || $PY -m fever_core train prepare-data --nli $S/nli > /dev/null
  [ -f "$D/training/embedded-generated/heldout.jsonl" ] || $PY -m fever_core train generate-claims > /dev/null
  claims fever-dev-oracle $S/claims/fever-dev.jsonl fever-dev --oracle-evidence
  pairs fever-symmetric $S/nli/fever-symmetric-dev.jsonl
  pairs vitaminc-heldout "$D/training/prepared/vitaminc-real-heldout.jsonl"
  pairs generated-heldout "$D/training/embedded-generated/heldout.jsonl"
fi
$PY benchmarks/yardsticks.py "$OUT"
