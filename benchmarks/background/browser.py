"""Seconds per claim in a browser: Verify one claim at a time against Check a text and Batch checking the same
claims in the background (issue 43, item 4.7), on the real app.

    .venv/bin/python -m benchmarks.background.browser [--claims 4] [--corpus embedded] [--out REPORT.json]

Starts the app (``streamlit run app.py``, headless, on a free local port, a temporary data folder linking the built
corpus: :mod:`benchmarks.app.concurrent_sessions`'s server and browser helpers), opens it in headless Chromium,
checks one warm-up claim (untimed), then:

- **Verify**: each claim from pressing Check to its verdict on screen;
- **Check a text**: the claims pasted as one text, from pressing "Check N sentences" to the summary on screen;
- **Batch**: the claims pasted one a line, from pressing "Check all" to the summary on screen.

Each page polls a running check's progress every second, so a background figure carries up to a second of polling
over the whole run.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import re
import tempfile
import time
from pathlib import Path

from benchmarks.app.concurrent_sessions import (
    CHECK_TIMEOUT_S,
    CLAIMS,
    WARM_UP_CLAIM,
    check_claim,
    data_folder,
    free_port,
    open_app,
    start_app,
    stop,
    wait_for_health,
    wait_until_idle,
)


def background_seconds(page, url: str, path: str, box: str, text: str, press: re.Pattern, done: str) -> float:
    """Open the page at ``path``, paste ``text`` into the text box labelled ``box``, press the button whose name
    matches ``press``; the seconds from then until ``done`` shows."""
    page.goto(f"{url}/{path}")
    wait_until_idle(page)
    page.get_by_label(box).fill(text)
    page.get_by_label(box).blur()
    wait_until_idle(page)
    if path == "check_text":
        page.get_by_role("button", name="Find the sentences to check").click()
        wait_until_idle(page)
    started = time.perf_counter()
    page.get_by_role("button", name=press).click()
    page.get_by_text(done).first.wait_for(timeout=CHECK_TIMEOUT_S * 1000)
    return time.perf_counter() - started


def kept_checks(data_dir: Path) -> dict:
    """From the app's history, for each path (Verify, then the two background runs in order): each check's own
    pipeline seconds (its ``timings["total"]``), each stage's mean seconds, and the seconds between one check being
    kept and the next."""
    from fever_core.workbench import HistoryStore

    store = HistoryStore(data_dir / "history.sqlite")
    runs: dict[str, list] = {}
    for entry in store.since(0)[1:]:  # the warm-up check aside
        runs.setdefault(entry.batch or "verify", []).append(entry)
    figures = {}
    for name, entries in zip(("verify", "check_text", "batch"), runs.values()):
        timings = [store.result(e.key).timings for e in entries]
        figures[f"{name}_pipeline_s_each"] = [round(t["total"], 3) for t in timings]
        figures[f"{name}_stage_s_mean"] = {
            stage: round(sum(t.get(stage, 0.0) for t in timings) / len(timings), 3) for stage in timings[0]
        }
        figures[f"{name}_kept_gaps_s"] = [round(b.checked_at - a.checked_at, 3) for a, b in itertools.pairwise(entries)]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=4)
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    claims = CLAIMS[: args.claims]
    keep: list = []
    server = playwright = browser = None
    log = tempfile.NamedTemporaryFile("w", prefix="background-browser-", suffix=".log", delete=False)  # noqa: SIM115 - kept open for the server, closed in finally
    try:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        data_dir = data_folder(args.corpus, None, keep)
        server = start_app(args.corpus, data_dir, port, log)
        wait_for_health(server, url, log.name)
        playwright, browser, page = open_app(url)
        check_claim(page, WARM_UP_CLAIM)
        verify = [check_claim(page, claim)["seconds"] for claim in claims]
        text = background_seconds(
            page,
            url,
            "check_text",
            "…or paste it: an article, a speech, a transcript",
            " ".join(claims),
            re.compile(r"^Check \d+ sentences?$"),
            "checked: ",
        )
        batch = background_seconds(
            page,
            url,
            "batch",
            "…or paste them, one claim a line",
            "\n".join(claims),
            re.compile("^Check all$"),
            f"Checked {len(claims)} of {len(claims)} claims",
        )
        report = {
            "corpus": args.corpus,
            "claims": claims,
            "verify_s_each": verify,
            "verify_s_per_claim": round(sum(verify) / len(verify), 3),
            "check_text_s": round(text, 3),
            "check_text_s_per_claim": round(text / len(claims), 3),
            "batch_s": round(batch, 3),
            "batch_s_per_claim": round(batch / len(claims), 3),
            **kept_checks(data_dir),
        }
        print(json.dumps(report, indent=2))
        if args.out:
            args.out.write_text(json.dumps(report, indent=2) + "\n")
    finally:
        with contextlib.suppress(Exception):
            if browser is not None:
                browser.close()
            if playwright is not None:
                playwright.stop()
        stop(server)
        for temporary in keep:
            temporary.cleanup()


if __name__ == "__main__":
    main()
