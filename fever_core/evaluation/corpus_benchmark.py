"""Corpus benchmark: build time, memory and search latency of a named corpus, and what compressing its index costs.

Build time is measured in a fresh temporary data folder with ``cold=True`` (store, links and
embeddings from scratch); search latency is the median over ``queries`` sentences of the corpus
itself used as queries: dense top-50 (the query already embedded) and FTS5 bm25 top-50.

:func:`benchmark_index_kinds` builds each compressed kind of :mod:`~fever_core.retrieval.dense_plan` from the
vectors of a corpus's exact index and compares them with it on real queries (claims): recall@k against flat
search, build time, size on disk, memory once opened, and search latency.
"""

from __future__ import annotations

import dataclasses
import os
import random
import resource
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.settings import Settings
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan, build_compressed, open_index
from fever_core.workspace import open_workspace

if TYPE_CHECKING:
    import faiss

COMPARED_KINDS = ("ivf-sq8", "ivf-pq")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """This process's resident memory now, in MB (Linux; else the peak so far)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return _peak_rss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@dataclass(frozen=True)
class IndexKindReport:
    """One index kind measured on a corpus's vectors against exact (flat) search.

    Attributes:
        kind, factory, nprobe: the plan (:class:`~fever_core.retrieval.dense_plan.IndexPlan`).
        build_s: seconds to train, add in shards and merge (0 for flat, which is the corpus's own index).
        disk_mb: the index's files, MB.
        rss_mb: resident memory the opened index added to the process, MB (a memory-mapped one: what
            the searches paged in).
        recall_at_k: mean share of flat search's top ``k`` that this index's top ``k`` finds, in [0, 1].
        recall_at_k_in_50: mean share of flat search's top ``k`` among this index's top 50 (:data:`DEPTH`, what
            document retrieval reads), in [0, 1].
        search_p50_ms: median time of one top-50 search, ms.
    """

    kind: str
    factory: str
    nprobe: int
    build_s: float
    disk_mb: float
    rss_mb: float
    recall_at_k: float
    recall_at_k_in_50: float
    search_p50_ms: float


DEPTH = 50
"""How deep each index is searched in :func:`benchmark_index_kinds`: as deep as dense document retrieval reads."""


def _top(index: faiss.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, list[float]]:
    rows, times = [], []
    for query in queries:
        started = time.perf_counter()
        rows.append(index.search(query.reshape(1, -1), k)[1][0])
        times.append((time.perf_counter() - started) * 1000)
    return np.array(rows), times


def benchmark_index_kinds(
    dense: DenseSentenceIndex,
    queries: np.ndarray,
    k: int = 5,
    kinds: tuple[str, ...] = COMPARED_KINDS,
    nprobes: tuple[int, ...] = (),
    progress: bool = False,
) -> list[IndexKindReport]:
    """Measure each compressed kind against ``dense`` (which must be exact) on ``queries`` (embedded claims).

    Args:
        queries: float32 array ``(n, dim)``.
        k: the depth of the recall (every search goes :data:`DEPTH` deep).
        nprobes: cells searched to try for each kind (default: each plan's own ``nprobe``).
    """
    if dense.plan.compressed:
        raise ValueError(
            "Recall against flat search needs the corpus's exact index: build the corpus with "
            "FEVER_DENSE_FLAT_MAX_SENTENCES above its size first."
        )
    import faiss

    total, dim = len(dense), dense.index.d
    exact, flat_ms = _top(dense.index, queries, DEPTH)
    exact = exact[:, :k]
    flat = IndexKindReport(
        "flat",
        "Flat",
        0,
        0.0,
        round(total * dim * 4 / 2**20, 1),
        round(total * dim * 4 / 2**20, 1),
        1.0,
        1.0,
        round(float(np.median(flat_ms)), 3),
    )

    def chunks() -> Iterator[np.ndarray]:
        for start in range(0, total, 65536):
            yield dense.index.reconstruct_n(start, min(65536, total - start))

    reports = [flat]
    for kind in kinds:
        plan = IndexPlan.for_size(total, flat_max=0, kind=kind)
        with tempfile.TemporaryDirectory(prefix="fever-index-") as tmp:
            folder = Path(tmp)
            started = time.perf_counter()
            index = build_compressed(plan, dim, chunks, total, folder, folder / IVFDATA_FILE, progress)
            faiss.write_index(index, str(folder / "dense.faiss"))
            build_s = time.perf_counter() - started
            del index
            disk_mb = sum(p.stat().st_size for p in (folder / "dense.faiss", folder / IVFDATA_FILE)) / 2**20
            for nprobe in nprobes or (plan.nprobe,):
                before = current_rss_mb()
                opened = open_index(folder / "dense.faiss", dataclasses.replace(plan, nprobe=nprobe))
                found, times = _top(opened, queries, DEPTH)
                recall = float(np.mean([len(set(a[:k]) & set(b)) / k for a, b in zip(found, exact)]))
                in_depth = float(np.mean([len(set(a) & set(b)) / k for a, b in zip(found, exact)]))
                reports.append(
                    IndexKindReport(
                        kind,
                        plan.factory,
                        nprobe,
                        round(build_s, 1),
                        round(disk_mb, 1),
                        round(current_rss_mb() - before, 1),
                        round(recall, 4),
                        round(in_depth, 4),
                        round(float(np.median(times)), 3),
                    )
                )
                del opened
    return reports


def benchmark_corpus(
    name: str,
    settings: Settings,
    cold: bool = False,
    queries: int = 200,
    claims: list[str] | None = None,
    kinds: tuple[str, ...] = (),
    k: int = 5,
    nprobes: tuple[int, ...] = (),
) -> dict[str, Any]:
    """Build (or open) the corpus and time searches; returns the figures as a dict.

    Args:
        claims: real queries for comparing index kinds (``kinds``, see :func:`benchmark_index_kinds`), at depth
            ``k`` with each of ``nprobes``; nothing is compared without them.
    """
    report: dict[str, Any] = {"corpus": name}
    with tempfile.TemporaryDirectory(prefix="fever-bench-") as tmp:
        if cold:
            settings = dataclasses.replace(settings, data_dir=Path(tmp))
        started = time.perf_counter()
        workspace = open_workspace(name, settings)
        report["open_or_build_s"] = round(time.perf_counter() - started, 1)
        report["cold_build"] = cold
        # a cold build of the embedded corpus takes its vectors from the shipped file: it embeds none but a spot check
        report["index_from_shipped_vectors"] = "shipped_vectors" in workspace.dense.meta
        report["peak_memory_mb"] = round(_peak_rss_mb())
        stats = workspace.store.stats()
        report.update(
            pages=stats.pages,
            sentences=stats.sentences,
            links=stats.links,
            links_per_page=round(stats.links_per_page, 2),
            dense_index=workspace.dense.plan.describe(),
            encoder_backend=workspace.dense.encoder.backend,
            encoder_precision=workspace.dense.encoder.precision,
        )
        rng = random.Random(0)
        sample_ids = rng.sample(range(1, stats.sentences + 1), min(queries, stats.sentences))
        texts = [h.sentence.text for h in workspace.store.sentences_by_ids(sample_ids)]
        vectors = workspace.dense.embed(texts)
        dense_ms, fts_ms, encode_ms = [], [], []
        for text, vector in zip(texts, vectors):
            t0 = time.perf_counter()
            workspace.dense.search(vector, 50)
            t1 = time.perf_counter()
            workspace.store.search_sentences(text, 50)
            t2 = time.perf_counter()
            dense_ms.append((t1 - t0) * 1000)
            fts_ms.append((t2 - t1) * 1000)
        for text in texts[:50]:
            t0 = time.perf_counter()
            workspace.dense.embed([text])
            encode_ms.append((time.perf_counter() - t0) * 1000)
        report.update(
            dense_top50_p50_ms=round(float(np.percentile(dense_ms, 50)), 2),
            fts_top50_p50_ms=round(float(np.percentile(fts_ms, 50)), 2),
            query_encode_p50_ms=round(float(np.percentile(encode_ms, 50)), 2),
            peak_memory_mb=round(_peak_rss_mb()),
        )
        if claims and kinds:
            queries_vectors = workspace.dense.embed(claims)
            report["index_kinds"] = [
                dataclasses.asdict(r)
                for r in benchmark_index_kinds(workspace.dense, queries_vectors, k=k, kinds=kinds, nprobes=nprobes)
            ]
            report["index_kinds_queries"] = len(claims)
    return report
