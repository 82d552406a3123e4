"""Batch checks: the one runner of a list of claims (:func:`run_batch`), labelled or not, with progress; one row
per claim for a results table; and only the metrics the claims' gold data allows. ``evaluate`` (its FEVER report,
:mod:`fever_core.evaluation.run`), ``check-batch``, the Evaluate and Batch pages and the Ray workers
(:mod:`fever_core.distributed.batch`) all check their claims here.

A claim list (:func:`fever_core.common.formats.read_claim_list`) may carry gold labels and gold evidence, or
neither. :class:`GoldData` says which metrics it allows: label accuracy needs labels; the FEVER score
also needs a gold evidence set for every labelled SUPPORTS or REFUTES claim; the evidence and
retrieval metrics need those sets too, and at least one such claim. A metric the gold data does not
allow is ``None`` (shown "n/a"), never a number.

:class:`BatchJob` runs a batch in a thread of its own, so that an app can show its progress while
people go on using it. A claim that can't be checked, for whatever reason, is a row with its error: the batch
goes on. :class:`ResultsFile` writes each row as it comes, so a batch that stops keeps what it finished.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from fever_core.evaluation.scorer import fever_score, gold_groups
from fever_core.common.formats import Claim
from fever_core.pipeline import Checker, CheckOptions, CheckResult, ClaimError
from fever_core.retrieval.results import EvidenceSentence
from fever_core.common.types import NEI

log = logging.getLogger(__name__)

LABEL_METRICS = ("label_accuracy",)
FEVER_METRICS = ("fever_score",)
EVIDENCE_METRICS = ("evidence_precision", "evidence_recall", "evidence_f1", "doc_recall_at_1", "doc_recall_at_5",
                    "doc_recall_at_10", "sentence_recall_at_5")
NEEDS_LABELS = "needs gold labels"
NEEDS_EVIDENCE = "needs gold evidence for every SUPPORTS / REFUTES claim"
RESULT_COLUMNS = ("id", "claim", "label", "verdict", "confidence", "deciding_page", "deciding_line",
                  "deciding_sentence", "error")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may read as the start of a formula (OWASP's list for CSV injection)."""


@dataclass(frozen=True)
class GoldData:
    """How much gold data a list of claims carries.

    Attributes:
        claims: claims in the list.
        labelled: claims with a gold label.
        verifiable: labelled SUPPORTS or REFUTES claims (those that need gold evidence).
        with_evidence: verifiable claims with at least one gold evidence set.
    """

    claims: int
    labelled: int
    verifiable: int
    with_evidence: int

    @classmethod
    def of(cls, claims: Iterable[Claim]) -> GoldData:
        claims = list(claims)
        verifiable = [c for c in claims if c.label not in (None, NEI)]
        return cls(len(claims), sum(c.label is not None for c in claims), len(verifiable),
                   sum(bool(c.evidence_sets()) for c in verifiable))

    @property
    def all_labelled(self) -> bool:
        return self.labelled == self.claims

    def missing_for(self, metric: str) -> str:
        """Why the gold data does not allow ``metric`` (a key of the evaluation report), "" when it does."""
        if metric not in (*LABEL_METRICS, *FEVER_METRICS, *EVIDENCE_METRICS):
            return ""
        if not self.labelled:
            return NEEDS_LABELS
        evidence_complete = self.with_evidence == self.verifiable
        if metric in FEVER_METRICS and not evidence_complete:
            return NEEDS_EVIDENCE
        if metric in EVIDENCE_METRICS and not (evidence_complete and self.verifiable):
            return NEEDS_EVIDENCE
        return ""

    def allowed(self, metrics: Mapping[str, float]) -> dict[str, float | None]:
        """``metrics`` with ``None`` for each one the gold data does not allow."""
        return {name: None if self.missing_for(name) else value for name, value in metrics.items()}


@dataclass(frozen=True)
class BatchRow:
    """One claim of a batch and its check.

    Attributes:
        claim: the claim as listed, with its gold label (``None`` when unlabelled) and evidence.
        result: the check; ``None`` when the claim can't be checked.
        error: why it can't be checked ("" when it was).
    """

    claim: Claim
    result: CheckResult | None
    error: str = ""

    @classmethod
    def of(cls, claim: Claim, outcome: CheckResult | ClaimError) -> BatchRow:
        """The row of a claim checked by :meth:`~fever_core.pipeline.Checker.check_many`: its result, or why not."""
        return cls(claim, None, str(outcome)) if isinstance(outcome, ClaimError) else cls(claim, outcome)

    @property
    def verdict(self) -> str:
        """The verdict's label, "" for a claim that can't be checked."""
        return self.result.verdict.label if self.result else ""

    @property
    def confidence(self) -> float | None:
        """The verdict's probability in [0, 1]."""
        return self.result.verdict.probabilities[self.verdict] if self.result else None

    def deciding_sentence(self) -> EvidenceSentence | None:
        """The evidence sentence the verdict rests on, if it rests on one."""
        deciding = self.result.verdict.deciding_evidence if self.result else []
        return self.result.evidence[deciding[0]].sentence if deciding else None

    def fever_prediction(self) -> dict:
        """The claim's FEVER prediction line; a claim that can't be checked is predicted NOT ENOUGH INFO
        without evidence (as :func:`~fever_core.evaluation.run.evaluate` counts it), with its ``error``."""
        if self.result is None:
            return {"id": self.claim.id, "predicted_label": NEI, "predicted_evidence": [], "error": self.error}
        return self.result.fever_prediction(self.claim.id)

    def record(self) -> dict:
        """The row of a results table (:data:`RESULT_COLUMNS`; ``None`` where a field has no value)."""
        sentence = self.deciding_sentence()
        return {
            "id": self.claim.id, "claim": self.claim.claim, "label": self.claim.label, "verdict": self.verdict or None,
            "confidence": None if self.confidence is None else round(self.confidence, 3),
            "deciding_page": sentence.title if sentence else None, "deciding_line": sentence.line if sentence else None,
            "deciding_sentence": sentence.text if sentence else None, "error": self.error or None,
        }


