#!/usr/bin/env bash
# The vectors shipped in assets/models/embedded-vectors/: every sentence of the embedded corpus (36,233) embedded by the packaged
# encoder (all-MiniLM-L6-v2), so that `make run` on a fresh machine embeds none of them.
# Re-run when the encoder's weights, the sentence splitting or the embedded text format change
# (tests/retrieval/test_dense.py::test_the_shipped_vectors_are_the_packaged_encoder_s_for_the_embedded_pages fails
# then; a build meanwhile embeds what the shipped set lacks, so nothing is wrong, only slower).
#   ./experiments/shipped_vectors/embedded_vectors.sh   # needs the code of commit 5f9d414; about 5 min on 2 cores
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
DATA=$(mktemp -d /tmp/fever-vectors-XXXX)
$PY -m fever_core --data-dir "$DATA" corpus build embedded
$PY -c "import sys; from pathlib import Path; from fever_core.retrieval.dense import write_bundled_vectors; \
print(write_bundled_vectors(Path(sys.argv[1]), Path(sys.argv[2])), 'vectors written to', sys.argv[2])" \
    "$DATA/corpora/embedded" assets/models/embedded-vectors/embedded-all-MiniLM-L6-v2.npz
rm -rf "$DATA"
