"""The micro-batcher: batches form from concurrent submissions, the queue is bounded, failures stay with their item."""

from __future__ import annotations

import threading
import time

import pytest

from fever_core.service.batching import MicroBatcher, QueueFull


class Recorder:
    """A ``process`` function that doubles numbers, records its batches, and can be held until released."""

    def __init__(self, hold: bool = False):
        self.batches: list[list[int]] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def __call__(self, items: list[int]) -> list[int]:
        self.batches.append(list(items))
        self.started.set()
        self.release.wait(10)
        if 13 in items:
            raise ValueError("13 is unlucky")
        return [2 * item for item in items]


def test_items_submitted_together_are_processed_in_one_batch_and_in_order():
    process = Recorder()
    batcher = MicroBatcher(process, max_batch=8, max_wait_s=0.05)
    try:
        futures = batcher.submit([1, 2, 3])
        assert [f.result(5) for f in futures] == [2, 4, 6]
        assert process.batches == [[1, 2, 3]]
    finally:
        batcher.close()


def test_concurrent_submissions_share_batches_of_at_most_max_batch():
    process = Recorder()
    batcher = MicroBatcher(process, max_batch=4, max_wait_s=0.2)
    try:
        futures: list = []
        threads = [threading.Thread(target=lambda n=n: futures.extend(batcher.submit([n]))) for n in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(f.result(5) for f in futures) == [2 * n for n in range(10)]
        assert max(len(batch) for batch in process.batches) == 4
        assert len(process.batches) < 10  # shared, not one by one
        assert batcher.stats.items == 10 and batcher.stats.batches == len(process.batches)
    finally:
        batcher.close()


def test_max_batch_one_processes_one_item_at_a_time():
    process = Recorder()
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0.2)
    try:
        started = time.monotonic()
        assert [f.result(5) for f in batcher.submit([1, 2, 3])] == [2, 4, 6]
        assert process.batches == [[1], [2], [3]]
        assert time.monotonic() - started < 0.2  # a batch of one never waits for company
    finally:
        batcher.close()


def test_a_full_queue_refuses_at_once_and_queues_nothing():
    process = Recorder(hold=True)
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0, max_queue=2)
    try:
        first = batcher.submit([1])
        assert process.started.wait(5)  # 1 is being processed; the queue is empty again
        waiting = batcher.submit([2, 3])
        with pytest.raises(QueueFull, match="2 items are waiting") as refused:
            batcher.submit([4])
        assert refused.value.retry_after_s >= 1
        assert batcher.waiting == 2
        process.release.set()
        assert [f.result(5) for f in first + waiting] == [2, 4, 6]
    finally:
        batcher.close()


def test_a_cancelled_item_is_not_processed():
    process = Recorder(hold=True)
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0)
    try:
        first = batcher.submit([1])
        assert process.started.wait(5)
        second, third = batcher.submit([2, 3])
        assert second.cancel()
        process.release.set()
        assert third.result(5) == 6 and first[0].result(5) == 2
        assert [2] not in process.batches
    finally:
        batcher.close()


def test_a_failing_item_fails_alone():
    process = Recorder()
    batcher = MicroBatcher(process, max_batch=8, max_wait_s=0.05)
    try:
        good, bad, also_good = batcher.submit([1, 13, 2])
        assert good.result(5) == 2 and also_good.result(5) == 4
        with pytest.raises(ValueError, match="unlucky"):
            bad.result(5)
        assert batcher.stats.failed == 1
    finally:
        batcher.close()


def test_close_cancels_what_waits_and_refuses_more():
    process = Recorder(hold=True)
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0)
    batcher.submit([1])
    assert process.started.wait(5)
    (waiting,) = batcher.submit([2])
    process.release.set()
    batcher.close()
    assert waiting.cancelled() or waiting.result(5) == 4
    with pytest.raises(RuntimeError, match="closed"):
        batcher.submit([3])


def test_a_cancelled_item_leaves_the_queue_at_once_and_is_counted_as_dropped():
    process = Recorder(hold=True)
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0, max_queue=2)
    try:
        first = batcher.submit([1])
        assert process.started.wait(5)
        second, third = batcher.submit([2, 3])
        assert second.cancel()
        assert batcher.waiting == 1 and batcher.stats.dropped == 1
        (fourth,) = batcher.submit([4])  # the cancelled item's place is free again
        process.release.set()
        assert [f.result(5) for f in (first[0], third, fourth)] == [2, 6, 8]
        assert [2] not in process.batches and batcher.stats.dropped == 1
    finally:
        batcher.close()


