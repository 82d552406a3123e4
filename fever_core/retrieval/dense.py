"""Dense sentence index: FAISS inner product over normalised bi-encoder embeddings.

Every sentence is embedded as ``"<page title>: <sentence>"``. The index lives in a folder beside the
corpus store and is rebuilt only when the store's fingerprint, the encoder or the plan for its size changes
(exact up to a million sentences, compressed and memory-mapped above: :mod:`~fever_core.retrieval.dense_plan`). The
encoder is recorded by what it is (:class:`~fever_core.retrieval.encoder.EncoderIdentity`), not where it was installed,
so a data folder opens as it is in another install, read-only included. A store that grows (the live Wikipedia cache)
has its new sentences appended with :meth:`DenseSentenceIndex.extend_from` and :meth:`DenseSentenceIndex.save`,
without a rebuild.

Here: the searchable index, opened as it is or rebuilt (:meth:`DenseSentenceIndex.build_or_load`). Beside it: its files
and their checks (:mod:`~fever_core.retrieval.dense_files`), how a build gets its vectors: shipped, reused or embedded
in resumable chunks (:mod:`~fever_core.retrieval.dense_build`; the shipped vectors' file:
:mod:`~fever_core.retrieval.shipped_vectors`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.settings import Settings
from fever_core.common.text import premise_text
from fever_core.corpus.store import CorpusStore, reporting_disk_full
from fever_core.retrieval.dense_build import build_index, embeds_alike, text_key, text_keys
from fever_core.retrieval.dense_files import (
    IDS_FILE,
    INDEX_FILE,
    KEYS_FILE,
    META_FILE,
    DenseIndexDamaged,
    built_with,
    damaged_files,
    identity_meta,
    made_by,
    upgraded_meta,
    write_index,
)
from fever_core.retrieval.dense_plan import IndexPlan, open_index
from fever_core.retrieval.encoder import ChunkEmbedder, SentenceEncoder, encode, load_encoder, resolve_precision

if TYPE_CHECKING:
    import faiss

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DenseHit:
    """A sentence found by dense search: store row id and cosine similarity in [-1, 1]."""

    sentence_id: int
    score: float


class DenseSentenceIndex:
    """FAISS index of a store's sentences plus the encoder that made it.

    Args:
        index: inner-product index, one row per sentence.
        sentence_ids: the store row id of each index row, ascending.
        encoder: the bi-encoder the vectors came from.
        folder: where the index files live (``None`` for an index that is never saved).
        meta: what ``dense.json`` says about the index (store fingerprint, encoder, sizes, its
            :class:`~fever_core.retrieval.dense_plan.IndexPlan` under ``index``).
    """

    def __init__(
        self,
        index: faiss.Index,
        sentence_ids: np.ndarray,
        encoder: SentenceEncoder,
        folder: Path | None = None,
        meta: dict[str, Any] | None = None,
    ):
        self.index = index
        self.sentence_ids = sentence_ids
        self.encoder = encoder
        self.folder = folder
        self.meta = meta or {}
        self.plan = IndexPlan.from_meta(self.meta.get("index"))
        self._keys: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.index.ntotal)

    @classmethod
    def build_or_load(
        cls,
        store: CorpusStore,
        folder: Path,
        encoder_name: str,
        device: str = "auto",
        progress: bool = True,
        *,
        encoder_cache: Path | None = None,
        flat_max: int | None = None,
        embedder: ChunkEmbedder | None = None,
        precision: str = "auto",
        shipped: Path | None = None,
    ) -> DenseSentenceIndex:
        """Load the index in ``folder`` if it matches ``store``, the encoder ``encoder_name`` (by what it is,
        wherever it is installed: :func:`~fever_core.retrieval.dense_files.made_by`), ``precision`` and the plan for
        its size; else (re)build it (:func:`~fever_core.retrieval.dense_build.build_index`).

        Args:
            encoder_cache: where the encoder's ONNX export lives (see :func:`~fever_core.retrieval.encoder.load_encoder`).
            precision: the encoder's, one of :data:`~fever_core.retrieval.encoder.PRECISIONS`; default ``auto``:
                the index's own when there is one, else int8 on a CPU, fp32 on a GPU
                (:func:`~fever_core.retrieval.encoder.resolve_precision`). Queries are embedded at the same precision.
            flat_max: the most sentences an exact index is made for (default ``Settings.dense_flat_max_sentences``);
                above, a compressed one (:meth:`IndexPlan.for_size`).
            embedder: embeds the sentences of a build, e.g. on a Ray cluster; default the encoder, here.
            shipped: the manifest of vectors shipped for this corpus (:mod:`~fever_core.retrieval.shipped_vectors`):
                a build takes its vectors from them, embedding none but a spot check's, when they are the store's
                sentences' by this encoder at this precision; else (said in the log) it embeds them. Default none.
        """
        folder = Path(folder)
        meta_path = folder / META_FILE
        meta, unreadable = None, None
        if meta_path.is_file():
            try:
                meta = built_with(json.loads(meta_path.read_text()))
            except (OSError, ValueError) as exc:
                unreadable = exc
        index_precision = meta["encoder_precision"] if meta else None
        asked, precision = precision, resolve_precision(precision, device, index_precision)
        try:
            encoder = load_encoder(encoder_name, device, cache_dir=encoder_cache, precision=precision)
        except RuntimeError as exc:
            if asked != "auto" or precision == "fp32":
                raise
            log.warning("%s The encoder runs in fp32.", exc)  # e.g. no room for the int8 export
            encoder = load_encoder(encoder_name, device, cache_dir=encoder_cache, precision="fp32")
        wanted = {
            "store_fingerprint": store.get_meta("fingerprint"),
            # an index of another precision is rebuilt only when one was asked for
            "encoder_precision": index_precision if asked == "auto" and index_precision else encoder.precision,
        }
        flat_max = Settings().dense_flat_max_sentences if flat_max is None else flat_max
        plan = IndexPlan.for_size(store.stats().sentences, flat_max)
        if unreadable is not None:
            log.warning("Dense index in %s can't be read (%s): rebuilding.", folder, unreadable)
        elif meta is not None:
            try:
                encoder_known = made_by(meta, encoder.identity)
                current = encoder_known is not False and all(meta.get(k) == v for k, v in wanted.items())
                damaged = damaged_files(folder, meta)
                if damaged:
                    log.warning(
                        "Dense index in %s is damaged (%s differ from the checksums written with them): "
                        "rebuilding it, reusing every vector that is still good.",
                        folder,
                        ", ".join(damaged),
                    )
                elif current and not IndexPlan.from_meta(meta.get("index")).builds_like(plan):
                    log.warning(
                        "Dense index in %s is %s, its size now calls for %s: rebuilding.",
                        folder,
                        IndexPlan.from_meta(meta.get("index")).describe(),
                        plan.describe(),
                    )
                elif current:
                    meta = {**meta, "index": plan.to_meta()}  # searched with today's nprobe
                    index = open_index(folder / INDEX_FILE, plan)
                    ids = np.load(folder / IDS_FILE)
                    if index.ntotal == len(ids):
                        if encoder_known or embeds_alike(encoder, index, ids, store, plan):
                            return cls(index, ids, encoder, folder, upgraded_meta(folder, meta, encoder.identity))
                        log.warning(
                            "Dense index in %s was made by the encoder at %s, which is not here, and %s gives "
                            "its sentences other vectors: rebuilding.",
                            folder,
                            meta.get("encoder"),
                            encoder.identity.name,
                        )
                else:
                    log.warning("Dense index in %s is out of date: rebuilding.", folder)
            except (OSError, ValueError, RuntimeError) as exc:
                log.warning("Dense index in %s can't be read (%s): rebuilding.", folder, exc)
        elif (folder / INDEX_FILE).is_file():
            log.warning(
                "Dense index in %s has lost its %s: rebuilding it, reusing every vector that is still good.",
                folder,
                META_FILE,
            )
        with reporting_disk_full(folder, "building the dense index"):  # the chunks embedded so far are kept
            built = {
                **wanted,
                **identity_meta(encoder.identity),
                "encoder_precision": encoder.precision,
                "index": plan.to_meta(),
            }  # its vectors'
            index, ids, built = build_index(store, folder, encoder, built, progress, embedder, shipped)
            return cls(index, ids, encoder, folder, built)

    def extend_from(self, store: CorpusStore) -> int:
        """Embed and append the sentences the store gained after the last indexed one (for a store
        that only grows, like the live Wikipedia cache). Call :meth:`save` to keep them.

        Returns:
            The number of sentences added.
        """
        import faiss

        last = int(self.sentence_ids[-1]) if len(self.sentence_ids) else 0
        rows = [row for batch in store.iter_sentence_texts(after_id=last) for row in batch]
        if not rows:
            return 0
        if self._keys is None:
            saved = self.folder / KEYS_FILE if self.folder else None
            keys = np.load(saved) if saved and saved.is_file() else None
            self._keys = keys if keys is not None and len(keys) == len(self) else text_keys(store)[: len(self)]
        texts = [premise_text(title, text) for _, title, text in rows]
        vectors = encode(self.encoder, texts)
        ids = np.array([sid for sid, _, _ in rows], dtype=np.int64)
        index = faiss.clone_index(self.index)
        index.add(vectors)
        # published in this order so a search running meanwhile in another thread never meets an
        # index row without its id (vectors_of reads the index first, then the ids)
        self.sentence_ids = np.concatenate([self.sentence_ids, ids])
        self.index = index
        self._keys = np.concatenate([self._keys, np.array([text_key(t) for t in texts], dtype=np.int64)])
        return len(rows)

    def save(self, store_fingerprint: str) -> None:
        """Write the index to its folder as the index of the store with ``store_fingerprint``."""
        if self.folder is None:
            raise ValueError("This dense index has no folder to be saved in.")
        if self._keys is None:
            raise ValueError("Nothing to save: the index is as it was loaded or built.")
        self.meta = {**self.meta, "store_fingerprint": store_fingerprint, "sentences": len(self)}
        with reporting_disk_full(self.folder, "saving the dense index"):
            write_index(self.folder, self.index, self.sentence_ids, self._keys, self.meta)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Normalised embeddings of texts, shape ``(len(texts), dim)``."""
        return encode(self.encoder, texts)

    def search(self, query_vector: np.ndarray, k: int) -> list[DenseHit]:
        """Top-``k`` sentences by cosine similarity to one query vector of shape ``(dim,)``."""
        if k <= 0 or len(self) == 0:
            return []
        scores, rows = self.index.search(query_vector.reshape(1, -1).astype(np.float32), min(k, len(self)))
        if not np.isfinite(scores).all() or np.abs(scores).max(initial=0.0) > 1 + self.plan.score_tolerance:
            raise DenseIndexDamaged(
                f"The dense index in {self.folder} gives impossible scores (cosines outside [-1, 1]): it is damaged. "
                f"Delete {self.folder / META_FILE if self.folder else 'it'} and open the corpus again to rebuild it; "
                "vectors that are still good are reused."
            )
        return [
            DenseHit(int(self.sentence_ids[row]), float(score)) for score, row in zip(scores[0], rows[0]) if row >= 0
        ]

    def vectors_of(self, sentence_ids: list[int]) -> np.ndarray:
        """Stored embeddings of some sentences, shape ``(len(sentence_ids), dim)``; unknown ids get zeros. From a
        compressed index they are decoded from its codes (SQ8: within about 0.01 of the vector)."""
        index = self.index  # before the ids: a sentence being added meanwhile counts as unknown
        known_ids = self.sentence_ids[: index.ntotal]
        wanted = np.asarray(sentence_ids, dtype=np.int64)
        rows = np.searchsorted(known_ids, wanted)
        found = (
            (rows < len(known_ids)) & (known_ids[np.minimum(rows, len(known_ids) - 1)] == wanted)
            if len(known_ids)
            else np.zeros(len(wanted), dtype=bool)
        )
        out = np.zeros((len(wanted), index.d), dtype=np.float32)
        if found.any():
            out[found] = index.reconstruct_batch(rows[found].astype(np.int64))
        return out
