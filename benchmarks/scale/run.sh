#!/usr/bin/env bash
# The scale measurements of benchmarks/scale/README.md, in order, into benchmarks/scale/results/.
# Run from the project root on an otherwise idle machine: ./benchmarks/scale/run.sh [DATA_DIR]
# (default a fresh folder under /tmp; the embedded corpus is built there cold, and the large corpus too).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
DATA=${1:-$(mktemp -d /tmp/fever-scale-XXXX)}
OUT=benchmarks/scale/results
WIKI=$DATA/wiki-pages
SHARED=${SHARED:-../shared/data}
mkdir -p "$OUT/large-verdicts"
timed() { /usr/bin/time -f '{"wall_s": %e, "peak_rss_kb": %M}' -o "$1" "${@:2}"; }

# 1. The embedded corpus built cold (what `make run` does on a fresh machine), its ONNX export included.
timed $OUT/embedded-build-time.json $PY -m fever_core --data-dir "$DATA/cold" corpus build embedded

# 2. The encoder: PyTorch against ONNX Runtime (CPU seconds, one thread; then wall rates), then Ray with 1 and 2 workers.
$PY -m benchmarks.scale.encoder_cpu 4096 --claims-file "$SHARED/claims/fever-dev.jsonl" > $OUT/encoder-cpu.json
FEVER_DATA_DIR=$DATA/cold $PY -m benchmarks.scale.encoder_rate --corpus embedded --sentences 8192 \
    --claims-file "$SHARED/claims/fever-dev.jsonl" --report $OUT/encoder.json

# 3. The large real corpus as a FEVER wiki-pages folder; built, killed with SIGKILL, resumed; then its index kinds.
[ -d "$WIKI" ] || $PY -m benchmarks.scale.make_wiki_pages "$WIKI" --shared "$SHARED" > $OUT/large-corpus.json
$PY -m fever_core --data-dir "$DATA" corpus build large --source "fever-wiki:$WIKI" & BUILD=$!
sleep "${KILL_AFTER:-120}"; kill -9 $BUILD || true; wait $BUILD || true
timed $OUT/large-build-time.json $PY -m fever_core --data-dir "$DATA" corpus build large --source "fever-wiki:$WIKI"
timed $OUT/large-rerun-time.json $PY -m fever_core --data-dir "$DATA" corpus build large --source "fever-wiki:$WIKI"
$PY -m fever_core --data-dir "$DATA" benchmark-corpus large --claims "$SHARED/claims/fever-dev.jsonl" \
    --nprobe 8,16,32,64,128 --report $OUT/large-index-kinds.json

# 3b. Verdicts on 300 fever-dev claims with the large corpus's exact index and with its compressed one (a copy of
#     the corpus whose index is rebuilt compressed from the same vectors), then how many verdicts agree.
mkdir -p "$DATA/compressed/corpora" && cp -r "$DATA/corpora/large" "$DATA/compressed/corpora/"
for run in flat:$DATA:1000000 compressed:$DATA/compressed:100000; do
  IFS=: read -r name dir flat_max <<< "$run"
  FEVER_DENSE_FLAT_MAX_SENTENCES=$flat_max HF_HUB_OFFLINE=1 FEVER_VERIFIER_MODEL=assets/models/verifier \
    $PY -m fever_core --data-dir "$dir" evaluate --claims "$SHARED/claims/fever-dev.jsonl" --corpus large \
    --sample 300 --seed 1 --report $OUT/large-verdicts/verdicts-$name.json \
    --predictions "$DATA/verdicts-$name.predictions.jsonl" > /dev/null
done
$PY -c "import json, sys; a, b = ([json.loads(l)['predicted_label'] for l in open(f)] for f in sys.argv[1:]); \
print(sum(x == y for x, y in zip(a, b)), 'of', len(a), 'verdicts agree')" \
    "$DATA/verdicts-flat.predictions.jsonl" "$DATA/verdicts-compressed.predictions.jsonl"

# 4. A synthetic compressed index of 5M vectors: memory and latency at size.
timed $OUT/synthetic-5m-time.json $PY -m benchmarks.scale.synthetic_index --vectors 5000000 --nprobe 32,64,128,256 \
    --work "$DATA" --report $OUT/synthetic-5m.json
echo "results in $OUT; data in $DATA"
