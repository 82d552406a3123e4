"""``corpus info|search`` on the fixture corpus, in-process."""

import json

import pytest

from fever_core.cli import main


def test_corpus_info_reports_the_store_and_its_index(settings, workspace, capsys):
    assert main(["--data-dir", str(settings.data_dir), "corpus", "info", "fixture"]) == 0
    info = json.loads(capsys.readouterr().out)
    stats = workspace.store.stats()
    assert (info["pages"], info["sentences"], info["links"]) == (stats.pages, stats.sentences, stats.links)
    assert info["dense_vectors"] == info["sentences"] and info["dense_dim"] == 384
    assert info["fingerprint"] == workspace.store.get_meta("fingerprint")


def test_corpus_search_finds_the_page_by_meaning(settings, workspace, capsys):
    argv = [
        "--data-dir",
        str(settings.data_dir),
        "corpus",
        "search",
        "fixture",
        "Spielberg birthplace",
        "--mode",
        "dense",
        "-k",
        "2",
    ]
    assert main(argv) == 0
    first_hit = capsys.readouterr().out.splitlines()[0]
    assert "Steven Spielberg [1]  Spielberg was born in Cincinnati, Ohio, in 1946." in first_hit


def test_an_unknown_corpus_is_explained(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "corpus", "info", "no-such-corpus"]) == 2
    error = capsys.readouterr().err
    assert "Unknown corpus 'no-such-corpus'" in error and "corpus build no-such-corpus --source" in error


def in_the_way(data_dir, kind):
    folder = data_dir / "corpora" / "c"
    if kind == "store is a folder":
        (folder / "store.sqlite").mkdir(parents=True)
        return str(folder / "store.sqlite")
    folder.parent.mkdir(parents=True)
    folder.write_text("")
    return str(folder)


@pytest.mark.parametrize("kind", ["store is a folder", "corpus folder is a file"])
def test_what_is_in_the_way_of_a_build_is_one_message_naming_it(tmp_path, pages_file, capsys, kind):
    named = in_the_way(tmp_path / "data", kind)
    assert main(["--data-dir", str(tmp_path / "data"), "corpus", "build", "c", "--source", f"fever:{pages_file}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {named} is a ") and "move that" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["corpus", "build", "x" * 300, "--source", "fever:p.jsonl"], "is too long (300 characters): use at most 100"),
        (["corpus", "build", "embedded", "--source", "fever:p.jsonl"], "'embedded' is a built-in corpus"),
    ],
)
def test_a_build_that_cant_be_is_refused_before_anything_is_written(tmp_path, capsys, argv, message):
    assert main(["--data-dir", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "corpora").exists()


def test_export_vectors_writes_the_corpus_s_vectors_and_a_manifest_a_build_takes_them_from(
    settings, workspace, tmp_path, capsys
):
    from fever_core.retrieval.dense import DenseSentenceIndex
    from fever_core.retrieval.shipped_vectors import ShippedVectors

    argv = ["--data-dir", str(settings.data_dir), "corpus", "export-vectors", "fixture", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert "vectors of corpus fixture" in capsys.readouterr().out
    shipped = ShippedVectors.read(tmp_path / "fixture.json")
    assert (shipped.sentences, shipped.encoder_precision) == (len(workspace.dense), workspace.dense.encoder.precision)
    built = DenseSentenceIndex.build_or_load(
        workspace.store, tmp_path / "built", settings.encoder_model, progress=False, shipped=tmp_path / "fixture.json"
    )
    assert built.meta["shipped_vectors"]["file"] == "fixture.npz"
    assert list(built.sentence_ids) == list(workspace.dense.sentence_ids)
