"""A compressed dense index of millions of synthetic vectors: build time, peak memory, size, and search at size.

No corpus here has millions of sentences, so the vectors are drawn like MiniLM's: unit vectors scattered around
20,000 random topic directions (a cosine of about 0.6 to their topic, as sentences of one page are). They are
made a chunk at a time from a seed, never all held, and built with the workbench's own code
(:func:`fever_core.retrieval.dense_plan.build_compressed`: trained on a sample, added in shards, merged, opened
memory-mapped). Recall@k is measured against exact search over the same vectors, computed a chunk at a time.

    python -m benchmarks.scale.synthetic_index --vectors 5000000 --report benchmarks/scale/synthetic-5m.json
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from fever_core.evaluation.corpus_benchmark import current_rss_mb
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan, build_compressed, open_index

DIM = 384
CHUNK = 100_000
TOPICS = 20_000


def _topics(seed: int) -> np.ndarray:
    topics = np.random.default_rng(seed).standard_normal((TOPICS, DIM)).astype(np.float32)
    return topics / np.linalg.norm(topics, axis=1, keepdims=True)


def _chunk(topics: np.ndarray, number: int, size: int) -> np.ndarray:
    rng = np.random.default_rng(1_000_003 + number)
    vectors = topics[rng.integers(0, TOPICS, size)] + 0.055 * rng.standard_normal((size, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vectors", type=int, default=5_000_000)
    parser.add_argument("--kind", default="ivf-sq8")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--nprobe", default="", help="comma-separated nprobe values to try (default the plan's)")
    parser.add_argument("--work", type=Path, help="where the index is built (default a temporary folder)")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()

    topics = _topics(0)
    total = args.vectors

    def chunks() -> Iterator[np.ndarray]:
        for number, start in enumerate(range(0, total, CHUNK)):
            yield _chunk(topics, number, min(CHUNK, total - start))

    plan = IndexPlan.for_size(total, flat_max=0, kind=args.kind)
    report: dict = {"vectors": total, "plan": plan.to_meta()}
    with tempfile.TemporaryDirectory(prefix="fever-synthetic-", dir=args.work) as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        index = build_compressed(plan, DIM, chunks, total, folder, folder / IVFDATA_FILE, progress=True)
        import faiss

        faiss.write_index(index, str(folder / "dense.faiss"))
        del index
        report["build_s"] = round(time.perf_counter() - started, 1)
        report["build_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        report["disk_mb"] = round(
            sum(p.stat().st_size for p in (folder / "dense.faiss", folder / IVFDATA_FILE)) / 2**20
        )
        rng = np.random.default_rng(7)
        queries = _chunk(topics, 10**6, args.queries) * 0.8 + 0.2 * rng.standard_normal((args.queries, DIM))
        queries = (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)
        scores, rows = np.full((args.queries, args.k), -2.0, np.float32), np.zeros((args.queries, args.k), np.int64)
        for number, vectors in enumerate(chunks()):  # exact top-k, a chunk at a time
            part = queries @ vectors.T
            best = np.argpartition(-part, args.k, axis=1)[:, : args.k]
            both_scores = np.concatenate([scores, np.take_along_axis(part, best, 1)], axis=1)
            both_rows = np.concatenate([rows, best + number * CHUNK], axis=1)
            keep = np.argsort(-both_scores, axis=1)[:, : args.k]
            scores, rows = np.take_along_axis(both_scores, keep, 1), np.take_along_axis(both_rows, keep, 1)
        report["runs"] = []
        for nprobe in [int(n) for n in args.nprobe.split(",") if n] or [plan.nprobe]:
            before = current_rss_mb()
            opened_at = time.perf_counter()
            index = open_index(folder / "dense.faiss", IndexPlan(**{**plan.__dict__, "nprobe": nprobe}))
            open_s = time.perf_counter() - opened_at
            times, found = [], []
            for query in queries:
                t0 = time.perf_counter()
                found.append(index.search(query.reshape(1, -1), args.k)[1][0])
                times.append((time.perf_counter() - t0) * 1000)
            recall = float(np.mean([len(set(a) & set(b)) / args.k for a, b in zip(found, rows)]))
            report["runs"].append(
                {
                    "nprobe": nprobe,
                    "open_s": round(open_s, 2),
                    "rss_after_searches_mb": round(current_rss_mb() - before),
                    f"recall_at_{args.k}": round(recall, 4),
                    "search_p50_ms": round(float(np.median(times)), 2),
                    "search_p95_ms": round(float(np.percentile(times, 95)), 2),
                }
            )
            del index
    print(json.dumps(report, indent=2))
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
