"""Sentence-transformers bi-encoder, loaded once per (model, device)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from fever_core.device import select_device

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


@lru_cache(maxsize=4)
def load_encoder(name_or_path: str, device: str = "auto") -> SentenceTransformer:
    """Load a sentence-transformers model from a local path or a (cached) hub id."""
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(name_or_path, device=select_device(device))
    except OSError as exc:
        raise RuntimeError(
            f"Can't load the encoder {name_or_path!r}: not a local model folder, not in the Hugging Face "
            "cache, and the hub can't be reached. Set FEVER_ENCODER_MODEL to a local path."
        ) from exc


def encode(encoder: SentenceTransformer, texts: list[str], batch_size: int = 64) -> np.ndarray:
    """L2-normalised float32 embeddings, shape ``(len(texts), dim)``; inner product = cosine."""
    if not texts:
        return np.zeros((0, encoder.get_embedding_dimension()), dtype=np.float32)
    vectors = encoder.encode(
        texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    return np.ascontiguousarray(vectors, dtype=np.float32)
