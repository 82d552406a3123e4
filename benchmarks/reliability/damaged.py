"""Probe 4: damaged corpus files. Each case damages one file of a copy of a built corpus folder, then opens the
copy as the workbench does (:func:`open_workspace`) and checks one claim. The workbench should rebuild what is
damaged or stop with a clear error; a verdict must never rest on non-finite scores."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.reliability.common import CURIE_CLAIM, Row, finite_scores
from fever_core.common.settings import Settings
from fever_core.corpus.build import STORE_FILE, corpus_dir
from fever_core.pipeline import Checker
from fever_core.retrieval.dense_files import CHECKED_FILES, IDS_FILE, INDEX_FILE, META_FILE
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.workspace import open_workspace

MIB = 1 << 20
TINY_PAGES = [
    {
        "id": "Marie_Curie",
        "lines": "0\tMarie Curie was a Polish and naturalised-French physicist and chemist who conducted "
        "pioneering research on radioactivity .\n1\tShe was the first woman to win a Nobel Prize , and the only person "
        "to win a Nobel Prize in two scientific fields .\tNobel Prize\tNobel_Prize",
    },
    {
        "id": "Nobel_Prize",
        "lines": "0\tThe Nobel Prize is a set of annual international awards bestowed by Swedish and "
        "Norwegian institutions .",
    },
    {"id": "Paris", "lines": "0\tParis is the capital and most populous city of France ."},
    {"id": "Lyon", "lines": "0\tLyon is the third-largest city of France ."},
    {"id": "Edinburgh", "lines": "0\tEdinburgh is the capital city of Scotland ."},
]
"""The small corpus of a quick run: FEVER ``wiki-pages`` records."""


def _overwrite(path: Path, at: float, size: int) -> None:
    """Random bytes over ``size`` bytes of ``path`` from ``at`` (a fraction of its length), not past its end."""
    length = path.stat().st_size
    start = int(length * at)
    with path.open("r+b") as fh:
        fh.seek(start)
        fh.write(os.urandom(min(size, length - start)))


def _truncate(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


CASES: dict[str, Callable[[Path], None]] = {
    "dense.faiss: 1 MiB random bytes at 30%": lambda folder: _overwrite(folder / INDEX_FILE, 0.3, MIB),
    "dense.json deleted": lambda folder: (folder / META_FILE).unlink(),
    "store.sqlite: 64 KiB overwritten mid-file": lambda folder: _overwrite(folder / STORE_FILE, 0.5, 64 << 10),
    "store.sqlite: 64 bytes overwritten at 30%": lambda folder: _overwrite(folder / STORE_FILE, 0.3, 64),
    "dense_ids.npy truncated to half": lambda folder: _truncate(folder / IDS_FILE),
}
"""Each case's name and how it damages a corpus folder."""


class _Warnings(logging.Handler):
    """Collects the warnings the workbench logs (e.g. "rebuilding")."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@dataclass
class DamageOutcome:
    """What opening a corpus copy and checking one claim gave.

    Attributes:
        case: the damage done (``"intact"`` for the undamaged copy the others are compared with).
        outcome: ``"rebuilt store"``, ``"rebuilt dense index"`` (the open rewrote its files, then a verdict),
            ``"verdict"`` (nothing rewritten) or ``"error"``.
        detail: the warnings the workbench logged, or the error (type and message).
        seconds: wall-clock seconds from opening the copy to the verdict or the error.
        label: the verdict, if there was one.
        correct: whether that verdict is the intact copy's.
        non_finite: whether the verdict rested on a non-finite score (must never be).
    """

    case: str
    outcome: str
    detail: str
    seconds: float
    label: str | None
    correct: bool
    non_finite: bool


def _signatures(folder: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of each corpus file in ``folder``, to tell which ones an open rewrote."""
    return {
        name: ((folder / name).stat().st_size, (folder / name).stat().st_mtime_ns)
        for name in (STORE_FILE, *CHECKED_FILES, META_FILE)
        if (folder / name).is_file()
    }


