"""The encoder's cost in CPU seconds on one thread, PyTorch against ONNX Runtime in fp32 and int8: a rate that other work on the
machine does not change (wall time does), from which the build times of benchmarks/scale/README.md are projected.

Embeds the first N sentences of the embedded corpus as an index build does (``title: sentence``, chunks of 4,096)
and 100 fever-dev claims one at a time, as a check does.

    python -m benchmarks.scale.encoder_cpu 4096 [--claims-file ../shared/data/claims/fever-dev.jsonl]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from fever_core.common.device import limit_cpu_threads
from fever_core.common.jsonl import read_jsonl
from fever_core.common.settings import SHARED_DATA_DIR, Settings
from fever_core.common.text import premise_text
from fever_core.corpus.sources.embedded import EmbeddedSummariesSource
from fever_core.retrieval.encoder import encode, load_encoder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sentences", type=int)
    parser.add_argument("--claims-file", type=Path, default=SHARED_DATA_DIR / "claims" / "fever-dev.jsonl")
    args = parser.parse_args()
    limit_cpu_threads(1)
    texts: list[str] = []
    for page in EmbeddedSummariesSource().iter_pages():
        texts += [premise_text(page.title, s.text) for s in page.sentences]
        if len(texts) >= args.sentences:
            break
    texts = texts[: args.sentences]
    claims = [r["claim"] for _, r in read_jsonl(args.claims_file)][:100]
    settings = Settings.from_env()
    out: dict = {"sentences": len(texts), "threads": 1}
    reference = None
    with tempfile.TemporaryDirectory() as cache:
        for name, backend, precision in (
            ("torch", "torch", "fp32"),
            ("onnx", "onnx", "fp32"),
            ("onnx-int8", "onnx", "int8"),
        ):
            encoder = load_encoder(
                settings.encoder_model, "cpu", backend=backend, cache_dir=Path(cache), precision=precision
            )
            encode(encoder, texts[:64])
            cpu, wall = time.process_time(), time.perf_counter()
            vectors = np.concatenate([encode(encoder, texts[i : i + 4096]) for i in range(0, len(texts), 4096)])
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            claim_cpu = time.process_time()
            for claim in claims:
                encode(encoder, [claim])
            claim_cpu_ms = (time.process_time() - claim_cpu) / len(claims) * 1000
            reference = vectors if reference is None else reference
            out[name] = {
                "cpu_s": round(cpu, 1),
                "wall_s": round(wall, 1),
                "sentences_per_cpu_s": round(len(texts) / cpu, 1),
                "claim_cpu_ms": round(claim_cpu_ms, 2),
                "max_abs_diff_to_torch": float(np.abs(vectors - reference).max()),
                "min_cosine_to_torch": round(float((vectors * reference).sum(axis=1).min()), 4),
            }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
