"""Sentence vectors shipped with the project, so that a corpus's first build need not embed its sentences.

Embedding the embedded corpus's 36,233 sentences takes about 3 minutes on two CPU cores, most of a first ``make run``
(``benchmarks/startup/README.md``). ``assets/models/embedded-vectors/NAME.npz`` holds them, made once by
``python -m fever_core corpus export-vectors NAME`` (:func:`export_vectors`), in 8 bits: each vector as int8 codes with
one scale (``vector ≈ codes * scale``, normalised again), 4x smaller than float32, each within
:data:`QUANTISATION_ERROR` of the encoder's vector (a cosine of 0.9999 at least). ``NAME.json`` beside it, the
manifest, keys them by what produced them: the checksum of the texts embedded in the order of the index's rows
(:func:`texts_checksum`), the encoder's identity (its name and its weights' checksum), its precision and export version,
and the file's own checksum.

A dense index build (:meth:`~fever_core.retrieval.dense.DenseSentenceIndex.build_or_load`) uses them only when all of
these match and :data:`~fever_core.retrieval.dense_build.SPOT_CHECK` of them, embedded again, come out the same up to
the arithmetic of the CPU (:func:`~fever_core.retrieval.dense_build.same_vectors`); otherwise it says why in one log
line and embeds as it always did.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from fever_core.common.checksums import file_checksum
from fever_core.common.text import premise_text
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.encoder import EXPORT_VERSION, EncoderIdentity, SentenceEncoder, encode

DTYPE = "int8"
"""How the shipped vectors are stored: 13.9 MB for the embedded corpus (float16 would be 27.8 MB, float32 55.7 MB)."""
QUANTISATION_ERROR = 1.5e-3
"""The most a shipped vector's element may differ from the encoder's (measured: 1.2e-3 at most over the embedded
corpus; ``benchmarks/startup/README.md``); :func:`export_vectors` refuses to write vectors further off."""


def texts_checksum(texts: Iterable[str]) -> str:
    """BLAKE2b (16 bytes, hex) of texts in order: what a set of vectors was made from."""
    digest = hashlib.blake2b(digest_size=16)
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes of shape ``(n, dim)`` and a float32 scale a row (its largest element over 127)."""
    scales = np.maximum(np.abs(vectors).max(axis=1), 1e-12).astype(np.float32) / 127
    codes = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return codes, scales