def _open_and_check(
    name: str, verifier: ClaimVerifier, settings: Settings, claim: str
) -> tuple[str, str, float, str | None, bool]:
    """Open corpus ``name`` of ``settings`` and check ``claim``: outcome, detail, seconds, label, non-finite."""
    folder = corpus_dir(settings.data_dir, name)
    before = _signatures(folder)
    warnings = _Warnings()
    logger = logging.getLogger("fever_core")
    logger.addHandler(warnings)
    started = time.perf_counter()
    try:
        result = Checker(open_workspace(name, settings, progress=False), verifier).check(claim)
    except Exception as exc:  # noqa: BLE001 - a clear error is one of the outcomes the probe reports
        return "error", f"{type(exc).__name__}: {exc}", time.perf_counter() - started, None, False
    finally:
        logger.removeHandler(warnings)
    seconds = time.perf_counter() - started
    after = _signatures(folder)
    rewritten = {file for file in after if before.get(file) != after[file]}
    parts = [
        part
        for part, files in (("store", {STORE_FILE}), ("dense index", {*CHECKED_FILES, META_FILE}))
        if rewritten & files
    ]
    outcome = f"rebuilt {' + '.join(parts)}" if parts else "verdict"
    return outcome, "; ".join(warnings.messages), seconds, result.verdict.label, not finite_scores(result)


@dataclass
class DamageResult:
    """Probe 4: the intact copy, then one outcome per case of :data:`CASES`."""

    claim: str
    outcomes: list[DamageOutcome]

    @property
    def ok(self) -> bool:
        return not any(o.non_finite for o in self.outcomes) and all(
            o.correct or o.outcome == "error" for o in self.outcomes
        )

    def rows(self) -> list[Row]:
        rows = []
        for o in self.outcomes:
            answer = (
                f"verdict {o.label} ({'as intact' if o.correct else 'NOT as intact'})" if o.label else o.detail[:90]
            )
            finite = "; NON-FINITE SCORES" if o.non_finite else ""
            warned = ("; warning logged" if o.detail else "; no warning logged") if o.label else ""
            rows.append((f"4 damaged: {o.case}", o.outcome, f"{o.seconds:.1f} s to {answer}{finite}{warned}"))
        return rows


def build_tiny_corpus(template: Settings, workdir: Path, name: str = "reliability-tiny") -> Path:
    """Build corpus ``name`` of :data:`TINY_PAGES` in a data folder under ``workdir``; returns its folder."""
    pages = Path(workdir) / "tiny-pages.jsonl"
    pages.parent.mkdir(parents=True, exist_ok=True)
    pages.write_text("".join(json.dumps(page) + "\n" for page in TINY_PAGES), encoding="utf-8")
    settings = dataclasses.replace(template, data_dir=Path(workdir) / "tiny-data")
    return open_workspace(name, settings, specs=[f"fever:{pages}"], progress=False).folder


def run(
    source: Path, name: str, verifier: ClaimVerifier, template: Settings, workdir: Path, claim: str = CURIE_CLAIM
) -> DamageResult:
    """Copy the corpus folder ``source`` (corpus ``name``) into a fresh data folder under ``workdir`` for the intact
    case and for each case of :data:`CASES`, damage it, open it with ``template``'s settings (its data folder
    replaced) and check ``claim`` with ``verifier``. ``source`` itself is only read."""
    outcomes: list[DamageOutcome] = []
    expected = None
    for number, (case, damage) in enumerate({"intact": lambda folder: None, **CASES}.items()):
        settings = dataclasses.replace(template, data_dir=Path(workdir) / f"case-{number}")
        copy = corpus_dir(settings.data_dir, name)
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("dense.partial"))
        damage(copy)
        outcome, detail, seconds, label, non_finite = _open_and_check(name, verifier, settings, claim)
        if case == "intact":
            expected = label
        outcomes.append(
            DamageOutcome(
                case, outcome, detail, round(seconds, 2), label, label is not None and label == expected, non_finite
            )
        )
    return DamageResult(claim, outcomes)
