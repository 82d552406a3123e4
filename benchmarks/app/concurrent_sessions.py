"""Several browser sessions checking claims at once against one alone (issue 20, item 6).

Starts the real app (``streamlit run app.py``, headless, on a free local port) on a corpus, opens it once in a
browser and checks one claim so the models and indexes are loaded, then for each session count N of ``--sessions``
runs N browser sessions at once: each its own process with its own Playwright and headless Chromium
(``/usr/bin/chromium``), on the Verify page. Every session opens the app, checks one warm-up claim (untimed), waits
for the others, then checks ``--claims`` claims of its own one after another, each timed from pressing Check to
the verdict of that claim on screen (as Playwright sees it; also as the page itself notes it, a MutationObserver's
clock), then waits for the rest of the result before the next claim.

    .venv/bin/python benchmarks/app/concurrent_sessions.py --sessions 1 5 --claims 6 --corpus embedded \\
        --out benchmarks/app/concurrent-sessions.json

Reports per N: p50 and p95 seconds a claim, claims checked per second in all (claims over the time from the
sessions' common start to the last verdict), and N sessions' p50 over one session's. Session i checks the claims
``i*claims`` to ``(i+1)*claims - 1`` of :data:`CLAIMS` (wrapping round), in every round: one session alone checks
the claims that the first of N sessions checks.

The app writes every check to its history, so by default it runs on a temporary data folder holding a link to
the corpus's built folder (``data/corpora/<corpus>``), leaving the project's history alone; ``--data-dir`` runs it
on another data folder instead. The server is stopped at the end, also on an error or Ctrl-C.

One module (over 400 lines) because it is one benchmark script: the app's start, the browser sessions and the
report share its settings.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import queue
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
VERDICT_WORDS = ("Supported", "Refuted", "Not enough info", "Undecided")  # the card's words (UNDECIDED_WORD too)
WARM_UP_CLAIM = "Oslo is the capital of Norway."
# Plain claims about well-known subjects with a page in the embedded corpus; true, false and unverifiable.
CLAIMS = [
    "Paris is the capital of France.",
    "Albert Einstein was born in Germany.",
    "The Nile is in Asia.",
    "Mount Everest is the highest mountain on Earth.",
    "William Shakespeare was a Spanish painter.",
    "Berlin is the capital of Germany.",
    "Tokyo is the capital of Japan.",
    "The Amazon River flows through Brazil.",
    "Leonardo da Vinci painted the Mona Lisa.",
    "The Moon orbits Mars.",
    "The Pacific Ocean is the largest ocean.",
    "Isaac Newton was an English physicist.",
    "Charles Darwin proposed the theory of evolution by natural selection.",
    "Barack Obama was the president of the United States.",
    "Rome is the capital of Spain.",
    "Canada is a country in South America.",
    "Australia is a continent and a country.",
    "Egypt is in Africa.",
    "Ludwig van Beethoven was a German composer.",
    "Wolfgang Amadeus Mozart was born in Salzburg.",
    "The Beatles were a band from Liverpool.",
    "Jupiter is the smallest planet in the Solar System.",
    "The Sahara is a desert in Africa.",
    "The Great Wall of China was built in Mexico.",
    "Marie Curie won the Nobel Prize.",
    "Napoleon was an Emperor of the French.",
    "London is the capital of the United Kingdom.",
    "Madrid is the capital of Italy.",
    "India is the most populous country in Europe.",
    "Moscow is the capital of Russia.",
    "Pablo Picasso was a Spanish painter.",
    "Vincent van Gogh was a Dutch painter.",
    "Chess is a board game for two players.",
    "Abraham Lincoln was the first president of the United States.",
    "Winston Churchill was a Prime Minister of the United Kingdom.",
    "Elvis Presley was a French chef.",
    "Microsoft was founded by Bill Gates and Paul Allen.",
    "The Danube flows through Vienna.",
    "Iceland is an island in the Pacific Ocean.",
    "Athens is the capital of Greece.",
    "Nelson Mandela was the president of South Africa.",
    "Galileo Galilei was an Italian astronomer.",
]
# Run just before pressing Check: the page notes, on its own clock, when the verdict of this claim is in it
# (tests/app/test_browser.py times its checks with it too).
WATCH_FOR_VERDICT = """(claim) => {
    window.verdictSeconds = null;
    const started = performance.now();
    const observer = new MutationObserver(() => {
        const verdict = [...document.querySelectorAll("h3")].some(h => h.textContent.includes("Verdict:"));
        if (verdict && document.body.textContent.includes("Claim: " + claim)) {
            window.verdictSeconds = (performance.now() - started) / 1000;
            observer.disconnect();
        }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
APP_READY_S = 600  # the first load loads the models; on a busy machine that takes minutes
CHECK_TIMEOUT_S = 300


# --- in a browser --------------------------------------------------------------------------------------------------


def open_app(url: str):
    """Playwright, a headless Chromium and a tab on the app's Verify page, ready (no script running)."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": 1400, "height": 2200})
    page.goto(url, wait_until="commit")
    page.get_by_text("Verify a claim").wait_for(timeout=APP_READY_S * 1000)
    wait_until_idle(page)
    return playwright, browser, page


def wait_until_idle(page) -> None:
    """Wait for the app's script run to finish."""
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(timeout=CHECK_TIMEOUT_S * 1000)


def check_claim(page, claim: str) -> dict:
    """Type a claim, press Check, wait for the verdict of *this* claim (then for the run to end and the chart to be
    drawn, so checks don't overlap). Returns its seconds as Playwright saw them and as the page noted them, and the verdict's words."""
    page.locator("textarea").first.fill(claim)
    page.evaluate(WATCH_FOR_VERDICT, claim)
    started = time.perf_counter()
    page.get_by_role("button", name="Check").click()
    page.get_by_text("Claim: ", exact=False).filter(has_text=claim).first.wait_for(timeout=CHECK_TIMEOUT_S * 1000)
    verdict = page.locator("h3", has_text="Verdict:").first
    verdict.wait_for(timeout=CHECK_TIMEOUT_S * 1000)
    seconds = time.perf_counter() - started
    shown = verdict.inner_text()
    if not any(word in shown for word in VERDICT_WORDS):
        raise RuntimeError(f"no verdict for {claim!r}: the heading reads {shown!r}")
    page.wait_for_function("() => window.verdictSeconds !== null", timeout=30_000)
    page_seconds = page.evaluate("() => window.verdictSeconds")
    wait_until_idle(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)  # the chart is drawn in the browser after the run
    return {
        "claim": claim,
        "seconds": round(seconds, 4),
        "page_seconds": round(page_seconds, 4),
        "verdict": shown.replace("Verdict:", "").strip(),
    }


def session(number: int, url: str, claims: list[str], barrier, results) -> None:
    """One browser session (run in its own process): open the app, a warm-up check, wait for the others, check
    ``claims`` one after another; put ``(number, report)`` on ``results``."""
    report: dict = {"session": number, "claims": []}
    playwright = browser = None
    try:
        playwright, browser, page = open_app(url)
        check_claim(page, WARM_UP_CLAIM)
        barrier.wait(timeout=APP_READY_S)
        report["started"] = time.monotonic()
        for claim in claims:
            report["claims"].append(check_claim(page, claim))
        report["ended"] = time.monotonic()
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which stops the run
        barrier.abort()  # the others don't wait for this one
        report["error"] = f"{type(exc).__name__}: {exc}"[:2000]
    finally:
        results.put((number, report))
        with contextlib.suppress(Exception):  # closing, maybe after a failure
            if browser is not None:
                browser.close()
            if playwright is not None:
                playwright.stop()


# --- the server ----------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def data_folder(corpus: str, data_dir: Path | None, keep: list) -> Path:
    """The data folder the app runs on: ``data_dir``, else a temporary one linking the project's built corpus."""
    if data_dir is not None:
        return data_dir
    built = ROOT / "data" / "corpora" / corpus
    if not (built / "store.sqlite").is_file():
        raise SystemExit(
            f"{built} has no built corpus: build it first (python -m fever_core corpus build {corpus}), "
            "or name a data folder with --data-dir"
        )
    temporary = tempfile.TemporaryDirectory(prefix="fever-sessions-")
    keep.append(temporary)
    (Path(temporary.name) / "corpora").mkdir()
    (Path(temporary.name) / "corpora" / corpus).symlink_to(built, target_is_directory=True)
    return Path(temporary.name)


def start_app(corpus: str, data_dir: Path, port: int, log) -> subprocess.Popen:
    env = {
        **os.environ,
        "FEVER_CORPUS": corpus,
        "FEVER_DATA_DIR": str(data_dir),
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def wait_for_health(server: subprocess.Popen, url: str, log_path: str, within_s: float = 120) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"streamlit stopped (exit {server.returncode}): {tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"streamlit did not answer /_stcore/health within {within_s:g} s: {tail(log_path)}")


def stop(process) -> None:
    """Terminate a process we started (then kill it if it lingers)."""
    if process is None:
        return
    if isinstance(process, subprocess.Popen):
        if process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    elif process.is_alive():
        process.terminate()
        process.join(20)
        if process.is_alive():
            process.kill()
            process.join()


def tail(path: str, chars: int = 3000) -> str:
    return Path(path).read_text(errors="replace")[-chars:]


# --- a round of N sessions -----------------------------------------------------------------------------------------


def session_claims(number: int, per_session: int) -> list[str]:
    return [CLAIMS[(number * per_session + n) % len(CLAIMS)] for n in range(per_session)]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile, linear between the closest ranks (numpy's default)."""
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def run_round(url: str, sessions: int, per_session: int, children: list) -> dict:
    """N sessions at once; their claims' seconds and the round's figures."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(sessions)
    results = context.Queue()
    processes = [
        context.Process(
            target=session, args=(n, url, session_claims(n, per_session), barrier, results), name=f"session-{n}"
        )
        for n in range(sessions)
    ]
    children.extend(processes)
    for process in processes:
        process.start()
    reports = {}
    deadline = time.monotonic() + APP_READY_S + per_session * CHECK_TIMEOUT_S + 120
    while len(reports) < sessions:
        try:
            number, report = results.get(timeout=max(1.0, deadline - time.monotonic()))
        except queue.Empty:
            raise SystemExit(f"{sessions - len(reports)} of {sessions} sessions did not report in time") from None
        reports[number] = report
    for process in processes:
        process.join(30)
    failed = [f"session {n}: {r['error']}" for n, r in sorted(reports.items()) if "error" in r]
    if failed:
        raise SystemExit("a session failed:\n" + "\n".join(failed))
    ordered = [reports[n] for n in range(sessions)]
    seconds = [c["seconds"] for r in ordered for c in r["claims"]]
    page_seconds = [c["page_seconds"] for r in ordered for c in r["claims"]]
    wall = max(r["ended"] for r in ordered) - min(r["started"] for r in ordered)
    return {
        "sessions": sessions,
        "claims_checked": len(seconds),
        "p50_s": round(statistics.median(seconds), 3),
        "p95_s": round(percentile(seconds, 95), 3),
        "max_s": round(max(seconds), 3),
        "page_clock_p50_s": round(statistics.median(page_seconds), 3),
        "page_clock_p95_s": round(percentile(page_seconds, 95), 3),
        "wall_s": round(wall, 3),
        "claims_per_s": round(len(seconds) / wall, 3),
        "per_session": [
            {"session": r["session"], "seconds": round(r["ended"] - r["started"], 3), "claims": r["claims"]}
            for r in ordered
        ],
    }


def table(rounds: list[dict]) -> str:
    """Seconds a claim as Playwright saw the verdict and as the page noted it, claims/s, and p50 over 1 session's."""

    def ratio(value) -> str:
        return "-" if value is None else f"{value:.2f}"

    lines = [
        "                    Playwright              page clock",
        "sessions  claims  p50 s  p95 s  x1      p50 s  p95 s  x1      claims/s",
    ]
    for r in rounds:
        lines.append(
            f"{r['sessions']:>8}  {r['claims_checked']:>6}  {r['p50_s']:>5.2f}  {r['p95_s']:>5.2f}  "
            f"{ratio(r['p50_ratio_to_1_session']):<6}  {r['page_clock_p50_s']:>5.2f}  "
            f"{r['page_clock_p95_s']:>5.2f}  {ratio(r['page_clock_p50_ratio_to_1_session']):<6}  "
            f"{r['claims_per_s']:>8.2f}"
        )
    lines.append("x1: the p50 over one session's p50")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 5], help="session counts, one round each")
    parser.add_argument("--claims", type=int, default=6, help="claims each session checks, one after another")
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the app's data folder (default: a temporary one linking data/corpora/<corpus>)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "app" / "concurrent-sessions.json")
    args = parser.parse_args()
    if min(args.sessions) < 1 or args.claims < 1:
        parser.error("--sessions and --claims must be at least 1")
    if not CHROMIUM.exists():
        raise SystemExit(f"needs Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    if args.claims * max(args.sessions) > len(CLAIMS):
        print(
            f"note: {args.claims * max(args.sessions)} claims wanted, {len(CLAIMS)} written: some sessions repeat "
            "claims of others",
            file=sys.stderr,
        )

    # a terminating signal ends the run through the finally below, which stops the server and the sessions
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    keep: list = []
    children: list = []
    server = None
    with tempfile.NamedTemporaryFile("w+", prefix="fever-streamlit-", suffix=".log", delete=False) as log:
        try:
            data_dir = data_folder(args.corpus, args.data_dir, keep)
            url = f"http://127.0.0.1:{free_port()}"
            server = start_app(args.corpus, data_dir, int(url.rsplit(":", 1)[1]), log)
            wait_for_health(server, url, log.name)
            print(f"app at {url} (corpus {args.corpus}, data folder {data_dir}, log {log.name})", flush=True)

            warm = time.monotonic()
            playwright, browser, page = open_app(url)  # the first load loads the models and indexes
            try:
                check_claim(page, WARM_UP_CLAIM)
            finally:
                browser.close()
                playwright.stop()
            warm_up_s = time.monotonic() - warm
            print(f"warm-up: app ready and one claim checked in {warm_up_s:.1f} s", flush=True)

            rounds = []
            for sessions in args.sessions:
                print(f"{sessions} session(s) at once, {args.claims} claims each ...", flush=True)
                rounds.append(run_round(url, sessions, args.claims, children))
                if server.poll() is not None:
                    raise SystemExit(f"streamlit stopped during the run: {tail(log.name)}")
        finally:
            for child in children:
                stop(child)
            stop(server)
            for temporary in keep:
                temporary.cleanup()
    Path(log.name).unlink()  # kept when the run failed

    alone = next((r for r in rounds if r["sessions"] == 1), None)
    for r in rounds:
        for key, ratio_key in (
            ("p50_s", "p50_ratio_to_1_session"),
            ("page_clock_p50_s", "page_clock_p50_ratio_to_1_session"),
        ):
            r[ratio_key] = None if alone is None else round(r[key] / alone[key], 3)
    print()
    print(table(rounds))
    report = {
        "what": "N browser sessions (each its own Playwright + headless Chromium process) checking claims at once on "
        "the app's Verify page; seconds from pressing Check to the verdict of the claim on screen",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "cpu_count": os.cpu_count(),
        "machine": platform.platform(),
        "load_average_at_start": load_at_start,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "corpus": args.corpus,
        "claims_per_session": args.claims,
        "warm_up_claim": WARM_UP_CLAIM,
        "claims_used": sorted(
            {c for n in range(max(args.sessions)) for c in session_claims(n, args.claims)}, key=CLAIMS.index
        ),
        "warm_up_s": round(warm_up_s, 1),
        "total_s": round(time.monotonic() - started, 1),
        "rounds": rounds,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten {args.out} ({report['total_s']:.0f} s in all)")


if __name__ == "__main__":
    main()
