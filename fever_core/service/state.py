"""The service's state: what the endpoints share (:class:`Service`: the checkers once loaded, the batcher, the
metrics, whether it is ready) and how claims reach the checkers.

Every claim goes through one :class:`~fever_core.service.batching.MicroBatcher`: claims of concurrent requests, and the
instances of a ``/predict``, are verified together in batches (:meth:`~fever_core.pipeline.Checker.check_many`) on
one worker thread, while the event loop stays free to answer. The queue is bounded, in claims and in time: a request
whose claims don't fit, or that the claims ahead of it (at the seconds a claim has been taking) would keep from being
checked within the timeout, is answered 503 with ``Retry-After`` at once; one whose claims can no longer be checked
in time is answered likewise as soon as that is known, and its claims are not checked; the claims of a client that
goes away while they wait are dropped from the queue unchecked. A claim already taken into a batch is stopped between
model calls once its client has gone or its timeout has passed (:class:`Cancellation`, read by
:meth:`~fever_core.pipeline.Checker.check_many`), nothing of it kept, and the worker goes on to the next batch; the
other claims of the batch get their verdicts. Each claim weighs in the queue by what it is likely to cost
(:func:`claim_cost`: a long claim counts for more), and every 503 says when to try again from the measured queue
(:meth:`~fever_core.service.batching.MicroBatcher.retry_after_s`).
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import functools
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from fever_core.common import Settings
from fever_core.pipeline import MAX_CLAIM_CHARS, Checker, CheckOptions, CheckResult, ClaimCancelled, ClaimError
from fever_core.service.batching import MicroBatcher, QueueFull, TooLate
from fever_core.service.config import ServiceConfig
from fever_core.service.errors import ServiceError
from fever_core.service.metrics import Gauge, Metrics
from fever_core.service.schemas import ServiceStatus
from fever_core.service.startup import load_checkers

log = logging.getLogger(__name__)


class ClaimNotChecked(ClaimError):
    """A claim of a request whose timeout passed before it was checked, where the request answers what it checked
    (``/predict``)."""


class Cancellation:
    """Whether a request still wants its claims checked: until its client goes away (:meth:`cancel`) or its
    deadline passes. The worker reads it between model calls; the event loop sets it.

    Args:
        deadline: when the request stops waiting (``time.monotonic()`` seconds).
    """

    def __init__(self, deadline: float):
        self.deadline = deadline
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Nobody waits for the claims any more: those not done are stopped at their next model call."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """Whether the request's client has gone (or its answer was given without them) or its deadline has passed."""
        return self._cancelled.is_set() or time.monotonic() >= self.deadline


@dataclass(frozen=True)
class ClaimRequest:
    """One claim to check, as the batcher carries it: ``cancellation`` is its request's (none: checked to the end)."""

    corpus: str
    claim: str
    options: CheckOptions | None = None
    cancellation: Cancellation | None = None


def _cancelled(cancellations: Sequence[Cancellation | None], n: int) -> bool:
    """Whether the request of the ``n``-th claim has stopped waiting (a claim without a cancellation never does)."""
    cancellation = cancellations[n]
    return cancellation is not None and cancellation.cancelled


FIXED_COST_CHARS = 150
"""What a claim costs whatever its length, in characters of claim: the verifier reads each evidence sentence with the
claim, and a sentence is about this long."""
PLAIN_CLAIM_CHARS = 40
"""A plain claim's length ("Marie Curie won two Nobel Prizes." has 33 characters)."""


def claim_cost(request: ClaimRequest) -> float:
    """What checking ``request``'s claim is likely to cost, in plain claims (at least 1), before it is checked: the
    characters the verifier reads with each sentence, the claim's and a sentence's, against a plain claim's. A claim of
    957 characters listing numbers took 6.0 plain claims' time on 2 CPU cores (2026-12, the shipped verifier on the
    embedded corpus); this gives it 5.8. A claim over :data:`~fever_core.pipeline.MAX_CLAIM_CHARS` counts as that
    long (it is refused before any model reads it)."""
    chars = min(len(request.claim), MAX_CLAIM_CHARS)
    return max(1.0, (FIXED_COST_CHARS + chars) / (FIXED_COST_CHARS + PLAIN_CLAIM_CHARS))


