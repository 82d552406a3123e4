"""Named corpora and building their stores: sources in precedence order, links anchored, atomic.

A corpus is a named list of source specs (see :mod:`fever_core.corpus.sources`); a page from an
earlier source wins when two sources have the same page id. Three names are predefined for the
benchmarks. A build writes ``store.sqlite.partial`` and renames it into place only when complete,
so a killed build never leaves a store that reads wrong; running the build again resumes it where it stopped.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tqdm import tqdm

from fever_core.common.settings import HAND_CLAIMS, SHARED_DATA_DIR
from fever_core.common.types import Page
from fever_core.corpus.linking import TitleLinker
from fever_core.corpus.sources import CorpusSourceError, PageSource, source_from_spec
from fever_core.corpus.store import CHECKSUM_KEY, SCHEMA_VERSION, CorpusStore, check_store_path, reporting_disk_full

log = logging.getLogger(__name__)

FM2_PAGES = SHARED_DATA_DIR / "corpus" / "fm2-pages.jsonl"
"""Fool Me Twice's pages (FEVER format): Wikipedia's text of 2020, where FEVER's other pages are of 2017."""
NAMED_CORPORA: dict[str, list[str]] = {
    "embedded": ["embedded"],
    "fever-dev": [f"fever:{SHARED_DATA_DIR / 'corpus' / 'fever-pages.jsonl'}", "embedded"],
    "fm2": [f"fever:{FM2_PAGES}", "embedded"],
}
# The live Wikipedia cache (fever_core.workspace.live): not built from sources, it grows as claims are checked.
LIVE_CORPUS = "wikipedia"
CORPORA_HELP = (
    "embedded: 10,033 Wikipedia lead summaries. fever-dev / fm2: benchmark pages plus the summaries. "
    f"{LIVE_CORPUS} (live): searches Wikipedia for each claim and keeps the pages it fetches, so they "
    "work offline later. Others: corpora made from FEVER-format files."
)
"""What each corpus is, in one paragraph for people choosing one."""
CORPUS_CLAIMS = {
    "embedded": HAND_CLAIMS,
    "fever-dev": SHARED_DATA_DIR / "claims" / "fever-dev.jsonl",
    "fm2": SHARED_DATA_DIR / "claims" / "fm2-dev.jsonl",
}
"""The labelled claims file that goes with each predefined corpus (those in ``../shared`` only where it is)."""
STORE_FILE = "store.sqlite"
SOURCES_FILE = "sources.json"
MAX_NAME_BYTES = 100
"""The longest corpus name, in bytes of UTF-8 (a folder's name may have 255 at most)."""
_BATCH = 500
CURSOR_KEY = "build_cursor"
"""Meta key of an unfinished store: ``[source number, pages read from it]``, where a resumed build starts."""
TOTAL_KEY = "build_total_pages"
"""Meta key of an unfinished store: how many pages its sources hold (counted once, for progress)."""


def corpus_claims(name: str) -> Path | None:
    """The labelled claims file that goes with corpus ``name`` (:data:`CORPUS_CLAIMS`), if this machine has it."""
    path = CORPUS_CLAIMS.get(name)
    return path if path is not None and path.is_file() else None


def text_age(source: str) -> str:
    """How old a page's text is, by the source it came from (:attr:`~fever_core.common.types.Page.source`): pages
    from FEVER-format files are FEVER's Wikipedia of 2017, except Fool Me Twice's (2020); "" for the others (recent
    leads, as in the embedded and live corpora)."""
    if source == f"fever:{FM2_PAGES.name}":
        return "2020 text (Fool Me Twice)"
    return "2017 text (FEVER)" if source.startswith("fever:") else ""


def corpus_dir(data_dir: Path, name: str) -> Path:
    """Folder of a named corpus: ``<data_dir>/corpora/<name>``."""
    if not name or any(ch in name for ch in "/\\") or name.startswith("."):
        raise ValueError(f"Bad corpus name {name!r}: use letters, digits, '-' and '_'.")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise ValueError(
            f"The corpus name {name[:30]!r}... is too long ({len(name):,} characters): use at most "
            f"{MAX_NAME_BYTES} letters, digits, '-' and '_'."
        )
    return Path(data_dir) / "corpora" / name


