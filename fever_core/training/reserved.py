"""The embedded pages kept for held-out measurement (``../shared/data/reserved-pages.txt``): no training input may
come from them.

389 titles of the embedded corpus whose claims are measured by hand-written sets the project does not hold. Every
trained model and fit leaves them out: the distractor pool and the generated claims never read their sentences
(:func:`~fever_core.training.distractors.load_embedded_pool`), and a training pair whose premise quotes one of them
or whose ``pages`` name one is dropped (:func:`~fever_core.training.pairs.build_training_pairs`). Without the shared
data folder (a user's fresh clone) nothing is reserved.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from fever_core.common.settings import SHARED_DATA_DIR
from fever_core.common.text import page_id_to_title

RESERVED_PAGES_FILE = SHARED_DATA_DIR / "reserved-pages.txt"
"""One title a line, as the embedded store names them; ``FEVER_RESERVED_PAGES`` names another file."""


def reserved_pages_file() -> Path:
    """The reserved titles' file in effect: ``FEVER_RESERVED_PAGES`` when set, else :data:`RESERVED_PAGES_FILE`."""
    return Path(os.environ.get("FEVER_RESERVED_PAGES") or RESERVED_PAGES_FILE)


@lru_cache(maxsize=4)
def _read(path: Path) -> frozenset[str]:
    if not path.is_file():
        return frozenset()
    return frozenset(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def reserved_titles(path: Path | None = None) -> frozenset[str]:
    """The reserved page titles (empty when the file is absent)."""
    return _read(Path(path) if path is not None else reserved_pages_file())


def names_reserved(premise: str, pages: Iterable[str], reserved: frozenset[str]) -> bool:
    """Whether a pair comes from a reserved page: one of its ``pages`` (titles or FEVER page ids) is reserved, or
    its premise quotes one (``"Title: sentence"``, alone or after another sentence of a chain)."""
    if not reserved:
        return False
    if any(page_id_to_title(str(page)) in reserved for page in pages):
        return True
    head = premise.split(": ", 1)[0]
    if head in reserved:
        return True
    return ": " in premise[len(head) + 2 :] and any(f" {title}: " in premise for title in reserved)
