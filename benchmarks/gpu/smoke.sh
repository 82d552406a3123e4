#!/usr/bin/env bash
# The CUDA path, timed (issue 35, item 7). Two ways, from the project root:
#
# On the lent GPU machine (the device tool's `run`: PyTorch and transformers, none of the project's other packages,
# no network, 64 MiB carried): the bundled models alone, on inputs prepared here on the CPU:
#   here:  .venv/bin/python -m benchmarks.gpu.models_only prepare PREDICTIONS   # writes .gpu-smoke/inputs.json
#   there: bash benchmarks/gpu/smoke.sh models                                  # carry .gpu-smoke; $OUT/gpu-models.json
#
# On a GPU machine where the project installs (`make install`): the whole pipeline on the embedded corpus:
#   bash benchmarks/gpu/smoke.sh [CLAIMS]                                       # $OUT/gpu-smoke.json when $OUT is set
set -euo pipefail
if [ "${1:-}" = models ]; then
  PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 python3 -m benchmarks.gpu.models_only run ${OUT:+--report "$OUT/gpu-models.json"}
  exit
fi
make install > /dev/null
HF_HUB_OFFLINE=1 .venv/bin/python -m fever_core corpus build embedded > /dev/null
HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.gpu.smoke --claims "${1:-64}" ${OUT:+--report "$OUT/gpu-smoke.json"}
