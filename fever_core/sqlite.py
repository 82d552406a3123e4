"""SQLite connections, one per thread, in WAL mode: one writer and any number of readers at once."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


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
            conn = sqlite3.connect(self.path, timeout=30.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection, if it has one."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