@dataclass(frozen=True)
class BatchReport:
    """A finished (or stopped) batch.

    Attributes:
        rows: one per claim checked, in list order.
        seconds: wall-clock time the batch took.
        stopped: it was stopped before its last claim.
        skipped: claims given no row, by why: ``oracle_without_gold_evidence`` (an oracle run's claim whose first
            gold evidence group is not all in the corpus); empty when none was.
    """

    rows: list[BatchRow]
    seconds: float
    stopped: bool = False
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def gold(self) -> GoldData:
        return GoldData.of(row.claim for row in self.rows)

    @property
    def claims_per_s(self) -> float:
        return len(self.rows) / self.seconds if self.seconds > 0 else 0.0

    def latency_s(self, percentile: float) -> float:
        """That percentile (0-100) of the checked claims' seconds per check; 0.0 when none was checked."""
        latencies = [row.result.timings["total"] for row in self.rows if row.result]
        return float(np.percentile(latencies, percentile)) if latencies else 0.0

    def stage_latency_p50_s(self) -> dict[str, float]:
        """The median seconds of each pipeline stage (``analysis``, ``documents``... ``total``) over the checked
        claims, by stage."""
        stage_times: dict[str, list[float]] = {}
        for row in self.rows:
            for stage, seconds in (row.result.timings if row.result else {}).items():
                stage_times.setdefault(stage, []).append(seconds)
        return {stage: float(np.percentile(times, 50)) for stage, times in stage_times.items()}

    def metrics(self) -> dict[str, float | None]:
        """Label accuracy and FEVER score in [0, 1], over the labelled claims; ``None`` where the gold
        data does not allow them (see :class:`GoldData`)."""
        labelled = [row for row in self.rows if row.claim.label is not None]
        if not labelled:
            return dict.fromkeys((*LABEL_METRICS, *FEVER_METRICS))
        scores = fever_score([row.fever_prediction() for row in labelled], [row.claim.to_fever() for row in labelled])
        return self.gold.allowed({"label_accuracy": scores.label_accuracy, "fever_score": scores.fever_score})


def oracle_evidence(checker: Checker, claim: Claim) -> list[EvidenceSentence] | None:
    """The first gold evidence group's sentences from the corpus, or ``None`` if any is missing (or the claim is
    NOT ENOUGH INFO, without evidence)."""
    groups = gold_groups(claim.evidence) if claim.label != NEI else []
    if not groups or not groups[0] or any(pair[0] is None for pair in groups[0]):
        return None
    evidence = []
    for page_id, line in groups[0]:
        sentence = checker.workspace.store.sentence(page_id, line)
        if sentence is None:
            return None
        title = checker.workspace.store.title_of(page_id) or page_id
        evidence.append(EvidenceSentence(page_id, title, line, sentence.text, 1.0))
    return evidence


def check_claim(checker: Checker, claim: Claim, options: CheckOptions | None = None,
                evidence: list[EvidenceSentence] | None = None) -> BatchRow:
    """Check one claim of a batch (against ``evidence`` without retrieving, when given: the oracle mode); a claim
    that can't be checked, whatever the reason, gets a row with it (the rest of the batch is checked all the
    same)."""
    try:
        if evidence is not None:
            return BatchRow(claim, checker.verify_evidence(claim.claim, evidence, options))
        return BatchRow(claim, checker.check(claim.claim, options))
    except ClaimError as exc:
        return BatchRow(claim, None, str(exc))
    except Exception as exc:  # noqa: BLE001 - one claim's failure must not cost the batch its finished rows
        log.debug("Claim %s of the batch could not be checked.", claim.id, exc_info=True)
        return BatchRow(claim, None, f"{type(exc).__name__}: {exc}")


