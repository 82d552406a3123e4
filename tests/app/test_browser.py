"""End to end in a real browser: ``streamlit run app.py`` on a free local port, driven by Debian's
Chromium (headless) through Playwright. Types claims, waits for the verdict, checks the evidence
table and that HTML in a claim stays text, saves a screenshot, and prints the warm time from
pressing Check to the verdict on screen: as Playwright sees it (it polls, after the first 0.27 s
only every 0.5 s) and as the page itself notes it (a MutationObserver's clock).

``make test`` installs Chromium (Debian package ``chromium``); where it can't be installed the test
skips and says why.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fever_core.settings import BUNDLED_MODELS_DIR, PROJECT_ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]
VERDICT_WORDS = ("Supported", "Refuted", "Not enough info")
# Run just before pressing Check: the page notes, on its own clock, when the verdict of this claim is in it.
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(settings, workspace):
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium (/usr/bin/chromium): `apt-get install chromium` (make test does it as root)")
    pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install -r requirements.txt)")
    port = free_port()
    env = {
        **os.environ,
        "FEVER_DATA_DIR": str(settings.data_dir),
        "FEVER_CORPUS": "fixture",
        "FEVER_VERIFIER_MODEL": str(BUNDLED_MODELS_DIR / "verifier"),
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(PROJECT_ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail(f"streamlit did not start: {process.stdout.read().decode(errors='replace')[-2000:]}")
    yield url
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 2200})
        dialogs: list[str] = []
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        tab.dialogs = dialogs
        tab.goto(server, wait_until="networkidle")
        tab.get_by_text("Verify a claim").wait_for(timeout=120_000)
        yield tab
        browser.close()


def check_claim(page, claim: str) -> tuple[float, float]:
    """Type a claim, press Check, wait for the verdict of *this* claim.

    Returns:
        Seconds until Playwright saw the verdict, and until it was in the page (the page's clock).
    """
    box = page.locator("textarea").first
    box.fill(claim)
    page.evaluate(WATCH_FOR_VERDICT, claim)
    started = time.perf_counter()
    page.get_by_role("button", name="Check").click()
    page.get_by_text("Claim: ", exact=False).filter(has_text=claim[:30]).first.wait_for(timeout=120_000)
    verdict = page.locator("h3", has_text="Verdict:").first
    verdict.wait_for(timeout=120_000)
    elapsed = time.perf_counter() - started
    assert any(word in verdict.inner_text() for word in VERDICT_WORDS)
    page.wait_for_function("() => window.verdictSeconds !== null", timeout=10_000)
    return elapsed, page.evaluate("() => window.verdictSeconds")


def test_a_claim_gets_a_verdict_evidence_and_chart_in_the_browser(page):
    check_claim(page, "Jaws is a film directed by Steven Spielberg.")  # cold: loads models
    seen, painted = zip(*[check_claim(page, claim) for claim in [
        "Fox 2000 Pictures released the film Soul Food.",
        "Sherlock Holmes was created by Arthur Conan Doyle.",
        "Steven Spielberg was born in Ohio.",
        "Soul Food is a television series.",
        "Edinburgh is the capital of Scotland.",
    ]])
    # the verdict is drawn first; the evidence table of this claim follows it within the same run
    evidence = page.locator('[data-testid="stTable"]', has_text="Edinburgh is the capital city of Scotland.").first
    evidence.wait_for(timeout=30_000)
    assert "supports" in evidence.inner_text()
    assert page.locator(".js-plotly-plot").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "verify.png"), full_page=True)
    p50, painted_p50 = statistics.median(seen), statistics.median(painted)
    (ARTIFACTS / "browser-latency.txt").write_text(
        "warm seconds from pressing Check to the verdict on screen: "
        + ", ".join(f"{t:.2f}" for t in seen) + f"\np50 {p50:.2f}\n"
        + "in the page (its own clock, no polling delay): "
        + ", ".join(f"{t:.2f}" for t in painted) + f"\np50 {painted_p50:.2f}\n"
    )
    print(f"\nbrowser: warm Check -> verdict p50 {p50:.2f} s (in the page {painted_p50:.2f} s) over {len(seen)} claims")


def test_html_in_a_claim_shows_as_text(page):
    claim = "<script>alert(1)</script> Jaws is a film."
    check_claim(page, claim)
    assert page.get_by_text("<script>alert(1)</script>", exact=False).count() >= 1
    assert page.dialogs == []
    assert page.locator("script", has_text="alert(1)").count() == 0
