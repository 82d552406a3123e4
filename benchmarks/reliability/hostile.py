"""Probe 1: hostile claims. Every claim must end in a verdict or a clean refusal (:class:`ClaimError`), never in
another exception, and no verdict may rest on a non-finite score."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.reliability.common import Row, finite_scores, percentile
from fever_core.pipeline import Checker, ClaimError

EMOJI = ["😀", "🔥", "👩‍🔬", "🇫🇷", "👍🏽", "🏳️‍🌈", "❤️", "🧪", "🦖", "🫠"]  # no keycaps: "1️⃣" holds a digit
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
CONTROL = ["\x00", "\x01", "\x07", "\x1b", "\x7f", "\x85", "\ud800", "\udfff", "\u202e", "\u2066"]
HTML = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<b>",
    "</div>",
    "<!--",
    "<iframe src=//x>",
    "&lt;&amp;&#0;",
]
MARKDOWN = [
    ":material/warning:",
    "$x$",
    "$$\\int_0^1 x\\,dx$$",
    "**",
    "[link](javascript:alert(1))",
    "```",
    "# ",
    "> ",
    "| a | b |",
    "\\",
    ":red[alarm]",
    "~~",
]
SQL = [
    "'; DROP TABLE pages; --",
    '" OR 1=1 --',
    "NEAR(a b)",
    "title: *",
    '"',
    "*",
    "AND OR NOT",
    "%_%",
    "') UNION SELECT * FROM meta --",
    "^",
    "{col}:",
    "\\x00",
]
RTL = ["مرحبا بالعالم", "שלום עולם", "\u202eالعالم", "\u200fهذه جملة"]
TEMPLATES = ["{} is a city in France.", "{} was born in 1900.", "{} is not a film.", "{}"]


def _normal(rng: random.Random, title: str) -> str:
    return rng.choice(TEMPLATES).format(title)


def _long(rng: random.Random, title: str) -> str:
    text = _normal(rng, title) + " "
    size = rng.randint(5000, 20000)
    return (text * (size // len(text) + 1))[:size]


def many_numbers(rng: random.Random, title: str) -> str:
    """A claim of under 1,000 characters listing as many numbers as fit (issue 51: one such claim held the service
    for minutes)."""
    numbers, claim = [], ""
    for i in range(1, 400):
        numbers.append(f"{rng.randint(1, 999) * 1000:,}")
        longer = f"{title} had {', '.join(numbers)} people in 1900."
        if len(longer) > 960:
            break
        claim = longer
    return claim


def _huge_number(rng: random.Random, title: str) -> str:
    """A number beyond float's range, or of a thousand digits (issue 51: an OverflowError)."""
    return rng.choice(
        [
            f"{title} had 1e400 people.",
            f"{title} had 1" + ",000" * 200 + " people.",
            f"{title} had {'9' * 1000} people.",
            f"{title} is 10^1000 metres tall.",
        ]
    )


def _sprinkle(rng: random.Random, text: str, pool: list[str], rate: float) -> str:
    return "".join(ch + (rng.choice(pool) if rng.random() < rate else "") for ch in text)


KINDS: dict[str, Callable[[random.Random, str], str]] = {
    "empty": lambda rng, t: rng.choice(["", "\x00", "\u200b" * rng.randint(1, 9), "\ufeff"]),
    "whitespace": lambda rng, t: "".join(rng.choice(" \t\n\r\u00a0\u2003\u3000") for _ in range(rng.randint(1, 60))),
    "emoji only": lambda rng, t: "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 30))),
    "5,000+ chars": _long,
    "RTL": lambda rng, t: rng.choice(
        [f"{rng.choice(RTL)} {_normal(rng, t)}", rng.choice(RTL), f"\u202e{_normal(rng, t)}"]
    ),
    "zero-width": lambda rng, t: _sprinkle(rng, _normal(rng, t), ZERO_WIDTH, 0.3),
    "combining marks": lambda rng, t: _sprinkle(rng, _normal(rng, t), [chr(c) for c in range(0x300, 0x370)] * 3, 0.8),
    "control chars": lambda rng, t: _sprinkle(rng, _normal(rng, t), CONTROL, 0.2),
    "HTML": lambda rng, t: f"{rng.choice(HTML)}{_normal(rng, t)}{rng.choice(HTML)}",
    "Markdown": lambda rng, t: f"{rng.choice(MARKDOWN)} {_normal(rng, t)} {rng.choice(MARKDOWN)}",
    "SQL / FTS syntax": lambda rng, t: rng.choice([f"{t}{rng.choice(SQL)}", rng.choice(SQL), f"{rng.choice(SQL)} {t}"]),
    "long word": lambda rng, t: rng.choice(["A", "ab", t.replace(" ", "")]) * rng.randint(50, 3000),
    "many numbers": many_numbers,
    "huge numbers": _huge_number,
    "normal": _normal,
}
MANY_NUMBERS_LIMIT = 5
"""The most a claim listing many numbers may take, in plain claims' median times (issue 51)."""


