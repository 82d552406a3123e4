"""Which FAISS index a corpus gets by its size, and the compressed one built in shards and served memory-mapped.

Up to ``Settings.dense_flat_max_sentences`` sentences (default 1,000,000) the dense index is exact (``IndexFlatIP``: 1.5 KB of memory a
sentence). Above, a flat index outgrows a machine (FEVER's 25M sentences: 38 GB), so it is compressed: an
inverted file (IVF, ``nlist`` k-means cells of which ``nprobe`` are searched) with each vector's residual coded
in 8 bits a dimension (SQ8, 384 bytes a sentence) or by product quantisation (PQ, ``pq_m`` bytes). The cells are
trained on a sample; the vectors are added a shard at a time, each shard written to disk; the shards' lists are
merged into one ``dense.ivfdata`` file that searches read memory-mapped, so only the cells a query visits are
read. ``benchmarks/scale/README.md`` measures the kinds against flat search and says why SQ8 is the default.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

if TYPE_CHECKING:
    import faiss

log = logging.getLogger(__name__)

SHARD_VECTORS = 1_000_000
"""Vectors added to one shard of a compressed index before it is written (about 400 MB with SQ8)."""
TRAIN_PER_CELL = 40
"""Training vectors a cell: the sample is ``TRAIN_PER_CELL * nlist`` vectors (FAISS asks for at least 39)."""
IVFDATA_FILE = "dense.ivfdata"
"""The merged inverted lists of a compressed index, memory-mapped when served."""
KINDS = ("flat", "ivf-sq8", "ivf-pq")
COMPRESSED_KIND = "ivf-sq8"
"""The compressed kind chosen by measurement on 249,494 real sentences and fever-dev's claims: PQ's recall@5 against
flat stays under 0.6 (its codes blur scores), SQ8's reaches 0.984 (``benchmarks/scale/README.md``)."""
NPROBE_SHARE = 2
"""Half the cells is searched: real claims need it (on 249,494 sentences, 2,048 cells, fever-dev's 4,626 claims:
recall@5 against flat 0.984 with half the cells, 0.969 with a quarter, 0.862 with a 32nd; their 5th and 6th
neighbours are closer than SQ8's rounding). It is the index's size in memory, not its speed, that a compressed
index is for: a search reads half the codes (9.6 ms here against 36 for flat, one query)."""