def corpus_specs(data_dir: Path, name: str) -> list[str]:
    """Source specs of a corpus: predefined, or saved by an earlier ``corpus build NAME --source``."""
    if name in NAMED_CORPORA:
        return NAMED_CORPORA[name]
    saved = corpus_dir(data_dir, name) / SOURCES_FILE
    if saved.is_file():
        return _saved_specs(saved, name)
    raise KeyError(
        f"Unknown corpus {name!r}. Predefined: {', '.join(NAMED_CORPORA)}, and {LIVE_CORPUS} (live). "
        f"Make a new one with `python -m fever_core corpus build {name} --source fever:PATH.jsonl [--source embedded]`."
    )


def _saved_specs(saved: Path, name: str) -> list[str]:
    """The source specs in a corpus's :data:`SOURCES_FILE`.

    Raises:
        CorpusSourceError: the file can't be read or is not a JSON list of specs (damaged); the message names it and
            says how to give the corpus its sources again.
    """
    try:
        specs = json.loads(saved.read_text(encoding="utf-8"))
        if isinstance(specs, list) and specs and all(isinstance(spec, str) for spec in specs):
            return specs
        problem = "it is not a list of source specs"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        problem = str(exc)
    raise CorpusSourceError(
        f"The source list of corpus {name!r}, {saved}, is damaged ({problem}), so the corpus can't be opened. Name "
        f"its sources again: `python -m fever_core corpus build {name} --source SOURCE [--source SOURCE ...]` (its "
        f"store is kept when they are the ones it was built from), or delete {saved.parent} to remove the corpus."
    )


def _readable_specs(saved: Path) -> list[str] | None:
    """The specs in ``saved``; ``None`` when there is no such file or it is damaged."""
    try:
        return _saved_specs(saved, saved.parent.name) if saved.is_file() else None
    except CorpusSourceError:
        return None


def list_corpora(data_dir: Path) -> list[str]:
    """The predefined corpus names, the live one, then those made with ``--source`` under ``data_dir``, sorted."""
    made = sorted(p.parent.name for p in (Path(data_dir) / "corpora").glob(f"*/{SOURCES_FILE}"))
    return [*NAMED_CORPORA, LIVE_CORPUS] + [name for name in made if name not in NAMED_CORPORA and name != LIVE_CORPUS]


def sources_fingerprint(sources: list[PageSource]) -> str:
    """Changes whenever a source's input or the store schema changes."""
    parts = [SCHEMA_VERSION] + [f"{s.name}={s.fingerprint()}" for s in sources]
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:16]


def page_key(page_id: str) -> str:
    """The identity of a page across sources: its id in Unicode NFC (FEVER's dump and Wikipedia's
    API spell "Simón_Bolívar" with different code points)."""
    return unicodedata.normalize("NFC", page_id)


def _linker(sources: list[PageSource]) -> TitleLinker | None:
    """The title linker for the pages that come without links, over every source's titles; ``None`` when every
    source carries its own links (FEVER's dump: its 5.4M titles are then never held in memory)."""
    if all(source.carries_links for source in sources):
        return None
    titles: dict[str, tuple[str, str]] = {}
    for source in sources:
        for page_id, title in source.iter_titles():
            titles.setdefault(page_key(page_id), (page_id, title))
    return TitleLinker(titles.values())


