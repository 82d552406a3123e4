"""FEVER's whole Wikipedia as it comes: ``wiki-pages.zip`` or its unzipped folder of ``wiki-NNN.jsonl`` files.

The June 2017 dump (5,416,537 pages in 109 files) is streamed file by file and line by line, never
unpacked or held in memory; each line is a page in the format :mod:`~fever_core.corpus.sources.fever_jsonl`
reads. Its pages carry their own hyperlinks, so they are not anchored again by title matching.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from fever_core.corpus.sources.base import CorpusSourceError
from fever_core.corpus.sources.fever_jsonl import FeverRecordPages, count_pages, page_records

MEMBER_RE = re.compile(r"(^|/)wiki-\d+\.jsonl$")
"""A file of the dump: ``wiki-001.jsonl`` ... ``wiki-109.jsonl``, at any depth (the zip has ``wiki-pages/``)."""


class FeverWikiSource(FeverRecordPages):
    """Pages from FEVER's ``wiki-pages`` zip or folder, in file-name order then line order.

    Args:
        path: ``wiki-pages.zip``, or the folder it unpacks to (``wiki-NNN.jsonl`` files in it or below it).
    """

    carries_links = True

    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"fever-wiki:{self.path.name}"

    def _is_zip(self) -> bool:
        if not self.path.exists():
            raise CorpusSourceError(
                f"{self.path} does not exist: give FEVER's wiki-pages.zip or the wiki-pages folder it unpacks to "
                "(--source fever-wiki:PATH)."
            )
        return self.path.is_file()

    def members(self) -> list[str]:
        """The dump's files, sorted: paths relative to the folder, or names inside the zip."""
        if self._is_zip():
            try:
                with zipfile.ZipFile(self.path) as archive:
                    names = [info.filename for info in archive.infolist() if not info.is_dir()]
            except (zipfile.BadZipFile, OSError) as exc:
                raise CorpusSourceError(
                    f"{self.path} is not a readable zip ({exc}): download wiki-pages.zip "
                    "again, or give the folder it unpacks to."
                ) from None
        else:
            names = [p.relative_to(self.path).as_posix() for p in self.path.rglob("wiki-*.jsonl")]
        found = sorted(name for name in names if MEMBER_RE.search(name))
        if not found:
            raise CorpusSourceError(
                f"{self.path} has no wiki-NNN.jsonl files: it should be FEVER's wiki-pages.zip or its unzipped "
                "wiki-pages folder (for one jsonl file use --source fever:FILE.jsonl)."
            )
        return found

    def fingerprint(self) -> str:
        if self._is_zip():
            stat = self.path.stat()
            parts = [f"{self.path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"]
        else:
            parts = [str(self.path.resolve())]
            for name in self.members():
                stat = (self.path / name).stat()
                parts.append(f"{name}|{stat.st_size}|{stat.st_mtime_ns}")
        return hashlib.sha1("\n".join(parts).encode()).hexdigest()

    @contextmanager
    def _open(self, name: str) -> Iterator[IO[bytes]]:
        if self._is_zip():
            with zipfile.ZipFile(self.path) as archive, archive.open(name) as member:
                yield member
        else:
            with (self.path / name).open("rb") as member:
                yield member

    def _records(self, start: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
        """Page records from the ``start``-th page on; the pages before it are counted, not parsed."""
        for name in self.members():
            where = f"{self.path}:{name}" if self._is_zip() else str(self.path / name)
            pages_in_file = 0

            def counted(lines: IO[bytes]) -> Iterator[bytes]:
                nonlocal pages_in_file
                for raw in lines:
                    pages_in_file += bool(raw.strip())
                    yield raw

            try:
                with self._open(name) as lines:
                    for located in page_records(counted(lines), where, start):
                        start = 0
                        yield located
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
                raise CorpusSourceError(
                    f"{where} can't be read ({exc}): the dump is damaged; download it again."
                ) from None
            start = max(0, start - pages_in_file)

    def count_pages(self) -> int:
        total = 0
        for name in self.members():
            with self._open(name) as lines:
                total += count_pages(lines)
        return total
