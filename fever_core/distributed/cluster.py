"""Connecting to a Ray cluster, and running work on a pool of actors in order with a bounded number in flight."""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from fever_core.common.settings import PROJECT_ROOT

log = logging.getLogger(__name__)

LOCAL = "local"
"""The address that starts a Ray cluster on this machine for the run (``--ray`` without an address)."""
IN_FLIGHT_PER_ACTOR = 2
"""Items sent to each actor ahead of the results read: enough to keep it busy, few enough to bound memory."""


class RayUnavailable(RuntimeError):
    """Ray is not installed, or its cluster can't be reached."""


def require_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailable` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray, an optional extra: `pip install -r requirements-ray.txt`.") from None
    return ray


def connect(address: str = LOCAL, cpus: int | None = None) -> Any:
    """Connect this process to a Ray cluster (once) and return the ``ray`` module.

    Args:
        address: :data:`LOCAL` to start one on this machine; ``auto`` for the one ``ray start --head`` started
            here; or a cluster's address (``HOST:6379``, ``ray://HOST:10001``). Its machines need the workbench's
            requirements installed and this project folder (with its data folder) at the same path: a shared disk.
        cpus: CPUs of a local cluster (default: all of this machine's).
    """
    ray = require_ray()
    if ray.is_initialized():
        return ray
    # the workers import this very project (its paths, models and shared data are where the driver finds them)
    runtime_env = {"env_vars": {"PYTHONPATH": str(PROJECT_ROOT), "TOKENIZERS_PARALLELISM": "false"}}
    try:
        if address == LOCAL:
            ray.init(
                num_cpus=cpus or os.cpu_count(), include_dashboard=False, log_to_driver=False, runtime_env=runtime_env
            )
        else:
            ray.init(address=address, log_to_driver=False, runtime_env=runtime_env)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RayUnavailable(
            f"Can't connect to the Ray cluster at {address!r} ({exc}). Start one with "
            "`ray start --head` and pass --ray auto, or give --ray alone for a local one."
        ) from exc
    log.info("Ray cluster: %s", ray.cluster_resources())
    return ray


def worker_count(ray: Any, cpus_per_worker: int = 1) -> int:
    """How many workers of ``cpus_per_worker`` CPUs the cluster holds (at least one)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_worker)


def ordered_map(ray: Any, actors: list[Any], method: str, items: Iterable[Any]) -> Iterator[Any]:
    """``actor.method(item)`` for each item on whichever actor's turn it is, results in the items' order.

    At most :data:`IN_FLIGHT_PER_ACTOR` items per actor are sent ahead, so a long stream of items (a corpus's
    chunks) is never all in memory. Items go round the actors in turn: they are alike in size here.
    """
    pending: deque[Any] = deque()
    limit = IN_FLIGHT_PER_ACTOR * len(actors)

    def result() -> Any:
        try:
            return ray.get(pending.popleft())
        except ray.exceptions.RayError as exc:
            raise RuntimeError(f"A Ray worker failed: {exc}") from exc

    for number, item in enumerate(items):
        pending.append(getattr(actors[number % len(actors)], method).remote(item))
        if len(pending) >= limit:
            yield result()
    while pending:
        yield result()
