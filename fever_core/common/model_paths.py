"""Telling a local model directory from a Hugging Face hub id, for clear errors before loading."""

from __future__ import annotations

from pathlib import Path


def missing_local_model(name_or_path: str) -> Path | None:
    """The path, when ``name_or_path`` names a local directory (absolute, ``./``, ``~`` or existing)
    that holds no model (no ``config.json``); ``None`` for a model directory or a hub id."""
    local = Path(name_or_path).expanduser()
    looks_local = Path(name_or_path).is_absolute() or name_or_path.startswith((".", "~")) or local.exists()
    return local if looks_local and not (local / "config.json").is_file() else None
