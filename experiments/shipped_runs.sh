#!/usr/bin/env bash
# The shipped verifier's end-to-end runs of the verdict's 8,981 paper_test claims on the fever-dev corpus, in
# data/training/aggregator-runs-fever-dev-<fingerprint of assets/models/verifier>.jsonl: the file that
# verdict_features/, mil_verifier/, verdict_variants/ and selector/ read. `train aggregator` writes
# aggregator.json beside the verifier it checks with, so it checks with a copy and assets/models/ stays as
# shipped; the runs go to the shipped verifier's file (the copy's weights are the same).
# Run from the project root (about 20 minutes on 2 cores; resumable):
#   ./experiments/shipped_runs.sh
set -euo pipefail
S=../shared/data
COPY=data/models/verifier-shipped-runs-copy
export HF_HUB_OFFLINE=1
RUNS=$(.venv/bin/python -c "from pathlib import Path
from fever_core.training.aggregator import verifier_fingerprint
print(f'data/training/aggregator-runs-fever-dev-{verifier_fingerprint(Path(\"assets/models/verifier\"))}.jsonl')")
rm -rf $COPY && cp -r assets/models/verifier $COPY
.venv/bin/python -m fever_core train aggregator \
  --pairs $S/nli/fever-paper-test.jsonl --nei-claims $S/nli/fever-paper-test-nei-claims.jsonl \
  --pages $S/corpus/fever-pages.jsonl --corpus fever-dev --model $COPY --runs "$RUNS" --seed 0 > /dev/null
echo "$RUNS"
