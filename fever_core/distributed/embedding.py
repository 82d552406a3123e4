"""Embedding a corpus's sentences on a Ray cluster: one encoder per worker, chunks in order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from fever_core.distributed.cluster import LOCAL, connect, ordered_map, require_ray, worker_count

VECTOR_TOLERANCE = 1e-5
"""Largest difference of a vector component between a Ray build and a local one (threads sum in other orders)."""


class EncoderWorker:
    """A Ray actor holding one encoder at ``precision`` (``fp32``, or ``int8``: on the CPU even on a GPU worker), on
    ``threads`` CPU threads (its share of its machine)."""

    def __init__(self, encoder_name: str, device: str, encoder_cache: str | None, threads: int, precision: str):
        from fever_core.common.device import limit_cpu_threads
        from fever_core.retrieval.encoder import load_encoder

        limit_cpu_threads(threads)
        self.encoder = load_encoder(
            encoder_name, device, cache_dir=Path(encoder_cache) if encoder_cache else None, precision=precision
        )

    def encode(self, texts: list[str]) -> np.ndarray:
        from fever_core.retrieval.encoder import encode

        return encode(self.encoder, texts)


class RayEmbedder:
    """A :class:`~fever_core.retrieval.encoder.ChunkEmbedder` whose chunks are encoded by actors on a Ray cluster.

    Args:
        encoder_name: the model, as in the settings (every worker must be able to load it).
        device: ``auto`` (a GPU a worker when the cluster has GPUs and the build is fp32: on a CPU head, set
            ``FEVER_ENCODER_PRECISION=fp32`` to embed on the cluster's GPUs), ``cpu`` or ``cuda``.
        encoder_cache: where the ONNX export lives (on a shared disk, or made by each worker).
        address: the cluster (see :func:`~fever_core.distributed.cluster.connect`); default a local one.
        workers: encoders to start; default one for each CPU (or GPU) of the cluster.
        threads: CPU threads of each encoder. Default 1.
    """

    def __init__(
        self,
        encoder_name: str,
        device: str = "auto",
        encoder_cache: Path | None = None,
        address: str = LOCAL,
        workers: int | None = None,
        threads: int = 1,
    ):
        require_ray()  # at once: not after hours of storing pages
        self.encoder_name, self.device, self.encoder_cache = encoder_name, device, encoder_cache
        self.address, self.workers, self.threads = address, workers, threads
        self.ray: Any = None  # the ray module, once connected (ray ships no types)
        self.actors: list[Any] = []
        self.precision = ""

    def _start(self, precision: str) -> None:
        """Connect and start the encoders, on the first chunks only: a build with nothing to embed starts nothing."""
        self.ray = connect(self.address)
        on_gpus = self.device != "cpu" and precision == "fp32"  # int8 runs on the CPU
        gpus = int(self.ray.cluster_resources().get("GPU", 0)) if on_gpus else 0
        self.workers = self.workers or (gpus or worker_count(self.ray, self.threads))
        options = {"num_gpus": 1, "num_cpus": self.threads} if gpus else {"num_cpus": self.threads}
        actor = self.ray.remote(EncoderWorker).options(**options)
        cache = str(self.encoder_cache) if self.encoder_cache else None
        self.actors = [
            actor.remote(self.encoder_name, "cuda" if gpus else "cpu", cache, self.threads, precision)
            for _ in range(self.workers)
        ]
        self.precision = precision

    def map(self, chunks: Iterable[list[str]], precision: str) -> Iterator[np.ndarray]:
        if self.actors and self.precision != precision:
            self.close()
        if not self.actors:
            self._start(precision)
        return ordered_map(self.ray, self.actors, "encode", chunks)

    def close(self) -> None:
        """Stop the encoders (the cluster stays up)."""
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []
