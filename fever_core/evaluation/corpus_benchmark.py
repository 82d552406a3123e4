"""Corpus benchmark: build time, peak memory and search latency of a named corpus.

Build time is measured in a fresh temporary data folder with ``cold=True`` (store, links and
embeddings from scratch); search latency is the median over ``queries`` sentences of the corpus
itself used as queries: dense top-50 (the query already embedded) and FTS5 bm25 top-50.
"""

from __future__ import annotations

import dataclasses
import random
import resource
import tempfile
import time

import numpy as np

from fever_core.settings import Settings
from fever_core.workspace import open_workspace


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def benchmark_corpus(name: str, settings: Settings, cold: bool = False, queries: int = 200) -> dict:
    """Build (or open) the corpus and time searches; returns the figures as a dict."""
    report: dict = {"corpus": name}
    with tempfile.TemporaryDirectory(prefix="fever-bench-") as tmp:
        if cold:
            settings = dataclasses.replace(settings, data_dir=tmp)
        started = time.perf_counter()
        workspace = open_workspace(name, settings)
        report["open_or_build_s"] = round(time.perf_counter() - started, 1)
        report["cold_build"] = cold
        report["peak_memory_mb"] = round(_peak_rss_mb())
        stats = workspace.store.stats()
        report.update(pages=stats.pages, sentences=stats.sentences, links=stats.links,
                      links_per_page=round(stats.links_per_page, 2))
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
    return report
