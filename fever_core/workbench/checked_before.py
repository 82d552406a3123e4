"""Checked before: the earlier checks of a claim, or of a paraphrase of it, in a data folder's history (a session's
own checks and those shared, or every check) and annotations, so that a claim checked last week is not checked again as
if new.

Which earlier claim is the same claim is :mod:`~fever_core.workbench.same_claim`'s to say; the vectors it compares
are kept by :mod:`~fever_core.workbench.claim_vectors`. A lookup reads only the checks and annotations made since the
last one. A history or annotations database that can't be read is left out of the lookup
(:attr:`EarlierChecks.problems` says why; nothing is written to it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from fever_core.common.sqlite import UnusableDatabase
from fever_core.workbench.annotation import AnnotationStore
from fever_core.workbench.claim_vectors import VECTORS_FILE, ClaimVectors
from fever_core.workbench.history import HistoryStore
from fever_core.workbench.same_claim import THRESHOLD, normalised_claim, same_claim

if TYPE_CHECKING:
    from fever_core.retrieval.encoder import SentenceEncoder

LIMIT = 3
"""The most earlier checks a lookup gives."""
HISTORY = "history"
ANNOTATION = "annotation"


@dataclass(frozen=True)
class EarlierCheck:
    """An earlier check of a claim, or of a paraphrase of it.

    Attributes:
        claim: the earlier claim, as it was checked (or annotated).
        verdict: its FEVER label: the check's verdict, or the label an annotator gave it.
        checked_at: when, in seconds since the epoch (for an annotation, when it was saved).
        source: :data:`HISTORY` (a check kept in the history) or :data:`ANNOTATION`.
        entry_id: what opens it: the history entry's key (Verify's ``?history=KEY``), or the annotated claim's queue
            item's number (Annotate's ``?item=ID``).
        similarity: the two claims' cosine under the corpus's encoder, in [-1, 1].
        exact: whether the two are the same text once normalised (:func:`normalised_claim`).
        label_withheld: the earlier check's label was too unsure to show (people were told "Undecided":
            :attr:`HistoryEntry.label_withheld <fever_core.workbench.history.HistoryEntry.label_withheld>`); never for
            an annotation.
    """

    claim: str
    verdict: str
    checked_at: float
    source: str
    entry_id: str
    similarity: float
    exact: bool
    label_withheld: bool = False


def ago(then: float, now: float | None = None) -> str:
    """How long ago ``then`` (seconds since the epoch) was, in words: "just now", "5 minutes ago", "3 hours ago",
    "2 days ago", and from 30 days on its date ("on 2025-01-31", local time)."""
    seconds = max(0.0, (time.time() if now is None else now) - then)
    if seconds >= 30 * 86400:
        return "on " + time.strftime("%Y-%m-%d", time.localtime(then))
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= length:
            number = int(seconds // length)
            return f"{number} {unit}{'' if number == 1 else 's'} ago"
    return "just now"


@dataclass(frozen=True)
class _Earlier:
    """A claim checked or annotated before, as a lookup keeps it; ``row`` is its id in its own table, ``session`` the
    session that made it (``None`` for an annotation, which every session sees)."""

    row: int
    entry_id: str
    claim: str
    normalised: str
    verdict: str
    checked_at: float
    session: str | None = None
    label_withheld: bool = False


Store = TypeVar("Store", HistoryStore, AnnotationStore)


@dataclass
class _Source(Generic[Store]):
    """The claims of one database (the history or the annotations), read a few at a time: the new ones since the last
    read, and all again when some were deleted (a cleared history, an undone annotation) or the file was replaced (moved
    aside). A file that is not there has none; one that can't be read has none, and :attr:`problem` says why."""

    kind: str
    path: Path
    opener: Callable[[Path], Store]
    read: Callable[[Store, int], list[_Earlier]]
    count: Callable[[Store], int]
    store: Store | None = None
    file_id: tuple[int, int] | None = None
    entries: list[_Earlier] = field(default_factory=list)
    problem: str = ""

    def refresh(self) -> None:
        self.problem = ""
        try:
            stat = self.path.stat()
        except OSError:
            self.store, self.entries = None, []
            return
        try:
            if self.store is None or self.file_id != (stat.st_dev, stat.st_ino):
                self.store, self.file_id, self.entries = self.opener(self.path), (stat.st_dev, stat.st_ino), []
            entries = self.entries + self.read(self.store, self.entries[-1].row if self.entries else 0)
            if self.count(self.store) != len(entries):
                entries = self.read(self.store, 0)
            self.entries = entries
        except UnusableDatabase as exc:
            self.store, self.entries, self.problem = None, [], str(exc)


def _history_entries(store: HistoryStore, after: int) -> list[_Earlier]:
    return [
        _Earlier(
            e.entry_id, e.key, e.claim, normalised_claim(e.claim), e.verdict, e.checked_at, e.session, e.label_withheld
        )
        for e in store.since(after)
    ]


