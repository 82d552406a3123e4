"""What the probes share: finite-score checks, percentiles, resident memory and the report table."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from pathlib import Path

from fever_core.pipeline import CheckResult
from fever_core.retrieval import dense, dense_build

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CURIE_CLAIM = "Marie Curie won two Nobel Prizes."

Row = tuple[str, str, str]
"""One line of the report: the probe, what happened, the figures."""


def finite_scores(result: CheckResult) -> bool:
    """Whether every number a check produced (page, sentence and evidence scores, stances, the verdict's
    probabilities) is finite."""
    numbers: list[float] = [p.score for p in result.pages]
    numbers += [v for p in result.pages for v in p.signals.values()]
    numbers += [s.score for s in result.sentences]
    for e in result.evidence:
        numbers.append(e.sentence.score)
        if e.stance is not None:
            numbers += e.stance.to_dict().values()
    numbers += result.verdict.probabilities.values()
    return all(math.isfinite(x) for x in numbers)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by nearest rank; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident memory (``VmRSS`` of ``/proc/PID/status``; default this process's), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("/proc/self/status has no VmRSS line: the RSS probe needs Linux.")


def format_table(rows: Sequence[Row]) -> str:
    """``rows`` under a header, in columns padded to the widest cell."""
    rows = [("probe", "what happened", "figures"), *rows]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    lines = [f"{p:<{widths[0]}}  {h:<{widths[1]}}  {f}".rstrip() for p, h, f in rows]
    lines.insert(1, f"{'-' * widths[0]}  {'-' * widths[1]}  {'-' * 7}")
    return "\n".join(lines)


@contextlib.contextmanager
def counting_embeddings() -> Iterator[list[int]]:
    """The number of texts the dense index asks the encoder for while the block runs, a list entry a call (it still
    embeds them): its build and spot checks (``dense_build``) and its searches and growth (``dense``)."""
    counts: list[int] = []
    real = dense_build.encode

    def counting(encoder, texts, *args, **kwargs):
        counts.append(len(texts))
        return real(encoder, texts, *args, **kwargs)

    modules = (dense, dense_build)
    for module in modules:
        module.encode = counting
    try:
        yield counts
    finally:
        for module in modules:
            module.encode = real