@dataclass(frozen=True)
class IndexPlan:
    """How a dense index is made and searched; recorded in ``dense.json`` and shown by ``corpus info``.

    Attributes:
        kind: one of :data:`KINDS`.
        nlist: IVF cells (0 for flat).
        nprobe: cells searched a query (0 for flat).
        pq_m: bytes a vector for ``ivf-pq`` (the dimension must divide by it), else 0.
        train_size: vectors in the training sample (0 for flat).
    """

    kind: str = "flat"
    nlist: int = 0
    nprobe: int = 0
    pq_m: int = 0
    train_size: int = 0

    @property
    def compressed(self) -> bool:
        return self.kind != "flat"

    @property
    def factory(self) -> str:
        """The FAISS ``index_factory`` string."""
        if self.kind == "flat":
            return "Flat"
        return f"IVF{self.nlist},SQ8" if self.kind == "ivf-sq8" else f"IVF{self.nlist},PQ{self.pq_m}"

    @property
    def score_tolerance(self) -> float:
        """How far past 1 a cosine from this index may go before the index counts as damaged (codes are lossy)."""
        return 1e-3 if self.kind == "flat" else 0.1

    def describe(self) -> str:
        """One line for people: ``flat (exact)`` or ``IVF2048,SQ8, nprobe 64 (compressed)``."""
        return "flat (exact)" if self.kind == "flat" else f"{self.factory}, nprobe {self.nprobe} (compressed)"

    def builds_like(self, other: IndexPlan) -> bool:
        """Whether an index made by this plan is one ``other`` would make: all but ``nprobe``, which is only how it
        is searched (a new default applies to an index as it is)."""
        return dataclasses.replace(self, nprobe=other.nprobe) == other

    def to_meta(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "factory": self.factory}

    @classmethod
    def from_meta(cls, meta: dict[str, Any] | None) -> IndexPlan:
        """The plan ``dense.json`` records; an index written before plans were recorded is flat."""
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in (meta or {}).items() if k in fields})

    @classmethod
    def for_size(cls, sentences: int, flat_max: int, kind: str = COMPRESSED_KIND) -> IndexPlan:
        """The plan for an index of ``sentences`` vectors: flat up to ``flat_max``, else ``kind`` with about
        ``4 * sqrt(sentences)`` cells (a power of two, 64 to 65,536) and 1/:data:`NPROBE_SHARE` of them searched (at
        least 16)."""
        if sentences <= flat_max or kind == "flat":
            return cls()
        if kind not in KINDS:
            raise ValueError(f"Unknown index kind {kind!r}: use one of {', '.join(KINDS)}.")
        nlist = 2 ** round(math.log2(max(64, min(65536, 4 * math.sqrt(sentences)))))
        nlist = min(nlist, max(1, sentences // TRAIN_PER_CELL))
        return cls(
            kind=kind,
            nlist=nlist,
            nprobe=min(nlist, max(16, nlist // NPROBE_SHARE)),
            pq_m=48 if kind == "ivf-pq" else 0,
            train_size=min(sentences, TRAIN_PER_CELL * max(nlist, 256)),
        )  # PQ's codebooks have 256 centroids


def _sample(chunks: Callable[[], Iterator[np.ndarray]], total: int, size: int, seed: int = 0) -> np.ndarray:
    """``size`` rows drawn at random from the chunks (one pass; only the sample is held)."""
    wanted = np.sort(np.random.default_rng(seed).choice(total, size=min(size, total), replace=False))
    picked, start = [], 0
    for vectors in chunks():
        stop = start + len(vectors)
        inside = wanted[(wanted >= start) & (wanted < stop)]
        picked.append(vectors[inside - start])
        start = stop
    return np.ascontiguousarray(np.concatenate(picked), dtype=np.float32)


def _atomic_write(index: faiss.Index, path: Path) -> None:
    import faiss

    tmp = path.with_name(path.name + ".tmp")
    faiss.write_index(index, str(tmp))
    os.replace(tmp, path)


def build_compressed(
    plan: IndexPlan,
    dim: int,
    chunks: Callable[[], Iterator[np.ndarray]],
    total: int,
    work: Path,
    ivfdata: Path,
    progress: bool = True,
) -> faiss.Index:
    """Build a compressed index over ``total`` vectors that ``chunks()`` yields in row order (it is called once
    for the sample and once for the shards), resumably: the trained index and each shard are kept in ``work``.

    Args:
        plan: a compressed plan (see :meth:`IndexPlan.for_size`).
        dim: the vectors' dimension.
        chunks: gives the vectors, float32 arrays of shape ``(n, dim)``, the same every call.
        work: a folder for the trained index and the shards (the build's partial folder).
        ivfdata: where the merged inverted lists go; the index returned reads them there.

    Returns:
        The index (its rows are the vectors' positions 0..total-1), ``nprobe`` set.
    """
    import faiss
    from faiss.contrib.ondisk import merge_ondisk

    trained_path = work / "trained.faiss"
    if not trained_path.is_file():
        log.info("Training %s on %s vectors.", plan.factory, f"{plan.train_size:,}")
        index = faiss.index_factory(dim, plan.factory, faiss.METRIC_INNER_PRODUCT)
        # cells of unit-length centroids: the vectors are unit length and a query's cells are those of the highest
        # inner product, which unnormalised k-means centroids skew to the longest (on 249,494 real sentences: the
        # largest cell 1,325 vectors instead of 3,786, recall@5 +3 to 4 points at every nprobe)
        faiss.extract_index_ivf(index).cp.spherical = True
        index.train(_sample(chunks, total, plan.train_size))
        _atomic_write(index, trained_path)
    shard_paths: list[Path] = []
    shard, number, start, filled = None, 0, 0, 0
    with tqdm(total=total, desc=f"Adding to {plan.factory}", unit="vec", disable=not progress) as bar:
        for vectors in chunks():  # consecutive chunks fill a shard; the same chunks always make the same shards
            if filled == 0:
                shard_paths.append(work / f"shard_{number:05d}.faiss")
                shard = None if shard_paths[-1].is_file() else faiss.read_index(str(trained_path))
            if shard is not None:  # a shard written by an earlier run is not made again
                rows = np.arange(start, start + len(vectors), dtype=np.int64)
                shard.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), rows)
            filled += len(vectors)
            start += len(vectors)
            bar.update(len(vectors))
            if filled >= SHARD_VECTORS:
                if shard is not None:
                    _atomic_write(shard, shard_paths[-1])
                shard, number, filled = None, number + 1, 0
    if shard is not None:
        _atomic_write(shard, shard_paths[-1])
    index = faiss.read_index(str(trained_path))
    tmp = ivfdata.with_name(ivfdata.name + ".tmp")
    tmp.unlink(missing_ok=True)
    merge_ondisk(index, [str(p) for p in shard_paths], str(tmp))
    os.replace(tmp, ivfdata)
    lists = faiss.extract_index_ivf(index).invlists
    on_disk = faiss.downcast_InvertedLists(lists) if lists is not None else None
    if not isinstance(on_disk, faiss.OnDiskInvertedLists):
        raise TypeError(f"Merging the shards into {ivfdata} gave an index whose lists are not on disk.")
    on_disk.filename = str(ivfdata)  # written with it
    return index


def open_index(path: Path, plan: IndexPlan) -> faiss.Index:
    """Read an index: a flat one into memory, a compressed one with its lists memory-mapped from
    :data:`IVFDATA_FILE` beside it, its ``nprobe`` set and its rows reconstructible (a direct map)."""
    import faiss

    if not plan.compressed:
        return faiss.read_index(str(path))
    index = faiss.read_index(str(path), faiss.IO_FLAG_ONDISK_SAME_DIR)
    ivf = faiss.extract_index_ivf(index)
    ivf.nprobe = plan.nprobe
    ivf.make_direct_map()
    return index
