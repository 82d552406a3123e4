"""Micro-batching: items submitted from many threads are processed together in small batches by one worker.

A service verifies the claims of concurrent requests this way (:meth:`fever_core.pipeline.Checker.check_many` is the
``process`` function): the first item waits at most ``max_wait_s`` for company, a batch holds at most ``max_batch``
items, and at most ``max_queue`` items wait at once; past that :meth:`MicroBatcher.submit` refuses with
:class:`QueueFull` at once, so an overloaded caller can answer "try again later" instead of hanging. One worker
thread calls ``process``, so what it calls need not be thread-safe.

With a ``deadline_s`` (the time a caller waits for an item), the queue is bounded by time as well: from the seconds a
plain item has taken (a moving average) and each item's cost (``cost``: what it costs in plain items, estimated
before it is taken, so that a long claim counts for more), :meth:`MicroBatcher.submit` refuses at once items that the
work ahead of them would not let finish in time; a batch holds no more work than its oldest item can wait for; and an
item that can no longer be done in time is failed with :class:`TooLate` unprocessed, never computed for a caller who
has given up. Under a flood, the items taken are answered and the others are refused at once, instead of every one
waiting until its deadline while being computed anyway. The same figures say when to try again
(:meth:`MicroBatcher.retry_after_s`).
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")


class QueueFull(RuntimeError):
    """The batcher's queue can't take the items now: too many wait (``backlog_s`` is ``None``), or the work ahead
    (``backlog_s`` seconds, by the recent pace) would not let them finish within the deadline. ``retry_after_s`` is a
    fair guess of when it could take them."""

    def __init__(
        self,
        waiting: int,
        asked: int,
        capacity: int,
        retry_after_s: int,
        backlog_s: float | None = None,
        deadline_s: float | None = None,
    ):
        if backlog_s is None:
            why = f"{waiting} items are waiting (at most {capacity}); {asked} more can't be queued now."
        else:
            why = (
                f"the {waiting} items waiting take about {backlog_s:.1f} s, so {asked} more would not be done "
                f"within {deadline_s:g} s."
            )
        super().__init__(f"{why} Try again in {retry_after_s} s.")
        self.waiting = waiting
        self.asked = asked
        self.retry_after_s = retry_after_s
        self.backlog_s = backlog_s


class TooLate(RuntimeError):
    """The item was not processed: the work ahead of it left too little of its ``deadline_s`` to process it."""


@dataclass
class BatcherStats:
    """What the batcher has done so far: batches run, items processed, items that failed, items dropped unprocessed
    (their future was cancelled: nobody waits for them any more; or too late for their deadline: :class:`TooLate`),
    seconds busy."""

    batches: int = 0
    items: int = 0
    failed: int = 0
    dropped: int = 0
    busy_s: float = 0.0


@dataclass(eq=False)  # found in the queue by identity: two equal items are two entries
class _Entry(Generic[Item]):
    item: Item
    future: Future[Any]
    queued_at: float
    cost: float  # in plain items


class MicroBatcher(Generic[Item, Outcome]):
    """Collects items from any thread and hands them to ``process`` in batches, on one worker thread.

    Args:
        process: items in, one outcome per item out (in order). If it raises for a batch of several, each item is
            processed again alone, so one bad item fails only its own future.
        max_batch: items per batch (1: one at a time, no batching).
        max_wait_s: how long the oldest waiting item waits for more before its batch runs (seconds; only when
            the worker is idle, so it adds latency at low load only). Default 15 ms.
        max_queue: items waiting at most; :meth:`submit` refuses more with :class:`QueueFull`.
        name: the worker thread's name.
        on_idle: called on the worker thread once the queue has stayed empty ``idle_s`` seconds after some work
            (once per burst, never under steady load), e.g. to give memory back. Default none.
        idle_s: see ``on_idle``. Default 1 s.
        deadline_s: seconds a caller waits for an item's outcome, from its submission (``None``, the default: no
            deadline). Items are refused, batches sized and late items failed by it (see the module's docstring);
            until a first batch has been timed, batches hold one item and only ``max_queue`` bounds the queue.
        cost: an item's cost in plain items (positive; 1: what a plain item costs), estimated before it is
            processed; the queue's time, the batches' sizes and ``Retry-After`` weigh each item by it. Default 1 each.

    Cancelling an item's future (its caller timed out, or its client went away) takes it out of the queue at once:
    it is never processed and no longer counts against ``max_queue``.
    """

    def __init__(
        self,
        process: Callable[[list[Item]], Sequence[Outcome]],
        max_batch: int = 32,
        max_wait_s: float = 0.015,
        max_queue: int = 256,
        name: str = "micro-batcher",
        on_idle: Callable[[], None] | None = None,
        idle_s: float = 1.0,
        deadline_s: float | None = None,
        cost: Callable[[Item], float] | None = None,
    ):
        if max_batch < 1 or max_queue < 1 or max_wait_s < 0 or (deadline_s is not None and deadline_s <= 0):
            raise ValueError(
                "max_batch and max_queue must be at least 1, max_wait_s at least 0 and deadline_s positive."
            )
        self.process = process
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self.max_queue = max_queue
        self.on_idle = on_idle
        self.idle_s = idle_s
        self.deadline_s = deadline_s
        self.cost = cost
        self.stats = BatcherStats()
        self._worked_since_idle = False
        self._queue: deque[_Entry[Item]] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._seconds_per_item = 0.0  # a moving average of a batch's seconds per plain item (0: none timed yet)
        self._running: tuple[float, float] = (0.0, 0.0)  # the batch in progress: when it started, and its cost
        self._worker = threading.Thread(target=self._run, name=name, daemon=True)
        self._worker.start()

    @property
    def waiting(self) -> int:
        """Items queued and not yet taken into a batch."""
        with self._cond:
            return len(self._queue)

    def _backlog_s(self, now: float) -> float:
        """Seconds, at the recent pace and by each item's cost, until the items waiting and the batch in progress are
        done (0 when no batch has been timed yet). Called with the lock held."""
        started, cost = self._running
        in_progress = max(0.0, cost * self._seconds_per_item - (now - started)) if cost else 0.0
        return sum(entry.cost for entry in self._queue) * self._seconds_per_item + in_progress

    def retry_after_s(self) -> int:
        """Whole seconds until the items waiting now and the batch in progress are likely done: their cost in plain
        items times the seconds a plain item has been taking, rounded up, from 1 to 60."""
        with self._cond:
            return _whole_seconds(self._backlog_s(time.monotonic()))

    def submit(self, items: Sequence[Item]) -> list[Future[Any]]:
        """Queue ``items`` all together or none; returns a future per item, which gives its outcome.

        Raises:
            QueueFull: the queue can't take them all now (nothing was queued).
            RuntimeError: the batcher is closed.
            ValueError: ``cost`` gave an item a cost of 0 or less.
        """
        now = time.monotonic()
        costs = [self.cost(item) if self.cost is not None else 1.0 for item in items]
        if min(costs, default=1.0) <= 0:
            raise ValueError("An item's cost must be positive.")
        with self._cond:
            if self._closed:
                raise RuntimeError("The batcher is closed.")
            if len(self._queue) + len(items) > self.max_queue:
                raise QueueFull(len(self._queue), len(items), self.max_queue, _whole_seconds(self._backlog_s(now)))
            backlog = self._backlog_s(now)
            needed = backlog + sum(costs) * self._seconds_per_item
            if self.deadline_s is not None and backlog > 0 and needed > self.deadline_s:  # an idle worker tries any
                raise QueueFull(
                    len(self._queue),
                    len(items),
                    self.max_queue,
                    _whole_seconds(needed - self.deadline_s),
                    backlog,
                    self.deadline_s,
                )
            entries = [_Entry(item, Future(), now, cost) for item, cost in zip(items, costs)]
            self._queue.extend(entries)
            self._cond.notify()
        for entry in entries:
            entry.future.add_done_callback(functools.partial(self._forget_if_cancelled, entry))
        return [entry.future for entry in entries]

    def _forget_if_cancelled(self, entry: _Entry[Item], future: Future[Any]) -> None:
        """Take a cancelled item out of the queue (unless a batch or :meth:`close` has taken it already)."""
        if not future.cancelled():
            return
        with self._cond:
            try:
                self._queue.remove(entry)
            except ValueError:
                return
            self.stats.dropped += 1

    def close(self, timeout_s: float | None = 5.0) -> None:
        """Stop taking items, cancel those still waiting, and let the worker finish its batch."""
        with self._cond:
            self._closed = True
            while self._queue:
                self._queue.popleft().future.cancel()
            self._cond.notify_all()
        self._worker.join(timeout_s)

    def _next_batch(self) -> tuple[list[_Entry[Item]], list[_Entry[Item]]] | None:
        """The next batch, and the items that can no longer be done in time (taken out of the queue, to fail); no
        items when the queue has stayed empty ``idle_s`` after work; ``None`` once closed."""
        with self._cond:
            while True:
                while not self._queue and not self._closed:
                    if self.on_idle is None or not self._worked_since_idle:
                        self._cond.wait()
                    elif not self._cond.wait(self.idle_s) and not self._queue:
                        self._worked_since_idle = False
                        return [], []
                if self._closed:
                    return None
                deadline = self._queue[0].queued_at + self.max_wait_s
                while len(self._queue) < self.max_batch and not self._closed:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                late = self._take_late()
                if self._queue:  # (cancelled items may have emptied it meanwhile)
                    batch = [self._queue.popleft() for _ in range(self._batch_size())]
                    self._running = (time.monotonic(), sum(entry.cost for entry in batch))
                    return batch, late
                if late:
                    return [], late

    def _take_late(self) -> list[_Entry[Item]]:
        """Take out of the queue the items past their deadline, and those it leaves less than their own time while
        others wait behind them (the oldest first, as they have the least left; the last is tried, so that a pace
        slower than the deadline is timed again). Called with the lock held."""
        late: list[_Entry[Item]] = []
        if self.deadline_s is None:
            return late
        now = time.monotonic()
        while self._queue and (
            self._queue[0].queued_at + self.deadline_s <= now
            or (
                len(self._queue) > 1
                and self._queue[0].queued_at + self.deadline_s - now < self._queue[0].cost * self._seconds_per_item
            )
        ):
            late.append(self._queue.popleft())
        return late

    def _batch_size(self) -> int:
        """Items the next batch may hold (at least one; the queue is not empty): ``max_batch``, but no more work, by
        the items' costs at the recent pace, than the oldest item's time left allows, and one until a batch has been
        timed (when there is a deadline). Called with the lock held."""
        most = min(self.max_batch, len(self._queue))
        if self.deadline_s is None:
            return most
        if not self._seconds_per_item:
            return 1
        left = self._queue[0].queued_at + self.deadline_s - time.monotonic()
        size, work_s = 0, 0.0
        while size < most and (work_s := work_s + self._queue[size].cost * self._seconds_per_item) <= left:
            size += 1
        return max(1, size)

    def _run(self) -> None:
        while (taken := self._next_batch()) is not None:
            batch, late = taken
            for entry in late:
                if entry.future.set_running_or_notify_cancel():
                    entry.future.set_exception(
                        TooLate(
                            f"Not processed: less than its {entry.cost * self._seconds_per_item:.2f} "
                            f"s of its {self.deadline_s:g} s were left."
                        )
                    )
            # a future cancelled between being taken into the batch and now is dropped here
            running = [entry for entry in batch if entry.future.set_running_or_notify_cancel()]
            with self._cond:
                self.stats.dropped += len(late) + len(batch) - len(running)
                self._running = (self._running[0], sum(entry.cost for entry in running))
            if not batch and not late:
                self._call_on_idle()
                continue
            if not running:
                continue
            started = time.perf_counter()
            self._process(running)
            busy = time.perf_counter() - started
            with self._cond:
                self._running = (0.0, 0.0)
                self.stats.batches += 1
                self.stats.items += len(running)
                self.stats.busy_s += busy
                pace = busy / sum(entry.cost for entry in running)
                self._seconds_per_item = (
                    pace if not self._seconds_per_item else 0.8 * self._seconds_per_item + 0.2 * pace
                )
                self._worked_since_idle = True

    def _call_on_idle(self) -> None:
        if self.on_idle is None:
            return
        try:
            self.on_idle()
        except Exception:  # housekeeping must not stop the worker
            log.exception("The batcher's on_idle failed.")

    def _process(self, batch: list[_Entry[Item]]) -> None:
        try:
            outcomes = list(self.process([entry.item for entry in batch]))
            if len(outcomes) != len(batch):
                raise RuntimeError(f"process gave {len(outcomes)} outcomes for {len(batch)} items.")
        except Exception as exc:
            if len(batch) > 1:
                log.warning("A batch of %d failed (%s): processing its items one by one.", len(batch), exc)
                for entry in batch:
                    self._process([entry])
                return
            log.exception("Processing an item failed.")
            with self._cond:
                self.stats.failed += 1
            batch[0].future.set_exception(exc)
            return
        for entry, outcome in zip(batch, outcomes):
            entry.future.set_result(outcome)


def _whole_seconds(seconds: float) -> int:
    """``seconds`` rounded up, from 1 to 60: a ``Retry-After``."""
    return max(1, min(60, math.ceil(seconds)))