def _partial_store(partial: Path, fingerprint: str, sources: list[PageSource]) -> CorpusStore:
    """The unfinished store of an earlier build of the same sources, to resume; else a new, empty one."""
    if partial.is_file():
        try:
            store = CorpusStore.open(partial)
            if store.get_meta("fingerprint") == fingerprint and store.get_meta(CURSOR_KEY):
                log.info("Resuming the build of %s: %s pages stored so far.", partial, f"{store.stats().pages:,}")
                return store
            store.close()
        except (ValueError, sqlite3.DatabaseError) as exc:
            log.warning("The unfinished build %s can't be resumed (%s): starting afresh.", partial, exc)
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    store = CorpusStore.create(partial)
    store.set_meta("fingerprint", fingerprint)
    store.set_meta(TOTAL_KEY, str(sum(source.count_pages() for source in sources)))
    store.set_meta(CURSOR_KEY, json.dumps([0, 0]))
    return store


def _renamed_keys(store: CorpusStore) -> set[str]:
    """The keys of stored pages whose id is not its own key (not in NFC: rare), read as a stream."""
    return {
        key
        for (page_id,) in store.connection.execute("SELECT page_id FROM pages")
        if (key := page_key(page_id)) != page_id
    }


def build_store(path: Path, sources: list[PageSource], progress: bool = True) -> CorpusStore:
    """Build a store from sources at ``path`` (replacing what is there) and return it opened.

    Pages go into ``store.sqlite.partial`` :data:`_BATCH` at a time, each batch followed by how far the sources
    have been read: a build killed at any point (kill -9 included) resumes there when run again on the same
    sources, and the store is renamed into place only when complete. Memory stays bounded whatever the size of
    the sources: a page is checked against those already stored in the store itself, and titles are held only
    for anchoring links in pages that come without them (see :func:`_linker`). A build that fails leaves the
    store at ``path`` as it was; one that finds the disk full raises :class:`~fever_core.corpus.store.DiskFull`
    (and resumes once there is room).
    """
    path = Path(path)
    check_store_path(path)
    partial = path.with_name(path.name + ".partial")
    with reporting_disk_full(path.parent, f"building corpus {path.parent.name}"):
        _build_partial(partial, sources, progress)
        os.replace(partial, path)
    return CorpusStore.open(path)


def _build_partial(partial: Path, sources: list[PageSource], progress: bool) -> None:
    """Write (or finish) the store of ``sources`` at ``partial``, closed and in rollback-journal mode, ready to
    be moved."""
    started = time.perf_counter()
    store = _partial_store(partial, sources_fingerprint(sources), sources)
    try:
        _store_pages(store, sources, partial.parent.name, progress)
    finally:  # an interrupted build lets go of the partial store, which a rerun resumes
        store.close()
    store = CorpusStore(partial)
    store.set_meta("sources", json.dumps([s.name for s in sources]))
    store.set_meta("build_seconds", f"{time.perf_counter() - started:.1f}")
    with store.connection as conn:
        conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (CURSOR_KEY, TOTAL_KEY))
    store.set_meta(CHECKSUM_KEY, store.content_checksum())
    store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.connection.execute("PRAGMA journal_mode=DELETE")
    store.close()


def _store_pages(store: CorpusStore, sources: list[PageSource], name: str, progress: bool) -> None:
    """Store the sources' pages from where the store's cursor says, in precedence order (see :func:`build_store`)."""
    first_source, first_read = json.loads(store.get_meta(CURSOR_KEY) or "[0, 0]")
    renamed = _renamed_keys(store)
    linker = _linker(sources)
    counts_before = sum(source.count_pages() for source in sources[:first_source]) if first_source else 0
    with tqdm(
        total=int(store.get_meta(TOTAL_KEY) or 0),
        initial=counts_before + first_read,
        unit="page",
        desc=f"Storing pages ({name})",
        disable=not progress,
        smoothing=0.05,
    ) as bar:
        for number in range(first_source, len(sources)):
            source = sources[number]
            read = first_read if number == first_source else 0
            batch: list[Page] = []
            pending: set[str] = set()
            for page in source.iter_pages(start=read):
                read += 1
                key = page_key(page.page_id)
                if page.sentences and key not in pending and key not in renamed and not store.has_page(key):
                    pending.add(key)
                    if key != page.page_id:
                        renamed.add(key)
                    batch.append(page if source.carries_links or linker is None else linker.link_page(page))
                if len(batch) >= _BATCH:
                    _store_batch(store, batch, [number, read])
                    bar.update(read - bar.n + counts_before)
                    batch, pending = [], set()
            _store_batch(store, batch, [number + 1, 0])
            counts_before += read
            bar.update(counts_before - bar.n)