def hostile_claims(count: int, titles: list[str], seed: int = 0) -> list[tuple[str, str]]:
    """``count`` ``(kind, claim)`` pairs, the kinds of :data:`KINDS` in turn, built around the given page titles."""
    rng = random.Random(seed)
    kinds = list(KINDS)
    return [(kinds[i % len(kinds)], KINDS[kinds[i % len(kinds)]](rng, rng.choice(titles))) for i in range(count)]


@dataclass
class HostileResult:
    """Hostile claims checked one by one. Times are wall-clock seconds per :meth:`Checker.check` call.

    Attributes:
        claims: claims checked.
        refused: clean refusals (:class:`ClaimError`).
        verdicts: checks that returned a verdict.
        non_finite: verdicts resting on a non-finite score (must be 0).
        unexpected: any other exception, as ``"kind: Type: message"`` (must be none).
        p50_s, p95_s: median and 95th percentile seconds per claim.
        by_kind: per kind, how many were refused and how many got a verdict.
        slowest_s: per kind, the most seconds one claim took.
    """

    claims: int
    refused: int
    verdicts: int
    non_finite: int
    unexpected: list[str]
    p50_s: float
    p95_s: float
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    slowest_s: dict[str, float] = field(default_factory=dict)
    normal_p50_s: float = 0.0

    @property
    def many_numbers_bounded(self) -> bool:
        """No claim listing many numbers took more than :data:`MANY_NUMBERS_LIMIT` plain claims' median time."""
        return self.slowest_s.get("many numbers", 0.0) <= MANY_NUMBERS_LIMIT * max(self.normal_p50_s, 0.05)

    @property
    def ok(self) -> bool:
        return not self.unexpected and not self.non_finite and self.many_numbers_bounded

    def rows(self) -> list[Row]:
        happened = (
            "ok"
            if self.ok
            else (
                f"FAIL: {len(self.unexpected)} unexpected exceptions, {self.non_finite} "
                f"non-finite, many numbers bounded: {self.many_numbers_bounded}"
            )
        )
        figures = (
            f"{self.claims} claims: {self.refused} refused, {self.verdicts} verdicts, "
            f"{len(self.unexpected)} other exceptions; p50 {self.p50_s:.3f} s, p95 {self.p95_s:.3f} s; many "
            f"numbers at most {self.slowest_s.get('many numbers', 0.0):.2f} s against plain claims' median "
            f"{self.normal_p50_s:.2f} s"
        )
        return [("1 hostile claims", happened, figures)] + [
            ("", "unexpected", message[:120]) for message in self.unexpected[:5]
        ]


def run(checker: Checker, count: int, seed: int = 0) -> HostileResult:
    """Check ``count`` hostile claims built around the titles of the checker's corpus."""
    titles = [title for _, title in checker.workspace.store.titles()]
    seconds: list[float] = []
    by_kind_seconds: dict[str, list[float]] = {kind: [] for kind in KINDS}
    outcomes: Counter[tuple[str, str]] = Counter()
    unexpected: list[str] = []
    non_finite = 0
    for kind, claim in hostile_claims(count, titles, seed):
        started = time.perf_counter()
        try:
            result = checker.check(claim)
            outcomes[kind, "verdicts"] += 1
            non_finite += not finite_scores(result)
        except ClaimError:
            outcomes[kind, "refused"] += 1
        except Exception as exc:  # noqa: BLE001 - what the probe is looking for
            unexpected.append(f"{kind}: {type(exc).__name__}: {exc} (claim {claim[:40]!r})")
        seconds.append(time.perf_counter() - started)
        by_kind_seconds[kind].append(seconds[-1])
    by_kind = {kind: {"refused": outcomes[kind, "refused"], "verdicts": outcomes[kind, "verdicts"]} for kind in KINDS}
    return HostileResult(
        count,
        sum(v["refused"] for v in by_kind.values()),
        sum(v["verdicts"] for v in by_kind.values()),
        non_finite,
        unexpected,
        round(percentile(seconds, 50), 4),
        round(percentile(seconds, 95), 4),
        by_kind,
        {kind: round(max(times), 4) for kind, times in by_kind_seconds.items() if times},
        round(percentile(by_kind_seconds["normal"], 50), 4) if by_kind_seconds["normal"] else 0.0,
    )