class Service:
    """What the endpoints share: the checkers once loaded, the batcher, the metrics.

    Args:
        settings: the workbench settings (models, data folder).
        corpora: the corpora served; the first is the default.
        config: batching, queue and limits.
        checkers: ready checkers by corpus (tests); ``None`` loads them in the background when the app starts.
    """

    def __init__(
        self,
        settings: Settings,
        corpora: Sequence[str],
        config: ServiceConfig,
        checkers: dict[str, Checker] | None = None,
    ):
        self.settings = settings
        self.corpora = list(corpora)
        self.config = config
        self.checkers = checkers or {}
        self.metrics = Metrics()
        self.status: ServiceStatus = "loading"
        self.message = "Loading the models and indexes."
        self.on_load_failure: Callable[[str], None] | None = None
        """Called with the message when loading fails (``serve`` stops the server with it)."""
        self.batcher: MicroBatcher[ClaimRequest, CheckResult | ClaimError] | None = None
        self.claims_stopped = 0
        """Claims taken into a batch and stopped before their verdict (their client went away, their time ran out)."""
        self._preloaded = checkers is not None

    def start(self) -> None:
        """Start the batcher, and load the checkers in the background unless they were given."""
        self.batcher = MicroBatcher(
            self._check_batch,
            self.config.max_batch,
            self.config.batch_wait_ms / 1000,
            self.config.max_queue,
            name="fever-batcher",
            on_idle=_return_freed_memory,
            deadline_s=self.config.timeout_s,
            cost=claim_cost,
        )
        if self._preloaded:
            self._ready()
        else:
            threading.Thread(target=self._load, name="fever-loader", daemon=True).start()

    def stop(self) -> None:
        if self.batcher is not None:
            self.batcher.close()

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            self.checkers = load_checkers(self.settings, self.corpora)
        except Exception as exc:  # whatever it is, the service can't answer: say so and stop
            log.exception("Loading failed")
            self.status, self.message = "failed", f"Loading failed: {exc}"
            if self.on_load_failure is not None:
                self.on_load_failure(self.message)
            return
        log.info("Loaded %s in %.1f s", ", ".join(self.corpora), time.perf_counter() - started)
        self._ready()

    def _ready(self) -> None:
        self.status, self.message = "ready", ""

    def _check_batch(self, requests: list[ClaimRequest]) -> list[CheckResult | ClaimError]:
        """Check a batch: the claims of each corpus together, each stopped between model calls once its request's
        :class:`Cancellation` says so (then a :class:`~fever_core.pipeline.ClaimCancelled`)."""
        outcomes: dict[int, CheckResult | ClaimError] = {}
        by_corpus: dict[str, list[int]] = {}
        for i, request in enumerate(requests):
            by_corpus.setdefault(request.corpus, []).append(i)
        for corpus, indexes in by_corpus.items():
            cancellations = [requests[i].cancellation for i in indexes]
            checked = self.checkers[corpus].check_many(
                [requests[i].claim for i in indexes],
                [requests[i].options for i in indexes],
                cancelled=functools.partial(_cancelled, cancellations),
            )
            for i, outcome in zip(indexes, checked):
                outcomes[i] = outcome
        self.claims_stopped += sum(isinstance(outcome, ClaimCancelled) for outcome in outcomes.values())
        return [outcomes[i] for i in range(len(requests))]

    def corpus(self, name: str | None) -> str:
        """The corpus a request asks for (the default when ``None``), if this server serves it."""
        if name is None:
            return self.corpora[0]
        if name not in self.corpora:
            raise ServiceError(
                422,
                "corpus_not_served",
                f"This server does not serve the corpus {name!r}; it serves {', '.join(self.corpora)}. "
                "Leave corpus out for the default, or start a server with --corpus NAME.",
            )
        return name

    async def check(
        self,
        requests: list[ClaimRequest],
        client_gone: Callable[[], Awaitable[None]] | None = None,
        partial: bool = False,
    ) -> list[CheckResult | ClaimError]:
        """Queue the claims together and wait for them: at most the timeout, and only while ``client_gone`` (which
        returns when the client has closed its connection) has not returned; then the claims not started are
        dropped from the queue and those under way stopped at their next model call (:class:`Cancellation`). When the
        timeout passes first, a ``partial`` request that got some claims checked gets those, the others as
        :class:`ClaimNotChecked`; any other answers 503."""
        if self.status != "ready" or self.batcher is None:
            raise ServiceError(503, "loading", f"The service is not ready: {self.message}", retry_after_s=5)
        cancellation = Cancellation(time.monotonic() + self.config.timeout_s)
        try:
            futures = self.batcher.submit([dataclasses.replace(r, cancellation=cancellation) for r in requests])
        except QueueFull as exc:
            if exc.backlog_s is None:
                why = f"{exc.waiting} claims are waiting (at most {self.config.max_queue})"
            else:
                why = (
                    f"the {exc.waiting} claims waiting take about {exc.backlog_s:.0f} s, so {exc.asked} more would "
                    f"not be checked within the {self.config.timeout_s:g} s timeout"
                )
            raise ServiceError(
                503,
                "overloaded",
                f"The server is busy: {why}. Try again in {exc.retry_after_s} s.",
                retry_after_s=exc.retry_after_s,
            ) from None

        async def all_checked() -> list[CheckResult | ClaimError]:
            return list(await asyncio.gather(*[asyncio.wrap_future(future) for future in futures]))

        checked = asyncio.ensure_future(all_checked())  # a task: cancelled, it takes its gather's error with it
        gone = asyncio.ensure_future(client_gone()) if client_gone is not None else None
        try:
            done, _ = await asyncio.wait(
                [checked] + ([gone] if gone else []), timeout=self.config.timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if gone is not None:
                gone.cancel()
        if checked in done and not isinstance(checked.exception(), TooLate):
            outcomes = checked.result()  # (raises what the check raised)
            if not any(isinstance(outcome, ClaimCancelled) for outcome in outcomes):  # none stopped at the deadline
                return outcomes
        checked.cancel()
        cancellation.cancel()  # claims under way stop at their next model call
        finished = [
            future.result()
            if future.done()
            and not future.cancelled()
            and future.exception() is None
            and not isinstance(future.result(), ClaimCancelled)
            else None
            for future in futures
        ]
        for future in futures:
            future.cancel()  # claims not started yet leave the queue unchecked
        if gone is not None and gone in done:
            raise ServiceError(
                499,
                "client_closed_request",
                "The client closed the connection before its claims "
                "were checked: those waiting were dropped, those under way stopped.",
            )
        retry = self.batcher.retry_after_s()
        if partial and any(outcome is not None for outcome in finished):
            late = ClaimNotChecked(
                f"Not checked within the {self.config.timeout_s:g} s timeout: the server is busy. "
                f"Send it again in {retry} s."
            )
            return [late if outcome is None else outcome for outcome in finished]
        raise ServiceError(
            503,
            "timeout",
            f"The claims could not be checked within {self.config.timeout_s:g} s: the "
            f"server is busy. Try again in {retry} s, or send fewer claims per request.",
            retry_after_s=retry,
        )

    def gauges(self) -> list[Gauge]:
        batcher = self.batcher
        stats = batcher.stats if batcher is not None else None
        return [
            Gauge("fever_ready", "1 once the models and indexes are loaded.", float(self.status == "ready")),
            Gauge("fever_queue_claims", "Claims waiting to be checked.", batcher.waiting if batcher else 0),
            Gauge("fever_queue_capacity_claims", "Claims that may wait at most.", self.config.max_queue),
            Gauge(
                "fever_claims_checked_total",
                "Claims checked (including those that could not be).",
                stats.items if stats else 0,
                "counter",
            ),
            Gauge(
                "fever_claims_failed_total",
                "Claims whose check raised an error.",
                stats.failed if stats else 0,
                "counter",
            ),
            Gauge(
                "fever_claims_dropped_total",
                "Claims dropped unchecked: their request timed out, its client went "
                "away, or too little of its timeout was left to check them.",
                stats.dropped if stats else 0,
                "counter",
            ),
            Gauge(
                "fever_claims_stopped_total",
                "Claims stopped between model calls, their verdict not reached: their "
                "client went away or their timeout passed after they were taken into a batch (counted in "
                "fever_claims_checked_total too).",
                self.claims_stopped,
                "counter",
            ),
            Gauge("fever_batches_total", "Batches checked.", stats.batches if stats else 0, "counter"),
            Gauge(
                "fever_batch_busy_seconds_total",
                "Seconds spent checking batches.",
                round(stats.busy_s, 6) if stats else 0,
                "counter",
            ),
        ]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` under another C library."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def _return_freed_memory() -> None:
    """Ask the C allocator to give back to the system the free memory it holds, once a burst of claims is over: glibc
    keeps what batches and requests freed (after an overload, resident memory stayed 50-100 MB up until asked).
    Takes milliseconds, without the GIL."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
