"""Background jobs: a real ``python -m fever_core`` process whose status file any reader sees, and a job
that dies without saying so reads as failed with its log's last line."""

from __future__ import annotations

import time

import pytest

from fever_core.workbench.jobs import FAILED, RUNNING, JobStatus, read_status, start_job, write_status


def wait_finished(path, seconds=120) -> JobStatus:
    deadline = time.time() + seconds
    while time.time() < deadline:
        status = read_status(path)
        if status is not None and status.finished:
            return status
        time.sleep(0.2)
    raise AssertionError(f"the job did not finish in {seconds} s: {read_status(path)}")


def test_a_job_that_dies_without_a_word_reads_as_failed_with_its_log(tmp_path):
    status_path = tmp_path / "job.json"
    # `models list` takes no --status: the process exits at once with argparse's error, writing no status
    started = start_job(["--data-dir", str(tmp_path), "models", "list"], status_path)
    assert started.state == RUNNING and started.pid > 0
    status = wait_finished(status_path)
    assert status.state == FAILED and "unrecognized arguments: --status" in status.message


def test_a_running_job_is_not_started_twice_and_its_status_is_read_back(tmp_path):
    status_path = tmp_path / "job.json"
    import os

    write_status(status_path, JobStatus(RUNNING, "fine-tuning", 0.4, pid=os.getpid(), started_at=1.0))
    assert read_status(status_path).progress == 0.4
    with pytest.raises(RuntimeError, match="already running"):
        start_job(["models", "list"], status_path)
    status_path.write_text("{not json")
    assert read_status(status_path) is None
