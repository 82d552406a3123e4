import os

import pytest

from benchmarks.reliability.messages import fill_disk, small_disk
from fever_core.corpus import build as build_module
from fever_core.corpus.build import corpus_dir, corpus_specs, ensure_corpus_store, list_corpora
from fever_core.corpus.sources import CorpusSourceError
from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource
from fever_core.corpus.store import CorpusStore, DiskFull

from ..conftest import PAGES, read_only_or_skip, write_jsonl


def test_earlier_source_wins_a_title_clash(tmp_path, pages_file):
    other = write_jsonl(
        tmp_path / "other.jsonl",
        [
            {"id": "Fox_2000_Pictures", "lines": "0\tA different text about Fox 2000 Pictures ."},
            {"id": "Only_Here", "lines": "0\tA page only the second source has , mentioning Sherlock Holmes ."},
        ],
    )
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
    monkeypatch.setattr(
        FeverJsonlSource, "iter_pages", lambda self, start=0: (starts.append(start), real(self, start))[1]
    )
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


def test_a_damaged_source_list_is_named_with_the_fix_and_naming_the_sources_again_keeps_the_store(tmp_path):
    source = write_jsonl(tmp_path / "pages.jsonl", [{"id": "A", "lines": "0\tFirst text ."}])
    built = ensure_corpus_store(tmp_path, "c", specs=[f"fever:{source}"], progress=False)
    built.close()
    saved = corpus_dir(tmp_path, "c") / "sources.json"
    stamp = (corpus_dir(tmp_path, "c") / "store.sqlite").stat().st_mtime_ns
    for damage in ('["fever:' + str(source), '{"fever": 1}', "[]", "\udcff"):
        saved.write_text(damage, encoding="utf-8", errors="surrogateescape")
        with pytest.raises(CorpusSourceError) as error:
            ensure_corpus_store(tmp_path, "c", progress=False)
        assert str(saved) in str(error.value) and "is damaged" in str(error.value)
        assert "corpus build c --source" in str(error.value)
    assert list_corpora(tmp_path)[-1] == "c"  # still listed, so that it can be mended
    mended = ensure_corpus_store(tmp_path, "c", specs=[f"fever:{source}"], progress=False)
    assert corpus_specs(tmp_path, "c") == [f"fever:{source}"] and mended.stats().pages == 1
    assert (corpus_dir(tmp_path, "c") / "store.sqlite").stat().st_mtime_ns == stamp  # not rebuilt


def test_unknown_corpus_and_bad_names_are_explained(tmp_path):
    with pytest.raises(KeyError, match="corpus build nothing"):
        ensure_corpus_store(tmp_path, "nothing")
    with pytest.raises(ValueError, match="Bad corpus name"):
        ensure_corpus_store(tmp_path, "../escape")


def test_a_corpus_name_too_long_for_a_folder_is_explained(tmp_path, pages_file):
    with pytest.raises(ValueError, match=r"is too long \(300 characters\): use at most 100"):
        ensure_corpus_store(tmp_path, "x" * 300, specs=[f"fever:{pages_file}"], progress=False)


def test_what_is_in_the_way_of_a_corpus_is_named_with_the_fix(tmp_path, pages_file):
    (corpus_dir(tmp_path, "a") / "store.sqlite").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"corpora/a/store\.sqlite is a folder, but a corpus store is a file"):
        ensure_corpus_store(tmp_path, "a", specs=[f"fever:{pages_file}"], progress=False)
    corpus_dir(tmp_path, "b").write_text("")
    with pytest.raises(ValueError, match=r"corpora/b is a file, but the corpus needs a folder there"):
        ensure_corpus_store(tmp_path, "b", specs=[f"fever:{pages_file}"], progress=False)


def test_a_built_in_corpus_keeps_its_sources(tmp_path, pages_file):
    with pytest.raises(
        ValueError,
        match=r"'embedded' is a built-in corpus .* a name of its own: `python -m fever_core "
        r"corpus build NEW-NAME --source fever:",
    ):
        ensure_corpus_store(tmp_path, "embedded", specs=[f"fever:{pages_file}"], progress=False)
    assert not corpus_dir(tmp_path, "embedded").exists()


