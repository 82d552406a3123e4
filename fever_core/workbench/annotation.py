"""Annotations in an SQLite database: a queue of claims, the evidence sets and labels people give
them, undo, and export as FEVER jsonl (the format the scorer and ``train verifier`` read).

Every action is one transaction, written at once (WAL mode), so a crash or a browser refresh loses
nothing and two annotators can work at the same time. The file is opened and used through
:class:`~fever_core.common.sqlite.WorkbenchDatabase`: a damaged, foreign, read-only or full one is an
:class:`~fever_core.common.sqlite.UnusableDatabase` naming the file and what to do.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sqlite3
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from fever_core.common.jsonl import read_jsonl
from fever_core.common.sqlite import DatabaseKind, WorkbenchDatabase
from fever_core.common.types import LABELS, NEI

_SCHEMA = """
CREATE TABLE IF NOT EXISTS queue (
    id INTEGER PRIMARY KEY,
    claim_id TEXT NOT NULL,
    claim TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    added_at REAL NOT NULL,
    UNIQUE (claim_id, claim)
);
CREATE TABLE IF NOT EXISTS annotations (
    id INTEGER PRIMARY KEY,
    item INTEGER NOT NULL REFERENCES queue(id),
    label TEXT NOT NULL,
    evidence TEXT NOT NULL,
    ambiguous INTEGER NOT NULL DEFAULT 0,
    annotator TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    kind TEXT NOT NULL,
    item INTEGER NOT NULL,
    annotation INTEGER,
    previous_status TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True)
class QueueItem:
    """A claim waiting for (or given) annotation. ``status`` is pending, done or skipped."""

    item_id: int
    claim_id: str
    claim: str
    status: str


@dataclass(frozen=True)
class Annotation:
    """One annotator's answer for a claim: label, evidence sets of ``(page_id, line)``, ambiguity flag."""

    annotation_id: int
    item_id: int
    claim_id: str
    claim: str
    label: str
    evidence_sets: list[list[tuple[str, int]]]
    ambiguous: bool
    annotator: str
    created_at: float


@dataclass(frozen=True)
class Undone:
    """What an undo took back: the claim (back in the queue unless someone else annotated it) and, when the
    action was a save, the annotation removed (so its label and evidence can be shown again)."""

    item: QueueItem
    annotation: Annotation | None


class AnnotationError(ValueError):
    """An annotation that can't be saved as given; the message says why and what to do."""


APPLICATION_ID = 0x46455641  # "FEVA": SQLite's application_id of a workbench annotations database
ANNOTATIONS = DatabaseKind(
    "annotations", APPLICATION_ID, frozenset({"queue", "annotations", "actions"}), _SCHEMA, synchronous="FULL"
)


