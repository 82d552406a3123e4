#!/usr/bin/env bash
# The MPNet verifier's learned verdict, refit on FEVER's claims and on claims written like a person's, then
# calibrated (since issue 42, item 5; run 3c's verdict and, issue 52, run 4's):
#   - FEVER paper_test claims (S/R with all their evidence in the fever-dev corpus, and NEI claims; none in run 4's
#     data), checked end to end on fever-dev, less those on reserved pages (fever_core/training/reserved.py). Run 3c's
#     fit could not leave out run 1's training claims: that run's pair cache was not kept;
#   - on the embedded corpus: the 800 claims written by hand, blind to the system, about pages no yardstick uses
#     (benchmarks/recipes/verdict-claims/), and the SUPPORTS / REFUTES claims generated from the held-out pages
#     (train generate-claims, plain and --contrast), leaving out every page a yardstick, the calibration, the reader
#     probe set or the held-out plain pairs name (the last two were added for run 4), and the reserved pages;
#   - the joint verifier's share and the regularisation chosen on a held-out fifth of all those claims;
#   - then benchmarks/recipes/mpnet_calibrate.py: the sure-sentence threshold (0.9) and the calibration on the
#     calibration claims off reserved pages.
# FEVER=N (default 1500) and PLAIN=N (default 0: all) say how many claims of each are checked. About 15 minutes on 2
# cores with AMX (40 on the machine of run 3c); the runs, resumable, are kept in the data folder's training/. From the
# project root:
#   ./benchmarks/recipes/mpnet_verdict_plain.sh [VERIFIER [RUN_DIR]]   # default assets/models/verifier-mpnet, /work/runs
# Logs: logs/mpnet_verdict_plain.log (run 3c, before the reserved pages and the run-4 exclusions), logs/mpnet_verdict_4.log
# (run 4, RUN_DIR /work/runs/r4, its generated claims then in generated-v/ and contrast-v/). Tables they shipped on: benchmarks/yardsticks/verdict-plain-mix/, mpnet-run4/.
set -euo pipefail
S=../shared/data
V=${1:-assets/models/verifier-mpnet}
R=${2:-/work/runs}
export HF_HUB_OFFLINE=1
PY=${PY:-.venv/bin/python}
[ -f "$R/generated/heldout.jsonl" ] || $PY -m fever_core train generate-claims --out "$R/generated"
[ -f "$R/contrast/heldout.jsonl" ] || $PY -m fever_core train generate-claims --contrast --out "$R/contrast"
YARDSTICKS=(benchmarks/embedded/plain-claims.jsonl benchmarks/embedded/hand-claims-3.jsonl
            benchmarks/embedded/hand-claims-2.jsonl assets/claims/hand-claims.jsonl
            benchmarks/calibration/calibration-claims.jsonl benchmarks/reader_probe/probe-pairs.jsonl
            benchmarks/recipes/plain-pairs/plain-pairs-heldout.jsonl)
$PY -m fever_core train verdict --pairs $S/nli/fever-paper-test.jsonl \
  --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl --pages $S/corpus/fever-pages.jsonl --corpus fever-dev \
  --model "$V" --joint-model assets/models/joint-verifier --subject-stance-min 0.9 --limit "${FEVER:-1500}" --seed 0 \
  --plain-claims benchmarks/recipes/verdict-claims/verdict-claims.jsonl benchmarks/recipes/verdict-claims/verdict-claims-2.jsonl \
                 "$R/generated/heldout.jsonl" "$R/contrast/heldout.jsonl" \
  --plain-limit "${PLAIN:-0}" --exclude-pages-of "${YARDSTICKS[@]}"
$PY -m benchmarks.recipes.mpnet_calibrate --verifier "$V"
