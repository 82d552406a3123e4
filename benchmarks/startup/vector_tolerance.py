"""How far the encoder's vectors move with the arithmetic, against how far apart two sentences' vectors are: the
measurement behind :data:`fever_core.retrieval.dense_build.SAME_VECTORS_COSINE`, the cosine a spot-checked vector must
reach for stored vectors to be reused (issue 49: the element-wise check within 2e-3 refused the shipped vectors on a CPU
without AVX-512, whose int8 kernels round otherwise).

    PYTHONPATH=. .venv/bin/python -m benchmarks.startup.vector_tolerance --sample 2000 \
        --report benchmarks/startup/vector-tolerance.json

Over a seeded sample of the embedded corpus's sentences, the cosine of each sentence's vector:
- int8 (this CPU's kernels) against the shipped vectors (int8 codes of the same encoder's vectors);
- int8 against int8 quantised with 7-bit weights (``reduce_range``, what ONNX Runtime advises for CPUs without VNNI):
  another int8 arithmetic, standing in for another CPU's kernels, which we could not run here;
- int8 against fp32: the whole of the quantisation, the largest change of arithmetic the encoder knows;
- and, for scale, each sentence against its nearest other sentence in the sample (another text's vector).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from fever_core.common.settings import Settings
from fever_core.corpus.build import STORE_FILE
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.encoder import ONNX_FILE, OnnxEncoder, encode, encoder_cache_dir, int8_export, load_encoder
from fever_core.retrieval.shipped_vectors import ShippedVectors, store_texts

MANIFEST = Path("assets/models/embedded-vectors/embedded.json")


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return (a * b).sum(axis=1)


def _summary(cosines: np.ndarray) -> dict[str, float]:
    return {
        "min": round(float(cosines.min()), 5),
        "p001": round(float(np.quantile(cosines, 0.001)), 5),
        "p01": round(float(np.quantile(cosines, 0.01)), 5),
        "median": round(float(np.median(cosines)), 5),
    }


def _reduce_range_encoder(name: str, cache_dir: Path, scratch: Path) -> OnnxEncoder:
    """The encoder quantised as :func:`int8_export` does, but with 7-bit weights."""
    import shutil

    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    source = int8_export(name, cache_dir)
    fp32 = source.with_name(source.name.removesuffix("-int8"))
    folder = scratch / "reduce-range"
    shutil.copytree(source, folder)
    quantize_dynamic(
        onnx.load(fp32 / ONNX_FILE),
        folder / ONNX_FILE,
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
    )
    return OnnxEncoder(name, folder, threads=2)  # its encoder.json, copied, says int8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=2000, help="sentences (default 2000)")
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    settings = Settings.from_env()
    store = CorpusStore(settings.data_dir / "corpora" / "embedded" / STORE_FILE)
    _, texts = store_texts(store, 4096)
    shipped = ShippedVectors.read(MANIFEST).load(MANIFEST.parent)
    rows = np.sort(np.random.default_rng(args.seed).choice(len(texts), args.sample, replace=False))
    sample = [texts[i] for i in rows]
    cache = encoder_cache_dir(settings.data_dir)
    int8 = encode(load_encoder(settings.encoder_model, cache_dir=cache, precision="int8"), sample)
    fp32 = encode(load_encoder(settings.encoder_model, cache_dir=cache, precision="fp32"), sample)
    with tempfile.TemporaryDirectory() as scratch:
        reduced = encode(_reduce_range_encoder(settings.encoder_model, cache, Path(scratch)), sample)
    similarity = int8 @ int8.T
    np.fill_diagonal(similarity, -1.0)
    for i, text in enumerate(sample):  # the same text twice in the corpus is no other sentence
        similarity[i, [j for j, other in enumerate(sample) if other == text and j != i]] = -1.0
    report = {
        "sentences": args.sample,
        "int8_vs_shipped": _summary(_cosines(int8, shipped[rows])),
        "int8_vs_int8_reduce_range": _summary(_cosines(int8, reduced)),
        "int8_vs_fp32": _summary(_cosines(int8, fp32)),
        "nearest_other_sentence": {
            **_summary(similarity.max(axis=1)),
            "p99": round(float(np.quantile(similarity.max(axis=1), 0.99)), 5),
            "max": round(float(similarity.max()), 5),
        },
    }
    print(json.dumps(report, indent=2))
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
