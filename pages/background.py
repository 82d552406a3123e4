"""Batches of checks running in the background, kept for the whole server: the page that starts one (Batch, Check a
text) names it in its address, so that a reload, a visit to another page and back, or another tab finds it again."""

from __future__ import annotations

from typing import Any

import streamlit as st

FINISHED_KEPT = 20  # finished batches of each kind kept (for reloads and downloads) before the oldest is let go


@st.cache_resource
def kept_batches(kind: str) -> dict[str, Any]:
    """Every batch of one kind ("batch", "text") of this app run, by job id, shared by all sessions (a reload is a
    new session): what the page knows of it, with its :class:`~fever_core.evaluation.BatchJob` as ``.job``."""
    return {}


def keep_batch(kind: str, batch: Any) -> None:
    """Register a batch (anything with its job as ``.job``), letting go of the oldest finished ones of its kind
    beyond :data:`FINISHED_KEPT`."""
    registry = kept_batches(kind)
    registry[batch.job.job_id] = batch
    finished = [job_id for job_id, kept in registry.items() if not kept.job.running]
    for job_id in finished[:-FINISHED_KEPT]:
        registry.pop(job_id, None)
