#!/usr/bin/env bash
# The hand claims end to end on the embedded corpus, its index built fp32 and built int8, the same code and models.
#   FP32_DATA=DIR INT8_DATA=DIR ./benchmarks/scale/hand_claims_int8.sh
# FP32_DATA: a data folder whose embedded corpus was built with FEVER_ENCODER_PRECISION=fp32 (or before int8 existed);
# INT8_DATA: one built with the default on a CPU (int8). Reports in benchmarks/scale/results/hand-claims-int8/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 FEVER_VERIFIER_MODEL=assets/models/verifier-mpnet FEVER_JOINT_VERIFIER_MODEL=assets/models/joint-verifier
OUT=benchmarks/scale/results/hand-claims-int8
for run in "int8:${INT8_DATA:?}" "fp32:${FP32_DATA:?}"; do
  name=${run%%:*} dir=${run#*:}
  for claims in assets/claims/hand-claims benchmarks/embedded/hand-claims-2; do
    name_of=${claims##*/}
    .venv/bin/python -m fever_core --data-dir "$dir" evaluate --claims "$claims.jsonl" \
      --corpus embedded --report "$OUT/$name_of-$name.json" --predictions "$dir/$name_of-$name.predictions.jsonl" > /dev/null
  done
done
