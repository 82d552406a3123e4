"""The vectors of claims already embedded, by encoder and text, kept in ``claim-vectors.sqlite`` in the data folder: a
claim is embedded once (when it is first looked up, first met in the history, or by its own check), so that "checked
before" (:mod:`~fever_core.workbench.checked_before`) compares a new claim with every earlier one without embedding
them again. A vectors file that can't be used is worked around, the vectors then kept in memory.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.sqlite import DatabaseKind, UnusableDatabase, WorkbenchDatabase, move_aside
from fever_core.retrieval.encoder import encode

if TYPE_CHECKING:
    from fever_core.retrieval.encoder import SentenceEncoder

log = logging.getLogger(__name__)

VECTORS_FILE = "claim-vectors.sqlite"
"""Where the vectors of earlier claims are kept, in the data folder."""
_VECTORS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_vectors (
    encoder TEXT NOT NULL,
    text_key TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (encoder, text_key)
) WITHOUT ROWID;
"""
CLAIM_VECTORS = DatabaseKind("claim vectors", 0x46455643, frozenset({"claim_vectors"}), _VECTORS_SCHEMA)  # "FEVC"
_READ_CHUNK = 500  # texts per SELECT ... IN (...): below SQLite's limit on variables


def encoder_key(encoder: SentenceEncoder) -> str:
    """What the vectors of an encoder are kept under: its identity (name and checksum) and precision."""
    return f"{encoder.identity.name}@{encoder.identity.checksum}/{encoder.precision}"


def _text_key(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class ClaimVectors:
    """The vectors of claims, by encoder and text: in memory, and in the SQLite file ``path`` so that another process
    (the command line, the app after a restart) does not embed them again.

    A file that can't be used (damaged, another program's, read-only, on a full disk) is worked around: a damaged or
    foreign one is moved aside (kept, renamed) and a new one started; otherwise vectors stay in memory only.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._memory: dict[tuple[str, str], np.ndarray] = {}
        self._db: WorkbenchDatabase | None = None
        self._opened = False

    def _database(self) -> WorkbenchDatabase | None:
        """The file, opened on first use (a lookup with nothing to compare makes none)."""
        if not self._opened:
            self._db, self._opened = self._open(), True
        return self._db

    def _open(self) -> WorkbenchDatabase | None:
        try:
            return WorkbenchDatabase(self.path, CLAIM_VECTORS)
        except UnusableDatabase as exc:
            if not exc.movable:
                log.warning("%s The vectors of earlier claims are kept in memory only.", exc)
                return None
            moved = move_aside(self.path)
            log.warning("%s It was moved to %s; a new one starts.", exc, moved.name)
            try:
                return WorkbenchDatabase(self.path, CLAIM_VECTORS)
            except UnusableDatabase as again:
                log.warning("%s The vectors of earlier claims are kept in memory only.", again)
                return None

    def vectors(self, encoder: SentenceEncoder, texts: list[str]) -> np.ndarray:
        """The normalised vectors of ``texts`` under ``encoder``, shape ``(len(texts), dimension)``: kept ones read,
        the others embedded (once each) and kept."""
        key = encoder_key(encoder)
        missing = [t for t in dict.fromkeys(texts) if (key, t) not in self._memory]
        if missing:
            known = self._read(key, missing, encoder.dimension())
            fresh = [t for t in missing if t not in known]
            if fresh:
                embedded = encode(encoder, fresh)
                known.update(zip(fresh, embedded))
                self._write(key, fresh, embedded)
            self._memory.update({(key, t): v for t, v in known.items()})
        if not texts:
            return np.zeros((0, encoder.dimension()), dtype=np.float32)
        return np.stack([self._memory[(key, t)] for t in texts])

    def keep(self, encoder: SentenceEncoder, text: str, vector: np.ndarray) -> None:
        """Keep ``text``'s vector, made by ``encoder`` elsewhere (a check's: it is not embedded again)."""
        key = encoder_key(encoder)
        if (key, text) not in self._memory:
            self._memory[(key, text)] = np.asarray(vector, dtype=np.float32)
            self._write(key, [text], vector[None, :])

    def _read(self, key: str, texts: list[str], dimension: int) -> dict[str, np.ndarray]:
        """The kept vectors of ``texts`` (a row of the wrong length, what damage looks like, is not one)."""
        database = self._database()
        if database is None:
            return {}
        by_key = {_text_key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        keys = list(by_key)
        try:
            with database.transaction() as conn:
                for start in range(0, len(keys), _READ_CHUNK):
                    chunk = keys[start : start + _READ_CHUNK]
                    rows = conn.execute(
                        f"SELECT text_key, vector FROM claim_vectors WHERE encoder = ? AND text_key "
                        f"IN ({', '.join('?' * len(chunk))})",
                        (key, *chunk),
                    ).fetchall()
                    found.update(
                        {
                            by_key[k]: np.frombuffer(blob, dtype=np.float32)
                            for k, blob in rows
                            if len(blob) == 4 * dimension
                        }
                    )
        except UnusableDatabase as exc:
            log.warning("%s The vectors of earlier claims are embedded again.", exc)
            return {}
        return found

    def _write(self, key: str, texts: list[str], vectors: np.ndarray) -> None:
        database = self._database()
        if database is None or database.read_only:
            return
        try:
            with database.transaction() as conn:
                conn.executemany(
                    "INSERT OR REPLACE INTO claim_vectors (encoder, text_key, vector) VALUES (?, ?, ?)",
                    [(key, _text_key(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors)],
                )
        except UnusableDatabase as exc:
            log.warning("%s The vectors of earlier claims are kept in memory only.", exc)
