"""SQLite connections, one per thread, in WAL mode: one writer and any number of readers at once.

A database in a folder this process can't write to (a read-only mount shared by service replicas) is opened
immutable: read-only, without the WAL files that SQLite would otherwise need beside it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
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
        """Whether the database exists in a folder this process can't write to."""
        return self.path.is_file() and not os.access(self.path.parent, os.W_OK)

    def close(self) -> None:
        """Close this thread's connection, if it has one."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
