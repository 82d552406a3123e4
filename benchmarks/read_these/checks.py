"""The claims checked once by the shipped checker on the embedded corpus, kept, so that the figures are read again
without checking anew."""

from __future__ import annotations

import json
from pathlib import Path

from fever_core.pipeline import CheckResult


def load_claims(path: Path) -> list[dict]:
    """A claims file's records (``id``, ``claim``, ``label``, ``settling``...)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def checked(claims: list[dict], kept: Path) -> list[CheckResult]:
    """Each claim's check, in order: read back from ``kept`` (a jsonl of :meth:`CheckResult.to_dict`, one a claim)
    when it holds these claims, else checked with the default settings on the embedded corpus (about a second a
    claim on two cores) and written there."""
    if kept.exists():
        results = [CheckResult.from_dict(json.loads(line)) for line in kept.read_text(encoding="utf-8").splitlines()]
        if [result.claim for result in results] == [claim["claim"] for claim in claims]:
            return results
    from fever_core.common import Settings
    from fever_core.pipeline import Checker

    checker = Checker.open("embedded", Settings.from_env(), progress=False)
    results = []
    for start in range(0, len(claims), 16):
        for outcome in checker.check_many([claim["claim"] for claim in claims[start : start + 16]]):
            if not isinstance(outcome, CheckResult):
                raise outcome
            results.append(outcome)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("".join(result.to_json(indent=None) + "\n" for result in results), encoding="utf-8")
    return results
