"""Batch checks: the one runner of a list of claims (:func:`run_batch`), labelled or not, with progress, and one row
per claim (:class:`BatchRow`). ``evaluate`` (its FEVER report, :mod:`fever_core.evaluation.run`), ``check-batch``,
the Evaluate and Batch pages, the service's ``/predict`` and the Ray workers (:mod:`fever_core.distributed.batch`)
all check their claims here. A claim that can't be checked, for whatever reason, is a row with its error: the batch
goes on.

:class:`BatchJob` runs a batch in a thread of its own, so that an app can show its progress while people go on using
it: the app's one way of running long work in the background within its own process (the Batch and Evaluate pages;
training, which outlives a page, runs as a process of its own: :mod:`fever_core.workbench.jobs`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fever_core.common.formats import Claim
from fever_core.common.types import NEI
from fever_core.evaluation.metrics import FEVER_METRICS, LABEL_METRICS, GoldData
from fever_core.evaluation.scorer import fever_score, gold_groups
from fever_core.pipeline import Checker, CheckOptions, CheckResult, ClaimError
from fever_core.retrieval.results import EvidenceSentence

log = logging.getLogger(__name__)


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
        return self.result.verdict.probability if self.result else None

    def deciding_sentence(self) -> EvidenceSentence | None:
        """The evidence sentence the verdict rests on, if it rests on one."""
        if self.result is None or not self.result.verdict.deciding_evidence:
            return None
        return self.result.evidence[self.result.verdict.deciding_evidence[0]].sentence

    def fever_prediction(self) -> dict[str, Any]:
        """The claim's FEVER prediction line; a claim that can't be checked is predicted NOT ENOUGH INFO
        without evidence (as :func:`~fever_core.evaluation.run.evaluate` counts it), with its ``error``."""
        if self.result is None:
            return {"id": self.claim.id, "predicted_label": NEI, "predicted_evidence": [], "error": self.error}
        return self.result.fever_prediction(self.claim.id)

    def record(self) -> dict[str, Any]:
        """The row of a results table (:data:`~fever_core.evaluation.output.RESULT_COLUMNS`; ``None`` where a field
        has no value)."""
        sentence = self.deciding_sentence()
        return {
            "id": self.claim.id,
            "claim": self.claim.claim,
            "label": self.claim.label,
            "verdict": self.verdict or None,
            "confidence": None if self.confidence is None else round(self.confidence, 3),
            "undecided": None if self.result is None else str(self.result.verdict.undecided).lower(),
            "deciding_page": sentence.title if sentence else None,
            "deciding_line": sentence.line if sentence else None,
            "deciding_sentence": sentence.text if sentence else None,
            "error": self.error or None,
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
        sentence = checker.store.sentence(page_id, line)
        if sentence is None:
            return None
        title = checker.store.title_of(page_id) or page_id
        evidence.append(EvidenceSentence(page_id, title, line, sentence.text, 1.0))
    return evidence


def check_claim(
    checker: Checker, claim: Claim, options: CheckOptions | None = None, evidence: list[EvidenceSentence] | None = None
) -> BatchRow:
    """Check one claim of a batch (against ``evidence`` without retrieving, when given: the oracle mode); a claim
    that can't be checked, whatever the reason, gets a row with it (the rest of the batch is checked all the
    same)."""
    try:
        if evidence is not None:
            return BatchRow(claim, checker.verify_evidence(claim.claim, evidence, options))
        return BatchRow(claim, checker.check(claim.claim, options))
    except ClaimError as exc:
        return BatchRow(claim, None, str(exc))
    except Exception as exc:  # one claim's failure must not cost the batch its finished rows
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
    return BatchReport(
        rows,
        time.perf_counter() - started,
        stopped=len(rows) + skipped < len(claims),
        skipped={"oracle_without_gold_evidence": skipped} if skipped else {},
    )


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
        self._done = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(
        self,
        checker: Checker,
        options: CheckOptions | None = None,
        on_row: Callable[[BatchRow], None] | None = None,
        oracle: bool = False,
    ) -> BatchJob:
        """Start checking the claims in a daemon thread (see :func:`run_batch`, ``oracle`` included);
        ``on_row(row)`` is called in that thread after each claim. Returns the job."""

        def keep(row: BatchRow, done: int, total: int) -> None:
            self._rows.append(row)
            self._done = done
            if on_row is not None:
                on_row(row)

        def work() -> None:
            try:
                self.report = run_batch(checker, self._claims, options, keep, self._stop, oracle)
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
        """Claims done so far: checked, or (in an oracle run) skipped without gold evidence."""
        return self._done

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
