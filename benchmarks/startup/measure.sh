#!/usr/bin/env bash
# Seconds from `make run` to a healthy app (/_stcore/health answers ok) on a fresh data folder, and when each stage's
# file first appears on disk; the venv is installed already (it is not timed). From the project root:
#   benchmarks/startup/measure.sh [DATA_DIR [PORT]]      # default /tmp/fever-startup-data, port 8611
# The app is stopped once healthy; make's output is in DATA_DIR/make-run.log. Prints one JSON line.
set -euo pipefail
DATA=${1:-/tmp/fever-startup-data}
PORT=${2:-8611}
rm -rf "$DATA"
mkdir -p "$DATA"
export FEVER_DATA_DIR=$DATA HF_HUB_OFFLINE=1 STREAMLIT_SERVER_HEADLESS=true
CORPUS=$DATA/corpora/embedded
start=$(date +%s.%N)
setsid make run PORT="$PORT" > "$DATA/make-run.log" 2>&1 &
pid=$!
declare -A seen
since() { python3 -c "print(round($(date +%s.%N) - $start, 1))"; }
mark() { [ -n "${seen[$1]:-}" ] || { ! compgen -G "$2" > /dev/null; } || seen[$1]=$(since); }
while :; do
  mark store "$CORPUS/store.sqlite"
  mark encoder_int8 "$DATA/encoders/*-int8/encoder.json"
  mark dense_index "$CORPUS/dense.json"
  if curl -fs "localhost:$PORT/_stcore/health" 2> /dev/null | grep -q ok; then seen[healthy]=$(since); break; fi
  kill -0 "$pid" 2> /dev/null || { echo "make run stopped: see $DATA/make-run.log" >&2; exit 1; }
  sleep 0.5
done
kill -- "-$pid"
wait "$pid" 2> /dev/null || true
printf '{"data_dir": "%s", "cores": %s, "load_average_1min": %s' "$DATA" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)"
for stage in store encoder_int8 dense_index healthy; do printf ', "%s_s": %s' "$stage" "${seen[$stage]:-null}"; done
if grep -q '"shipped_vectors"' "$CORPUS/dense.json"; then shipped=true; else shipped=false; fi
echo ", \"index_from_shipped_vectors\": $shipped}"
