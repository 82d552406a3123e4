"""``corpus info|search`` on the fixture corpus, in-process."""

import json

from fever_core.cli import main


def test_corpus_info_reports_the_store_and_its_index(settings, workspace, capsys):
    assert main(["--data-dir", str(settings.data_dir), "corpus", "info", "fixture"]) == 0
    info = json.loads(capsys.readouterr().out)
    stats = workspace.store.stats()
    assert (info["pages"], info["sentences"], info["links"]) == (stats.pages, stats.sentences, stats.links)
    assert info["dense_vectors"] == info["sentences"] and info["dense_dim"] == 384
    assert info["fingerprint"] == workspace.store.get_meta("fingerprint")


def test_corpus_search_finds_the_page_by_meaning(settings, workspace, capsys):
    argv = ["--data-dir", str(settings.data_dir), "corpus", "search", "fixture", "Spielberg birthplace", "--mode",
            "dense", "-k", "2"]
    assert main(argv) == 0
    first_hit = capsys.readouterr().out.splitlines()[0]
    assert "Steven Spielberg [1]  Spielberg was born in Cincinnati, Ohio, in 1946." in first_hit


def test_an_unknown_corpus_is_explained(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "corpus", "info", "no-such-corpus"]) == 2
    error = capsys.readouterr().err
    assert "Unknown corpus 'no-such-corpus'" in error and "corpus build no-such-corpus --source" in error
