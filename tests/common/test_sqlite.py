"""SQLite connections: WAL in a writable folder, immutable (read-only) in a folder that can't be written."""

import sqlite3
from pathlib import Path

import pytest

from fever_core.common import sqlite as sqlite_module
from fever_core.common.sqlite import ThreadConnections


def test_a_database_in_a_read_only_folder_opens_immutable_without_wal_files(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
    conn.close()
    monkeypatch.setattr(sqlite_module.os, "access", lambda folder, mode: False)  # as on a read-only mount
    connections = ThreadConnections(path)
    assert connections.read_only
    assert connections.get().execute("SELECT x FROM t").fetchall() == [(1,)]
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        connections.get().execute("INSERT INTO t VALUES (2)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.sqlite"]


def test_a_writable_folder_gets_wal(tmp_path):
    connections = ThreadConnections(tmp_path / "new.sqlite")
    assert not connections.read_only
    assert connections.get().execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_moving_a_database_aside_keeps_it_and_its_wal_and_never_replaces_one_moved_before(tmp_path):
    from fever_core.common.sqlite import move_aside

    path = tmp_path / "history.sqlite"
    moved = []
    for n in range(2):
        path.write_bytes(b"damaged %d" % n)
        Path(f"{path}-wal").write_bytes(b"wal %d" % n)
        moved.append(move_aside(path))
    assert not path.exists() and not Path(f"{path}-wal").exists()
    assert [m.read_bytes() for m in moved] == [b"damaged 0", b"damaged 1"]
    assert [Path(f"{m}-wal").read_bytes() for m in moved] == [b"wal 0", b"wal 1"]