def run_batch(
    checker: Checker,
    claims: Sequence[Claim],
    options: CheckOptions | None = None,
    on_row: Callable[[BatchRow, int, int], None] | None = None,
    stop: threading.Event | None = None,
    oracle: bool = False,
) -> BatchReport:
    """Check the claims in order: the one runner of a list of claims.

    Args:
        options: the per-check settings of every claim (``None``: the checker's settings).
        on_row: called as ``on_row(row, done, total)`` after each claim checked (``done`` counts the claims done,
            skipped ones included).
        stop: when set, the batch ends after the claim being checked (the report says it was stopped).
        oracle: verify each claim against its first gold evidence group instead of retrieving
            (:func:`oracle_evidence`); claims without one get no row (counted in the report's ``skipped``).
    """
    started = time.perf_counter()
    rows: list[BatchRow] = []
    skipped = 0
    for claim in claims:
        if stop is not None and stop.is_set():
            break
        evidence = oracle_evidence(checker, claim) if oracle else None
        if oracle and evidence is None:
            skipped += 1
            continue
        rows.append(check_claim(checker, claim, options, evidence))
        if on_row is not None:
            on_row(rows[-1], len(rows) + skipped, len(claims))
    return BatchReport(rows, time.perf_counter() - started, stopped=len(rows) + skipped < len(claims),
                       skipped={"oracle_without_gold_evidence": skipped} if skipped else {})


class BatchJob:
    """A batch of claims, checked in a thread of its own once started (:meth:`start`); any thread may read
    its progress.

    Attributes:
        job_id: a random id (hex) naming the job.
        total: claims in the batch.
        started_at: when it started, seconds since the epoch.
        report: the batch's report once it has ended (``None`` before).
        error: what ended it early, if anything did ("" otherwise).
    """

    def __init__(self, claims: Sequence[Claim]):
        self.job_id = uuid.uuid4().hex[:12]
        self.total = len(claims)
        self.started_at = time.time()
        self.report: BatchReport | None = None
        self.error = ""
        self._claims = claims
        self._rows: list[BatchRow] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, checker: Checker, options: CheckOptions | None = None,
              on_row: Callable[[BatchRow], None] | None = None) -> BatchJob:
        """Start checking the claims in a daemon thread (see :func:`run_batch`); ``on_row(row)`` is called
        in that thread after each claim. Returns the job."""

        def keep(row: BatchRow, done: int, total: int) -> None:
            self._rows.append(row)
            if on_row is not None:
                on_row(row)

        def work() -> None:
            try:
                self.report = run_batch(checker, self._claims, options, keep, self._stop)
            except Exception as exc:  # noqa: BLE001 - the app shows it; the thread has no one else to tell
                self.error = f"{type(exc).__name__}: {exc}"
                self.report = BatchReport(list(self._rows), time.time() - self.started_at, stopped=True)

        self._thread = threading.Thread(target=work, name=f"batch-{self.job_id}", daemon=True)
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self.report is None

    @property
    def done(self) -> int:
        """Claims checked so far."""
        return len(self._rows)

    def rows(self) -> list[BatchRow]:
        """The rows checked so far, in list order."""
        return list(self._rows)

    def seconds(self) -> float:
        """Seconds since the start (until the end, once it has ended)."""
        return self.report.seconds if self.report else time.time() - self.started_at

    def stop(self) -> None:
        """Ask the batch to end after the claim being checked."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the batch ends, at most ``timeout`` seconds."""
        if self._thread is not None:
            self._thread.join(timeout)


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


def results_csv(records: Iterable[dict]) -> str:
    """Results-table records as CSV with a header (:class:`ResultsTable`), as one text."""
    records = list(records)
    out = io.StringIO()
    table = ResultsTable(out, list(records[0]) if records else RESULT_COLUMNS)
    for record in records:
        table.write(record)
    return out.getvalue()


def _prediction_line(row: BatchRow) -> str:
    """A row as a FEVER prediction line (``id``, ``claim``, ``predicted_label``, ``predicted_evidence``), newline ended."""
    return json.dumps({"id": row.claim.id, "claim": row.claim.claim, **row.fever_prediction()}, ensure_ascii=False) + "\n"


def predictions_jsonl(rows: Iterable[BatchRow]) -> str:
    """The rows as FEVER prediction lines (``id``, ``claim``, ``predicted_label``, ``predicted_evidence``)."""
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
        rows = (_csv_text(cells) for cells in csv.reader(io.StringIO(text[len(header):], newline="")))
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
    torn = done < len(claims) and _row_start(claims[done], table).startswith(rest[:len(_row_start(claims[done], table))])
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
            raise self._error(exc, f"It holds {self.rows} finished rows, each whole; run the same command again to go "
                              "on from there.") from None
        self._size += len(data)

    def _error(self, exc: OSError, state: str) -> ResultsFileError:
        where = self.writing
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            why, fix = "the disk holding it is full", "Free some space there, or give --out a file on another disk."
        elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            why, fix = (f"{exc.strerror.lower()} ({exc.filename or where})",
                        "Give --out a file in a folder you can write to.")
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

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
