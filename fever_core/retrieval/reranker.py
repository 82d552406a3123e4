"""An optional sentence re-ranker: a one-output cross-encoder that re-orders the top sentences (see
:class:`~fever_core.retrieval.fused.DenseSentenceSelector`). None ships; any sentence-transformers
``CrossEncoder`` id or local path can be set with ``FEVER_SELECTOR_MODEL``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fever_core.common.device import select_device
from fever_core.common.model_paths import missing_local_model

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder


def load_reranker(model: str, device: str = "auto") -> CrossEncoder:
    """Load the re-ranker ``model`` (a local directory or hub id) on ``device``.

    Raises:
        FileNotFoundError: a local path without a model in it.
        RuntimeError: a hub id that is not cached while the hub can't be reached.
        ValueError: a cross-encoder with more than one output (a classifier, not a re-ranker).
    """
    from sentence_transformers import CrossEncoder

    local = missing_local_model(model)
    if local is not None:
        raise FileNotFoundError(
            f"No sentence re-ranker at {local} (no config.json): fix FEVER_SELECTOR_MODEL, "
            "or set it empty to select sentences without one."
        )
    try:
        reranker: CrossEncoder = CrossEncoder(model, device=select_device(device))
    except OSError as exc:
        raise RuntimeError(
            f"Can't load the sentence re-ranker {model!r} (FEVER_SELECTOR_MODEL): it is not a "
            f"local model directory and is not in the Hugging Face cache, and the hub can't be reached "
            f"({exc.__class__.__name__}). Set FEVER_SELECTOR_MODEL= to select sentences without one."
        ) from exc
    if reranker.num_labels != 1:
        raise ValueError(
            f"The sentence re-ranker {model!r} has {reranker.num_labels} outputs; a re-ranker "
            "scores relevance with one (a sentence-transformers CrossEncoder such as an MS MARCO re-ranker)."
        )
    return reranker
