"""Claim lists: what a batch check reads, labels and evidence optional: plain text (one claim a line), CSV (a
``claim`` column, optional ``label`` and ``id``) or claims jsonl (FEVER's claims format, :mod:`~fever_core.common.formats`)."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from fever_core.common.formats import Claim, DataFileError, checked_evidence, checked_label, claim_id_of
from fever_core.common.jsonl import decode_utf8, read_jsonl

CLAIM_LIST_KINDS = ("txt", "csv", "jsonl")
MAX_LIST_CLAIMS = 100_000
"""Claims a claim list may hold by default (:func:`read_claim_list`): a day's checking on a CPU at about a second a
claim. ``check-batch --max-claims`` raises it."""
_KIND_OF_SUFFIX = {".txt": "txt", ".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl"}


def claim_list_kind(name: str, text: str) -> str:
    """How a claim list is written, one of :data:`CLAIM_LIST_KINDS`: by the suffix of ``name`` (``.txt``,
    ``.csv``, ``.jsonl`` or ``.json``); else by ``text``: a first line that opens a JSON object is jsonl, a
    first line with a ``claim`` column is CSV, anything else is one claim a line."""
    kind = _KIND_OF_SUFFIX.get(Path(name).suffix.lower())
    if kind:
        return kind
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if first.startswith("{"):
        return "jsonl"
    return "csv" if "claim" in _column_names(next(csv.reader([first]))) else "txt"


def _column_names(header: Sequence[str]) -> list[str]:
    """A CSV header's column names as the reader matches them: trimmed, lower case."""
    return [column.strip().lower() for column in header]


def _optional_label(name: str, number: int, label: object) -> str | None:
    """A claim list's label: ``None`` when absent or blank, else a FEVER label in any letter case."""
    if label is None or (isinstance(label, str) and not label.strip()):
        return None
    return checked_label(Path(name), number, label.strip().upper() if isinstance(label, str) else label)


def _listed_claim(name: str, number: int, claim_id: object, text: object, label: object, evidence: object) -> Claim:
    """A claim of a claim list, or :class:`DataFileError` naming ``name:number`` and what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise DataFileError(f"{name}:{number}: the claim is empty.")
    return checked_evidence(
        name,
        number,
        Claim(
            claim_id_of(name, number, claim_id),
            text.strip(),
            _optional_label(name, number, label),
            cast("list[Any]", evidence or []),
        ),
    )  # checked next


def _text_claims(text: str, name: str) -> Iterator[Claim]:
    return (
        _listed_claim(name, number, number, line, None, None)
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip()
    )


def _csv_claims(text: str, name: str) -> Iterator[Claim]:
    reader = csv.DictReader(io.StringIO(text))
    reader.fieldnames = _column_names(reader.fieldnames or [])
    if "claim" not in reader.fieldnames:
        raise DataFileError(
            f'{name}: a CSV claim list needs a "claim" column (and may have "label" and "id"); '
            f"its columns are: {', '.join(reader.fieldnames) or 'none'}."
        )
    return (_listed_claim(name, reader.line_num, row.get("id"), row["claim"], row.get("label"), None) for row in reader)


def _jsonl_claims(text: str, name: str) -> Iterator[Claim]:
    return (
        _listed_claim(name, number, record.get("id"), record.get("claim"), record.get("label"), record.get("evidence"))
        for number, record in read_jsonl(io.StringIO(text, newline=None), name, DataFileError)
    )


_READERS = {"txt": _text_claims, "csv": _csv_claims, "jsonl": _jsonl_claims}


def read_claim_list(text: str, name: str = "claims.txt", max_claims: int = MAX_LIST_CLAIMS) -> list[Claim]:
    """Read a list of claims to check, labelled or not.

    Args:
        text: the list: plain text, one claim a line (blank lines skipped); CSV with a header, a ``claim``
            column and optional ``label`` and ``id`` columns; or jsonl in FEVER's claims format, where
            ``label``, ``evidence`` and ``id`` are optional. How it is written is told by
            :func:`claim_list_kind`.
        name: the file's name, for its suffix and for messages.
        max_claims: the most claims the list may hold (0: no limit); default :data:`MAX_LIST_CLAIMS`. A longer
            list is refused as soon as its claim ``max_claims + 1`` is read.

    Returns:
        The claims in list order; an unlabelled one has ``label`` None, one without an id the number of
        its line.

    Raises:
        DataFileError: naming ``name:line`` for an empty claim, an id that is neither a number nor a text, an
            unknown label or malformed evidence; for a list without claims, and one of more than ``max_claims``.
    """
    text = text.removeprefix("\ufeff")
    read = _READERS[claim_list_kind(name, text)](text, name)
    claims = list(itertools.islice(read, max_claims + 1) if max_claims else read)
    if max_claims and len(claims) > max_claims:
        raise DataFileError(
            f"{name} has more than {max_claims:,} claims, the most a list may hold (checking that "
            f"many takes about a day on a CPU): split it into shorter lists, or raise the limit "
            f"(check-batch --max-claims N; 0 for none)."
        )
    if not claims:
        raise DataFileError(f'{name} has no claims: write one claim a line (or a CSV with a "claim" column).')
    return claims


def load_claim_list(path: str | Path, max_claims: int = MAX_LIST_CLAIMS) -> list[Claim]:
    """Read the claim list file at ``path`` (see :func:`read_claim_list`)."""
    path = Path(path)
    if not path.is_file():
        raise DataFileError(f"{path} does not exist. Check the path.")
    return read_claim_list(decode_utf8(path.read_bytes(), str(path), error=DataFileError), str(path), max_claims)


__all__ = ["CLAIM_LIST_KINDS", "MAX_LIST_CLAIMS", "claim_list_kind", "load_claim_list", "read_claim_list"]
