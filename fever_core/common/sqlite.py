"""SQLite connections, one per thread, in WAL mode: one writer and any number of readers at once; and the one
guarded way the workbench's own databases (the history, the annotations) are opened and used.

A database this process can't write to (a read-only file, or a read-only mount shared by service replicas) is opened
immutable: read-only, without the WAL files that SQLite would otherwise need beside it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote


class ThreadConnections:
    """Gives each thread its own connection to one database file (created on first use).

    Args:
        path: the database file.
        synchronous: SQLite's ``synchronous`` pragma: ``NORMAL`` (default; safe in WAL mode, may lose
            the last commits on power loss) or ``FULL`` (every commit reaches the disk).
    """

    def __init__(self, path: Path, synchronous: str = "NORMAL"):
        self.path = Path(path)
        self.synchronous = synchronous
        self._local = threading.local()

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                conn = sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?immutable=1", uri=True, timeout=30.0)
            else:
                conn = sqlite3.connect(self.path, timeout=30.0)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(f"PRAGMA synchronous={self.synchronous}")
            self._local.conn = conn
        return conn

    @property
    def read_only(self) -> bool:
        """Whether the database exists and this process can't write to it or to its folder."""
        return self.path.is_file() and not (os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK))

    def close(self) -> None:
        """Close this thread's connection, if it has one."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


@dataclass(frozen=True)
class DatabaseKind:
    """One kind of the workbench's own databases.

    Attributes:
        what: what people call it ("history", "annotations"), in messages.
        application_id: the SQLite ``application_id`` stamped in its files (a file with another stamp and other
            tables is another program's, and is left alone).
        tables: the tables its schema creates.
        schema: SQL creating them (``CREATE TABLE IF NOT EXISTS``), run on every open of a writable file.
        synchronous: SQLite's ``synchronous`` pragma (see :class:`ThreadConnections`).
    """

    what: str
    application_id: int
    tables: frozenset[str]
    schema: str
    synchronous: str = "NORMAL"


class UnusableDatabase(RuntimeError):
    """One of the workbench's databases can't be used as it is: damaged, another program's, read-only, on a full
    disk, or busy. The message names the file and what to do.

    Attributes:
        path: the database file.
        movable: moving the file aside (:func:`move_aside`) lets a new database start there: it is damaged or
            another program's. False when the file is fine but can't be written now (read-only, full disk, busy).
    """

    def __init__(self, path: Path, message: str, movable: bool):
        super().__init__(message)
        self.path = path
        self.movable = movable


_DAMAGE = ("not a database", "malformed", "no such table", "no such column", "has no column")
_NOT_NOW = {
    "readonly": "is read-only",
    "read-only": "is read-only",
    "disk is full": "is on a full disk",
    "locked": "is busy (another process is writing to it)",
    "busy": "is busy (another process is writing to it)",
    "unable to open": "can't be opened (its folder can't be written to, or the file is not there)",
}


class WorkbenchDatabase:
    """A database of the workbench's own, opened and used through one guarded path: any SQLite error at open or in
    use becomes :class:`UnusableDatabase`, naming the file and what to do.

    Opening creates the tables in a new file, stamps and accepts a file that is this kind's, and refuses a damaged
    file (SQLite's ``quick_check``) or another program's database without writing to it. A file this process can't
    write to opens read-only (:attr:`read_only`): it can be read, and a write raises :class:`UnusableDatabase`.

    Args:
        path: the database file (its folder is created when missing).
        kind: what it holds.

    Raises:
        UnusableDatabase: the file can't be used (see there).
    """

    def __init__(self, path: str | Path, kind: DatabaseKind):
        self.path = Path(path)
        self.kind = kind
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnusableDatabase(
                self.path,
                f"The {kind.what} database {self.path} can't be made: its folder can't "
                f"be created ({exc.strerror}). Point FEVER_DATA_DIR at a folder you can write to.",
                movable=False,
            ) from exc
        self._connections = ThreadConnections(self.path, kind.synchronous)
        if self.path.is_file():
            self._check_the_file()
        with self.transaction() as conn:
            self._create_or_stamp(conn)

    @property
    def read_only(self) -> bool:
        """Whether the file can only be read (checks are shown, nothing new is kept)."""
        return self._connections.read_only

    def _check_the_file(self) -> None:
        """Refuse an empty file, a damaged one (SQLite's ``quick_check``) or another program's database, reading it
        through a connection of its own that writes nothing (not even WAL mode). SQLite would take an empty file for
        a new database: here it is something cut short (a full disk, a copy that failed), said as such."""
        if self.path.stat().st_size == 0 and not Path(f"{self.path}-wal").is_file():
            raise UnusableDatabase(
                self.path,
                f"The {self.kind.what} database {self.path} is empty (0 bytes): whatever it held was lost "
                "before this open (a full disk, a copy that stopped?). Nothing was written to it. Move it aside (it is "
                "kept, renamed) and a new one starts there; or restore it from a backup.",
                movable=True,
            )
        try:
            mode = "immutable=1" if self.read_only else "mode=ro"  # as ThreadConnections opens a read-only file
            conn = sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?{mode}", uri=True, timeout=30.0)
            try:
                if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise sqlite3.DatabaseError("database disk image is malformed (quick_check)")
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise self.unusable(exc) from exc
        if app_id != self.kind.application_id and tables and not self.kind.tables <= tables:
            raise UnusableDatabase(
                self.path,
                f"{self.path} is not a FEVER Workbench {self.kind.what} database (it holds the tables "
                f"{', '.join(sorted(tables))}): nothing was written to it. Move it aside (it is kept, renamed) and a new "
                "one starts there; or point FEVER_DATA_DIR elsewhere.",
                movable=True,
            )
        if self.read_only and not self.kind.tables <= tables:
            raise self.unusable(sqlite3.DatabaseError("no such table"))  # read-only, and nothing of ours to read

    def _create_or_stamp(self, conn: sqlite3.Connection) -> None:
        """Create the tables in a new file, and stamp one of this kind made before the stamp existed (nothing for a
        read-only file)."""
        if not self.read_only:
            conn.executescript(self.kind.schema)
            conn.execute(f"PRAGMA application_id = {self.kind.application_id}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, for one transaction (committed at the end of the block, rolled back on an
        exception). An SQLite error in the block becomes :class:`UnusableDatabase`; other exceptions pass."""
        try:
            conn = self._connections.get()
            with conn:
                yield conn
        except sqlite3.DatabaseError as exc:
            raise self.unusable(exc) from exc

    def unusable(self, error: sqlite3.DatabaseError) -> UnusableDatabase:
        """The :class:`UnusableDatabase` that SQLite's ``error`` on this file means."""
        text = str(error)
        where = f"The {self.kind.what} database {self.path}"
        elsewhere = "or point FEVER_DATA_DIR at a folder you can write to."
        for clue, state in _NOT_NOW.items():
            if clue in text.lower():
                fix = (
                    "Try again in a moment."
                    if clue in ("locked", "busy")
                    else (
                        "Free some space, " + elsewhere if clue == "disk is full" else "Make it writable, " + elsewhere
                    )
                )
                return UnusableDatabase(
                    self.path, f"{where} {state} ({text}): nothing could be written to it. {fix}", movable=False
                )
        damaged = "is damaged" if any(clue in text.lower() for clue in _DAMAGE) else "can't be used"
        return UnusableDatabase(
            self.path,
            f"{where} {damaged} ({text}). Move it aside (it is kept, renamed, and may "
            "still hold entries worth recovering) and a new one starts there; or point "
            "FEVER_DATA_DIR elsewhere.",
            movable=True,
        )

    def close(self) -> None:
        """Close this thread's connection, if it has one."""
        self._connections.close()


def move_aside(path: str | Path) -> Path:
    """Rename a database file, with its ``-wal`` and ``-shm`` files, to ``NAME.moved-aside-YYYYMMDD-HHMMSS`` beside it
    (never deleted: it may hold something worth recovering), so that a new database can start at ``path``.

    Returns:
        The file's new path.
    """
    path = Path(path)
    target = path.with_name(f"{path.name}.moved-aside-{time.strftime('%Y%m%d-%H%M%S')}")
    for number in range(2, 1000):  # a rename would replace a file moved aside in the same second
        if not any(Path(f"{target}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
            break
        target = path.with_name(f"{path.name}.moved-aside-{time.strftime('%Y%m%d-%H%M%S')}-{number}")
    for suffix in ("-wal", "-shm", ""):  # the main file last: a new database never starts beside an old WAL
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            companion.rename(Path(f"{target}{suffix}"))
    return target
