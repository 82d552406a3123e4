"""FEVER ``wiki-pages`` jsonl files, streamed one page at a time."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from fever_core.corpus.sources.base import CorpusSourceError
from fever_core.formats import line_number
from fever_core.jsonl import read_jsonl
from fever_core.text import fever_to_plain, page_id_to_title, title_to_page_id
from fever_core.types import Link, Page, Sentence


def parse_lines_field(page_id: str, lines: str) -> list[Sentence]:
    """Parse FEVER's ``lines`` field: ``index \\t sentence [\\t anchor \\t target]*`` per line.

    Empty sentences (indices whose text FEVER leaves out) are dropped; indices are kept exact.
    Link targets may be titles or page ids; both become page ids.

    Raises:
        ValueError: an index too large for a store (:func:`~fever_core.formats.line_number`).
    """
    sentences = []
    for row in lines.split("\n"):
        parts = row.split("\t")
        if len(parts) < 2 or not parts[0].strip().isdecimal():
            continue
        text = fever_to_plain(parts[1])
        if not text:
            continue
        extras = parts[2:]
        links = [
            Link(fever_to_plain(anchor), title_to_page_id(page_id_to_title(target)))
            for anchor, target in zip(extras[0::2], extras[1::2])
            if anchor.strip() and target.strip()
        ]
        sentences.append(Sentence(page_id, line_number(parts[0]), text, links))
    return sentences


class FeverJsonlSource:
    """Pages from a FEVER ``wiki-pages`` jsonl file (``{"id", "text", "lines"}`` per line).

    The file is read line by line, so a multi-gigabyte dump never sits in memory. Blank lines are
    skipped; a line that is not a JSON page raises :class:`CorpusSourceError` naming file and line.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"fever:{self.path.name}"

    def fingerprint(self) -> str:
        stat = self._stat()
        return hashlib.sha1(f"{self.path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()

    def _stat(self):
        try:
            return self.path.stat()
        except FileNotFoundError:
            raise CorpusSourceError(
                f"Corpus file {self.path} does not exist. Check the path"
                + (" (the shared benchmark data lives in ../shared/data/corpus/)." if "shared" in str(self.path) else ".")
            ) from None

    def _records(self) -> Iterator[tuple[int, dict]]:
        self._stat()
        for number, record in read_jsonl(self.path, error=CorpusSourceError):
            if not isinstance(record.get("id"), str) or not record["id"]:
                raise CorpusSourceError(
                    f"{self.path}:{number}: expected an object with a non-empty string \"id\" "
                    "(FEVER wiki-pages format). Fix or remove that line and rebuild."
                )
            yield number, record

    def iter_titles(self) -> Iterator[tuple[str, str]]:
        for _, record in self._records():
            yield record["id"], page_id_to_title(record["id"])

    def iter_pages(self) -> Iterator[Page]:
        for number, record in self._records():
            page_id = record["id"]
            lines = record.get("lines")
            if isinstance(lines, str) and lines.strip():
                try:
                    sentences = parse_lines_field(page_id, lines)
                except ValueError as exc:
                    raise CorpusSourceError(f"{self.path}:{number}: {exc} in \"lines\". Fix or remove that line and "
                                            "rebuild.") from None
            else:
                sentences = [Sentence(page_id, 0, fever_to_plain(str(record.get("text") or "")))]
                sentences = [s for s in sentences if s.text]
            yield Page(page_id, page_id_to_title(page_id), sentences, source=self.name)
