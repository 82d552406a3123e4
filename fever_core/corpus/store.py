"""Pages, sentences and hyperlinks in an SQLite database, with FTS5 full-text indexes.

In the spirit of DrQA's ``DocDB``: a small class with a handful of clear methods. The database runs
in WAL mode, so one writer and any number of readers can work at once; each thread gets its own
connection. All SQL is parameterised.

Why one module (over 400 lines): the schema, the writes and the reads of one database belong together; split,
each part would need the others' SQL.
"""

from __future__ import annotations

import errno
import hashlib
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from fever_core.common.sqlite import ThreadConnections
from fever_core.common.text import QUERY_STOP_WORDS, content_words
from fever_core.common.types import Link, Page, Sentence

SCHEMA_VERSION = "4"
CHECKSUM_KEY = "content_checksum"
"""Meta key of a built store's content checksum (:meth:`CorpusStore.content_checksum`), checked at open."""
_FTS_TABLES = ("sentences_fts", "pages_fts")
_DISK_FULL_SQLITE_ERRORS = ("SQLITE_FULL", "SQLITE_IOERR_SHMSIZE")
"""SQLite's errors for a full disk: a write that found no room, and a connection whose WAL index can't grow."""
_CHECKSUMMED = (
    "SELECT id, page_id, title, source FROM pages ORDER BY id",
    "SELECT id, page, line, text FROM sentences ORDER BY id",
    "SELECT rowid, sentence, anchor, target FROM links ORDER BY rowid",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY,
    page_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sentences (
    id INTEGER PRIMARY KEY,
    page INTEGER NOT NULL REFERENCES pages(id),
    line INTEGER NOT NULL,
    text TEXT NOT NULL,
    UNIQUE (page, line)
);
CREATE TABLE IF NOT EXISTS links (
    sentence INTEGER NOT NULL REFERENCES sentences(id),
    anchor TEXT NOT NULL,
    target TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS links_by_sentence ON links(sentence);
CREATE VIRTUAL TABLE IF NOT EXISTS sentences_fts USING fts5(
    title, text, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5(
    title, body, tokenize = 'porter unicode61 remove_diacritics 2'
);
"""


@dataclass(frozen=True)
class CorpusStats:
    """Sizes of a corpus store."""

    pages: int
    sentences: int
    links: int

    @property
    def links_per_page(self) -> float:
        return self.links / self.pages if self.pages else 0.0


@dataclass(frozen=True)
class SentenceHit:
    """A sentence found by a search, with its bm25 score (higher is better) and store row id."""

    sentence_id: int
    title: str
    sentence: Sentence
    score: float


@dataclass(frozen=True)
class PageHit:
    """A page found by a search, with its score (higher is better)."""

    page_id: str
    title: str
    score: float


class DiskFull(RuntimeError):
    """The disk (or quota) holding a corpus has no room left; the message names the folder and the fix. Every
    write is a transaction or an atomic file replace, so what was there before is intact."""


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full: an ``OSError`` ENOSPC or EDQUOT, or SQLite's full-disk errors
    (:data:`_DISK_FULL_SQLITE_ERRORS`, "database or disk is full")."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return isinstance(exc, sqlite3.Error) and (
        getattr(exc, "sqlite_errorname", "") in _DISK_FULL_SQLITE_ERRORS or "database or disk is full" in str(exc)
    )


@contextmanager
def reporting_disk_full(path: Path, doing: str) -> Iterator[None]:
    """Raise a full disk met inside the block as :class:`DiskFull`, naming ``path`` (the folder written to) and
    what was being done (e.g. "building corpus x"); other errors pass as they are."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        if is_disk_full(exc):
            raise DiskFull(
                f"The disk holding {path} is full, so {doing} stopped. Free some space there (or point "
                "--data-dir or FEVER_DATA_DIR at a disk with room) and run it again; nothing that was there "
                "is damaged."
            ) from exc
        raise


def check_store_path(path: Path) -> None:
    """Raise a ValueError naming what is in the way of a store at ``path``, and the fix: a folder where the store's
    file should be, or a file where one of the folders above it should be."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(
            f"{path} is a folder, but a corpus store is a file: move that folder away (or delete it) "
            "and run the command again to build the corpus."
        )
    for folder in path.parents:
        if folder.is_dir():
            return
        if folder.exists():
            raise ValueError(
                f"{folder} is a file, but the corpus needs a folder there: move that file away (or "
                "delete it) and run the command again."
            )


def fts_query(text: str, max_terms: int = 32) -> str:
    """Turn free text into a safe FTS5 OR-query of quoted words ("" when nothing is left).

    Quoting every word means no user input can be read as FTS5 syntax (``NEAR``, ``*``, ``"``...).
    """
    words = list(dict.fromkeys(content_words(text, QUERY_STOP_WORDS)))
    return " OR ".join(f'"{w}"' for w in words[:max_terms])


class CorpusStore:
    """A corpus of pages in one SQLite file.

    Use :meth:`open` to read an existing store and :meth:`create` to make a new, empty one.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._connections = ThreadConnections(self.path)

    @classmethod
    def open(cls, path: str | Path) -> CorpusStore:
        """Open an existing store; raises ``FileNotFoundError`` with advice when it is missing, ``ValueError``
        when it is not a store (:func:`check_store_path`), of another schema, or damaged: SQLite's ``quick_check``
        for its structure, for a built store the checksum of its content (:meth:`content_checksum`), and FTS5's
        check of its full-text indexes against their text (about 0.5 s in all for the embedded corpus);
        :class:`DiskFull` when the disk has no room to open it (never a damaged store)."""
        path = Path(path)
        check_store_path(path)
        if not path.is_file():
            raise FileNotFoundError(
                f"No corpus store at {path}. Build it with `python -m fever_core corpus build NAME`."
            )
        store = cls(path)
        try:
            with reporting_disk_full(path.parent, f"opening {path.name}"):  # a WAL index with no room to grow
                version = store.get_meta("schema_version")
                problems = [row[0] for row in store.connection.execute("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{path} is not a readable corpus store ({exc}). Delete it and rebuild.") from exc
        if problems != ["ok"]:
            raise ValueError(f"{path} is damaged ({'; '.join(problems)}). Delete it and rebuild the corpus.")
        if version != SCHEMA_VERSION:
            raise ValueError(f"{path} has store schema {version!r}, this code reads {SCHEMA_VERSION!r}: rebuild it.")
        expected = store.get_meta(CHECKSUM_KEY)
        if expected is None and store.get_meta("build_seconds") is not None:  # built before checksums were kept
            with suppress(sqlite3.OperationalError, DiskFull):  # a read-only store stays without one
                store.set_meta(CHECKSUM_KEY, store.content_checksum())
        elif expected is not None and store.content_checksum() != expected:
            raise ValueError(
                f"{path} is damaged: its pages, sentences or links are not what was built. Delete it "
                "and rebuild the corpus."
            )
        damage = store._full_text_damage() if expected is not None else ""  # built stores; a growing one is written
        if damage:
            raise ValueError(
                f"{path} is damaged: its full-text index does not match its text ({damage}). Delete it "
                "and rebuild the corpus."
            )
        return store

    def _full_text_damage(self) -> str:
        """What FTS5's ``integrity-check`` finds wrong in the full-text indexes ("" when nothing, or when it
        can't run: the store is read-only, locked, or on a full disk); about 0.3 s for the embedded corpus."""
        conn = self.connection
        try:
            for table in _FTS_TABLES:
                conn.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc) or "locked" in str(exc) or is_disk_full(exc):
                return ""
            return f"{table}: {exc}"
        finally:
            conn.rollback()  # the check writes nothing, but opened a transaction
        return ""

    @classmethod
    def create(cls, path: str | Path) -> CorpusStore:
        """Create an empty store at ``path`` (which must not exist yet)."""
        path = Path(path)
        check_store_path(path)
        if path.exists():
            raise FileExistsError(f"{path} already exists.")
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(path)
        with store._writing("creating the corpus store") as conn:
            conn.executescript(_SCHEMA)
            conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
        return store

    @property
    def connection(self) -> sqlite3.Connection:
        """This thread's connection (created on first use)."""
        return self._connections.get()

    def close(self) -> None:
        """Close this thread's connection."""
        self._connections.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _writing(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One transaction on this thread's connection, ``doing`` something; a full disk is raised as
        :class:`DiskFull` (the transaction rolled back)."""
        with reporting_disk_full(self.path.parent, doing), self.connection as conn:
            yield conn

    # -- metadata ---------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._writing("writing to the corpus store") as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def content_checksum(self) -> str:
        """SHA-256 of every page, sentence and link row, in order (hex). A build stores it
        (:data:`CHECKSUM_KEY`) and :meth:`open` compares: bytes damaged inside a row, which SQLite's own checks
        do not see, are caught."""
        digest = hashlib.sha256()
        for query in _CHECKSUMMED:
            for row in self.connection.execute(query):
                digest.update(repr(row).encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    # -- writing ----------------------------------------------------------------------------------

    def add_pages(self, pages: Iterable[Page]) -> int:
        """Add pages in one transaction; a page whose id is already stored is skipped.

        Returns:
            The number of pages added.
        """
        added = 0
        with self._writing("adding pages to the corpus store") as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (CHECKSUM_KEY,))  # a store that grows has none
            for page in pages:
                cur = conn.execute(
                    "INSERT OR IGNORE INTO pages (page_id, title, source) VALUES (?, ?, ?)",
                    (page.page_id, page.title, page.source),
                )
                if cur.rowcount == 0:
                    continue
                page_row = cur.lastrowid
                added += 1
                for sentence in page.sentences:
                    sid = conn.execute(
                        "INSERT INTO sentences (page, line, text) VALUES (?, ?, ?)",
                        (page_row, sentence.line, sentence.text),
                    ).lastrowid
                    conn.executemany(
                        "INSERT INTO links (sentence, anchor, target) VALUES (?, ?, ?)",
                        [(sid, link.anchor, link.target) for link in sentence.links],
                    )
                    conn.execute(
                        "INSERT INTO sentences_fts (rowid, title, text) VALUES (?, ?, ?)",
                        (sid, page.title, sentence.text),
                    )
                conn.execute(
                    "INSERT INTO pages_fts (rowid, title, body) VALUES (?, ?, ?)",
                    (page_row, page.title, page.text),
                )
        return added

    def has_page(self, page_id: str) -> bool:
        row = self.connection.execute("SELECT 1 FROM pages WHERE page_id = ?", (page_id,)).fetchone()
        return row is not None

    # -- reading ----------------------------------------------------------------------------------

    def stats(self) -> CorpusStats:
        conn = self.connection
        return CorpusStats(
            pages=conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0],
            sentences=conn.execute("SELECT COUNT(*) FROM sentences").fetchone()[0],
            links=conn.execute("SELECT COUNT(*) FROM links").fetchone()[0],
        )

    def titles(self) -> list[tuple[str, str]]:
        """All ``(page_id, title)`` pairs, in insertion order."""
        return self.connection.execute("SELECT page_id, title FROM pages ORDER BY id").fetchall()

    def title_of(self, page_id: str) -> str | None:
        row = self.connection.execute("SELECT title FROM pages WHERE page_id = ?", (page_id,)).fetchone()
        return row[0] if row else None

    def page(self, page_id: str) -> Page | None:
        """The whole page with its sentences and links, or ``None`` when it is not in the store."""
        row = self.connection.execute("SELECT id, title, source FROM pages WHERE page_id = ?", (page_id,)).fetchone()
        if row is None:
            return None
        page_row, title, source = row
        ids = [
            r[0] for r in self.connection.execute("SELECT id FROM sentences WHERE page = ? ORDER BY line", (page_row,))
        ]
        sentences = [hit.sentence for hit in self.sentences_by_ids(ids)]
        return Page(page_id=page_id, title=title, sentences=sentences, source=source)

    def sentence(self, page_id: str, line: int) -> Sentence | None:
        row = self.connection.execute(
            "SELECT s.id FROM sentences s JOIN pages p ON p.id = s.page WHERE p.page_id = ? AND s.line = ?",
            (page_id, line),
        ).fetchone()
        return self.sentences_by_ids([row[0]])[0].sentence if row else None

    def sentence_ids_of_pages(self, page_ids: Iterable[str]) -> list[int]:
        """Row ids of every sentence of the given pages, page by page in line order."""
        ids: list[int] = []
        for page_id in page_ids:
            ids.extend(
                r[0]
                for r in self.connection.execute(
                    "SELECT s.id FROM sentences s JOIN pages p ON p.id = s.page WHERE p.page_id = ? ORDER BY s.line",
                    (page_id,),
                )
            )
        return ids

    def sentences_by_ids(self, sentence_ids: list[int]) -> list[SentenceHit]:
        """Sentences (with title and links) for store row ids, in the order given; score is 0."""
        if not sentence_ids:
            return []
        conn = self.connection
        found: dict[int, SentenceHit] = {}
        for start in range(0, len(sentence_ids), 500):
            chunk = sentence_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            links: dict[int, list[Link]] = {}
            for sid, anchor, target in conn.execute(
                f"SELECT sentence, anchor, target FROM links WHERE sentence IN ({marks})", chunk
            ):
                links.setdefault(sid, []).append(Link(anchor, target))
            for sid, page_id, title, line, text in conn.execute(
                "SELECT s.id, p.page_id, p.title, s.line, s.text FROM sentences s "
                f"JOIN pages p ON p.id = s.page WHERE s.id IN ({marks})",
                chunk,
            ):
                sentence = Sentence(page_id, line, text, links.get(sid, []))
                found[sid] = SentenceHit(sid, title, sentence, 0.0)
        return [found[sid] for sid in sentence_ids if sid in found]

    def iter_sentence_texts(self, batch_size: int = 2048, after_id: int = 0) -> Iterator[list[tuple[int, str, str]]]:
        """Batches of ``(sentence_id, title, text)`` by row id: the whole store, or only the sentences
        stored after row ``after_id`` (row ids only grow)."""
        last = after_id
        while True:
            rows = self.connection.execute(
                "SELECT s.id, p.title, s.text FROM sentences s JOIN pages p ON p.id = s.page "
                "WHERE s.id > ? ORDER BY s.id LIMIT ?",
                (last, batch_size),
            ).fetchall()
            if not rows:
                return
            yield rows
            last = rows[-1][0]

    # -- search -----------------------------------------------------------------------------------

    def search_sentences(self, query: str, k: int = 10, page_ids: list[str] | None = None) -> list[SentenceHit]:
        """bm25 search over sentences (title column weighted 0.5), optionally within some pages."""
        match = fts_query(query)
        if not match or k <= 0:
            return []
        sql = "SELECT f.rowid, -bm25(sentences_fts, 0.5, 1.0) AS score FROM sentences_fts f "
        params: list[object] = [match]
        if page_ids is not None:
            if not page_ids:
                return []
            marks = ",".join("?" * len(page_ids))
            sql += (
                "JOIN sentences s ON s.id = f.rowid JOIN pages p ON p.id = s.page "
                f"WHERE sentences_fts MATCH ? AND p.page_id IN ({marks}) "
            )
            params.extend(page_ids)
        else:
            sql += "WHERE sentences_fts MATCH ? "
        sql += "ORDER BY bm25(sentences_fts, 0.5, 1.0) LIMIT ?"
        params.append(k)
        scored = self.connection.execute(sql, params).fetchall()
        hits = {h.sentence_id: h for h in self.sentences_by_ids([sid for sid, _ in scored])}
        return [
            SentenceHit(sid, hits[sid].title, hits[sid].sentence, float(score)) for sid, score in scored if sid in hits
        ]

    def search_pages(self, query: str, k: int = 10) -> list[PageHit]:
        """bm25 search over whole pages (title and body, title weighted 2)."""
        return self._search_pages(query, k, title_weight=2.0, body_weight=1.0)

    def search_titles(self, query: str, k: int = 10) -> list[PageHit]:
        """bm25 search over page titles only."""
        return self._search_pages(query, k, title_weight=1.0, body_weight=0.0)

    def _search_pages(self, query: str, k: int, title_weight: float, body_weight: float) -> list[PageHit]:
        match = fts_query(query)
        if not match or k <= 0:
            return []
        if not body_weight:
            match = f"title : ({match})"
        rows = self.connection.execute(
            "SELECT p.page_id, p.title, -bm25(pages_fts, ?, ?) AS score FROM pages_fts "
            "JOIN pages p ON p.id = pages_fts.rowid WHERE pages_fts MATCH ? ORDER BY score DESC LIMIT ?",
            (title_weight, body_weight, match, k),
        ).fetchall()
        return [PageHit(page_id, title, float(score)) for page_id, title, score in rows]
