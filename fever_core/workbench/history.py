"""The history of checks, in an SQLite database (``history.sqlite`` in the data folder): each check's
claim, corpus and settings, verdict with its probabilities, deciding sentence, the whole result as
JSON, and when it was made. Listed newest first, searched by words, re-opened as the
:class:`~fever_core.pipeline.CheckResult` it was (without checking again), and cleared.

Each check is kept with the session that made it (the app's browser session; "" for none): reading and
clearing take a ``session`` and then see only that session's checks, or ``None`` for every check (a
shared history, ``Settings.shared_history``).

Every check is one transaction, written at once (WAL mode): checks made at the same time (a batch
in its own thread, people checking claims meanwhile) are all kept. The file is opened and used through
:class:`~fever_core.common.sqlite.WorkbenchDatabase`: a damaged, foreign, read-only or full one is an
:class:`~fever_core.common.sqlite.UnusableDatabase` naming the file and what to do, never a bare SQLite error.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from fever_core.pipeline import CheckResult
from fever_core.common.sqlite import DatabaseKind, WorkbenchDatabase

_SCHEMA = """
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
    session TEXT NOT NULL DEFAULT ''
);
"""
HISTORY = DatabaseKind("history", 0x46455648, frozenset({"checks"}), _SCHEMA)  # application_id "FEVH"
_SESSION_INDEX = "CREATE INDEX IF NOT EXISTS checks_by_session ON checks (session, id)"
_ENTRY_COLUMNS = ("id, checked_at, claim, corpus, settings, verdict, probabilities, deciding_page, deciding_sentence, "
                  "batch")


@dataclass(frozen=True)
class HistoryEntry:
    """One check in the history (its whole result: :meth:`HistoryStore.result`).

    Attributes:
        entry_id: its number in the history.
        checked_at: when it was made, seconds since the epoch.
        claim, corpus: what was checked, against what.
        settings: the settings it was made with (as the client gave them).
        verdict: the verdict's label.
        probabilities: each label's probability, in [0, 1].
        deciding_page, deciding_sentence: the sentence the verdict rests on and its page's title ("" for none).
        batch: the id of the batch it was part of ("" for a single check).
    """

    entry_id: int
    checked_at: float
    claim: str
    corpus: str
    settings: dict
    verdict: str
    probabilities: dict[str, float]
    deciding_page: str
    deciding_sentence: str
    batch: str

    @property
    def confidence(self) -> float:
        """The verdict's probability, in [0, 1]."""
        return self.probabilities[self.verdict]

    @classmethod
    def from_row(cls, row: tuple) -> HistoryEntry:
        entry_id, checked_at, claim, corpus, settings, verdict, probabilities, page, sentence, batch = row
        return cls(entry_id, checked_at, claim, corpus, json.loads(settings), verdict, json.loads(probabilities),
                   page, sentence, batch)


class HistoryStore:
    """The history database at ``path`` (created on first use).

    Raises:
        UnusableDatabase: here and from every method, when the file can't be used (damaged, another program's,
            read-only for a write, a full disk), naming it and what to do.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._db = WorkbenchDatabase(self.path, HISTORY)
        if not self._db.read_only:
            with self._db.transaction() as conn:
                if "session" not in {row[1] for row in conn.execute("PRAGMA table_info(checks)")}:
                    conn.execute("ALTER TABLE checks ADD COLUMN session TEXT NOT NULL DEFAULT ''")  # kept before sessions
                conn.execute(_SESSION_INDEX)

    @property
    def read_only(self) -> bool:
        """Whether the file can only be read: checks are listed, new ones are not kept."""
        return self._db.read_only

    def add(self, result: CheckResult, settings: dict, batch: str = "", session: str = "") -> int:
        """Keep a check made with ``settings`` (anything JSON can hold) by ``session``; returns its entry id."""
        verdict = result.verdict
        deciding = result.evidence[verdict.deciding_evidence[0]].sentence if verdict.deciding_evidence else None
        with self._db.transaction() as conn:
            entry_id = conn.execute(
                "INSERT INTO checks (checked_at, claim, corpus, settings, verdict, probabilities, deciding_page, "
                "deciding_sentence, batch, result, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (time.time(), result.claim, result.corpus, json.dumps(settings), verdict.label,
                 json.dumps(verdict.probabilities), deciding.title if deciding else "",
                 deciding.text if deciding else "", batch, result.to_json(indent=None), session),
            ).lastrowid
        return int(entry_id)

    def entry(self, entry_id: int, session: str | None = None) -> HistoryEntry | None:
        """Entry ``entry_id``, or ``None`` when it is not kept (or, given a ``session``, not that session's)."""
        where, values = _of_session(session)
        with self._db.transaction() as conn:
            row = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM checks WHERE id = ?{where}", (entry_id, *values)).fetchone()
        return HistoryEntry.from_row(row) if row else None

    def result(self, entry_id: int, session: str | None = None) -> CheckResult | None:
        """The check's whole result as it was made, or ``None`` for an entry that is not (or no longer) kept, or
        given a ``session``, is not that session's."""
        where, values = _of_session(session)
        with self._db.transaction() as conn:
            row = conn.execute(f"SELECT result FROM checks WHERE id = ?{where}", (entry_id, *values)).fetchone()
        return CheckResult.from_dict(json.loads(row[0])) if row else None

    def search(self, words: str = "", limit: int = 500, session: str | None = None) -> list[HistoryEntry]:
        """The newest ``limit`` entries (``session``'s, or everyone's for ``None``) whose claim, deciding sentence
        or page holds every word of ``words`` (letter case ignored; all entries for no words)."""
        conditions, values = [], []
        if session is not None:
            conditions.append("session = ?")
            values.append(session)
        for word in words.split():
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            conditions.append("(claim LIKE ? ESCAPE '\\' OR deciding_sentence LIKE ? ESCAPE '\\' "
                              "OR deciding_page LIKE ? ESCAPE '\\')")
            values += [pattern] * 3
        where = "WHERE " + " AND ".join(conditions) if conditions else ""
        with self._db.transaction() as conn:
            rows = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM checks {where} ORDER BY id DESC LIMIT ?",
                                (*values, limit)).fetchall()
        return [HistoryEntry.from_row(row) for row in rows]

    def since(self, entry_id: int = 0) -> list[HistoryEntry]:
        """Every check kept after entry ``entry_id`` (everyone's), oldest first: all of them for 0. What looks for
        earlier checks of a claim reads, the new ones each time (:mod:`~fever_core.workbench.checked_before`)."""
        with self._db.transaction() as conn:
            rows = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM checks WHERE id > ? ORDER BY id", (entry_id,)).fetchall()
        return [HistoryEntry.from_row(row) for row in rows]

    def count(self, session: str | None = None) -> int:
        """How many checks are kept (``session``'s, or everyone's for ``None``)."""
        where, values = _of_session(session)
        with self._db.transaction() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM checks WHERE 1{where}", values).fetchone()[0])

    def clear(self, session: str | None = None) -> int:
        """Delete every entry (``session``'s, or everyone's for ``None``); returns how many there were."""
        where, values = _of_session(session)
        with self._db.transaction() as conn:
            return conn.execute(f"DELETE FROM checks WHERE 1{where}", values).rowcount


def _of_session(session: str | None) -> tuple[str, tuple[str, ...]]:
    """The SQL condition (`` AND session = ?``) and value that keep to one session; nothing for ``None``."""
    return ("", ()) if session is None else (" AND session = ?", (session,))
