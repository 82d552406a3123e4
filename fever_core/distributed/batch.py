"""A long claims file checked on a Ray cluster: each worker with its own checker, the rows in the file's order."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from fever_core.common.formats import Claim
from fever_core.common.settings import Settings
from fever_core.corpus.build import LIVE_CORPUS
from fever_core.distributed.cluster import LOCAL, connect, ordered_map, worker_count
from fever_core.evaluation.runner import BatchReport, BatchRow, check_claim
from fever_core.pipeline import CheckOptions

SLICE = 8
"""Claims sent to a worker at a time: small enough to share the work out evenly at the end."""


class CheckerWorker:
    """A Ray actor holding one checker of a corpus, on ``threads`` CPU threads."""

    def __init__(self, corpus: str, settings: Settings, retriever: str, threads: int):
        from fever_core.common.device import limit_cpu_threads
        from fever_core.pipeline import Checker

        limit_cpu_threads(threads)
        self.checker = Checker.open(corpus, settings, retriever=retriever, progress=False)

    def check(self, job: tuple[list[Claim], CheckOptions | None]) -> list[BatchRow]:
        claims, options = job
        return [check_claim(self.checker, claim, options) for claim in claims]


def check_batch_on_ray(
    corpus: str,
    settings: Settings,
    claims: Sequence[Claim],
    options: CheckOptions | None = None,
    retriever: str = "fused",
    address: str = LOCAL,
    workers: int | None = None,
    threads: int = 1,
    on_row: Callable[[BatchRow, int, int], None] | None = None,
) -> BatchReport:
    """Check the claims on a Ray cluster, :data:`SLICE` at a time on each worker; the report's rows are in the
    claims' order, as :func:`~fever_core.evaluation.runner.run_batch` gives them.

    The corpus must be built (``corpus build``) where the workers read ``settings.data_dir``: each worker opens
    it. Args as for ``run_batch``; ``address``, ``workers`` (default: one a CPU of the cluster) and ``threads``
    (each worker's CPU threads, default 1) place the work.
    """
    if corpus == LIVE_CORPUS:
        raise ValueError(
            f"check-batch --ray can't use the live '{LIVE_CORPUS}' corpus: its workers would all write "
            "one cache. Check it without --ray."
        )
    ray = connect(address)  # before any claim is checked: says how to install Ray when it is missing
    started = time.perf_counter()
    actor = ray.remote(CheckerWorker).options(num_cpus=threads)
    actors = [
        actor.remote(corpus, settings, retriever, threads)
        for _ in range(min(workers or worker_count(ray, threads), max(1, -(-len(claims) // SLICE))))
    ]
    jobs = ((list(claims[start : start + SLICE]), options) for start in range(0, len(claims), SLICE))
    rows: list[BatchRow] = []
    try:
        for done in ordered_map(ray, actors, "check", jobs):
            for row in done:
                rows.append(row)
                if on_row is not None:
                    on_row(row, len(rows), len(claims))
    finally:
        for worker in actors:
            ray.kill(worker)
    return BatchReport(rows, time.perf_counter() - started)
