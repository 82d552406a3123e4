"""Checksums of files written here and checked when they are read again (indexes, exported models)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_checksum(path: Path) -> str:
    """BLAKE2b (16 bytes, hex) of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.blake2b(digest_size=16)
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
