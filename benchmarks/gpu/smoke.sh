#!/usr/bin/env bash
# The CUDA path end to end, timed (issue 35, item 7): install, build the embedded corpus if need be, then
# benchmarks/gpu/smoke.py. Meant for the lent GPU machine (the device tool's `run`), from the project root:
#   bash benchmarks/gpu/smoke.sh [CLAIMS]        # writes $OUT/gpu-smoke.json when $OUT is set
set -euo pipefail
make install > /dev/null
HF_HUB_OFFLINE=1 .venv/bin/python -m fever_core corpus build embedded > /dev/null
HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.gpu.smoke --claims "${1:-64}" ${OUT:+--report "$OUT/gpu-smoke.json"}
