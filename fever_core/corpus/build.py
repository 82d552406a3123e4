"""Named corpora and building their stores: sources in precedence order, links anchored, atomic.

A corpus is a named list of source specs (see :mod:`fever_core.corpus.sources`); a page from an
earlier source wins when two sources have the same page id. Three names are predefined for the
benchmarks. A build writes ``store.sqlite.partial`` and renames it into place only when complete,
so a killed build never leaves a store that reads wrong; running the build again starts it afresh.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from fever_core.corpus.linking import TitleLinker
from fever_core.corpus.sources import PageSource, source_from_spec
from fever_core.corpus.store import CHECKSUM_KEY, SCHEMA_VERSION, CorpusStore, check_store_path, reporting_disk_full
from fever_core.settings import SHARED_DATA_DIR
from fever_core.types import Page

log = logging.getLogger(__name__)

NAMED_CORPORA: dict[str, list[str]] = {
    "embedded": ["embedded"],
    "fever-dev": [f"fever:{SHARED_DATA_DIR / 'corpus' / 'fever-pages.jsonl'}", "embedded"],
    "fm2": [f"fever:{SHARED_DATA_DIR / 'corpus' / 'fm2-pages.jsonl'}", "embedded"],
}
# The live Wikipedia cache (fever_core.workspace.live): not built from sources, it grows as claims are checked.
LIVE_CORPUS = "wikipedia"
STORE_FILE = "store.sqlite"
SOURCES_FILE = "sources.json"
MAX_NAME_BYTES = 100
"""The longest corpus name, in bytes of UTF-8 (a folder's name may have 255 at most)."""
_BATCH = 500


def corpus_dir(data_dir: Path, name: str) -> Path:
    """Folder of a named corpus: ``<data_dir>/corpora/<name>``."""
    if not name or any(ch in name for ch in "/\\") or name.startswith("."):
        raise ValueError(f"Bad corpus name {name!r}: use letters, digits, '-' and '_'.")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise ValueError(f"The corpus name {name[:30]!r}... is too long ({len(name):,} characters): use at most "
                         f"{MAX_NAME_BYTES} letters, digits, '-' and '_'.")
    return Path(data_dir) / "corpora" / name


def corpus_specs(data_dir: Path, name: str) -> list[str]:
    """Source specs of a corpus: predefined, or saved by an earlier ``corpus build NAME --source``."""
    if name in NAMED_CORPORA:
        return NAMED_CORPORA[name]
    saved = corpus_dir(data_dir, name) / SOURCES_FILE
    if saved.is_file():
        return json.loads(saved.read_text())
    raise KeyError(
        f"Unknown corpus {name!r}. Predefined: {', '.join(NAMED_CORPORA)}, and {LIVE_CORPUS} (live). "
        f"Make a new one with `python -m fever_core corpus build {name} --source fever:PATH.jsonl [--source embedded]`."
    )


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


def _pages_in_precedence(sources: list[PageSource], linker: TitleLinker) -> Iterator[Page]:
    seen: set[str] = set()
    for source in sources:
        for page in source.iter_pages():
            key = page_key(page.page_id)
            if key in seen or not page.sentences:
                continue
            seen.add(key)
            yield linker.link_page(page)


def build_store(path: Path, sources: list[PageSource], progress: bool = True) -> CorpusStore:
    """Build a store from sources at ``path`` (replacing what is there) and return it opened. A build that fails
    leaves the store at ``path`` as it was and nothing else; one that finds the disk full raises
    :class:`~fever_core.corpus.store.DiskFull`."""
    path = Path(path)
    check_store_path(path)
    partial = path.with_name(path.name + ".partial")
    leftovers = (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm"))
    for leftover in leftovers:
        leftover.unlink(missing_ok=True)
    with reporting_disk_full(path.parent, f"building corpus {path.parent.name}"):
        try:
            _build_partial(partial, sources, progress)
            os.replace(partial, path)
        except Exception:
            for leftover in leftovers:
                leftover.unlink(missing_ok=True)
            raise
    return CorpusStore.open(path)


def _build_partial(partial: Path, sources: list[PageSource], progress: bool) -> None:
    """Write the store of ``sources`` at ``partial``, closed and in rollback-journal mode, ready to be moved."""
    started = time.perf_counter()
    titles: dict[str, tuple[str, str]] = {}
    for source in sources:
        for page_id, title in source.iter_titles():
            titles.setdefault(page_key(page_id), (page_id, title))
    linker = TitleLinker(titles.values())
    store = CorpusStore.create(partial)
    batch: list[Page] = []
    with tqdm(total=len(titles), desc=f"Storing pages ({partial.parent.name})", unit="page", disable=not progress) as bar:
        for page in _pages_in_precedence(sources, linker):
            batch.append(page)
            if len(batch) >= _BATCH:
                store.add_pages(batch)
                bar.update(len(batch))
                batch = []
        store.add_pages(batch)
        bar.update(len(batch))
    store.set_meta("fingerprint", sources_fingerprint(sources))
    store.set_meta("sources", json.dumps([s.name for s in sources]))
    store.set_meta("build_seconds", f"{time.perf_counter() - started:.1f}")
    store.set_meta(CHECKSUM_KEY, store.content_checksum())
    store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.connection.execute("PRAGMA journal_mode=DELETE")
    store.close()


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
        raise ValueError(f"'{name}' is a built-in corpus (sources: {', '.join(NAMED_CORPORA[name])}); its sources "
                         f"can't be replaced. Give the new corpus a name of its own: `python -m fever_core corpus build "
                         f"NEW-NAME --source {' --source '.join(specs)}`.")
    check_store_path(folder / STORE_FILE)
    saved = folder / SOURCES_FILE
    created = not folder.exists()
    previous = saved.read_text() if saved.is_file() else None
    with reporting_disk_full(folder, f"building corpus {name}"):
        try:
            if specs and name not in NAMED_CORPORA and (previous is None or json.loads(previous) != specs):
                folder.mkdir(parents=True, exist_ok=True)
                saved.write_text(json.dumps(specs))  # first, so that an interrupted build is finished by a rerun by name
                rebuild = True
            return _open_or_build(folder / STORE_FILE, name, specs or corpus_specs(data_dir, name), progress, rebuild)
        except Exception:  # a failed build (not an interrupted one) leaves the corpus as it was, a new one not at all
            if created:
                shutil.rmtree(folder, ignore_errors=True)
            elif previous is not None:
                saved.write_text(previous)
            raise


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
