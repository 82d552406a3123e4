"""Dense sentence index: FAISS inner product over normalised bi-encoder embeddings.

Every sentence is embedded as ``"<page title>: <sentence>"``. The index lives in a folder beside the
corpus store and is rebuilt only when the store's fingerprint, the encoder or the plan for its size changes
(exact up to a million sentences, compressed and memory-mapped above: :mod:`~fever_core.retrieval.dense_plan`). The
encoder is recorded by what it is (:class:`~fever_core.retrieval.encoder.EncoderIdentity`), not where it was installed,
so a data folder opens as it is in another install, read-only included. A build reuses the vectors of texts that the
old index, or another corpus's index whose files still match their checksums, already has. Embedding is done in chunks
saved under ``dense.partial/``, so a killed build resumes where it stopped. A store that grows (the live
Wikipedia cache) has its new sentences appended with :meth:`DenseSentenceIndex.extend_from` and
:meth:`DenseSentenceIndex.save`, without a rebuild. A corpus whose vectors ship with the project (the embedded one:
:mod:`~fever_core.retrieval.shipped_vectors`) is built from them, without embedding, when they are its sentences' by
this encoder.

Why one module (over 400 lines): building (from shipped vectors or by embedding), resuming, reusing, extending and
querying one index share its files and their checks (its plan by size is apart: :mod:`~fever_core.retrieval.dense_plan`;
the shipped vectors' file: :mod:`~fever_core.retrieval.shipped_vectors`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from collections import deque
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from tqdm import tqdm

from fever_core.common.checksums import file_checksum
from fever_core.common.settings import Settings
from fever_core.common.text import premise_text
from fever_core.corpus.store import CorpusStore, reporting_disk_full
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan, build_compressed, open_index
from fever_core.retrieval.encoder import (
    ChunkEmbedder,
    EncoderIdentity,
    SentenceEncoder,
    encode,
    identity_name,
    load_encoder,
    resolve_precision,
)
from fever_core.retrieval.shipped_vectors import ShippedVectors, store_texts, texts_checksum

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import faiss

log = logging.getLogger(__name__)

INDEX_FILE = "dense.faiss"
IDS_FILE = "dense_ids.npy"
META_FILE = "dense.json"
KEYS_FILE = "dense_keys.npy"
CHUNK = 4096
CHECKED_FILES = (INDEX_FILE, IDS_FILE, KEYS_FILE, IVFDATA_FILE)
"""The files whose checksums ``dense.json`` records when they are written (those present) and that are verified at
open."""
SPOT_CHECK = 8
"""Reused vectors are trusted only when this many of them, embedded again, come out the same."""
SAME_VECTORS_COSINE = 0.95
"""The cosine a spot-checked vector, embedded again, must reach with the stored one for stored vectors to be reused.
Another CPU's arithmetic moves the encoder's vectors: int8 with other rounding (7-bit weights, as ONNX Runtime advises
for CPUs without VNNI) keeps a cosine of 0.984 at least, int8 against fp32 0.986 (2,000 sentences, with the shipped
vectors' own int8 codes at 0.9999; ``benchmarks/startup/vector-tolerance.json``). Another sentence's vector is
further: a sentence's nearest other sentence is at 0.49 (median), 0.90 at most; another encoder's vectors are
unrelated. (Element by element within 2e-3, as it was, refused the shipped vectors on a CPU without AVX-512.)"""
NORM_TOLERANCE = 1e-3
"""A stored vector is normalised: one whose length is further than this from 1 is damaged and not reused."""


ENCODER_CHECKSUM = "encoder_checksum"
"""The key of ``dense.json`` with the encoder's checksum (beside ``encoder``, its name): an index without it was written
when encoders were recorded by their path."""


class DenseIndexDamaged(ValueError):
    """A dense index file does not hold what was written (checksum), or gives impossible scores."""


def damaged_files(folder: Path, meta: dict) -> list[str]:
    """The index files in ``folder`` whose bytes differ from the checksums in ``meta`` (missing files count).
    An index written before checksums were kept has none to compare and counts as intact."""
    sums = meta.get("checksums") or {}
    return [name for name, expected in sums.items()
            if not (folder / name).is_file() or file_checksum(folder / name) != expected]


def made_by(meta: dict, identity: EncoderIdentity) -> bool | None:
    """Whether the index whose ``dense.json`` is ``meta`` was made by the encoder ``identity``: by their checksums. An
    index written when encoders were recorded by their path is compared by the checksum of the folder at that path;
    ``None`` when there is none (the path of another install): only embedding some of its sentences again can tell
    (:func:`_embeds_alike`)."""
    if ENCODER_CHECKSUM in meta:
        return EncoderIdentity(str(meta.get("encoder", "")), str(meta[ENCODER_CHECKSUM])).same_model(identity)
    recorded = str(meta.get("encoder", ""))
    if not recorded:
        return False
    if identity_name(recorded) != recorded and not Path(recorded).expanduser().is_dir():
        return None
    return EncoderIdentity.of(recorded).same_model(identity)


def _identity_meta(identity: EncoderIdentity) -> dict[str, str]:
    """What ``dense.json`` records of its encoder."""
    return {"encoder": identity.name, ENCODER_CHECKSUM: identity.checksum}


def _embeds_alike(encoder: SentenceEncoder, index: faiss.Index, ids: np.ndarray, store: CorpusStore,
                  plan: IndexPlan) -> bool:
    """Whether ``encoder`` gives :data:`SPOT_CHECK` of the index's sentences, spread over it, the vectors the index
    holds (a compressed index's decoded) (:func:`same_vectors`)."""
    rows = _spread_rows(len(ids))
    hits = store.sentences_by_ids(ids[rows].tolist())
    if len(hits) != len(rows):
        return False
    fresh = encode(encoder, [premise_text(hit.title, hit.sentence.text) for hit in hits])
    return same_vectors(fresh, index.reconstruct_batch(rows))


def same_vectors(fresh: np.ndarray, stored: np.ndarray) -> bool:
    """Whether each of the ``fresh`` vectors (rows, as the encoder gives them now) is the stored vector of the same row
    up to the arithmetic: a cosine of :data:`SAME_VECTORS_COSINE` at least. Vectors of another shape never are."""
    if fresh.shape != stored.shape:
        return False
    lengths = np.linalg.norm(fresh, axis=1) * np.linalg.norm(stored, axis=1)
    return bool(((fresh * stored).sum(axis=1) >= SAME_VECTORS_COSINE * np.maximum(lengths, 1e-12)).all())


def _spread_rows(count: int) -> np.ndarray:
    """:data:`SPOT_CHECK` row numbers spread evenly over ``count`` rows (all of them when fewer)."""
    return np.unique(np.linspace(0, count - 1, SPOT_CHECK).astype(np.int64)) if count else np.zeros(0, np.int64)


def _shipped_vectors(manifest: Path, store: CorpusStore,
                     encoder: SentenceEncoder) -> tuple[ShippedVectors, np.ndarray, np.ndarray] | None:
    """The shipped vectors of ``manifest`` with the row ids of ``store``'s sentences and the vectors, when they are
    what ``encoder`` makes of exactly these sentences (by checksums, then :data:`SPOT_CHECK` of them embedded again,
    :func:`same_vectors`); else ``None``, with one log line saying why (the build then embeds them)."""
    try:
        shipped = ShippedVectors.read(manifest)
        ids, texts = store_texts(store, CHUNK)
        reason = shipped.mismatch(texts_checksum(texts), encoder.identity, encoder.precision)
        if reason is None:
            vectors = shipped.load(manifest.parent)
            rows = _spread_rows(len(texts))
            if not same_vectors(encode(encoder, [texts[i] for i in rows]), vectors[rows]):
                reason = "the encoder gives some of their sentences other vectors (another ONNX Runtime?)"
    except (OSError, ValueError, TypeError, KeyError) as exc:
        reason = f"they can't be read ({exc})"
    if reason is not None:
        log.warning("The shipped vectors %s are not used: %s. Embedding the sentences instead.", manifest, reason)
        return None
    log.info("Built from the shipped vectors %s: %s sentences, %d of them embedded to check them.", manifest,
             f"{len(ids):,}", len(rows))
    return shipped, ids, vectors


def _text_key(text: str) -> int:
    """A 64-bit fingerprint of an embedded text, to reuse its vector when the corpus is rebuilt."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


def _built_with(meta: dict) -> dict:
    """``meta`` (an index's ``dense.json``) with its encoder precision said: an index written before precisions
    were kept is fp32."""
    return {**meta, "encoder_precision": meta.get("encoder_precision", "fp32")}


def _previous_vectors(folder: Path, identity: EncoderIdentity, precision: str,
                      store: CorpusStore) -> dict[int, np.ndarray]:
    """Vectors already computed, by text key: from the index a rebuild replaces (even when its ``dense.json``
    is gone or its files are damaged; when its key file is gone or damaged, ``store`` says which text each row's
    sentence has) and from the other corpora beside it made by the same encoder at the same precision (the benchmark
    corpora share the embedded summaries) whose index and key files match the checksums written with them (another
    corpus's store can't say which text a row has; one whose files can't be verified is left out, with a warning).
    Rows that are not unit-length finite vectors are left out: they are what damage looks like. :func:`_embed_reusing`
    spot-checks the rest against the encoder."""
    import faiss

    known: dict[int, np.ndarray] = {}
    for other in sorted(p for p in Path(folder).parent.iterdir() if p.is_dir()):
        meta_path = other / META_FILE
        own = other.resolve() == Path(folder).resolve()
        try:
            meta = _built_with(json.loads(meta_path.read_text())) if meta_path.is_file() else None
            if meta is None and not own:
                continue
            # the own index of an encoder recorded by a path of another install is spot-checked with the rest
            if meta is not None and (made_by(meta, identity) not in ((True, None) if own else (True,))
                                     or meta["encoder_precision"] != precision):
                continue
            if meta is not None and IndexPlan.from_meta(meta.get("index")).compressed:
                continue  # its codes are not the vectors, and it may be larger than memory
            if not (other / INDEX_FILE).is_file():
                continue
            damaged = damaged_files(other, meta) if meta is not None else []
            if not own and (damaged or not {INDEX_FILE, KEYS_FILE} <= set(meta.get("checksums") or {})):
                log.warning("The vectors of corpus %s are not reused: %s. Its sentences are embedded again.",
                            other.name, f"{', '.join(damaged)} differ from the checksums written with them" if damaged
                            else "its index has no checksums to verify them by (opening that corpus records them)")
                continue
            if (other / KEYS_FILE).is_file() and KEYS_FILE not in damaged:
                keys, known_text = np.load(other / KEYS_FILE), None
            elif own and (other / IDS_FILE).is_file() and IDS_FILE not in damaged:
                by_id = _text_keys_by_id(store)  # the key file is lost or damaged: the store knows each row's text
                ids = np.load(other / IDS_FILE).tolist()
                keys = np.array([by_id.get(sid, 0) for sid in ids], dtype=np.int64)
                known_text = np.array([sid in by_id for sid in ids], dtype=bool)
            else:
                continue
            index = faiss.read_index(str(other / INDEX_FILE))
            if index.ntotal != len(keys):
                continue
            vectors = index.reconstruct_n(0, index.ntotal)
            with np.errstate(over="ignore", invalid="ignore"):  # damaged rows overflow: they are the ones not kept
                good = np.isfinite(vectors).all(axis=1) & (np.abs(np.linalg.norm(vectors, axis=1) - 1) < NORM_TOLERANCE)
            if known_text is not None:
                good &= known_text
            known.update(zip(keys[good].tolist(), vectors[good]))
        except (OSError, ValueError, RuntimeError):
            continue
    return known


def _embed_reusing(
    encoder: SentenceEncoder,
    chunks: Iterator[tuple[int, np.ndarray, list[str]]],
    previous: dict[int, np.ndarray],
    embedder: ChunkEmbedder | None = None,
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """For each chunk ``(number, sentence ids, texts)``, ``(number, sentence ids, vectors)``: vectors already known
    from ``previous`` are taken, the rest encoded by ``embedder`` (default: ``encoder``, here), in order.

    In each chunk up to :data:`SPOT_CHECK` reused vectors are embedded again first, here; if any differs (another
    encoder, a damaged key file), nothing more is reused."""
    waiting: deque[tuple[int, np.ndarray, list[int], list[int], dict[int, np.ndarray]]] = deque()

    def missing_texts() -> Iterator[list[str]]:
        nonlocal previous
        for number, ids, texts in chunks:
            keys = [_text_key(t) for t in texts]
            reusable = [i for i, key in enumerate(keys) if key in previous]
            sample = reusable[:: max(1, len(reusable) // SPOT_CHECK)][:SPOT_CHECK]
            if sample:
                fresh = encode(encoder, [texts[i] for i in sample])
                if not same_vectors(fresh, np.stack([previous[keys[i]] for i in sample])):
                    log.warning("Stored vectors don't match the encoder: embedding every sentence again.")
                    previous = {}
            missing = [i for i, key in enumerate(keys) if key not in previous]
            waiting.append((number, ids, keys, missing, previous))
            yield [texts[i] for i in missing]

    encoded = embedder.map(missing_texts(), encoder.precision) if embedder else \
        (encode(encoder, texts) for texts in missing_texts())
    for fresh in encoded:
        number, ids, keys, missing, known = waiting.popleft()
        out = np.zeros((len(keys), encoder.dimension()), dtype=np.float32)
        for i, key in enumerate(keys):
            if key in known:
                out[i] = known[key]
        out[missing] = fresh
        yield number, ids, out


def _text_keys_by_id(store: CorpusStore) -> dict[int, int]:
    """The text key of every sentence of a store by its row id, in row-id order (the order of an index's rows)."""
    return {sid: _text_key(premise_text(t, x)) for batch in store.iter_sentence_texts() for sid, t, x in batch}


def _text_keys(store: CorpusStore) -> np.ndarray:
    """The text keys of every sentence of a store, in row-id order (the order of an index's rows)."""
    parts = [np.array([_text_key(premise_text(t, x)) for _, t, x in batch], dtype=np.int64)
             for batch in store.iter_sentence_texts(batch_size=CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _write_index(folder: Path, index: faiss.Index, ids: np.ndarray, keys: np.ndarray, meta: dict) -> None:
    """Write an index's files, each through a temporary file, the meta file last with each file's checksum:
    a crash leaves either the old meta (so the next open sees a stale or damaged index and rebuilds) or a
    complete index. A compressed index's lists (:data:`IVFDATA_FILE`) are already in place, written by its build."""
    import faiss

    compressed = IndexPlan.from_meta(meta.get("index")).compressed
    checksums: dict[str, str] = {IVFDATA_FILE: file_checksum(folder / IVFDATA_FILE)} if compressed else {}

    def replace(name: str, write) -> None:
        tmp = folder / f"{name}.tmp"
        try:
            write(tmp)
        except BaseException:
            tmp.unlink(missing_ok=True)  # e.g. half written on a full disk: give its room back
            raise
        if name in CHECKED_FILES:
            checksums[name] = file_checksum(tmp)
        os.replace(tmp, folder / name)

    def save_array(array: np.ndarray):
        def write(path: Path) -> None:
            with path.open("wb") as fh:
                np.save(fh, array)
        return write

    replace(INDEX_FILE, lambda path: faiss.write_index(index, str(path)))
    replace(IDS_FILE, save_array(ids))
    replace(KEYS_FILE, save_array(keys))
    replace(META_FILE, lambda path: path.write_text(json.dumps({**meta, "checksums": checksums}, indent=2)))
    if not compressed:
        (folder / IVFDATA_FILE).unlink(missing_ok=True)  # the lists of a compressed index this one replaces


def _upgraded(folder: Path, meta: dict, identity: EncoderIdentity) -> dict:
    """``meta`` with what an index written by an earlier version lacks: its files' checksums (trusted from now on)
    and its encoder's identity (where it recorded the encoder's path, which :func:`made_by` or a spot check found
    to be ``identity``'s model). Written to ``dense.json`` where the folder can be written; a read-only folder (or a
    full disk) is left as it is, and the next open finds what this one found."""
    upgraded = {**meta, **_identity_meta(identity)} if ENCODER_CHECKSUM not in meta else dict(meta)
    writable = os.access(folder, os.W_OK) and os.access(folder / META_FILE, os.W_OK)
    if "checksums" not in meta and writable:
        upgraded["checksums"] = {name: file_checksum(folder / name) for name in CHECKED_FILES
                                 if (folder / name).is_file()}
    if writable and upgraded.keys() != meta.keys():
        tmp = folder / f"{META_FILE}.tmp"
        with suppress(OSError):
            tmp.write_text(json.dumps(upgraded, indent=2))
            os.replace(tmp, folder / META_FILE)
        tmp.unlink(missing_ok=True)
    return upgraded


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
        meta: dict | None = None,
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
        wherever it is installed: :func:`made_by`), ``precision`` and the plan for its size; else (re)build it.

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
                meta = _built_with(json.loads(meta_path.read_text()))
            except (OSError, ValueError) as exc:
                unreadable = exc
        built_with = meta["encoder_precision"] if meta else None
        asked, precision = precision, resolve_precision(precision, device, built_with)
        try:
            encoder = load_encoder(encoder_name, device, cache_dir=encoder_cache, precision=precision)
        except RuntimeError as exc:
            if asked != "auto" or precision == "fp32":
                raise
            log.warning("%s The encoder runs in fp32.", exc)  # e.g. no room for the int8 export
            encoder = load_encoder(encoder_name, device, cache_dir=encoder_cache, precision="fp32")
        wanted = {"store_fingerprint": store.get_meta("fingerprint"),
                  # an index of another precision is rebuilt only when one was asked for
                  "encoder_precision": built_with if asked == "auto" and built_with else encoder.precision}
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
                    log.warning("Dense index in %s is damaged (%s differ from the checksums written with them): "
                                "rebuilding it, reusing every vector that is still good.", folder, ", ".join(damaged))
                elif current and not IndexPlan.from_meta(meta.get("index")).builds_like(plan):
                    log.warning("Dense index in %s is %s, its size now calls for %s: rebuilding.", folder,
                                IndexPlan.from_meta(meta.get("index")).describe(), plan.describe())
                elif current:
                    meta = {**meta, "index": plan.to_meta()}  # searched with today's nprobe
                    index = open_index(folder / INDEX_FILE, plan)
                    ids = np.load(folder / IDS_FILE)
                    if index.ntotal == len(ids):
                        if encoder_known or _embeds_alike(encoder, index, ids, store, plan):
                            return cls(index, ids, encoder, folder, _upgraded(folder, meta, encoder.identity))
                        log.warning("Dense index in %s was made by the encoder at %s, which is not here, and %s gives "
                                    "its sentences other vectors: rebuilding.", folder, meta.get("encoder"),
                                    encoder.identity.name)
                else:
                    log.warning("Dense index in %s is out of date: rebuilding.", folder)
            except (OSError, ValueError, RuntimeError) as exc:
                log.warning("Dense index in %s can't be read (%s): rebuilding.", folder, exc)
        elif (folder / INDEX_FILE).is_file():
            log.warning("Dense index in %s has lost its %s: rebuilding it, reusing every vector that is still good.",
                        folder, META_FILE)
        with reporting_disk_full(folder, "building the dense index"):  # the chunks embedded so far are kept
            built = {**wanted, **_identity_meta(encoder.identity), "encoder_precision": encoder.precision,
                     "index": plan.to_meta()}  # its vectors'
            return cls._build(store, folder, encoder, built, progress, embedder, shipped)

    @classmethod
    def _build(
        cls, store: CorpusStore, folder: Path, encoder: SentenceEncoder, meta: dict, progress: bool,
        embedder: ChunkEmbedder | None = None, shipped: Path | None = None,
    ) -> DenseSentenceIndex:
        """Make the index the plan in ``meta["index"]`` says from the shipped vectors of manifest ``shipped`` when
        they are the store's (:func:`_shipped_vectors`), else from the store's sentences embedded a chunk at a time
        (:meth:`_embed`), reading the chunks back one by one."""
        import faiss

        started = time.perf_counter()
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / "dense.partial"
        found = _shipped_vectors(shipped, store, encoder) if shipped is not None else None
        if found is not None:
            made_from, ids, shipped_rows = found
            meta = {**meta, "shipped_vectors": {"file": made_from.file, "file_checksum": made_from.file_checksum}}

            def chunks() -> Iterator[np.ndarray]:
                yield from (shipped_rows[start:start + CHUNK] for start in range(0, len(shipped_rows), CHUNK))
        else:
            ids, chunks = cls._embed(store, partial, encoder, meta, progress, embedder)
        dim = encoder.dimension()
        plan = IndexPlan.from_meta(meta["index"])
        if plan.compressed:
            work = partial / f"index-{plan.factory}"
            work.mkdir(parents=True, exist_ok=True)
            index = build_compressed(plan, dim, chunks, len(ids), work, folder / IVFDATA_FILE, progress)
        else:
            index = faiss.IndexFlatIP(dim)
            for vectors in chunks():
                index.add(vectors)
        if index.ntotal != len(ids):
            raise RuntimeError(f"The dense index built in {folder} has {index.ntotal:,} vectors for {len(ids):,} "
                               "sentences: not written.")
        meta = {**meta, "sentences": len(ids), "dim": int(dim),
                "build_seconds": round(time.perf_counter() - started, 1)}
        _write_index(folder, index, ids, _text_keys(store), meta)
        shutil.rmtree(partial, ignore_errors=True)
        if plan.compressed:
            index = open_index(folder / INDEX_FILE, plan)  # served memory-mapped, as it will be when opened again
        return cls(index, ids, encoder, folder, meta)

    @staticmethod
    def _embed(
        store: CorpusStore, partial: Path, encoder: SentenceEncoder, meta: dict, progress: bool,
        embedder: ChunkEmbedder | None,
    ) -> tuple[np.ndarray, Callable[[], Iterator[np.ndarray]]]:
        """Embed the store's sentences a chunk at a time into ``partial`` (``dense.partial/``: a killed build resumes
        from the chunks saved), reusing vectors already computed (:func:`_previous_vectors`). Returns the sentences'
        row ids and a function yielding the chunks' vectors in order, read back one by one: memory holds one chunk and
        the index (a compressed one: its training sample and one shard)."""
        folder = partial.parent
        stamp, embedded = partial / "build.json", {k: v for k, v in meta.items() if k != "index"}
        if partial.is_dir() and (not stamp.is_file() or _built_with(json.loads(stamp.read_text())) != embedded):
            shutil.rmtree(partial)  # chunks of another store or encoder (those of another plan are still good)
        partial.mkdir(parents=True, exist_ok=True)
        stamp.write_text(json.dumps(embedded))
        total = store.stats().sentences
        previous = _previous_vectors(folder, encoder.identity, meta["encoder_precision"], store)
        chunk_ids: list[np.ndarray] = []
        with tqdm(total=total, desc="Embedding sentences", unit="sent", disable=not progress) as bar:

            def to_embed() -> Iterator[tuple[int, np.ndarray, list[str]]]:
                for number, rows in enumerate(store.iter_sentence_texts(batch_size=CHUNK)):
                    ids = np.array([r[0] for r in rows], dtype=np.int64)
                    chunk_ids.append(ids)
                    done = partial / f"chunk_{number:05d}.npz"
                    if done.is_file() and np.array_equal(np.load(done)["ids"], ids):
                        bar.update(len(rows))
                        continue
                    yield number, ids, [premise_text(title, text) for _, title, text in rows]

            for number, ids, vectors in _embed_reusing(encoder, to_embed(), previous, embedder):
                tmp = partial / f"chunk_{number:05d}.tmp.npz"
                np.savez(tmp, ids=ids, vectors=vectors)
                tmp.replace(partial / f"chunk_{number:05d}.npz")
                bar.update(len(ids))
        del previous

        def chunks() -> Iterator[np.ndarray]:
            for number in range(len(chunk_ids)):
                yield np.load(partial / f"chunk_{number:05d}.npz")["vectors"]

        return (np.concatenate(chunk_ids) if chunk_ids else np.zeros(0, dtype=np.int64)), chunks

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
            self._keys = keys if keys is not None and len(keys) == len(self) else _text_keys(store)[: len(self)]
        texts = [premise_text(title, text) for _, title, text in rows]
        vectors = encode(self.encoder, texts)
        ids = np.array([sid for sid, _, _ in rows], dtype=np.int64)
        index = faiss.clone_index(self.index)
        index.add(vectors)
        # published in this order so a search running meanwhile in another thread never meets an
        # index row without its id (vectors_of reads the index first, then the ids)
        self.sentence_ids = np.concatenate([self.sentence_ids, ids])
        self.index = index
        self._keys = np.concatenate([self._keys, np.array([_text_key(t) for t in texts], dtype=np.int64)])
        return len(rows)

    def save(self, store_fingerprint: str) -> None:
        """Write the index to its folder as the index of the store with ``store_fingerprint``."""
        if self.folder is None:
            raise ValueError("This dense index has no folder to be saved in.")
        if self._keys is None:
            raise ValueError("Nothing to save: the index is as it was loaded or built.")
        self.meta = {**self.meta, "store_fingerprint": store_fingerprint, "sentences": len(self)}
        with reporting_disk_full(self.folder, "saving the dense index"):
            _write_index(self.folder, self.index, self.sentence_ids, self._keys, self.meta)

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
                "vectors that are still good are reused.")
        return [
            DenseHit(int(self.sentence_ids[row]), float(score))
            for score, row in zip(scores[0], rows[0])
            if row >= 0
        ]

    def vectors_of(self, sentence_ids: list[int]) -> np.ndarray:
        """Stored embeddings of some sentences, shape ``(len(sentence_ids), dim)``; unknown ids get zeros. From a
        compressed index they are decoded from its codes (SQ8: within about 0.01 of the vector)."""
        index = self.index  # before the ids: a sentence being added meanwhile counts as unknown
        known_ids = self.sentence_ids[: index.ntotal]
        wanted = np.asarray(sentence_ids, dtype=np.int64)
        rows = np.searchsorted(known_ids, wanted)
        found = (rows < len(known_ids)) & (known_ids[np.minimum(rows, len(known_ids) - 1)] == wanted) \
            if len(known_ids) else np.zeros(len(wanted), dtype=bool)
        out = np.zeros((len(wanted), index.d), dtype=np.float32)
        if found.any():
            out[found] = index.reconstruct_batch(rows[found].astype(np.int64))
        return out
