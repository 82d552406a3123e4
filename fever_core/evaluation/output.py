"""Results written out: a results table as CSV (:class:`ResultsTable`, every cell neutralised so that no spreadsheet
runs it as a formula), FEVER prediction lines, and :class:`ResultsFile`, which writes each row as it comes, so a batch
that stops keeps what it finished and the next run goes on from there.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self, TextIO

from fever_core.common.formats import Claim
from fever_core.evaluation.runner import BatchRow

log = logging.getLogger(__name__)

RESULT_COLUMNS = (
    "id",
    "claim",
    "label",
    "verdict",
    "confidence",
    "undecided",
    "deciding_page",
    "deciding_line",
    "deciding_sentence",
    "error",
)
"""The columns of a results table, in order (:meth:`~fever_core.evaluation.runner.BatchRow.record`). ``undecided``:
``true`` for a NOT ENOUGH INFO verdict no sentence settles, whose deciding sentences are the ones to read."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may read as the start of a formula (OWASP's list for CSV injection)."""


def spreadsheet_cell(value: object) -> object:
    """``value`` as a CSV cell that no spreadsheet runs: text starting with one of :data:`FORMULA_STARTS` gets a
    leading ``'`` (OWASP's rule), so ``=HYPERLINK(...)`` shows as text; anything else as it is."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def _csv_text(cells: Sequence[object]) -> str:
    """One CSV record, as every results table writes it (``\\r\\n`` ended; ``None`` an empty cell)."""
    out = io.StringIO()
    csv.writer(out).writerow(cells)
    return out.getvalue()


def _table_row(record: Mapping[str, object], columns: Sequence[str] = RESULT_COLUMNS) -> str:
    """A results-table record as a CSV line: each of ``columns``' cells through :func:`spreadsheet_cell`."""
    return _csv_text([spreadsheet_cell(record.get(column)) for column in columns])


class ResultsTable:
    """Results-table records (:meth:`BatchRow.record`, perhaps with more columns) written as CSV to ``out``, the
    header first, then each record as it comes; every cell through :func:`spreadsheet_cell`, and a field without
    a value left empty. The one CSV writer of results: ``check-batch --out`` (:class:`ResultsFile`) and the Batch
    page's download."""

    def __init__(self, out: TextIO, columns: Sequence[str] = RESULT_COLUMNS):
        self._out = out
        self._columns = list(columns)
        out.write(_csv_text(self._columns))

    def write(self, record: Mapping[str, object]) -> None:
        self._out.write(_table_row(record, self._columns))


def results_csv(records: Iterable[dict[str, Any]]) -> str:
    """Results-table records as CSV with a header (:class:`ResultsTable`), as one text."""
    records = list(records)
    out = io.StringIO()
    table = ResultsTable(out, list(records[0]) if records else RESULT_COLUMNS)
    for record in records:
        table.write(record)
    return out.getvalue()


def _prediction_line(row: BatchRow) -> str:
    """A row as a FEVER prediction line (``id``, ``claim``, ``predicted_label``, ``predicted_evidence``; ``undecided``
    for a checked claim, ``error`` for one that can't be), newline ended."""
    line = {"id": row.claim.id, "claim": row.claim.claim, **row.fever_prediction()}
    if row.result is not None:
        line["undecided"] = row.result.verdict.undecided
    return json.dumps(line, ensure_ascii=False) + "\n"


def predictions_jsonl(rows: Iterable[BatchRow]) -> str:
    """The rows as FEVER prediction lines (:func:`_prediction_line`)."""
    return "".join(_prediction_line(row) for row in rows)


def results_path(path: str | Path) -> Path:
    """``path`` if results can be written there (a ``.csv`` or ``.jsonl`` file), else a ValueError saying so."""
    path = Path(path)
    if path.suffix.lower() not in (".csv", ".jsonl"):
        raise ValueError(f"Can't write results to {path}: give a .csv (a table) or a .jsonl (FEVER predictions) file.")
    return path


class ResultsFileError(RuntimeError):
    """A results file can't be written (a read-only folder, no permission, a full disk); the message names the file,
    what it holds now and what to do."""


PARTIAL_SUFFIX = ".partial"
"""Added to a results file's name for the file written beside it while the one there holds other claims' rows."""


def _row_start(claim: Claim, table: bool) -> str:
    """How the row of ``claim`` in a results file starts: its id and claim cells, or its line's ``id`` and ``claim``."""
    if table:
        return _csv_text([spreadsheet_cell(claim.id), spreadsheet_cell(claim.claim)])[:-2] + ","
    return json.dumps({"id": claim.id, "claim": claim.claim}, ensure_ascii=False)[:-1] + ","


def _finished_rows(text: str, table: bool, claims: Sequence[Claim]) -> tuple[int, int] | None:
    """How many of ``claims``, from the first, have their row whole in ``text`` (a results table when ``table``,
    else prediction lines), and the length in characters of ``text`` up to the end of the last of them; ``None``
    when ``text`` holds anything else (another list's rows, another header, lines that are not rows), so that it
    must not be added to. What follows the last whole row may only be the next claim's row, torn (by a kill or a
    full disk): it is not counted."""
    header = _csv_text(RESULT_COLUMNS) if table else ""
    if table and header.startswith(text):  # nothing yet, or a torn header
        return 0, 0
    if not text.startswith(header):
        return None
    if table:
        rows = (_csv_text(cells) for cells in csv.reader(io.StringIO(text[len(header) :], newline="")))
    else:  # after the last newline: a torn line, or nothing
        rows = (json.dumps(json.loads(line), ensure_ascii=False) + "\n" for line in text.split("\n")[:-1])
    done, end = 0, len(header)
    try:
        for row in rows:  # each as it was written, so that a torn one does not match the text
            if not text.startswith(row, end):
                break
            if done == len(claims) or not text.startswith(_row_start(claims[done], table), end):
                return None
            done, end = done + 1, end + len(row)
    except (csv.Error, ValueError):  # a cell torn inside its quotes, a line that is not JSON
        pass
    rest = text[end:]
    torn = done < len(claims) and _row_start(claims[done], table).startswith(
        rest[: len(_row_start(claims[done], table))]
    )
    return (done, end) if not rest or torn else None