def test_on_idle_is_called_once_after_a_burst_and_never_before_work():
    idle = threading.Event()
    calls: list[float] = []
    batcher = MicroBatcher(
        Recorder(), max_batch=4, max_wait_s=0, on_idle=lambda: (calls.append(1), idle.set()), idle_s=0.1
    )
    try:
        time.sleep(0.3)
        assert calls == []  # no work yet: nothing to give back
        assert [f.result(5) for f in batcher.submit([1, 2, 3])] == [2, 4, 6]
        assert idle.wait(5)
        time.sleep(0.3)
        assert calls == [1]
    finally:
        batcher.close()


class Paced(Recorder):
    """A :class:`Recorder` that takes ``seconds`` an item."""

    def __init__(self, seconds: float, hold: bool = False):
        super().__init__(hold)
        self.seconds = seconds

    def __call__(self, items: list[int]) -> list[int]:
        time.sleep(self.seconds * len(items))
        return super().__call__(items)


def test_with_a_deadline_only_what_can_be_done_in_time_is_queued_and_the_rest_refused_at_once():
    process = Paced(0.1)
    batcher = MicroBatcher(process, max_batch=32, max_wait_s=0, deadline_s=1.0)
    try:
        assert batcher.submit([0])[0].result(5) == 0  # one item timed: 0.1 s an item
        started = time.monotonic()
        accepted, refused = [], []
        for n in range(1, 41):
            try:
                accepted += batcher.submit([n])
            except QueueFull as exc:
                refused.append(exc)
        assert time.monotonic() - started < 0.5  # every refusal at once
        assert 5 <= len(accepted) <= 11 and len(refused) == 40 - len(accepted)
        assert all(
            exc.backlog_s is not None and "would not be done within 1 s" in str(exc) and exc.retry_after_s >= 1
            for exc in refused
        )
        assert [f.result(5) for f in accepted] and time.monotonic() - started < 1.0 + 0.5  # all within the deadline
        assert max(len(batch) for batch in process.batches) <= 10  # no batch longer than the oldest could wait
    finally:
        batcher.close()


def test_an_item_that_can_no_longer_be_done_in_time_fails_unprocessed():
    from fever_core.service.batching import TooLate

    process = Paced(0.05, hold=True)
    process.release.set()
    batcher = MicroBatcher(process, max_batch=1, max_wait_s=0, deadline_s=0.5)
    try:
        assert batcher.submit([1])[0].result(5) == 2  # timed: 0.05 s an item
        process.release.clear()
        process.started.clear()
        held = batcher.submit([2])
        assert process.started.wait(5)  # 2 is held past the deadline of what waits behind it
        (late,) = batcher.submit([3])
        time.sleep(0.6)
        process.release.set()
        assert held[0].result(5) == 4
        with pytest.raises(TooLate):
            late.result(5)
        assert [3] not in process.batches and batcher.stats.dropped == 1
    finally:
        batcher.close()


def test_until_a_batch_is_timed_a_deadline_batches_one_item():
    process = Recorder()
    batcher = MicroBatcher(process, max_batch=8, max_wait_s=0.05, deadline_s=60)
    try:
        assert [f.result(5) for f in batcher.submit([1, 2, 3])] == [2, 4, 6]
        assert process.batches[0] == [1]  # the first, alone, times the pace
    finally:
        batcher.close()


def test_a_costly_item_counts_for_more_in_what_the_queue_takes_and_in_retry_after():
    """Issue 51: batches and the queue followed a pace per item that cheap items kept low, so a costly one was taken
    as if it were cheap."""
    held = threading.Event()
    held.set()

    def by_cost(items: list[int]) -> list[int]:  # 0.05 s for each unit of an item's cost (the item itself)
        time.sleep(0.05 * sum(items))
        held.wait(20)
        return [2 * item for item in items]

    batcher = MicroBatcher(by_cost, max_batch=32, max_wait_s=0, deadline_s=2.0, cost=float)
    try:
        assert batcher.submit([1])[0].result(5) == 2  # timed: about 0.05 s a unit
        held.clear()
        running = batcher.submit([1])
        plain = batcher.submit([1] * 10)  # ten plain items: 0.5 s of work, taken
        with pytest.raises(QueueFull) as refused:
            batcher.submit([60])  # one item of 60 units: 3 s, past the 2 s deadline behind them
        assert refused.value.backlog_s is not None and refused.value.retry_after_s >= 2
        held.set()
        assert [f.result(10) for f in running + plain] == [2] * 11
    finally:
        held.set()
        batcher.close()