class AnnotationStore:
    """The annotations database at ``path`` (created on first use).

    Raises:
        UnusableDatabase: here and from every method, naming the file and what to do, when it is damaged, another
            program's database (its SQLite ``application_id`` and tables are not the workbench's), read-only for a
            write, or on a full disk.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._db = WorkbenchDatabase(self.path, ANNOTATIONS)

    def _conn(self) -> AbstractContextManager[sqlite3.Connection]:
        """This thread's connection for one transaction (:meth:`~fever_core.common.sqlite.WorkbenchDatabase.transaction`)."""
        return self._db.transaction()

    # -- the queue --------------------------------------------------------------------------------

    def add_claim(self, claim: str, claim_id: str | int | None = None) -> int:
        """Queue a claim (again returns the existing item for the same id and text)."""
        claim = claim.strip()
        if not claim:
            raise AnnotationError("An empty claim can't be queued.")
        claim_id = str(claim_id) if claim_id is not None else "local-" + hashlib.sha1(claim.encode()).hexdigest()[:10]
        with self._conn() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO queue (claim_id, claim, added_at) VALUES (?, ?, ?)",
                (claim_id, claim, time.time()),
            )
            row = conn.execute("SELECT id FROM queue WHERE claim_id = ? AND claim = ?", (claim_id, claim)).fetchone()
        return int(row[0])

    def add_claims_file(self, source: str | Path | IO[str]) -> int:
        """Queue every claim of a FEVER-format jsonl file; returns how many lines were read.

        Raises :class:`AnnotationError` naming the line of the first malformed one (nothing is queued then).
        """
        records = []
        for number, record in read_jsonl(
            source, name=None if isinstance(source, (str, Path)) else "the file", error=AnnotationError
        ):
            if not str(record.get("claim", "")).strip():
                raise AnnotationError(f'Line {number} has no "claim" (FEVER format: id, claim, ...).')
            records.append(record)
        for record in records:
            self.add_claim(str(record["claim"]), record.get("id"))
        return len(records)

    def item(self, item_id: int) -> QueueItem | None:
        with self._conn() as conn:
            row = conn.execute("SELECT id, claim_id, claim, status FROM queue WHERE id = ?", (item_id,)).fetchone()
        return QueueItem(*row) if row else None

    def next_pending(self, after: int = 0) -> QueueItem | None:
        """The first pending claim after item ``after`` (wrapping round to the start)."""
        with self._conn() as conn:
            row = (
                conn.execute(
                    "SELECT id, claim_id, claim, status FROM queue WHERE status = 'pending' AND id > ? ORDER BY id LIMIT 1",
                    (after,),
                ).fetchone()
                or conn.execute(
                    "SELECT id, claim_id, claim, status FROM queue WHERE status = 'pending' ORDER BY id LIMIT 1"
                ).fetchone()
            )
        return QueueItem(*row) if row else None

    def counts(self) -> dict[str, int]:
        """Claims per status (pending, done, skipped), the total, and annotations saved."""
        counts = {"pending": 0, "done": 0, "skipped": 0}
        with self._conn() as conn:
            counts.update(dict(conn.execute("SELECT status, COUNT(*) FROM queue GROUP BY status").fetchall()))
            counts["annotations"] = conn.execute("SELECT COUNT(*) FROM annotations").fetchone()[0]
        counts["total"] = sum(counts[s] for s in ("pending", "done", "skipped"))
        return counts

    # -- actions ----------------------------------------------------------------------------------

    def save(
        self,
        item_id: int,
        label: str,
        evidence_sets: list[list[tuple[str, int]]],
        annotator: str,
        ambiguous: bool = False,
    ) -> int:
        """Save an annotation and mark the claim done, in one transaction; returns the annotation id.

        SUPPORTS and REFUTES need at least one non-empty evidence set; NOT ENOUGH INFO takes none.
        """
        if label not in LABELS:
            raise AnnotationError(f"Label must be one of {', '.join(LABELS)}, not {label!r}.")
        sets = [[(str(p), int(l)) for p, l in group] for group in evidence_sets if group]
        if label != NEI and not sets:
            raise AnnotationError(f"{label} needs at least one evidence set: tick the sentences that show it.")
        if label == NEI:
            sets = []
        annotator = annotator.strip() or "anonymous"
        with self._conn() as conn:
            previous = self._status(conn, item_id)
            annotation_id = conn.execute(
                "INSERT INTO annotations (item, label, evidence, ambiguous, annotator, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (item_id, label, json.dumps(sets), int(ambiguous), annotator, time.time()),
            ).lastrowid
            assert annotation_id is not None  # an INSERT's row always has one
            conn.execute("UPDATE queue SET status = 'done' WHERE id = ?", (item_id,))
            conn.execute(
                "INSERT INTO actions (annotator, kind, item, annotation, previous_status) VALUES (?, 'save', ?, ?, ?)",
                (annotator, item_id, annotation_id, previous),
            )
        return int(annotation_id)

    def skip(self, item_id: int, annotator: str) -> None:
        """Mark a claim skipped (it leaves the pending queue; undo brings it back). A claim someone has
        annotated meanwhile stays done."""
        annotator = annotator.strip() or "anonymous"
        with self._conn() as conn:
            previous = self._status(conn, item_id)
            conn.execute("UPDATE queue SET status = ? WHERE id = ?", (self._settled(conn, item_id, "skipped"), item_id))
            conn.execute(
                "INSERT INTO actions (annotator, kind, item, previous_status) VALUES (?, 'skip', ?, ?)",
                (annotator, item_id, previous),
            )

    def undo_last(self, annotator: str) -> Undone | None:
        """Undo this annotator's last save or skip; returns what it took back, or None when there is nothing."""
        annotator = annotator.strip() or "anonymous"
        removed = None
        with self._conn() as conn:
            row = conn.execute(
                "SELECT id, kind, item, annotation, previous_status FROM actions "
                "WHERE annotator = ? AND undone = 0 ORDER BY id DESC LIMIT 1",
                (annotator,),
            ).fetchone()
            if row is None:
                return None
            action_id, kind, item_id, annotation_id, previous = row
            if kind == "save":
                removed = self._annotation(conn, annotation_id)
                conn.execute("DELETE FROM annotations WHERE id = ?", (annotation_id,))
            if previous == "done" and not self._annotated(conn, item_id):
                previous = "pending"  # the annotation it was done with was undone by its annotator meanwhile
            conn.execute("UPDATE queue SET status = ? WHERE id = ?", (self._settled(conn, item_id, previous), item_id))
            conn.execute("UPDATE actions SET undone = 1 WHERE id = ?", (action_id,))
        item = self.item(item_id)
        assert item is not None  # an action's claim stays in the queue: nothing deletes one
        return Undone(item, removed)

    @staticmethod
    def _annotated(conn: sqlite3.Connection, item_id: int) -> bool:
        return conn.execute("SELECT 1 FROM annotations WHERE item = ? LIMIT 1", (item_id,)).fetchone() is not None

    @classmethod
    def _settled(cls, conn: sqlite3.Connection, item_id: int, wanted: str) -> str:
        """``wanted``, unless the claim has an annotation (anyone's): then it is done, whatever one annotator
        skips or undoes."""
        return "done" if cls._annotated(conn, item_id) else wanted

    @staticmethod
    def _status(conn: sqlite3.Connection, item_id: int) -> str:
        row = conn.execute("SELECT status FROM queue WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise AnnotationError(f"There is no queued claim {item_id}.")
        return str(row[0])

    # -- reading and export -----------------------------------------------------------------------

    _SELECT_ANNOTATIONS = (
        "SELECT a.id, a.item, q.claim_id, q.claim, a.label, a.evidence, a.ambiguous, a.annotator, "
        "a.created_at FROM annotations a JOIN queue q ON q.id = a.item"
    )

    @staticmethod
    def _from_row(r: tuple[Any, ...]) -> Annotation:
        sets = [[(p, l) for p, l in g] for g in json.loads(r[5])]
        return Annotation(r[0], r[1], r[2], r[3], r[4], sets, bool(r[6]), r[7], r[8])

    @classmethod
    def _annotation(cls, conn: sqlite3.Connection, annotation_id: int) -> Annotation | None:
        row = conn.execute(cls._SELECT_ANNOTATIONS + " WHERE a.id = ?", (annotation_id,)).fetchone()
        return cls._from_row(row) if row else None

    def annotations_of(self, item_id: int) -> list[Annotation]:
        """Every annotation of one queued claim, oldest first."""
        with self._conn() as conn:
            rows = conn.execute(self._SELECT_ANNOTATIONS + " WHERE a.item = ? ORDER BY a.id", (item_id,)).fetchall()
        return [self._from_row(r) for r in rows]

    def annotations(self, after: int = 0) -> list[Annotation]:
        """Every annotation saved after annotation ``after`` (all of them for 0), oldest first."""
        with self._conn() as conn:
            rows = conn.execute(self._SELECT_ANNOTATIONS + " WHERE a.id > ? ORDER BY a.id", (after,)).fetchall()
        return [self._from_row(r) for r in rows]

    def export_fever(self, out: IO[str], include_ambiguous: bool = False) -> int:
        """Write annotations as FEVER claims jsonl, as FEVER's own files are; returns lines written.

        Each line: ``id`` (an integer: the claim's own FEVER id when it came with a whole number, else its queue
        number, or, where that is some other claim's FEVER id, the next number no claim uses), ``verifiable``
        ("VERIFIABLE", or "NOT VERIFIABLE" for NOT ENOUGH INFO), ``label``, ``claim`` and ``evidence``:
        ``[[[annotation_id, evidence_id, page, line], ...], ...]``, one list per evidence set, each sentence
        with its own ``evidence_id`` (numbered from 1 in export order); NOT ENOUGH INFO:
        ``[[[annotation_id, None, None, None]]]``. Also ``annotator`` and ``ambiguous`` (FEVER readers ignore
        them). Ambiguous ones are left out unless ``include_ambiguous``.
        """
        annotations = [a for a in self.annotations() if include_ambiguous or not a.ambiguous]
        fever_ids = {int(a.claim_id) for a in annotations if a.claim_id.isdecimal()}
        next_free = max(fever_ids | {a.item_id for a in annotations}, default=0) + 1
        local_ids: dict[int, int] = {}
        evidence_ids = itertools.count(1)
        written = 0
        for a in annotations:
            if a.claim_id.isdecimal():
                claim_id = int(a.claim_id)
            else:
                if a.item_id not in local_ids and a.item_id in fever_ids:
                    local_ids[a.item_id], next_free = next_free, next_free + 1
                claim_id = local_ids.setdefault(a.item_id, a.item_id)
            evidence: list[list[list[int | str | None]]]
            if a.label == NEI:
                evidence = [[[a.annotation_id, None, None, None]]]
            else:
                evidence = [
                    [[a.annotation_id, next(evidence_ids), page, line] for page, line in group]
                    for group in a.evidence_sets
                ]
            record = {
                "id": claim_id,
                "verifiable": "NOT VERIFIABLE" if a.label == NEI else "VERIFIABLE",
                "label": a.label,
                "claim": a.claim,
                "evidence": evidence,
                "annotator": a.annotator,
                "ambiguous": a.ambiguous,
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            written += 1
        return written
