"""``check-batch --out``'s results file (fever_core/evaluation/output.py, ``ResultsFile``): a run with the same file
goes on from the last whole row, a torn row is dropped, another list's results stay until the new ones are whole,
and a file that can't be written (killed, read-only, a full disk) ends in one message with every finished row whole."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.reliability.messages import fill_disk, small_disk
from fever_core.cli import main
from fever_core.common.formats import Claim
from fever_core.evaluation import RESULT_COLUMNS, BatchRow, ResultsFile, predictions_jsonl, results_csv
from fever_core.evaluation.output import PARTIAL_SUFFIX

from ..conftest import read_only_or_skip

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CLAIMS = [
    Claim(n, text, None)
    for n, text in enumerate(
        ["Jaws is a film.", "=1+1 is a formula.", 'A "quoted",\r\nclaim.', "Zürich is in Switzerland."], 1
    )
]


def rows_of(claims: list[Claim]) -> list[BatchRow]:
    return [BatchRow(claim, None, f"error {claim.id}") for claim in claims]


def whole(rows: list[BatchRow], table: bool) -> str:
    return results_csv(row.record() for row in rows) if table else predictions_jsonl(rows)


def write(path: Path, claims: list[Claim]) -> ResultsFile:
    out = ResultsFile(path, claims)
    for row in rows_of(claims[out.kept :]):
        out.write(row)
    out.finish()
    out.close()
    return out


@pytest.mark.parametrize("name", ["out.csv", "out.jsonl"])
@pytest.mark.parametrize("cut", [0, 1, 7])
def test_a_rerun_keeps_the_finished_rows_drops_a_torn_one_and_checks_only_the_rest(tmp_path, name, cut):
    path = tmp_path / name
    table = name.endswith(".csv")
    done = whole(rows_of(CLAIMS[:2]), table)
    torn = whole(rows_of(CLAIMS[:3]), table)[len(done) :][:cut]  # the third row cut after `cut` characters
    path.write_bytes((done + torn).encode())
    out = ResultsFile(path, CLAIMS)
    assert out.kept == 2 and out.writing == path and not out.replacing
    assert path.read_bytes().decode() == done  # the torn row is gone
    for row in rows_of(CLAIMS[2:]):
        out.write(row)
    out.finish()
    out.close()
    assert path.read_bytes().decode() == whole(rows_of(CLAIMS), table)
    assert write(path, CLAIMS).kept == len(CLAIMS)  # all done: nothing left to check, the file as it was
    assert path.read_bytes().decode() == whole(rows_of(CLAIMS), table)


@pytest.mark.parametrize("name", ["out.csv", "out.jsonl"])
def test_another_lists_results_stay_until_the_new_ones_are_whole(tmp_path, name):
    path = tmp_path / name
    table = name.endswith(".csv")
    other = [Claim(1, "Something else entirely.", None), *CLAIMS[1:]]
    write(path, other)
    before = path.read_bytes()
    out = ResultsFile(path, CLAIMS)
    assert out.replacing and out.kept == 0 and out.writing == path.with_name(name + PARTIAL_SUFFIX)
    out.write(rows_of(CLAIMS)[0])
    out.close()  # stopped before the end: the old results are untouched, the new ones wait beside
    assert path.read_bytes() == before
    resumed = ResultsFile(path, CLAIMS)
    assert resumed.kept == 1 and resumed.writing == out.writing
    for row in rows_of(CLAIMS[1:]):
        resumed.write(row)
    resumed.finish()
    resumed.close()
    assert path.read_bytes().decode() == whole(rows_of(CLAIMS), table)
    assert not out.writing.exists()


@pytest.mark.parametrize(
    "text", ["not a results file\n", "id,claim\r\n1,x\r\n", ('{"id": 1, "claim": "Jaws is a film."}\njunk\n')]
)
def test_a_file_that_is_no_prefix_of_these_results_is_never_cut(tmp_path, text):
    path = tmp_path / ("out.jsonl" if text.startswith("{") else "out.csv")
    path.write_bytes(text.encode())
    out = ResultsFile(path, CLAIMS)
    assert out.replacing and out.kept == 0
    out.close()
    assert path.read_bytes() == text.encode()


CHECK = ["check-batch", "--corpus", "fixture"]


def test_a_batch_killed_by_sigkill_goes_on_from_its_last_whole_row(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    claims = tmp_path / "claims.txt"
    claims.write_text("".join(f"Jaws is a film by Steven Spielberg ({n}).\n" for n in range(40)), encoding="utf-8")
    out = tmp_path / "results.jsonl"
    options = ["--data-dir", str(settings.data_dir), *CHECK, "--model", str(tiny_nli_model), "--out", str(out)]
    child = subprocess.Popen(
        [sys.executable, "-m", "fever_core", *options[:2], options[2], str(claims), *options[3:]],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while (not out.is_file() or out.read_text(encoding="utf-8").count("\n") < 3) and time.monotonic() < deadline:
        assert child.poll() is None, "check-batch ended before it could be killed"
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    killed = out.read_text(encoding="utf-8").count("\n")
    assert 3 <= killed < 40, "it was killed mid-batch"
    assert main([*options[:2], options[2], str(claims), *options[3:]]) == 0
    assert f"has the rows of the first {killed} claims already" in capsys.readouterr().err
    ids = [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert ids == list(range(1, 41))  # every claim once, in list order


def test_results_on_a_read_only_folder_are_refused_before_any_check(settings, tmp_path, capsys):
    claims = tmp_path / "claims.txt"
    claims.write_text("Jaws is a film.\n", encoding="utf-8")
    folder = tmp_path / "read-only"
    folder.mkdir()
    with read_only_or_skip(folder):
        code = main(
            [
                "--data-dir",
                str(settings.data_dir),
                *CHECK,
                str(claims),
                "--corpus",
                "not-built",
                "--out",
                str(folder / "results.csv"),
            ]
        )
    err = capsys.readouterr().err
    assert (
        code == 2 and err.startswith(f"error: Can't write results to {folder / 'results.csv'}") and "read-only" in err
    )
    assert "Traceback" not in err and "folder you can write to" in err


def test_a_full_disk_stops_the_batch_with_every_finished_row_whole_and_a_rerun_finishes_it(
    settings, workspace, tiny_nli_model, tmp_path, capsys
):
    claims = tmp_path / "claims.txt"
    long_claim = "Jaws is a film by Steven Spielberg, " + "a director, " * 70
    claims.write_text("".join(f"{long_claim}({n}).\n" for n in range(12)), encoding="utf-8")  # ~1 KB a row
    disk = tmp_path / "disk"
    out = disk / "results.csv"
    argv = [
        "--data-dir",
        str(settings.data_dir),
        *CHECK,
        str(claims),
        "--model",
        str(tiny_nli_model),
        "--out",
        str(out),
    ]
    try:
        with small_disk(disk, 64):
            filler = fill_disk(disk)
            with filler.open("r+b") as fh:
                fh.truncate(filler.stat().st_size - 4096)  # one page of room: a few rows
            code = main(argv)
            err = capsys.readouterr().err
            text = out.read_bytes().decode()
            filler.unlink()
            assert main(argv) == 0
            finished = out.read_bytes().decode()
    except PermissionError as exc:
        pytest.skip(str(exc))
    rows = list(csv.reader(io.StringIO(text, newline="")))[1:]
    assert code == 2 and "the disk holding it is full" in err and f"It holds {len(rows)} finished rows" in err
    assert "Traceback" not in err and 0 < len(rows) < 12
    assert text.endswith("\r\n") and all(len(row) == len(RESULT_COLUMNS) and row[3] for row in rows)  # no torn row
    table = list(csv.DictReader(io.StringIO(finished, newline="")))
    assert [row["id"] for row in table] == [str(n) for n in range(1, 13)]
    assert finished.startswith(text)  # the rows written before the disk was full were kept, not checked again
