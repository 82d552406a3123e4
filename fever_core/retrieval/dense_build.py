"""Building a dense sentence index's vectors: from the vectors shipped for its corpus, from those an earlier index (or
another corpus's) already has, or by embedding the store's sentences a chunk at a time, each chunk saved under
``dense.partial/`` as it is made so that a killed build resumes; stored vectors are trusted only when a spot check of
them, embedded again, comes out the same.

:func:`build_index` makes an index this way; :func:`embeds_alike` is the spot check an index opened as it is gets
when ``dense.json`` can't say which encoder made it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

from fever_core.common.text import premise_text
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.dense_files import (
    IDS_FILE,
    INDEX_FILE,
    KEYS_FILE,
    META_FILE,
    built_with,
    damaged_files,
    made_by,
    write_index,
)
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan, build_compressed, open_index
from fever_core.retrieval.encoder import ChunkEmbedder, EncoderIdentity, SentenceEncoder, encode
from fever_core.retrieval.shipped_vectors import ShippedVectors, store_texts, texts_checksum

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import faiss

log = logging.getLogger(__name__)

CHUNK = 4096
"""Sentences embedded, and saved under ``dense.partial/``, at a time."""
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


def embeds_alike(
    encoder: SentenceEncoder, index: faiss.Index, ids: np.ndarray, store: CorpusStore, plan: IndexPlan
) -> bool:
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


def _shipped_vectors(
    manifest: Path, store: CorpusStore, encoder: SentenceEncoder
) -> tuple[ShippedVectors, np.ndarray, np.ndarray] | None:
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
    log.info(
        "Built from the shipped vectors %s: %s sentences, %d of them embedded to check them.",
        manifest,
        f"{len(ids):,}",
        len(rows),
    )
    return shipped, ids, vectors


def text_key(text: str) -> int:
    """A 64-bit fingerprint of an embedded text, to reuse its vector when the corpus is rebuilt."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


def _text_keys_by_id(store: CorpusStore) -> dict[int, int]:
    """The text key of every sentence of a store by its row id, in row-id order (the order of an index's rows)."""
    return {sid: text_key(premise_text(t, x)) for batch in store.iter_sentence_texts() for sid, t, x in batch}


def text_keys(store: CorpusStore) -> np.ndarray:
    """The text keys of every sentence of a store, in row-id order (the order of an index's rows)."""
    parts = [
        np.array([text_key(premise_text(t, x)) for _, t, x in batch], dtype=np.int64)
        for batch in store.iter_sentence_texts(batch_size=CHUNK)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _previous_vectors(
    folder: Path, identity: EncoderIdentity, precision: str, store: CorpusStore
) -> dict[int, np.ndarray]:
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
            meta = built_with(json.loads(meta_path.read_text())) if meta_path.is_file() else None
            if meta is None and not own:
                continue
            # the own index of an encoder recorded by a path of another install is spot-checked with the rest
            if meta is not None and (
                made_by(meta, identity) not in ((True, None) if own else (True,))
                or meta["encoder_precision"] != precision
            ):
                continue
            if meta is not None and IndexPlan.from_meta(meta.get("index")).compressed:
                continue  # its codes are not the vectors, and it may be larger than memory
            if not (other / INDEX_FILE).is_file():
                continue
            damaged = damaged_files(other, meta) if meta is not None else []
            if not own and (damaged or meta is None or not {INDEX_FILE, KEYS_FILE} <= set(meta.get("checksums") or {})):
                log.warning(
                    "The vectors of corpus %s are not reused: %s. Its sentences are embedded again.",
                    other.name,
                    f"{', '.join(damaged)} differ from the checksums written with them"
                    if damaged
                    else "its index has no checksums to verify them by (opening that corpus records them)",
                )
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
            keys = [text_key(t) for t in texts]
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

    encoded = (
        embedder.map(missing_texts(), encoder.precision)
        if embedder
        else (encode(encoder, texts) for texts in missing_texts())
    )
    for fresh in encoded:
        number, ids, keys, missing, known = waiting.popleft()
        out = np.zeros((len(keys), encoder.dimension()), dtype=np.float32)
        for i, key in enumerate(keys):
            if key in known:
                out[i] = known[key]
        out[missing] = fresh
        yield number, ids, out


def build_index(
    store: CorpusStore,
    folder: Path,
    encoder: SentenceEncoder,
    meta: dict[str, Any],
    progress: bool,
    embedder: ChunkEmbedder | None = None,
    shipped: Path | None = None,
) -> tuple[faiss.Index, np.ndarray, dict[str, Any]]:
    """Make the index the plan in ``meta["index"]`` says from the shipped vectors of manifest ``shipped`` when
    they are the store's (:func:`_shipped_vectors`), else from the store's sentences embedded a chunk at a time
    (:func:`_embed_chunks`), reading the chunks back one by one, and write its files
    (:func:`~fever_core.retrieval.dense_files.write_index`).

    Returns:
        The index (a compressed one memory-mapped, as it is served), its rows' sentence ids, and its ``dense.json``.
    """
    import faiss

    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / "dense.partial"
    found = _shipped_vectors(shipped, store, encoder) if shipped is not None else None
    if found is not None:
        made_from, ids, shipped_rows = found
        meta = {**meta, "shipped_vectors": {"file": made_from.file, "file_checksum": made_from.file_checksum}}

        def chunks() -> Iterator[np.ndarray]:
            yield from (shipped_rows[start : start + CHUNK] for start in range(0, len(shipped_rows), CHUNK))
    else:
        ids, chunks = _embed_chunks(store, partial, encoder, meta, progress, embedder)
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
        raise RuntimeError(
            f"The dense index built in {folder} has {index.ntotal:,} vectors for {len(ids):,} sentences: not written."
        )
    meta = {**meta, "sentences": len(ids), "dim": int(dim), "build_seconds": round(time.perf_counter() - started, 1)}
    write_index(folder, index, ids, text_keys(store), meta)
    shutil.rmtree(partial, ignore_errors=True)
    if plan.compressed:
        index = open_index(folder / INDEX_FILE, plan)  # served memory-mapped, as it will be when opened again
    return index, ids, meta


def _embed_chunks(
    store: CorpusStore,
    partial: Path,
    encoder: SentenceEncoder,
    meta: dict[str, Any],
    progress: bool,
    embedder: ChunkEmbedder | None,
) -> tuple[np.ndarray, Callable[[], Iterator[np.ndarray]]]:
    """Embed the store's sentences a chunk at a time into ``partial`` (``dense.partial/``: a killed build resumes
    from the chunks saved), reusing vectors already computed (:func:`_previous_vectors`). Returns the sentences'
    row ids and a function yielding the chunks' vectors in order, read back one by one: memory holds one chunk and
    the index (a compressed one: its training sample and one shard)."""
    folder = partial.parent
    stamp, embedded = partial / "build.json", {k: v for k, v in meta.items() if k != "index"}
    if partial.is_dir() and (not stamp.is_file() or built_with(json.loads(stamp.read_text())) != embedded):
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
