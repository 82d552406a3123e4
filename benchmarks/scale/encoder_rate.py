"""How fast the bi-encoder embeds corpus sentences and claims: PyTorch against ONNX Runtime (fp32, int8), and on Ray
workers.

Embeds the first ``--sentences`` sentences of a built corpus (as an index build does: ``title: sentence``, in
chunks of 4,096) and one claim at a time (as a check does), with each backend on this machine's CPU threads, then
on a local Ray cluster with 1 and 2 workers (one encoder a worker, one thread each) when Ray is installed.

    python -m benchmarks.scale.encoder_rate --corpus embedded --sentences 8192 --report benchmarks/scale/encoder.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from fever_core.common.jsonl import read_jsonl
from fever_core.common.settings import SHARED_DATA_DIR, Settings
from fever_core.common.text import premise_text
from fever_core.retrieval.encoder import encode, encoder_cache_dir, load_encoder
from fever_core.workspace import open_workspace


def _rate(embed, texts: list[str], chunk: int = 4096) -> tuple[float, np.ndarray]:
    started = time.perf_counter()
    vectors = np.concatenate(list(embed([texts[i : i + chunk] for i in range(0, len(texts), chunk)])))
    return len(texts) / (time.perf_counter() - started), vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--sentences", type=int, default=8192)
    parser.add_argument("--claims", type=int, default=100)
    parser.add_argument("--claims-file", type=Path, default=SHARED_DATA_DIR / "claims" / "fever-dev.jsonl")
    parser.add_argument("--ray-workers", default="1,2", help="worker counts to try on a local Ray cluster ('' none)")
    parser.add_argument("--ray-precision", default="int8", choices=("fp32", "int8"))
    parser.add_argument("--device", default="cpu", help="cuda: PyTorch on the GPU (ONNX Runtime is for CPUs)")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    settings = Settings.from_env()
    store = open_workspace(args.corpus, settings, progress=False).store
    texts = []
    for batch in store.iter_sentence_texts(batch_size=4096):
        texts += [premise_text(title, text) for _, title, text in batch]
        if len(texts) >= args.sentences:
            break
    texts = texts[: args.sentences]
    claims = [r["claim"] for _, r in read_jsonl(args.claims_file)][: args.claims]
    report: dict = {
        "device": args.device,
        "corpus": args.corpus,
        "sentences": len(texts),
        "claims": len(claims),
        "backends": {},
    }
    reference = None
    kinds = (("torch", "torch", "fp32"), ("onnx", "onnx", "fp32"), ("onnx-int8", "onnx", "int8"))
    for name, backend, precision in kinds if args.device == "cpu" else kinds[:1]:
        encoder = load_encoder(
            settings.encoder_model,
            args.device,
            backend=backend,
            cache_dir=encoder_cache_dir(settings.data_dir),
            precision=precision,
        )
        encode(encoder, texts[:64])  # warm
        rate, vectors = _rate(lambda chunks, e=encoder: (encode(e, c) for c in chunks), texts)
        latencies = []
        for claim in claims:
            t0 = time.perf_counter()
            encode(encoder, [claim])
            latencies.append((time.perf_counter() - t0) * 1000)
        reference = vectors if reference is None else reference
        report["backends"][name] = {
            "sentences_per_s": round(rate, 1),
            "claim_p50_ms": round(float(np.median(latencies)), 2),
            "max_abs_difference_to_torch": float(np.abs(vectors - reference).max()),
        }
        print(name, report["backends"][name], flush=True)
    workers = [int(n) for n in args.ray_workers.split(",") if n]
    if workers:
        try:
            import ray
        except ImportError:
            report["ray"] = "not installed"
            workers = []
    for count in workers:
        from fever_core.distributed import RayEmbedder, connect

        connect(cpus=count)
        embedder = RayEmbedder(settings.encoder_model, "cpu", encoder_cache_dir(settings.data_dir), workers=count)
        list(embedder.map([texts[:64]] * count, args.ray_precision))  # every worker loaded and warm
        rate, vectors = _rate(lambda chunks, e=embedder: e.map(chunks, args.ray_precision), texts, chunk=1024)
        embedder.close()
        import ray

        ray.shutdown()
        report.setdefault("ray", {"precision": args.ray_precision})[f"{count}_workers"] = {
            "sentences_per_s": round(rate, 1),
            "max_abs_difference_to_torch": float(np.abs(vectors - reference).max()),
        }
        print(f"ray {count}", report["ray"][f"{count}_workers"], flush=True)
    print(json.dumps(report, indent=2))
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