def _history_count(store: HistoryStore) -> int:
    return store.count()


def _annotation_count(store: AnnotationStore) -> int:
    return store.counts()["annotations"]


def _annotation_entries(store: AnnotationStore, after: int) -> list[_Earlier]:
    return [
        _Earlier(a.annotation_id, str(a.item_id), a.claim, normalised_claim(a.claim), a.label, a.created_at)
        for a in store.annotations(after)
    ]


class EarlierChecks:
    """Looks up the earlier checks of a claim in the data folder ``data_dir``: its history (``history.sqlite``: a
    session's own checks and the shared ones, or every check) and its annotations (``annotations.sqlite``, everyone's).
    One object serves every thread.

    Args:
        data_dir: the data folder.
        threshold: the cosine from which a claim that agrees on numbers, names and negation is the same claim
            (default :data:`THRESHOLD`, measured).
        limit: the most earlier checks a lookup gives (default :data:`LIMIT`).
    """

    def __init__(self, data_dir: str | Path, threshold: float = THRESHOLD, limit: int = LIMIT):
        data_dir = Path(data_dir)
        self.threshold = threshold
        self.limit = limit
        self._history = _Source(HISTORY, data_dir / "history.sqlite", HistoryStore, _history_entries, _history_count)
        annotations = _Source(
            ANNOTATION, data_dir / "annotations.sqlite", AnnotationStore, _annotation_entries, _annotation_count
        )
        self._sources: list[_Source[Any]] = [self._history, annotations]
        self._vectors = ClaimVectors(data_dir / VECTORS_FILE)
        self._lock = threading.Lock()

    def _shared_keys(self) -> set[str]:
        """The keys of the history's shared checks, read afresh (a check is shared, or stops being, after it was
        read); none when the history can't be read."""
        store = self._history.store
        try:
            return store.shared_keys() if store is not None else set()
        except UnusableDatabase:
            return set()

    @property
    def problems(self) -> list[str]:
        """Why a database was left out of the last lookup (it can't be read: damaged, another program's...), one
        message each, naming the file and what to do; none when both were read (or are not there yet)."""
        return [source.problem for source in self._sources if source.problem]

    def find(
        self, claim: str, encoder: SentenceEncoder, session: str | None = None, claim_vector: np.ndarray | None = None
    ) -> list[EarlierCheck]:
        """The earlier checks of ``claim`` or of a paraphrase of it (:func:`same_claim`) that ``session`` may see: the
        newest of each source and text, exact matches first (newest first), then by similarity; at most
        :attr:`limit`. Call it before the check of ``claim`` is kept in the history, or it finds that check too.

        Args:
            claim: the claim as checked.
            encoder: the encoder of the corpus the claim is checked on (its dense index's).
            session: whose checks of the history count: that session's own and the shared ones (another session's
                unshared claims are private to it); ``None`` (default): every check, as the command line and a shared
                history see them.
            claim_vector: the claim's vector from ``encoder``, when the check already made it
                (:attr:`~fever_core.pipeline.CheckResult.claim_vector`): not embedded again; ``None``: embedded here.
        """
        with self._lock:
            for source in self._sources:
                source.refresh()
            shared = self._shared_keys() if session is not None else set()
            newest: dict[tuple[str, str], _Earlier] = {}
            for source in self._sources:
                for entry in source.entries:  # oldest first: the newest of each text stays
                    # (a read-only history of an earlier version has no keys: none of its checks can be opened)
                    seen = session is None or entry.session in (None, session) or entry.entry_id in shared
                    if seen and entry.entry_id:
                        newest[(source.kind, entry.normalised)] = entry
            if not newest:
                return []
            kinds, entries = zip(*((kind, entry) for (kind, _), entry in newest.items()))
            if claim_vector is not None:
                self._vectors.keep(encoder, claim, claim_vector)
            query = self._vectors.vectors(encoder, [claim])[0]
            similarities = self._vectors.vectors(encoder, [e.claim for e in entries]) @ query
        wanted = normalised_claim(claim)
        exact = {i for i, e in enumerate(entries) if e.normalised == wanted}
        near = [
            i
            for i in np.argsort(-similarities, kind="stable")
            if similarities[i] >= self.threshold and entries[i].normalised != wanted
        ]
        found = sorted(exact, key=lambda i: -entries[i].checked_at)
        for i in near:
            if len(found) >= self.limit:
                break
            if same_claim(claim, entries[i].claim, float(similarities[i]), self.threshold):
                found.append(i)
        return [
            EarlierCheck(
                entries[i].claim,
                entries[i].verdict,
                entries[i].checked_at,
                kinds[i],
                entries[i].entry_id,
                float(similarities[i]),
                i in exact,
                entries[i].label_withheld,
            )
            for i in found[: self.limit]
        ]
