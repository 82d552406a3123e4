#!/usr/bin/env bash
# schemathesis against a running service's OpenAPI document: every operation, valid and invalid inputs (examples,
# coverage and fuzzing phases), up to N cases each; a 5xx, an undocumented status or a body off its schema fails.
#   ./benchmarks/service/schemathesis.sh [CORPUS] [MAX_EXAMPLES]     (default: embedded 100)
# Starts the service on a free port, runs schemathesis, stops the service; the output goes to
# benchmarks/service/schemathesis-CORPUS.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus="${1:-embedded}"
examples="${2:-100}"
port="$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
out="$PWD/benchmarks/service/schemathesis-${corpus}.txt"
st="$PWD/.venv/bin/schemathesis"
work="$(mktemp -d)"  # schemathesis keeps a cache where it runs: not in the project

HF_HUB_OFFLINE=1 .venv/bin/python -m fever_core serve --corpus "$corpus" --port "$port" 2>"/tmp/fever-serve-$port.log" &
server=$!
trap 'kill -INT "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "/tmp/fever-serve-$port.log"; exit 1; }
    sleep 1
done

cd "$work"
"$st" run "http://127.0.0.1:$port/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
    --max-examples "$examples" --mode all --phases examples,coverage,fuzzing --seed 0 --workers 1 \
    --no-color 2>&1 | tee "$out"
