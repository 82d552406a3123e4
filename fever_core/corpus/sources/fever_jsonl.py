"""FEVER ``wiki-pages`` jsonl files, streamed one page at a time.

The page format (``{"id", "text", "lines"}`` a line) is read here for every FEVER source: one file
(:class:`FeverJsonlSource`) and the whole dump as it comes (:mod:`~fever_core.corpus.sources.fever_wiki`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fever_core.common.formats import line_number
from fever_core.common.jsonl import read_jsonl
from fever_core.common.text import fever_to_plain, page_id_to_title, title_to_page_id
from fever_core.common.types import Link, Page, Sentence
from fever_core.corpus.sources.base import CorpusSourceError


def parse_lines_field(page_id: str, lines: str) -> list[Sentence]:
    """Parse FEVER's ``lines`` field: ``index \\t sentence [\\t anchor \\t target]*`` per line.

    Empty sentences (indices whose text FEVER leaves out) are dropped; indices are kept exact.
    Link targets may be titles or page ids; both become page ids.

    Raises:
        ValueError: an index too large for a store (:func:`~fever_core.common.formats.line_number`).
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


def page_records(lines: Iterable[str | bytes], name: str, start: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """The page records of a FEVER jsonl stream, from the ``start``-th page on (blank lines don't count), each
    with where it is (``"NAME:LINE"``, for messages).

    The pages before ``start`` are skipped without being parsed, so a resumed build passes them quickly.
    Raises :class:`CorpusSourceError` naming ``name`` and the line for a line that is not a page.
    """

    def skipping() -> Iterator[str | bytes]:
        skipped = 0
        for raw in lines:
            if skipped < start and raw.strip():
                skipped += 1
                yield raw[:0]  # read_jsonl passes blank lines and keeps counting them: line numbers stay true
            else:
                yield raw

    for number, record in read_jsonl(skipping(), name, error=CorpusSourceError):
        if not isinstance(record.get("id"), str) or not record["id"]:
            raise CorpusSourceError(
                f'{name}:{number}: expected an object with a non-empty string "id" '
                "(FEVER wiki-pages format). Fix or remove that line and rebuild."
            )
        yield f"{name}:{number}", record


def count_pages(lines: Iterable[str | bytes]) -> int:
    """The number of pages (non-blank lines) in a FEVER jsonl stream, without parsing them."""
    return sum(1 for raw in lines if raw.strip())


def page_from_record(record: dict[str, Any], source: str, where: str) -> Page:
    """The page of one FEVER record: its ``lines`` when it has them, else its ``text`` as line 0.

    Raises :class:`CorpusSourceError` naming ``where`` (``"FILE:LINE"``) for ``lines`` that can't be stored.
    """
    page_id = record["id"]
    lines = record.get("lines")
    if isinstance(lines, str) and lines.strip():
        try:
            sentences = parse_lines_field(page_id, lines)
        except ValueError as exc:
            raise CorpusSourceError(f'{where}: {exc} in "lines". Fix or remove that line and rebuild.') from None
    else:
        sentences = [Sentence(page_id, 0, fever_to_plain(str(record.get("text") or "")))]
        sentences = [s for s in sentences if s.text]
    return Page(page_id, page_id_to_title(page_id), sentences, source=source)


class FeverRecordPages:
    """Titles and pages from FEVER page records: what the ``fever:`` and ``fever-wiki:`` sources share. A subclass
    gives ``name`` and ``_records(start)``, its page records in order from the ``start``-th, each with where
    it is (:func:`page_records`)."""

    name: str

    def _records(self, start: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
        raise NotImplementedError

    def iter_titles(self) -> Iterator[tuple[str, str]]:
        for _, record in self._records():
            yield record["id"], page_id_to_title(record["id"])

    def iter_pages(self, start: int = 0) -> Iterator[Page]:
        for where, record in self._records(start):
            yield page_from_record(record, self.name, where)


class FeverJsonlSource(FeverRecordPages):
    """Pages from a FEVER ``wiki-pages`` jsonl file (``{"id", "text", "lines"}`` per line).

    The file is read line by line, so a multi-gigabyte dump never sits in memory. Blank lines are
    skipped; a line that is not a JSON page raises :class:`CorpusSourceError` naming file and line.
    Pages without links of their own get links anchored by title matching when the corpus is built.
    """

    carries_links = False

    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"fever:{self.path.name}"

    def fingerprint(self) -> str:
        stat = self._stat()
        return hashlib.sha1(f"{self.path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()

    def _stat(self) -> os.stat_result:
        try:
            return self.path.stat()
        except FileNotFoundError:
            raise CorpusSourceError(
                f"Corpus file {self.path} does not exist. Check the path"
                + (
                    " (the shared benchmark data lives in ../shared/data/corpus/)."
                    if "shared" in str(self.path)
                    else "."
                )
            ) from None

    def _records(self, start: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
        self._stat()
        with self.path.open("rb") as lines:  # bytes: read_jsonl names a line that is not UTF-8
            yield from page_records(lines, str(self.path), start)

    def count_pages(self) -> int:
        self._stat()
        with self.path.open("rb") as lines:
            return count_pages(lines)
