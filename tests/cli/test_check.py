"""``check`` and ``evaluate`` on the fixture corpus with the tiny verifier."""

import json
import math
import time

import pytest

from fever_core.cli import main
from tests.cli.conftest import run_cli


def test_check_prints_the_result_as_json(cli_env):
    claim = "Jaws is a film by Steven Spielberg."
    result = run_cli("check", claim, "--corpus", "fixture", "--json", env_extra=cli_env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["claim"] == claim and data["corpus"] == "fixture"
    assert data["evidence"][0]["page_id"] == "Jaws_-LRB-film-RRB-"


def test_a_claim_that_cant_be_checked_is_refused_before_any_model_loads(capsys):
    # no corpus of that name and no verifier: the claim is refused first
    assert main(["--data-dir", "/nonexistent", "check", "  ", "--corpus", "nothing", "--model", "/nonexistent"]) == 2
    assert "claim is empty" in capsys.readouterr().err


def test_evaluate_writes_report_and_predictions(settings, workspace, tiny_nli_model, claims_file, tmp_path, capsys):
    report, predictions = tmp_path / "r.json", tmp_path / "p.jsonl"
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "evaluate",
                "--claims",
                str(claims_file),
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
                "--report",
                str(report),
                "--predictions",
                str(predictions),
            ]
        )
        == 0
    )
    assert json.loads(report.read_text()) == json.loads(capsys.readouterr().out)
    assert json.loads(report.read_text())["n_claims"] == 4
    assert [json.loads(line)["id"] for line in predictions.read_text().splitlines()] == [1, 2, 3, 4]


def test_check_on_live_wikipedia_then_offline_warns_on_stderr(
    tmp_path, tiny_nli_model, recorded_wikipedia, offline_wikipedia_url, monkeypatch, capsys
):
    options = ["--data-dir", str(tmp_path), "check", "--corpus", "wikipedia", "--model", str(tiny_nli_model)]
    monkeypatch.setenv("FEVER_WIKIPEDIA_API_URL", recorded_wikipedia.url)
    assert main([*options, "Ada Lovelace worked on the Analytical Engine."]) == 0
    online = capsys.readouterr()
    assert "Ada Lovelace (" in online.out and "warning" not in online.err
    monkeypatch.setenv("FEVER_WIKIPEDIA_API_URL", offline_wikipedia_url)
    assert main([*options, "Charles Babbage designed the Analytical Engine.", "--json"]) == 0
    offline = capsys.readouterr()
    assert "warning: Can't reach Wikipedia" in offline.err and "cached so far" in offline.err
    assert json.loads(offline.out)["warnings"] and json.loads(offline.out)["evidence"]


def test_a_verifier_with_truncated_weights_is_refused_with_a_warning_naming_it(
    settings, workspace, tiny_nli_model, tmp_path, monkeypatch, capsys
):
    import shutil

    damaged = shutil.copytree(tiny_nli_model, tmp_path / "verifier")  # no checksums: its weights can't be read
    weights = damaged / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    monkeypatch.setenv("FEVER_JOINT_VERIFIER_MODEL", "")
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check",
                "Jaws is a film.",
                "--corpus",
                "fixture",
                "--model",
                str(damaged),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert f"warning: The weights of the model {damaged} (its .safetensors file) can't be read" in err
    assert "truncated or damaged" in err and "small shipped verifier (MiniLM) was used instead" in err
    assert "Traceback" not in err


def test_check_with_a_damaged_verifier_says_so_on_stderr_and_answers_with_the_shipped_one(
    settings, workspace, tiny_nli_model, tmp_path, monkeypatch, capsys
):
    from benchmarks.reliability.models import chosen_version, flip_bytes

    (tmp_path / "corpora").symlink_to(settings.data_dir / "corpora", target_is_directory=True)
    flip_bytes(chosen_version(tmp_path, tiny_nli_model) / "model.safetensors")
    monkeypatch.delenv("FEVER_VERIFIER_MODEL", raising=False)
    monkeypatch.setenv("FEVER_JOINT_VERIFIER_MODEL", "")
    assert main(["--data-dir", str(tmp_path), "check", "Jaws is a film.", "--corpus", "fixture", "--json"]) == 0
    out = capsys.readouterr()
    assert out.err.count("warning: ") == 1 and "does not match the checksum" in out.err
    assert "small shipped verifier (MiniLM) was used instead" in out.err
    data = json.loads(out.out, parse_constant=lambda constant: pytest.fail(f"{constant} in the JSON"))
    assert data["warnings"] and all(math.isfinite(p) for p in data["verdict"]["probabilities"].values())