def _store_batch(store: CorpusStore, batch: list[Page], cursor: list[int]) -> None:
    """Store pages, then how far the sources have been read. A kill between the two replays the batch on resume,
    which finds its pages stored and skips them."""
    store.add_pages(batch)
    store.set_meta(CURSOR_KEY, json.dumps(cursor))


def ensure_corpus_store(
    data_dir: Path, name: str, specs: list[str] | None = None, progress: bool = True, rebuild: bool = False
) -> CorpusStore:
    """Open the named corpus, building it first when it is missing, stale or ``rebuild`` is set.

    Args:
        data_dir: the workbench data folder (``Settings.data_dir``).
        name: corpus name; ``specs`` makes (or remakes) a corpus of that name from those sources.
        progress: show progress bars while building.

    Raises:
        ValueError: ``specs`` would replace a built-in corpus's sources, or something is in the way of its folder
            (:func:`~fever_core.corpus.store.check_store_path`).
    """
    folder = corpus_dir(data_dir, name)
    if specs and name in NAMED_CORPORA and specs != NAMED_CORPORA[name]:
        raise ValueError(
            f"'{name}' is a built-in corpus (sources: {', '.join(NAMED_CORPORA[name])}); its sources "
            f"can't be replaced. Give the new corpus a name of its own: `python -m fever_core corpus build "
            f"NEW-NAME --source {' --source '.join(specs)}`."
        )
    check_store_path(folder / STORE_FILE)
    saved = folder / SOURCES_FILE
    created = not folder.exists()
    previous = saved.read_bytes() if saved.is_file() else None
    with _reporting_unwritable(folder, name), reporting_disk_full(folder, f"building corpus {name}"):
        try:
            saved_specs = _readable_specs(saved)
            if specs and name not in NAMED_CORPORA and saved_specs != specs:
                folder.mkdir(parents=True, exist_ok=True)
                saved.write_text(
                    json.dumps(specs)
                )  # first, so that an interrupted build is finished by a rerun by name
                # other sources make another store; a damaged list is replaced, and the store kept if its sources match
                rebuild = rebuild or previous is None or saved_specs is not None
            return _open_or_build(folder / STORE_FILE, name, specs or corpus_specs(data_dir, name), progress, rebuild)
        except Exception:  # a failed build (not an interrupted one) leaves the corpus as it was, a new one not at all
            if created:
                shutil.rmtree(folder, ignore_errors=True)
            elif previous is not None:
                saved.write_bytes(previous)
            raise


@contextmanager
def _reporting_unwritable(folder: Path, name: str) -> Iterator[None]:
    """Raise a folder that can't be written (a read-only file system, no permission), met inside the block while
    building corpus ``name`` in ``folder``, as a RuntimeError naming it and the fix."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise
        raise RuntimeError(
            f"Corpus {name} can't be built in {folder}: {exc.filename or folder} can't be written "
            f"({(exc.strerror or 'refused').lower()}). Point --data-dir or FEVER_DATA_DIR at a folder you can write to; "
            "nothing was changed."
        ) from exc


def _open_or_build(path: Path, name: str, specs: list[str], progress: bool, rebuild: bool) -> CorpusStore:
    sources = [source_from_spec(spec) for spec in specs]
    if path.is_file() and not rebuild:
        try:
            store = CorpusStore.open(path)
            if store.get_meta("fingerprint") == sources_fingerprint(sources):
                return store
            store.close()
            log.warning("Corpus %s is out of date with its sources: rebuilding.", name)
        except ValueError as exc:
            log.warning("Corpus %s can't be read (%s): rebuilding.", name, exc)
    path.parent.mkdir(parents=True, exist_ok=True)
    return build_store(path, sources, progress=progress)
