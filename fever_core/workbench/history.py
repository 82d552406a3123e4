"""The history of checks, in an SQLite database (``history.sqlite`` in the data folder): each check's
claim, corpus and settings, verdict with its probabilities, deciding sentence, the whole result as
JSON, and when it was made. Listed newest first, searched by words, re-opened as the
:class:`~fever_core.pipeline.CheckResult` it was (without checking again), shared, and cleared.

Each check is kept with the session that made it (the app's browser session; "" for none) and is private to it:
listing, counting and clearing take a ``session`` and then see only that session's checks, or ``None`` for every
check (a shared history, ``Settings.shared_history``). A check is opened by its **key**, 128 random bits
(:data:`KEY_BYTES`, ``secrets.token_urlsafe``), never by its row number, which anyone could count through; given a
``session``, only that session's checks and the checks their makers shared (:meth:`HistoryStore.share`) open.

A history kept by an earlier version gets the new columns when it is first opened for writing: every old check a
key of its own, and none shared (each stays with the session that made it; those from before sessions, in no
session's History, appear only in a shared one). Their addresses of old (``?history=1``) open nothing any more. A
read-only history of an earlier version is listed as it is, and none of its checks opens by address.

Every check is one transaction, written at once (WAL mode): checks made at the same time (a batch
in its own thread, people checking claims meanwhile) are all kept. The file is opened and used through
:class:`~fever_core.common.sqlite.WorkbenchDatabase`: a damaged, foreign, read-only or full one is an
:class:`~fever_core.common.sqlite.UnusableDatabase` naming the file and what to do, never a bare SQLite error.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fever_core.common.sqlite import DatabaseKind, WorkbenchDatabase
from fever_core.pipeline import CheckResult

KEY_BYTES = 16
"""The random bytes of a check's key (128 bits, 22 characters of ``secrets.token_urlsafe``)."""
_ADDED_COLUMNS = {
    # column: (its declaration, what it reads as in a read-only history made before it)
    "session": ("TEXT NOT NULL DEFAULT ''", "''"),
    "key": ("TEXT", "NULL"),
    "shared": ("INTEGER NOT NULL DEFAULT 0", "0"),
}
"""The columns added after the first version, each added to an older history when it is opened for writing."""
_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS checks (
    id INTEGER PRIMARY KEY,
    checked_at REAL NOT NULL,
    claim TEXT NOT NULL,
    corpus TEXT NOT NULL,
    settings TEXT NOT NULL,
    verdict TEXT NOT NULL,
    probabilities TEXT NOT NULL,
    deciding_page TEXT NOT NULL,
    deciding_sentence TEXT NOT NULL,
    batch TEXT NOT NULL,
    result TEXT NOT NULL,
"""
    + ",\n".join(f"    {name} {declared}" for name, (declared, _) in _ADDED_COLUMNS.items())
    + "\n);\n"
)
HISTORY = DatabaseKind("history", 0x46455648, frozenset({"checks"}), _SCHEMA)  # application_id "FEVH"
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS checks_by_session ON checks (session, id)",
    "CREATE UNIQUE INDEX IF NOT EXISTS checks_by_key ON checks (key)",
)
_ENTRY_COLUMNS = (
    "id",
    "checked_at",
    "claim",
    "corpus",
    "settings",
    "verdict",
    "probabilities",
    "deciding_page",
    "deciding_sentence",
    "batch",
    "session",
    "key",
    "shared",
)
_WITHHELD = "coalesce(json_extract(result, '$.verdict.label_withheld'), 0)"
"""Whether a check's label is withheld (0 for a check kept before it was recorded)."""
_VERDICT_COLUMNS = ("json_extract(result, '$.verdict.calibrated')", _WITHHELD)
"""What an entry reads of its check's verdict beyond its own columns (its calibrated probability, whether its label is
withheld), from the whole result kept as JSON: ``NULL`` and 0 for a check kept before they were recorded."""


@dataclass(frozen=True)
class HistoryEntry:
    """One check in the history (its whole result: :meth:`HistoryStore.result`).

    Attributes:
        entry_id: its row in the history: the order checks were kept in, never an address (:attr:`key` is).
        checked_at: when it was made, seconds since the epoch.
        claim, corpus: what was checked, against what.
        settings: the settings it was made with (as the client gave them).
        verdict: the verdict's label (FEVER's; shown as "Undecided" where :attr:`label_withheld`).
        probabilities: each label's probability, in [0, 1], as the decider held it (not what people are told:
            :attr:`probability` is).
        deciding_page, deciding_sentence: the sentence the verdict rests on and its page's title ("" for none).
        batch: the id of the batch it was part of ("" for a single check).
        session: the session that made it ("" for none).
        key: what opens it (Verify's ``?history=KEY``): 128 random bits, URL-safe; "" in a read-only history of an
            earlier version, where it has none.
        shared: its maker shared it: it opens from any session that has its key.
        calibrated: how often a verdict like it is right, in [0, 1]
            (:attr:`Verdict.calibrated <fever_core.verification.verdict.Verdict.calibrated>`); ``None`` without a
            calibration, or for a check kept before it was recorded.
        label_withheld: its label was too unsure to show (:attr:`Verdict.label_withheld
            <fever_core.verification.verdict.Verdict.label_withheld>`): people are told "Undecided".
    """

    entry_id: int
    checked_at: float
    claim: str
    corpus: str
    settings: dict[str, Any]
    verdict: str
    probabilities: dict[str, float]
    deciding_page: str
    deciding_sentence: str
    batch: str
    session: str = ""
    key: str = ""
    shared: bool = False
    calibrated: float | None = None
    label_withheld: bool = False

    @property
    def probability(self) -> float:
        """The verdict's one probability as people are told it, in [0, 1], as its card says it
        (:attr:`Verdict.probability <fever_core.verification.verdict.Verdict.probability>`): :attr:`calibrated`, else
        the decider's probability of its label."""
        return self.probabilities[self.verdict] if self.calibrated is None else self.calibrated

    def opens_for(self, session: str | None) -> bool:
        """Whether ``session`` may open it: its own, or shared; any for ``None`` (a shared history)."""
        return session is None or self.shared or self.session == session

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> HistoryEntry:
        (
            entry_id,
            checked_at,
            claim,
            corpus,
            settings,
            verdict,
            probabilities,
            page,
            sentence,
            batch,
            session,
            key,
            shared,
            calibrated,
            label_withheld,
        ) = row
        return cls(
            entry_id,
            checked_at,
            claim,
            corpus,
            json.loads(settings),
            verdict,
            json.loads(probabilities),
            page,
            sentence,
            batch,
            session,
            key or "",
            bool(shared),
            calibrated,
            bool(label_withheld),
        )


class HistoryStore:
    """The history database at ``path`` (created on first use; one of an earlier version gets the columns it
    lacks, see the module's docstring).

    Raises:
        UnusableDatabase: here and from every method, when the file can't be used (damaged, another program's,
            read-only for a write, a full disk), naming it and what to do.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._db = WorkbenchDatabase(self.path, HISTORY)
        with self._db.transaction() as conn:
            present = {row[1] for row in conn.execute("PRAGMA table_info(checks)")}
            if not self._db.read_only:
                for name, (declared, _) in _ADDED_COLUMNS.items():
                    if name not in present:
                        conn.execute(f"ALTER TABLE checks ADD COLUMN {name} {declared}")
                unkeyed = [row for (row,) in conn.execute("SELECT id FROM checks WHERE key IS NULL")]
                conn.executemany("UPDATE checks SET key = ? WHERE id = ?", [(_new_key(), row) for row in unkeyed])
                for index in _INDEXES:
                    conn.execute(index)
                present |= set(_ADDED_COLUMNS)
        columns = [name if name in present else f"{_ADDED_COLUMNS[name][1]} AS {name}" for name in _ENTRY_COLUMNS]
        self._select = "SELECT " + ", ".join([*columns, *_VERDICT_COLUMNS]) + " FROM checks"
        self._session = "session" if "session" in present else "''"
        self._shareable = "shared" in present

    @property
    def read_only(self) -> bool:
        """Whether the file can only be read: checks are listed, new ones are not kept."""
        return self._db.read_only

    def add(self, result: CheckResult, settings: dict[str, Any], batch: str = "", session: str = "") -> str:
        """Keep a check made with ``settings`` (anything JSON can hold) by ``session``, unshared; returns its key."""
        verdict = result.verdict
        deciding = result.evidence[verdict.deciding_evidence[0]].sentence if verdict.deciding_evidence else None
        key = _new_key()
        with self._db.transaction() as conn:
            conn.execute(
                "INSERT INTO checks (checked_at, claim, corpus, settings, verdict, probabilities, deciding_page, "
                "deciding_sentence, batch, result, session, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time(),
                    result.claim,
                    result.corpus,
                    json.dumps(settings),
                    verdict.label,
                    json.dumps(verdict.probabilities),
                    deciding.title if deciding else "",
                    deciding.text if deciding else "",
                    batch,
                    result.to_json(indent=None),
                    session,
                    key,
                ),
            )
        return key

    def entry(self, key: str, session: str | None = None) -> HistoryEntry | None:
        """The entry whose key is ``key``, or ``None`` when there is none, or, given a ``session``, it is neither that
        session's nor shared (:meth:`HistoryEntry.opens_for`)."""
        with self._db.transaction() as conn:
            row = conn.execute(f"{self._select} WHERE key = ?", (key,)).fetchone()
        entry = HistoryEntry.from_row(row) if row else None
        return entry if entry is not None and entry.opens_for(session) else None

    def result(self, key: str, session: str | None = None) -> CheckResult | None:
        """The check's whole result as it was made, or ``None`` where :meth:`entry` has none."""
        if self.entry(key, session) is None:
            return None
        with self._db.transaction() as conn:
            row = conn.execute("SELECT result FROM checks WHERE key = ?", (key,)).fetchone()
        return CheckResult.from_dict(json.loads(row[0])) if row else None

    def share(self, key: str, session: str | None, shared: bool = True) -> bool:
        """Share the check ``key`` of ``session`` (any for ``None``): it opens from any session that has its key
        (``shared=False``: it stops). Returns whether there is such a check."""
        where, values = self._of_session(session)
        with self._db.transaction() as conn:
            return (
                conn.execute(f"UPDATE checks SET shared = ? WHERE key = ?{where}", (int(shared), key, *values)).rowcount
                > 0
            )

    def share_batch(self, batch: str, session: str | None, shared: bool = True) -> int:
        """Share every check of the background run ``batch`` (a text check's, a batch's) that ``session`` made (any
        for ``None``), as :meth:`share` shares one; returns how many there are."""
        where, values = self._of_session(session)
        with self._db.transaction() as conn:
            return conn.execute(
                f"UPDATE checks SET shared = ? WHERE batch = ?{where}", (int(shared), batch, *values)
            ).rowcount

    def shared_keys(self) -> set[str]:
        """The keys of every shared check (none in a read-only history of an earlier version)."""
        if not self._shareable:
            return set()
        with self._db.transaction() as conn:
            return {key for (key,) in conn.execute("SELECT key FROM checks WHERE shared = 1")}

    def search(self, words: str = "", limit: int = 500, session: str | None = None) -> list[HistoryEntry]:
        """The newest ``limit`` entries (``session``'s own, or everyone's for ``None``) in whose words as History shows
        them each word of ``words`` is found (letter case ignored; all entries for no words): the claim, and the
        deciding sentence and its page where the label is shown. A check whose label is withheld ("Undecided") shows
        no deciding sentence, so its hidden one is never matched."""
        conditions, values = [], []
        if session is not None:
            conditions.append(f"{self._session} = ?")
            values.append(session)
        for word in words.split():
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            conditions.append(
                f"(claim LIKE ? ESCAPE '\\' OR (NOT {_WITHHELD} "
                "AND (deciding_sentence LIKE ? ESCAPE '\\' OR deciding_page LIKE ? ESCAPE '\\')))"
            )
            values += [pattern] * 3
        where = "WHERE " + " AND ".join(conditions) if conditions else ""
        with self._db.transaction() as conn:
            rows = conn.execute(f"{self._select} {where} ORDER BY id DESC LIMIT ?", (*values, limit)).fetchall()
        return [HistoryEntry.from_row(row) for row in rows]

    def since(self, entry_id: int = 0) -> list[HistoryEntry]:
        """Every check kept after entry ``entry_id`` (everyone's), oldest first: all of them for 0. What looks for
        earlier checks of a claim reads, the new ones each time (:mod:`~fever_core.workbench.checked_before`)."""
        with self._db.transaction() as conn:
            rows = conn.execute(f"{self._select} WHERE id > ? ORDER BY id", (entry_id,)).fetchall()
        return [HistoryEntry.from_row(row) for row in rows]

    def count(self, session: str | None = None) -> int:
        """How many checks are kept (``session``'s own, or everyone's for ``None``)."""
        where, values = self._of_session(session)
        with self._db.transaction() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM checks WHERE 1{where}", values).fetchone()[0])

    def clear(self, session: str | None = None) -> int:
        """Delete every entry (``session``'s own, or everyone's for ``None``); returns how many there were."""
        where, values = self._of_session(session)
        with self._db.transaction() as conn:
            return conn.execute(f"DELETE FROM checks WHERE 1{where}", values).rowcount

    def _of_session(self, session: str | None) -> tuple[str, tuple[str, ...]]:
        """The SQL condition (`` AND session = ?``) and value that keep to one session; nothing for ``None``."""
        return ("", ()) if session is None else (f" AND {self._session} = ?", (session,))


def _new_key() -> str:
    """A check's key: :data:`KEY_BYTES` random bytes, URL-safe."""
    return secrets.token_urlsafe(KEY_BYTES)