def test_check_writes_its_claimreview_with_the_author_and_the_provenance(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    from tests.jsonld import SCHEMA, expand, values

    out = tmp_path / "reviews" / "jaws.jsonld"
    claim = "Jaws is a film by <i>Steven Spielberg</i>."
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check",
                claim,
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
                "--pages-k",
                "2",
                "--claimreview",
                str(out),
                "--author",
                "Fact Desk",
                "--author-type",
                "Person",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith(
        ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO", "UNDECIDED")
    )  # the usual answer too
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["claimReviewed"] == claim and document["author"] == {"@type": "Person", "name": "Fact Desk"}
    (review,), dropped = expand(document)
    assert not dropped and review["@type"] == [SCHEMA + "ClaimReview"]
    facts = {values(node, "propertyID")[0]: values(node, "value") for node in values(review, "additionalProperty")}
    assert facts["corpus"] == ["fixture"] and facts["pages_k"] == [2]
    assert facts["verifierModel"] == [tiny_nli_model.name]
    assert facts["verifierChecksum"][0].startswith("blake2b-128:") and facts["corpusChecksum"][0].startswith("sha256:")


def test_check_s_claimreview_file_pasted_into_a_page_s_script_is_one_script(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    from tests.jsonld import scripts_when_embedded

    out = tmp_path / "review.jsonld"
    claim = "Jaws is a film.</script><script>alert(1)</script>"
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check",
                claim,
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
                "--claimreview",
                str(out),
                "--author",
                "Desk </script> & co",
            ]
        )
        == 0
    )
    text = out.read_text(encoding="utf-8")
    (script,) = scripts_when_embedded(text)  # issue 44, item 4: the claim can't end the script
    assert json.loads(script)["claimReviewed"] == claim and "<" not in text


def test_check_batch_writes_one_claimreview_graph_of_the_claims_it_could_check(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    from tests.jsonld import expand

    claims = tmp_path / "speech.txt"
    claims.write_text("Jaws is a film by Steven Spielberg.\n🙂🙂\nEdinburgh is in Scotland.\n", encoding="utf-8")
    out = tmp_path / "speech.jsonld"
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check-batch",
                str(claims),
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
                "--claimreview",
                str(out),
            ]
        )
        == 0
    )
    assert "3 claims" in capsys.readouterr().out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [node["claimReviewed"] for node in document["@graph"]] == [
        "Jaws is a film by Steven Spielberg.",
        "Edinburgh is in Scotland.",
    ]  # the emoji line can't be checked
    assert all(node["author"] == {"@type": "Organization", "name": "FEVER Workbench"} for node in document["@graph"])
    expanded, dropped = expand(document)
    assert len(expanded) == 2 and not dropped


def test_check_text_writes_a_claimreview_of_the_sentences_it_checked(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    from tests.jsonld import expand

    text = tmp_path / "speech.txt"
    text.write_text(
        "Fox 2000 Pictures released the film Soul Food in 1997. I think the film is wonderful.\n", encoding="utf-8"
    )
    out = tmp_path / "speech.jsonld"
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check-text",
                str(text),
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
                "--claimreview",
                str(out),
                "--author",
                "Desk",
                "--author-type",
                "Person",
            ]
        )
        == 0
    )
    capsys.readouterr()
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [node["claimReviewed"] for node in document["@graph"]] == [
        "Fox 2000 Pictures released the film Soul Food in 1997."
    ]  # the opinion is not check-worthy
    assert document["@graph"][0]["author"] == {"@type": "Person", "name": "Desk"}
    expanded, dropped = expand(document)
    assert len(expanded) == 1 and not dropped


