import os

import pytest

from fever_core.corpus import build as build_module
from fever_core.corpus.build import corpus_specs, ensure_corpus_store, list_corpora
from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource

from ..conftest import PAGES, write_jsonl


def test_earlier_source_wins_a_title_clash(tmp_path, pages_file):
    other = write_jsonl(tmp_path / "other.jsonl", [
        {"id": "Fox_2000_Pictures", "lines": "0\tA different text about Fox 2000 Pictures ."},
        {"id": "Only_Here", "lines": "0\tA page only the second source has , mentioning Sherlock Holmes ."},
    ])
    store = ensure_corpus_store(tmp_path, "clash", specs=[f"fever:{pages_file}", f"fever:{other}"], progress=False)
    assert store.sentence("Fox_2000_Pictures", 0).text.startswith("Fox 2000 Pictures is an American")
    assert store.stats().pages == len(PAGES) + 1
    # pages without links of their own get anchored links to corpus titles
    assert [l.target for l in store.sentence("Only_Here", 0).links] == ["Sherlock_Holmes"]
    reverse = ensure_corpus_store(tmp_path, "clash2", specs=[f"fever:{other}", f"fever:{pages_file}"], progress=False)
    assert reverse.sentence("Fox_2000_Pictures", 0).text.startswith("A different text")


def test_a_killed_build_leaves_no_store_and_a_rerun_resumes_it(tmp_path, pages_file, monkeypatch):
    real = FeverJsonlSource.iter_pages
    starts = []

    def dies_midway(self, start=0):
        starts.append(start)
        for number, page in enumerate(real(self, start)):
            if number == 5:
                raise KeyboardInterrupt("killed")
            yield page

    monkeypatch.setattr(FeverJsonlSource, "iter_pages", dies_midway)
    monkeypatch.setattr(build_module, "_BATCH", 2)
    with pytest.raises(KeyboardInterrupt):
        ensure_corpus_store(tmp_path, "killed", specs=[f"fever:{pages_file}"], progress=False)
    folder = tmp_path / "corpora" / "killed"
    assert not (folder / "store.sqlite").exists()
    assert (folder / "store.sqlite.partial").exists()
    monkeypatch.setattr(FeverJsonlSource, "iter_pages", lambda self, start=0: (starts.append(start), real(self, start))[1])
    store = ensure_corpus_store(tmp_path, "killed", progress=False)
    assert starts == [0, 4]  # the two stored batches of two pages are not read again
    assert store.stats().pages == len(PAGES)
    assert not (folder / "store.sqlite.partial").exists()
    whole = ensure_corpus_store(tmp_path, "whole", specs=[f"fever:{pages_file}"], progress=False)
    assert store.content_checksum() == whole.content_checksum()


def test_changed_source_rebuilds_and_unchanged_reuses(tmp_path):
    source = write_jsonl(tmp_path / "pages.jsonl", [{"id": "A", "lines": "0\tFirst text ."}])
    spec = [f"fever:{source}"]
    first = ensure_corpus_store(tmp_path, "c", specs=spec, progress=False)
    fingerprint = first.get_meta("fingerprint")
    again = ensure_corpus_store(tmp_path, "c", progress=False)
    assert again.get_meta("fingerprint") == fingerprint
    write_jsonl(source, [{"id": "A", "lines": "0\tSecond text ."}, {"id": "B", "lines": "0\tNew ."}])
    os.utime(source, ns=(1, 1))
    rebuilt = ensure_corpus_store(tmp_path, "c", progress=False)
    assert rebuilt.get_meta("fingerprint") != fingerprint
    assert rebuilt.sentence("A", 0).text == "Second text." and rebuilt.stats().pages == 2
    # a corpus made from sources is listed with the predefined ones and remembers its sources
    assert list_corpora(tmp_path)[-1] == "c" and corpus_specs(tmp_path, "c") == spec


def test_unknown_corpus_and_bad_names_are_explained(tmp_path):
    with pytest.raises(KeyError, match="corpus build nothing"):
        ensure_corpus_store(tmp_path, "nothing")
    with pytest.raises(ValueError, match="Bad corpus name"):
        ensure_corpus_store(tmp_path, "../escape")
