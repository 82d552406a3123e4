"""Counters and latency histograms, written in Prometheus's text format for ``GET /metrics`` (no client library).

Requests are counted by route (its template, so odd URLs don't make new series) and status, errors by their
code, and latency goes into a histogram per route; the queue and the batches come from the batcher when the page is
read.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from dataclasses import dataclass

from starlette.types import Scope

LATENCY_BUCKETS_S = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@dataclass
class Gauge:
    """A value read when the page is written: its name, help line, type (``gauge`` or ``counter``) and value."""

    name: str
    help: str
    value: float
    kind: str = "gauge"


def _labels(**labels: str) -> str:
    def escape(value: str) -> str:
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')

    return "{" + ",".join(f'{key}="{escape(value)}"' for key, value in labels.items()) + "}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class Metrics:
    """What the service counts; safe to update from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: Counter[tuple[str, str]] = Counter()
        self._errors: Counter[tuple[str, str]] = Counter()
        self._buckets: dict[str, list[int]] = {}
        self._latency_sum: dict[str, float] = defaultdict(float)
        self._latency_count: Counter[str] = Counter()

    def observe(self, route: str, status: int, seconds: float) -> None:
        """One request answered on ``route`` with ``status`` after ``seconds``."""
        with self._lock:
            self._requests[(route, str(status))] += 1
            buckets = self._buckets.setdefault(route, [0] * len(LATENCY_BUCKETS_S))
            for i, bound in enumerate(LATENCY_BUCKETS_S):
                if seconds <= bound:
                    buckets[i] += 1
            self._latency_sum[route] += seconds
            self._latency_count[route] += 1

    def error(self, route: str, code: str) -> None:
        """One error answered on ``route``, by its code (``overloaded``, ``timeout``, ``bad_claim``...)."""
        with self._lock:
            self._errors[(route, code)] += 1

    def render(self, gauges: list[Gauge]) -> str:
        """The page: the counters, the latency histograms, then ``gauges``."""
        lines: list[str] = []
        with self._lock:
            lines += [
                "# HELP fever_http_requests_total HTTP requests answered, by route and status.",
                "# TYPE fever_http_requests_total counter",
            ]
            lines += [
                f"fever_http_requests_total{_labels(route=route, status=status)} {count}"
                for (route, status), count in sorted(self._requests.items())
            ]
            lines += [
                "# HELP fever_http_errors_total Error answers, by route and error code.",
                "# TYPE fever_http_errors_total counter",
            ]
            lines += [
                f"fever_http_errors_total{_labels(route=route, code=code)} {count}"
                for (route, code), count in sorted(self._errors.items())
            ]
            lines += [
                "# HELP fever_http_request_duration_seconds Time from request to answer, by route.",
                "# TYPE fever_http_request_duration_seconds histogram",
            ]
            for route in sorted(self._buckets):
                for bound, count in zip(LATENCY_BUCKETS_S, self._buckets[route]):
                    lines.append(
                        f"fever_http_request_duration_seconds_bucket{_labels(route=route, le=_number(bound))} {count}"
                    )
                count = self._latency_count[route]
                lines.append(f"fever_http_request_duration_seconds_bucket{_labels(route=route, le='+Inf')} {count}")
                lines.append(
                    f"fever_http_request_duration_seconds_sum{_labels(route=route)} "
                    f"{_number(round(self._latency_sum[route], 6))}"
                )
                lines.append(f"fever_http_request_duration_seconds_count{_labels(route=route)} {count}")
        for gauge in gauges:
            lines += [
                f"# HELP {gauge.name} {gauge.help}",
                f"# TYPE {gauge.name} {gauge.kind}",
                f"{gauge.name} {_number(gauge.value)}",
            ]
        return "\n".join(lines) + "\n"


def route_of(scope: Scope) -> str:
    """The route template a request matched (``/check``), as the metrics name it, so odd URLs don't each make a
    series."""
    return getattr(scope.get("route"), "path", "unmatched")
