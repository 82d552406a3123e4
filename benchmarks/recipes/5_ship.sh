#!/usr/bin/env bash
# Step 5 of the shipped models' recipe (README.md): copy step 3's verifier with step 4's verdict.json, and
# step 4's joint verifier, into assets/models/ (the model cards stay; training checkpoints are not copied), then
# store both models' weights as int8 (`models pack`, which writes each folder's checksums.json for the files it now
# holds: a shipped model is refused without them).
# Run from the project root:
#   ./benchmarks/recipes/5_ship.sh [VERIFIER [JOINT]]
#       # defaults data/models/verifier-plain, data/models/joint-verifier-plain
set -euo pipefail
V=${1:-data/models/verifier-plain}
J=${2:-data/models/joint-verifier-plain}
.venv/bin/python -c "from fever_core.verification.model_integrity import check_model_folder as check
check('$V'); check('$J')"  # what is shipped is as training wrote it
MODEL_FILES=(config.json model.safetensors tokenizer.json tokenizer_config.json verifier.json)
for f in "${MODEL_FILES[@]}" verdict.json; do cp "$V/$f" assets/models/verifier/; done
for f in "${MODEL_FILES[@]}"; do cp "$J/$f" assets/models/joint-verifier/; done
rm -f assets/models/verifier/model.int8.safetensors assets/models/joint-verifier/model.int8.safetensors
.venv/bin/python -m fever_core models pack assets/models/verifier assets/models/joint-verifier
echo "assets/models/verifier <- $V, assets/models/joint-verifier <- $J; re-measure: ./benchmarks/run_pipeline.sh"
