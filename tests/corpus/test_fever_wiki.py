"""FEVER's wiki-pages as it comes (a zip, or its folder of wiki-NNN.jsonl files): streamed, resumable builds."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from contextlib import closing
from pathlib import Path

import pytest

from fever_core.corpus.build import CURSOR_KEY, ensure_corpus_store
from fever_core.corpus.sources import CorpusSourceError, source_from_spec
from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource
from fever_core.corpus.sources.fever_wiki import FeverWikiSource

from ..conftest import PAGES, write_jsonl

ROOT = Path(__file__).resolve().parents[2]


def wiki_pages(folder: Path, pages: list[dict], files: int) -> Path:
    """Write ``pages`` as FEVER's dump does: ``folder/wiki-001.jsonl`` ... in ``files`` files, with a stray file."""
    folder.mkdir(parents=True)
    per_file = -(-len(pages) // files)
    for number in range(files):
        write_jsonl(folder / f"wiki-{number + 1:03d}.jsonl", pages[number * per_file : (number + 1) * per_file])
    (folder / "README.txt").write_text("not a page file")
    return folder


def zipped(folder: Path, path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(folder.iterdir()):
            archive.write(file, f"wiki-pages/{file.name}")
    return path


def generated_pages(count: int) -> list[dict]:
    return [
        {
            "id": f"Page_{i:05d}",
            "text": "",
            "lines": f"0\tPage {i} is a generated page about topic {i % 97} .\tTopic {i % 97}\tTopic_{i % 97}\n"
            f"1\tIt was written for test number {i} .",
        }
        for i in range(count)
    ]


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture pages as a three-file wiki-pages folder and as a zip of it."""
    base = tmp_path_factory.mktemp("dump")
    folder = wiki_pages(base / "wiki-pages", PAGES, files=3)
    return folder, zipped(folder, base / "wiki-pages.zip")


def test_folder_and_zip_stream_the_pages_of_the_jsonl_source_in_order(dump, pages_file):
    expected = list(FeverJsonlSource(pages_file).iter_pages())
    for path in dump:
        source = source_from_spec(f"fever-wiki:{path}")
        assert isinstance(source, FeverWikiSource) and source.carries_links
        assert source.members()[0].endswith("wiki-001.jsonl") and len(source.members()) == 3
        pages = list(source.iter_pages())
        assert [(p.page_id, p.title, [(s.line, s.text, s.links) for s in p.sentences]) for p in pages] == [
            (p.page_id, p.title, [(s.line, s.text, s.links) for s in p.sentences]) for p in expected
        ]
        assert source.count_pages() == len(PAGES)
        # a resumed read starts at any page, across file boundaries, without parsing those before it
        for start in (1, 3, 4, len(PAGES) - 1, len(PAGES)):
            assert [p.page_id for p in source.iter_pages(start=start)] == [p.page_id for p in expected[start:]]


def test_bad_dumps_are_explained(tmp_path, dump):
    with pytest.raises(CorpusSourceError, match="does not exist"):
        FeverWikiSource(tmp_path / "nowhere").members()
    (tmp_path / "empty").mkdir()
    with pytest.raises(CorpusSourceError, match="no wiki-NNN.jsonl files"):
        FeverWikiSource(tmp_path / "empty").count_pages()
    (tmp_path / "broken.zip").write_bytes(b"PK not really a zip")
    with pytest.raises(CorpusSourceError, match="not a readable zip"):
        FeverWikiSource(tmp_path / "broken.zip").members()
    folder = wiki_pages(tmp_path / "bad", PAGES[:2], files=2)
    (folder / "wiki-002.jsonl").write_text(json.dumps(PAGES[1]) + "\n{broken\n")
    for path in (folder, zipped(folder, tmp_path / "bad.zip")):
        with pytest.raises(CorpusSourceError, match=r"wiki-002\.jsonl:2: not valid JSON"):
            list(FeverWikiSource(path).iter_pages())


def test_a_corpus_builds_from_the_zip_keeps_the_dumps_links_and_a_rerun_is_a_no_op(tmp_path, dump, pages_file):
    folder, archive = dump
    store = ensure_corpus_store(tmp_path, "wiki", specs=[f"fever-wiki:{archive}"], progress=False)
    flat = ensure_corpus_store(tmp_path, "flat", specs=[f"fever:{pages_file}"], progress=False)
    assert (store.stats().pages, store.stats().sentences) == (flat.stats().pages, flat.stats().sentences)
    assert store.sentence("Arthur_Conan_Doyle", 0).links == flat.sentence("Arthur_Conan_Doyle", 0).links
    # its pages keep the dump's links and nothing more: no title matching over the dump's titles
    assert store.sentence("Sherlock_Holmes", 0).links == []
    path = tmp_path / "corpora" / "wiki" / "store.sqlite"
    stamp = path.stat().st_mtime_ns
    again = ensure_corpus_store(tmp_path, "wiki", specs=[f"fever-wiki:{archive}"], progress=False)
    assert path.stat().st_mtime_ns == stamp and again.content_checksum() == store.content_checksum()
    from_folder = ensure_corpus_store(tmp_path, "wiki-folder", specs=[f"fever-wiki:{folder}"], progress=False)
    assert from_folder.content_checksum() != "" and from_folder.stats() == store.stats()


KILLABLE_BUILD = """
import sys, time
from fever_core.corpus import build
from fever_core.corpus.store import CorpusStore

build._BATCH = 25
real = CorpusStore.add_pages
def slow(self, pages):
    time.sleep(0.02)
    return real(self, pages)
CorpusStore.add_pages = slow
build.ensure_corpus_store(sys.argv[1], "killed", specs=[f"fever-wiki:{sys.argv[2]}"], progress=False)
"""


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_a_build_killed_with_sigkill_resumes_where_it_stopped(tmp_path, kind, monkeypatch):
    folder = wiki_pages(tmp_path / "wiki-pages", generated_pages(3000), files=4)
    path = folder if kind == "folder" else zipped(folder, tmp_path / "wiki-pages.zip")
    data = tmp_path / "data"
    partial = data / "corpora" / "killed" / "store.sqlite.partial"
    process = subprocess.Popen([sys.executable, "-c", KILLABLE_BUILD, str(data), str(path)], cwd=ROOT)
    cursor = None
    deadline = time.monotonic() + 900  # a machine busy with other work builds slowly
    while time.monotonic() < deadline and process.poll() is None:
        if partial.is_file():
            try:
                with closing(sqlite3.connect(f"file:{partial}?mode=ro", uri=True)) as conn:
                    row = conn.execute("SELECT value FROM meta WHERE key = ?", (CURSOR_KEY,)).fetchone()
            except sqlite3.Error:
                row = None
            if row and json.loads(row[0])[1] >= 1000:  # well into the second file
                cursor = json.loads(row[0])
                os.kill(process.pid, signal.SIGKILL)
                break
        time.sleep(0.02)
    process.wait(30)
    assert cursor is not None, "the build ended (or took too long) before it could be killed"
    assert not partial.with_name("store.sqlite").exists()
    read = []
    real = FeverWikiSource.iter_pages

    def spying(self, start=0):
        read.append(start)
        return real(self, start)

    monkeypatch.setattr(FeverWikiSource, "iter_pages", spying)
    resumed = ensure_corpus_store(data, "killed", progress=False)
    monkeypatch.setattr(FeverWikiSource, "iter_pages", real)
    assert read and read[0] >= cursor[1]  # the pages stored before the kill are not read again
    whole = ensure_corpus_store(tmp_path / "other", "whole", specs=[f"fever-wiki:{path}"], progress=False)
    assert resumed.stats().pages == 3000
    assert resumed.content_checksum() == whole.content_checksum()
    assert not partial.exists()