class ResultsFile:
    """A batch's results file: a results table for ``.csv`` (:class:`ResultsTable`), FEVER predictions for
    ``.jsonl``. Each row is flushed to the file as it comes, so a batch that stops (an error, Ctrl-C, a kill, a full
    disk) leaves every finished row in it, whole: a write that fails is cut back to the last whole row.

    A run with the same file goes on where the last one stopped: when the file holds the rows of the first claims
    of ``claims`` (the same ids and texts, in order), they are kept (:attr:`kept`; a torn last row is dropped) and
    only the rest are checked. When it holds anything else (another list's results), it is left as it is until the
    run has finished: the rows are written beside it (``NAME.partial``, which a stopped run leaves and the next run
    of the same claims goes on from) and replace it at :meth:`finish`. A context manager.

    Args:
        path: the file (``.csv`` or ``.jsonl``).
        claims: the claims of the batch, in order.

    Raises:
        ValueError: ``path`` is neither ``.csv`` nor ``.jsonl`` (:func:`results_path`).
        ResultsFileError: the file can't be written (read-only, no permission, no room); nothing was changed.
    """

    def __init__(self, path: str | Path, claims: Sequence[Claim]):
        self.path = results_path(path)
        self.table = self.path.suffix.lower() == ".csv"
        self.kept = 0
        """Rows of the first claims found in the file and kept: the batch checks ``claims[kept:]``."""
        self.rows = 0
        """Rows in the file now, kept ones included."""
        self.replacing = False
        """The file holds other results, which these replace at :meth:`finish` (written beside it until then)."""
        self.writing = self.path
        """The file the rows go to: :attr:`path`, or the one beside it (:data:`PARTIAL_SUFFIX`)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.writing = self._resume(claims)
            self._file = self.writing.open("r+b" if self.writing.exists() else "w+b", buffering=0)
            self._size = self._file.seek(0, os.SEEK_END)
            if self._size == 0 and self.table:
                self._append(_csv_text(RESULT_COLUMNS))
        except OSError as exc:
            raise self._error(exc, "Nothing in it was changed.") from None
        self.rows = self.kept

    def _resume(self, claims: Sequence[Claim]) -> Path:
        """The file to write to: :attr:`path` unless it holds other results, else the one beside it; the finished
        rows of ``claims`` in it are kept (:attr:`kept`), a torn last row cut off."""
        beside = self.path.with_name(self.path.name + PARTIAL_SUFFIX)
        for candidate in (self.path, beside):
            data = candidate.read_bytes() if candidate.is_file() else b""
            text = data.decode("utf-8", errors="surrogateescape")  # bytes that are not UTF-8 are no row of ours
            found = _finished_rows(text, self.table, claims)
            if found is not None:
                self.kept, end = found
                if end < len(text):
                    with candidate.open("r+b") as fh:
                        fh.truncate(len(text[:end].encode("utf-8", errors="surrogateescape")))
                return candidate
            if candidate == self.path:
                self.replacing = True
        log.warning("%s holds the unfinished results of another list: starting it again.", beside)
        beside.unlink()
        return beside

    def _append(self, text: str) -> None:
        """Write ``text`` whole at the end, or cut the file back to what it was and raise :class:`ResultsFileError`."""
        data = memoryview(text.encode("utf-8"))
        try:
            written = 0
            while written < len(data):
                written += self._file.write(data[written:])
        except OSError as exc:
            with contextlib.suppress(OSError):
                self._file.truncate(self._size)
            raise self._error(
                exc, f"It holds {self.rows} finished rows, each whole; run the same command again to go on from there."
            ) from None
        self._size += len(data)

    def _error(self, exc: OSError, state: str) -> ResultsFileError:
        where = self.writing
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            why, fix = "the disk holding it is full", "Free some space there, or give --out a file on another disk."
        elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            why, fix = (
                f"{(exc.strerror or 'refused').lower()} ({exc.filename or where})",
                "Give --out a file in a folder you can write to.",
            )
        else:
            why, fix = exc.strerror or str(exc), "Give --out another file."
        return ResultsFileError(f"Can't write results to {where}: {why}. {state} {fix}")

    def write(self, row: BatchRow) -> None:
        """Add one row and write it to the file (whole, or not at all: :class:`ResultsFileError`)."""
        if self.table:
            self._append(_table_row(row.record()))
        else:
            self._append(_prediction_line(row))
        self.rows += 1

    def finish(self) -> None:
        """The batch is done: the rows written beside the file replace it (nothing to do when written to it)."""
        if self.writing != self.path:
            self._file.close()
            try:
                os.replace(self.writing, self.path)
            except OSError as exc:
                raise self._error(exc, f"The results are whole in {self.writing}.") from None

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
