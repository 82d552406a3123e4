"""End-to-end runs of many claims, appended to a jsonl file as they finish so an interrupted job resumes."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from fever_core.common.formats import DataFileError
from fever_core.common.jsonl import read_jsonl

if TYPE_CHECKING:
    from fever_core.pipeline import Checker, CheckOptions, CheckResult


class ClaimToRun(Protocol):
    """What a run checks: a claim and its gold label (a :class:`~fever_core.common.formats.Claim`, say)."""

    @property
    def claim(self) -> str: ...

    @property
    def label(self) -> str | None: ...


def append_checks(
    checker: Checker,
    claims: Sequence[ClaimToRun],
    out: Path,
    fields: Callable[[CheckResult], dict[str, Any]],
    options: CheckOptions | None = None,
    desc: str = "end-to-end runs",
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Check every claim (anything with ``.claim`` and ``.label``) not yet in the jsonl file ``out``
    and append ``{"claim", "label", **fields(result)}`` for it, so an interrupted run continues where
    it stopped. ``options`` are the :class:`~fever_core.pipeline.CheckOptions` (default: the
    settings'). Returns every record in ``out``."""
    from tqdm.auto import tqdm

    done = {r["claim"] for _, r in read_jsonl(out, error=DataFileError)} if out.is_file() else set()
    todo = [c for c in claims if c.claim not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        for item in tqdm(todo, desc=desc, unit="claim", disable=not progress):
            result = checker.check(item.claim, options)
            fh.write(json.dumps({"claim": item.claim, "label": item.label, **fields(result)}) + "\n")
            fh.flush()
    return [r for _, r in read_jsonl(out, error=DataFileError)]