def test_a_line_number_no_store_can_hold_is_refused_naming_the_line(tmp_path):
    pages = write_jsonl(tmp_path / "p.jsonl", [PAGES[0], {"id": "Huge", "lines": f"0\tFine .\n{10**20}\tHuge ."}])
    with pytest.raises(CorpusSourceError, match=rf"p\.jsonl:2: line {10**20} is out of range"):
        ensure_corpus_store(tmp_path, "c", specs=[f"fever:{pages}"], progress=False)
    assert not corpus_dir(tmp_path, "c").exists()


def test_pages_read_as_utf8_only_and_with_their_lone_surrogates_dropped(tmp_path):
    pages = tmp_path / "p.jsonl"
    pages.write_text('{"id": "Oslo", "lines": "0\\tOslo \\ud800is the capital of Norway ."}\n')
    store = ensure_corpus_store(tmp_path, "c", specs=[f"fever:{pages}"], progress=False)
    assert store.sentence("Oslo", 0).text == "Oslo is the capital of Norway."
    pages.write_bytes(b'{"id": "Oslo", "lines": "0\\tOslo ."}\n{"id": "Z\xfcrich", "lines": "0\\tZ\xfcrich ."}\n')
    with pytest.raises(CorpusSourceError, match=r"p\.jsonl:2: byte 0xfc at column 10 is not UTF-8"):
        ensure_corpus_store(tmp_path, "d", specs=[f"fever:{pages}"], progress=False)


@pytest.fixture
def full_disk(tmp_path):
    """A 1 MiB tmpfs at ``tmp_path/disk`` (root only: skipped with the reason elsewhere)."""
    try:
        with small_disk(tmp_path / "disk", 1024) as disk:
            yield disk
    except PermissionError as exc:
        pytest.skip(f"a full disk is a small tmpfs here: {exc}")


def test_an_intact_store_on_a_full_disk_is_reported_full_never_damaged(full_disk, pages_file):
    store = ensure_corpus_store(full_disk, "c", specs=[f"fever:{pages_file}"], progress=False)
    store.close()
    before = store.path.read_bytes()
    filler = fill_disk(full_disk)
    with pytest.raises(
        DiskFull, match=rf"The disk holding {store.path.parent} is full, so opening store\.sqlite stopped"
    ):
        CorpusStore.open(store.path)
    with pytest.raises(DiskFull, match="is full"):  # neither called damaged nor rebuilt
        ensure_corpus_store(full_disk, "c", progress=False)
    with pytest.raises(DiskFull, match="is full, so building corpus d stopped"):
        ensure_corpus_store(full_disk, "d", specs=[f"fever:{pages_file}"], progress=False)
    assert not corpus_dir(full_disk, "d").exists()
    filler.unlink()
    assert store.path.read_bytes() == before
    assert CorpusStore.open(store.path).stats().pages == len(PAGES)


def test_building_in_a_read_only_data_folder_says_so_naming_it(tmp_path, pages_file):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    refused = (
        rf"Corpus x can't be built in {corpus_dir(data_dir, 'x')}: "
        rf"{data_dir / 'corpora'} can't be written \(read-only file system\)\. Point --data-dir"
    )
    with read_only_or_skip(data_dir), pytest.raises(RuntimeError, match=refused):
        ensure_corpus_store(data_dir, "x", specs=[f"fever:{pages_file}"], progress=False)
    assert list(data_dir.iterdir()) == []


def test_each_predefined_corpus_names_its_labelled_claims_and_a_page_s_source_says_how_old_its_text_is():
    from fever_core.common import HAND_CLAIMS
    from fever_core.corpus import CORPUS_CLAIMS, NAMED_CORPORA, corpus_claims, text_age

    assert set(CORPUS_CLAIMS) == set(NAMED_CORPORA)
    assert corpus_claims("embedded") == HAND_CLAIMS and HAND_CLAIMS.is_file()  # shipped in assets/
    assert corpus_claims("my-pages") is None
    assert corpus_claims("fm2") in (None, CORPUS_CLAIMS["fm2"])  # only where ../shared is
    assert [
        text_age(source) for source in ("fever:fm2-pages.jsonl", "fever:fever-pages.jsonl", "embedded", "wikipedia")
    ] == ["2020 text (Fool Me Twice)", "2017 text (FEVER)", "", ""]
