"""The yardsticks table prints from committed reports alone: the hand-claims-2 rows come from the small per-label
report ``benchmarks/yardsticks.py by-label`` writes, and no prediction file is committed (they live in the data
folder; each report folder names the command that makes them)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
YARDSTICKS = ROOT / "benchmarks" / "yardsticks.py"


def yardsticks(*args: str) -> str:
    return subprocess.run(
        [sys.executable, str(YARDSTICKS), *args], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout


def test_hand_claims_2_predictions_become_a_per_label_report_the_table_reads(tmp_path):
    claims = [json.loads(line) for line in (ROOT / "benchmarks/embedded/hand-claims-2.jsonl").read_text().splitlines()]
    # every claim right but the first single-hop REFUTES claim and the first two-hop claim
    wrong = {
        next(c["id"] for c in claims if c["kind"] == "single" and c["label"] == "REFUTES"),
        next(c["id"] for c in claims if c["kind"] == "two-hop"),
    }
    predictions = tmp_path / "hand-claims-2.predictions.jsonl"
    predictions.write_text(
        "".join(
            json.dumps(
                {
                    "id": c["id"],
                    "predicted_label": "NOT ENOUGH INFO" if c["id"] in wrong else c["label"],
                    "predicted_evidence": [],
                }
            )
            + "\n"
            for c in claims
        )
    )
    out = tmp_path / "out"
    out.mkdir()
    yardsticks("by-label", str(predictions), str(out / "hand-claims-2-by-label.json"))
    predictions.unlink()  # the table needs only the report
    table = yardsticks(str(out))
    assert "| hand claims 2 SUPPORTS | 1.000 | 20 |" in table
    assert "| hand claims 2 REFUTES | 0.950 | 20 |" in table
    assert "| hand claims 2 two-hop | 0.917 | 12 |" in table


def test_the_shipped_baseline_table_has_its_hand_claims_2_rows():
    table = yardsticks(str(ROOT / "benchmarks/yardsticks/shipped"))
    assert "| hand claims 2 REFUTES | 0.350 | 20 |" in table and "| hand claims 2 two-hop | 0.167 | 12 |" in table


def test_no_prediction_file_is_committed():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "*.predictions.jsonl"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert not tracked, f"prediction files are written to the data folder, not committed: {tracked}"