@pytest.mark.parametrize(
    "options, message",
    [
        (["--author-type", "Robot"], "an Organization or a Person, not 'Robot'"),
        (["--author", " "], "author's name is empty"),
    ],
)
def test_a_claimreview_author_that_can_t_be_one_is_refused_before_any_model_loads(options, message, tmp_path, capsys):
    assert (
        main(
            [
                "--data-dir",
                "/nonexistent",
                "check",
                "Jaws is a film.",
                "--corpus",
                "nothing",
                "--model",
                "/nonexistent",
                "--claimreview",
                str(tmp_path / "x.jsonld"),
                *options,
            ]
        )
        == 2
    )
    assert message in capsys.readouterr().err


def test_a_claimreview_file_that_is_a_folder_is_refused_before_the_batch_is_checked(tmp_path, capsys):
    claims = tmp_path / "claims.txt"
    claims.write_text("Jaws is a film.\n", encoding="utf-8")
    assert (
        main(
            [
                "--data-dir",
                "/nonexistent",
                "check-batch",
                str(claims),
                "--corpus",
                "nothing",
                "--model",
                "/nonexistent",
                "--claimreview",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "is a folder: give a file" in capsys.readouterr().err


def test_check_says_when_a_claim_was_checked_before_and_why_a_history_can_t_be_read(
    settings, workspace, checker, tiny_nli_model, tmp_path, capsys
):
    from fever_core.workbench import HistoryStore

    folders = {}
    for name in ("kept", "damaged"):
        folders[name] = tmp_path / name
        folders[name].mkdir()
        (folders[name] / "corpora").symlink_to(settings.data_dir / "corpora", target_is_directory=True)
    key = HistoryStore(folders["kept"] / "history.sqlite").add(
        checker.check("Fox 2000 Pictures released the film Soul Food."), {}
    )
    (folders["damaged"] / "history.sqlite").write_bytes(b"not a database" * 100)
    for name, claim in (
        ("kept", "The film Soul Food was released by Fox 2000 Pictures."),
        ("kept", "Edinburgh is the capital of Scotland."),
        ("damaged", "The film Soul Food was released by Fox 2000 Pictures."),
    ):
        assert (
            main(
                [
                    "--data-dir",
                    str(folders[name]),
                    "check",
                    claim,
                    "--corpus",
                    "fixture",
                    "--model",
                    str(tiny_nli_model),
                ]
            )
            == 0
        )
        out = capsys.readouterr()
        said = [line for line in out.out.splitlines() if line.startswith("Checked before:")]
        if claim.startswith("The film") and name == "kept":
            assert said == [
                (
                    "Checked before: 'Fox 2000 Pictures released the film Soul Food.', "
                    f"{checker.check('Fox 2000 Pictures released the film Soul Food.').verdict.label}, "
                    f"just now (history entry {key})"
                )
            ]
        else:
            assert said == []
        assert ("history database" in out.err and "is damaged" in out.err) == (name == "damaged")
    assert (folders["damaged"] / "history.sqlite").read_bytes() == b"not a database" * 100


def test_check_prints_a_label_too_unsure_to_show_as_undecided_with_the_sentences_to_read(
    settings, workspace, checker, tiny_nli_model, capsys
):
    claim = "Jaws is a film by Steven Spielberg."  # the tiny verifier is about a third sure of each label
    result = checker.check(claim)
    assert result.verdict.label_withheld and result.verdict.read_these
    assert (
        main(
            [
                "--data-dir",
                str(settings.data_dir),
                "check",
                claim,
                "--corpus",
                "fixture",
                "--model",
                str(tiny_nli_model),
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("Undecided") for line in lines)
    read = [line for line in lines if line.startswith("Read this (")]
    assert read == [
        f"Read this ({item.reading.label} {item.reading.probability:.2f}): {item.sentence.title} "
        f"({item.sentence.line}): {item.sentence.text}"
        for item in (result.evidence[i] for i in result.verdict.read_these)
    ]


TEXT = """Films and their makers

Jaws is a 1975 thriller film directed by Steven Spielberg. I think it is wonderful. Spielberg was born in Cincinnati.
Who could forget the shark? Soul Food was released by Fox 2000 Pictures in 1997."""


def test_check_text_prints_each_check_worthy_sentence_s_verdict_as_check_gives_it(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    options = ["--data-dir", str(settings.data_dir)]
    checker_options = ["--corpus", "fixture", "--model", str(tiny_nli_model), "--no-two-hop"]
    article, out = tmp_path / "article.md", tmp_path / "sentences.jsonl"
    article.write_text(TEXT.replace("Films and their makers", "# Films and their makers"))
    assert main([*options, "check-text", str(article), *checker_options, "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["text"] for line in lines if line["checked"]] == [
        "Jaws is a 1975 thriller film directed by Steven Spielberg.",
        "Spielberg was born in Cincinnati.",
        "Soul Food was released by Fox 2000 Pictures in 1997.",
    ]
    assert len(lines) == 6 and not lines[2]["worthy"] and lines[2]["reason"] == "an opinion (think)"
    checked = [line for line in lines if line["checked"]]
    for line, shown in zip(checked, printed):
        withheld = line["result"]["verdict"]["label_withheld"]  # printed as people read it, as on Verify's card
        assert shown.startswith("UNDECIDED" if withheld else line["verdict"]) and shown.endswith(line["text"])
        assert main([*options, "check", line["text"], *checker_options, "--json"]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert line["result"]["verdict"] == alone["verdict"] and line["verdict"] == alone["verdict"]["label"]
    assert printed[3].startswith("3 sentences checked: ") and printed[3].endswith(
        "(the text has 6 sentences, 3 check-worthy)"
    )


def test_check_text_refuses_a_binary_file_and_a_text_with_nothing_to_check_before_any_model_loads(tmp_path, capsys):
    options = ["--data-dir", "/nonexistent", "check-text"]
    checker_options = ["--corpus", "nothing", "--model", "/nonexistent"]
    pdf = tmp_path / "report.txt"
    pdf.write_bytes(b"%PDF-1.7\n\x00\x01binary")
    assert main([*options, str(pdf), *checker_options]) == 2
    assert "error: report.txt is not a text file" in capsys.readouterr().err
    chat = tmp_path / "chat.txt"
    chat.write_text("Thank you all so much! I think we should do better. Will it rain?")
    assert main([*options, str(chat), *checker_options]) == 2
    assert "error: None of the text's 3 sentences looks worth checking" in capsys.readouterr().err
    assert main([*options, str(chat), *checker_options, "--out", str(tmp_path / "out.csv")]) == 2
    assert "give a .jsonl file" in capsys.readouterr().err


def test_check_text_refuses_a_text_of_too_many_sentences_at_once_before_any_model_loads(tmp_path, capsys):
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("Yes.\n\n" * 20_000)  # issue 44, item 3: 69 s of splitting before it said nothing_to_check
    started = time.perf_counter()
    assert (
        main(["--data-dir", "/nonexistent", "check-text", str(tiny), "--corpus", "nothing", "--model", "/nonexistent"])
        == 2
    )
    assert time.perf_counter() - started < 10.0  # splitting first took 69 s; room for a busy machine
    assert "error: The text has about 20,001 sentences; at most 5,000 are split" in capsys.readouterr().err


def test_check_on_a_corpus_not_built_yet_says_so_and_about_how_long_before_building_it(
    tmp_path, tiny_nli_model, capsys
):
    from tests.conftest import write_jsonl

    pages = write_jsonl(
        tmp_path / "pages.jsonl", [{"id": "Jaws", "lines": "0\tJaws is a 1975 film by Steven Spielberg ."}]
    )
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "corpus", "build", "films", "--source", f"fever:{pages}"]) == 0
    for built in ("dense.json", "dense.faiss"):  # as a first build that stopped before its index
        (data / "corpora" / "films" / built).unlink()
    capsys.readouterr()
    assert (
        main(["--data-dir", str(data), "check", "Jaws is a film.", "--corpus", "films", "--model", str(tiny_nli_model)])
        == 0
    )
    said = capsys.readouterr().err  # issue 44, item 5: a word before the build, not a bare progress bar
    assert said.startswith(
        "Building the films corpus for the first time (about 1 minute on two CPU cores: 1 sentence "
        "to embed)… `python -m fever_core corpus build films` builds it ahead of time."
    )
    assert (
        main(["--data-dir", str(data), "check", "Jaws is a film.", "--corpus", "films", "--model", str(tiny_nli_model)])
        == 0
    )
    assert "Building" not in capsys.readouterr().err  # built: nothing to say
