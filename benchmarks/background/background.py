"""Seconds per claim of a check made as Verify makes it and as a background run (Check a text, Batch) makes it,
on the embedded corpus, with the same warmed-up checker (issue 43, item 4.7).

    python -m benchmarks.background.background [--claims N] [--report benchmarks/background/report.json]

Two measures, the same claims each way:

- **library**: what the app does around each check, without the pages: the claim's earlier checks are looked up
  (:class:`~fever_core.workbench.EarlierChecks`) and the check is kept in a history. Verify checks in the calling
  thread (the page's); the background path is a :class:`~fever_core.evaluation.BatchJob` (its own thread), as
  ``pages/background_runs.py``'s ``check_in_background`` starts it.
- **pages**: the pages themselves, run by Streamlit's AppTest (no browser): Verify checks each claim (pressing Check
  to its verdict), and Check a text checks the claims pasted as one text (pressing Check to its summary, the page
  drawn again every second as its progress fragment is).

The data folder is a temporary one holding links to the shared corpora and models (nothing is written to the shared
one).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from fever_core.common import Settings, limit_cpu_threads, load_claims
from fever_core.common.settings import PROJECT_ROOT
from fever_core.evaluation import BatchJob, BatchRow
from fever_core.pipeline import Checker
from fever_core.workbench import EarlierChecks, HistoryStore

CLAIMS_FILE = PROJECT_ROOT / "assets" / "claims" / "hand-claims.jsonl"
SHARED = ("corpora", "encoders", "base-models", "models")


def private_data_dir(shared: Path) -> Path:
    """A temporary data folder linking the shared one's corpora and models (its history and vectors its own)."""
    folder = Path(tempfile.mkdtemp(prefix="background-bench-"))
    for name in SHARED:
        if (shared / name).exists():
            (folder / name).symlink_to(shared / name, target_is_directory=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=8, help="claims of the hand-written set checked each way")
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--report", type=Path, help="write the figures here as JSON")
    args = parser.parse_args()
    shared = Settings.from_env()
    settings = Settings.from_env(data_dir=private_data_dir(shared.data_dir))
    limit_cpu_threads(settings.app_cpu_threads)  # as the app does (pages/resources.py)
    claims = load_claims(CLAIMS_FILE)[: args.claims]
    started = time.perf_counter()
    checker = Checker.open(args.corpus, settings, progress=False)
    checker.warm_up()
    loaded = time.perf_counter() - started
    earlier = EarlierChecks(settings.data_dir)
    history = HistoryStore(settings.data_dir / "history.sqlite")
    encoder = checker.workspace.dense.encoder

    verify_seconds = []
    for claim in claims:  # Verify: the page's thread checks, looks up earlier checks, keeps it
        started = time.perf_counter()
        result = checker.check(claim.claim)
        earlier.find(result.claim, encoder=encoder)
        history.add(result, {}, session="verify")
        verify_seconds.append(time.perf_counter() - started)

    def keep(row: BatchRow) -> None:
        if row.result is not None:
            earlier.find(row.result.claim, encoder=encoder)
            history.add(row.result, {}, batch=job.job_id, session="background")

    job = BatchJob(claims)
    started = time.perf_counter()
    job.start(checker, on_row=keep)
    job.wait()
    background_total = time.perf_counter() - started
    figures = {
        "corpus": args.corpus,
        "claims": len(claims),
        "app_cpu_threads": settings.app_cpu_threads,
        "checker_load_s": round(loaded, 2),
        "library_verify_s_per_claim": round(sum(verify_seconds) / len(claims), 3),
        "library_verify_s_each": [round(s, 3) for s in verify_seconds],
        "library_background_s_per_claim": round(background_total / len(claims), 3),
        "library_background_check_s_each": [round(row.result.timings["total"], 3) for row in job.rows() if row.result],
        "errors": [row.error for row in job.rows() if row.error] + ([job.error] if job.error else []),
    }
    figures.update(page_figures(settings, args.corpus, [claim.claim for claim in claims]))
    print(json.dumps(figures, indent=2))
    if args.report:
        args.report.write_text(json.dumps(figures, indent=2) + "\n")


def page_figures(settings: Settings, corpus: str, claims: list[str]) -> dict:
    """Seconds per claim on the pages (AppTest): Verify one claim at a time, and Check a text the claims as one text."""
    from streamlit.testing.v1 import AppTest

    os.environ.update(FEVER_DATA_DIR=str(settings.data_dir), FEVER_CORPUS=corpus)

    def page(name: str) -> AppTest:
        at = AppTest.from_file(str(PROJECT_ROOT / "pages" / f"{name}.py"), default_timeout=600)
        at.session_state["corpus"] = corpus
        return at.run()

    def press(at: AppTest, label: str) -> AppTest:
        return next(b for b in at.button if b.label.startswith(label)).click().run()

    verify = page("verify")
    verify.text_area(key="claim_text").input("Stanley Kubrick directed Lolita.")
    press(verify, "Check")  # waits for the checker's load (once for the process, as the server's)
    seconds = []
    for claim in claims:
        verify.text_area(key="claim_text").input(claim)
        started = time.perf_counter()
        press(verify, "Check")
        seconds.append(time.perf_counter() - started)
    text = page("check_text")
    text.text_area(key="_text_pasted").input(" ".join(claims))
    press(text, "Find the sentences to check")
    chosen = sum(sentence.worthy for sentence in text.session_state["text_draft"].sentences)
    started = time.perf_counter()
    press(text, f"Check {chosen} sentence")
    while not text.success and not text.exception:
        time.sleep(1.0)  # the progress fragment's POLL_SECONDS
        text.run()
    background = time.perf_counter() - started
    return {
        "pages_verify_s_per_claim": round(sum(seconds) / len(seconds), 3),
        "pages_verify_s_each": [round(s, 3) for s in seconds],
        "pages_check_text_sentences": chosen,
        "pages_check_text_s_per_sentence": round(background / max(chosen, 1), 3),
        "pages_exception": [str(e.value) for e in [*verify.exception, *text.exception]],
    }


if __name__ == "__main__":
    main()