def dequantise(codes: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """Unit-length float32 vectors from :func:`quantise`'s codes and scales."""
    vectors = codes.astype(np.float32) * scales[:, None]
    unit: np.ndarray = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return unit


@dataclass(frozen=True)
class ShippedVectors:
    """The manifest of a shipped vectors file (``NAME.json`` beside ``NAME.npz``): what made the vectors.

    Attributes:
        corpus: the corpus they were exported from.
        sentences: how many vectors (one a sentence, in the order of the index's rows).
        dim: a vector's length.
        dtype: :data:`DTYPE`.
        texts_checksum: :func:`texts_checksum` of the texts embedded (``"Title: sentence"``, row order).
        encoder: the encoder's :attr:`EncoderIdentity.name`.
        encoder_checksum: its weights' checksum (:attr:`EncoderIdentity.checksum`).
        encoder_precision: ``int8`` or ``fp32``, the precision it ran at.
        encoder_export: the ONNX export's :data:`~fever_core.retrieval.encoder.EXPORT_VERSION`.
        file: the vectors file's name, beside the manifest.
        file_checksum: :func:`~fever_core.common.checksums.file_checksum` of that file.
    """

    corpus: str
    sentences: int
    dim: int
    dtype: str
    texts_checksum: str
    encoder: str
    encoder_checksum: str
    encoder_precision: str
    encoder_export: str
    file: str
    file_checksum: str

    @classmethod
    def read(cls, manifest: Path) -> ShippedVectors:
        """Read a manifest (raises ``OSError``, ``ValueError`` or ``TypeError`` when it can't be read)."""
        return cls(**json.loads(Path(manifest).read_text(encoding="utf-8")))

    def mismatch(self, texts: str, identity: EncoderIdentity, precision: str) -> str | None:
        """Why these vectors are not those of the texts with checksum ``texts`` embedded by ``identity`` at
        ``precision``; ``None`` when they are."""
        if texts != self.texts_checksum:
            return "the corpus's sentences are not the ones they were made from (another version of its source?)"
        if not identity.same_model(EncoderIdentity(self.encoder, self.encoder_checksum)):
            return f"they were made by the encoder {self.encoder} ({self.encoder_checksum}), not {identity.name}"
        if precision != self.encoder_precision or self.encoder_export != EXPORT_VERSION:
            return (
                f"they were made by the encoder at {self.encoder_precision} (export {self.encoder_export}), this "
                f"build's runs at {precision} (export {EXPORT_VERSION})"
            )
        return None

    def load(self, folder: Path) -> np.ndarray:
        """The vectors, float32 of shape ``(sentences, dim)``, unit length.

        Raises:
            ValueError: the file does not match its checksum or shape (damaged).
        """
        path = Path(folder) / self.file
        if file_checksum(path) != self.file_checksum:
            raise ValueError(f"{path} does not match the checksum in its manifest (damaged)")
        with np.load(path) as data:
            codes, scales = data["codes"], data["scales"]
        if codes.shape != (self.sentences, self.dim) or scales.shape != (self.sentences,):
            raise ValueError(f"{path} holds {codes.shape} codes, its manifest says ({self.sentences}, {self.dim})")
        return dequantise(codes, scales)


def write_shipped(
    folder: Path, corpus: str, vectors: np.ndarray, texts: str, identity: EncoderIdentity, precision: str
) -> ShippedVectors:
    """Write ``vectors`` (float32, unit length, one a text) as ``folder/<corpus>.npz`` and its manifest
    ``folder/<corpus>.json``, each through a temporary file.

    Args:
        texts: :func:`texts_checksum` of the texts the vectors were made from, in order.
        identity, precision: the encoder that made them, and its precision.

    Raises:
        ValueError: a vector is further than :data:`QUANTISATION_ERROR` from its codes (not a unit vector).
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    codes, scales = quantise(vectors)
    error = float(np.abs(dequantise(codes, scales) - vectors).max(initial=0.0))
    if error > QUANTISATION_ERROR:
        raise ValueError(
            f"int8 codes are {error:.4f} off the vectors (at most {QUANTISATION_ERROR} expected): are they unit length?"
        )
    tmp = folder / f".{corpus}.tmp.npz"
    np.savez_compressed(tmp, codes=codes, scales=scales)
    os.replace(tmp, folder / f"{corpus}.npz")
    shipped = ShippedVectors(
        corpus,
        len(codes),
        int(codes.shape[1]),
        DTYPE,
        texts,
        identity.name,
        identity.checksum,
        precision,
        EXPORT_VERSION,
        f"{corpus}.npz",
        file_checksum(folder / f"{corpus}.npz"),
    )
    tmp = folder / f".{corpus}.tmp.json"
    tmp.write_text(json.dumps(asdict(shipped), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, folder / f"{corpus}.json")
    return shipped


def store_texts(store: CorpusStore, batch_size: int = 4096) -> tuple[np.ndarray, list[str]]:
    """The row ids of a store's sentences and the texts their vectors are made from (``"Title: sentence"``), in row
    order (the order of a dense index's rows)."""
    ids: list[int] = []
    texts: list[str] = []
    for batch in store.iter_sentence_texts(batch_size=batch_size):
        ids.extend(sid for sid, _, _ in batch)
        texts.extend(premise_text(title, text) for _, title, text in batch)
    return np.array(ids, dtype=np.int64), texts


def export_vectors(
    store: CorpusStore, encoder: SentenceEncoder, folder: Path, corpus: str, progress: bool = True, batch: int = 4096
) -> ShippedVectors:
    """Embed every sentence of ``store`` afresh with ``encoder`` (never from an index: those may hold shipped vectors)
    and write them to ``folder`` as corpus ``corpus``'s shipped vectors (:func:`write_shipped`). About 3 minutes for
    the embedded corpus on two CPU cores.

    Args:
        batch: texts embedded a call (the progress bar moves by this many).
    """
    _, texts = store_texts(store)
    parts = []
    with tqdm(total=len(texts), desc=f"Embedding {corpus}'s sentences", unit="sent", disable=not progress) as bar:
        for start in range(0, len(texts), batch):
            parts.append(encode(encoder, texts[start : start + batch]))
            bar.update(len(parts[-1]))
    vectors = np.concatenate(parts) if parts else np.zeros((0, encoder.dimension()), dtype=np.float32)
    return write_shipped(folder, corpus, vectors, texts_checksum(texts), encoder.identity, encoder.precision)
