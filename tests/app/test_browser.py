"""End to end in a real browser: ``streamlit run app_server.py`` (as ``make run`` serves the app) on a free local
port, driven by Debian's Chromium (headless) through Playwright, on the fixture pages and a few German states.

The tests share one server and one tab and run in file order: the first sees the server load the models before
anyone visits; the next times the first check after
the app starts (the models load, with a spinner, when the app opens) and twenty warm ones, from
pressing Check to the verdict on screen, as Playwright sees it (it polls, after the first 0.27 s
only every 0.5 s) and as the page itself notes it (a MutationObserver's clock); then the verdict's
sources, a verdict too unsure to call with the sentences to read, bad input, settings kept while moving between
pages through the sidebar, annotating the Munich claim, a permalink restoring its corpus and settings, re-opening a check from
History, a batch of 200 claims uploaded as text (timed; the app used meanwhile), a pasted news text whose
check-worthy sentences are checked and marked, improving the verifier on 20 annotations from the Models page,
using the new version and switching back, the sentences that settle the embedded corpus's Toronto and Everest
examples open on their cards, and the presenter's view at 1920x1080 (on the Toronto example; both where that corpus
can be built). Screenshots and timings go to ``test-artifacts/``.

``make test`` installs Chromium (Debian package ``chromium``); where it can't be installed the test
skips and says why.
"""

from __future__ import annotations

import csv
import io
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from benchmarks.app.concurrent_sessions import WATCH_FOR_VERDICT
from fever_core.common.model_versions import list_versions
from fever_core.common.settings import DEFAULT_VERIFIER, PROJECT_ROOT
from fever_core.pipeline import MAX_CLAIM_CHARS
from fever_core.workbench.annotation import AnnotationStore
from fever_core.workbench.history import HistoryStore

from ..training.test_improve import ANNOTATED
from .conftest import APP_CORPUS, MUNICH_CLAIM, MUNICH_KEY_SENTENCE

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
SERVER_LOG = ARTIFACTS / "streamlit-server.log"  # the app server's output (the server fixture)
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
VERDICT_WORDS = ("Supported", "Refuted", "Not enough info", "Undecided")
WARM_CLAIMS = [
    "Fox 2000 Pictures released the film Soul Food.",
    "Sherlock Holmes was created by Arthur Conan Doyle.",
    "Steven Spielberg was born in Ohio.",
    "Soul Food is a television series.",
    "Edinburgh is the capital of Scotland.",
    "Jaws is a film directed by Steven Spielberg.",
    "Dresden is in Bavaria.",
    "Bavaria is in the north of Germany.",
    "Arthur Conan Doyle was born in 1859.",
    "Saxony has a coastline.",
]
WARM_CHECKS = 20
DECIDING_ROW_BACKGROUND = "rgb(255, 243, 176)"  # pages/verify.py's DECIDING_ROW_STYLE
# Every sidebar setting as the page shows it, by widget key: a box's tick, an input's value, else its text.
SIDEBAR_SHOWN = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-testid="stSidebar"] [class*="st-key-_"]')].map(box => {
        const input = box.querySelector("input");
        const value = !input ? box.innerText : input.type === "checkbox" ? input.checked : input.value;
        return [box.className.match(/st-key-(\\S+)/)[1], value];
    }))"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(settings, app_corpus):
    if not CHROMIUM.exists():
        pytest.skip(
            "needs Debian's chromium (/usr/bin/chromium): `apt-get install chromium` (make test does it as root)"
        )
    pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install -r requirements.txt)")
    port = free_port()
    env = {
        **os.environ,
        "FEVER_DATA_DIR": str(settings.data_dir),
        "FEVER_CORPUS": app_corpus,
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    # The server's output goes to a file, never to a pipe nobody reads: once a pipe's 64 KiB buffer filled up
    # with the server's warnings, its next write blocked the whole server (seen in CI: a page change after the
    # 30th check or so never came).
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with SERVER_LOG.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(PROJECT_ROOT / "app_server.py"),
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
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
        pytest.fail(f"streamlit did not start: {SERVER_LOG.read_text(errors='replace')[-2000:]}")
    yield url
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def wait_for_server_log(text: str, timeout_s: float = 300) -> None:
    """Wait until the server's log (:data:`SERVER_LOG`) holds ``text``; fail with its end after ``timeout_s``."""
    deadline = time.time() + timeout_s
    while text not in SERVER_LOG.read_text(errors="replace"):
        if time.time() > deadline:
            pytest.fail(
                f"the server's log never said {text!r}; it ends:\n{SERVER_LOG.read_text(errors='replace')[-3000:]}"
            )
        time.sleep(0.5)


def test_the_models_load_when_the_server_starts_before_anyone_visits(server):
    """Issue 48: the first visitor after ``make run`` waited about 40 s for the models. The server loads the checker a
    first visitor asks for on its own, and that visitor finds it loaded: no loading note."""
    from playwright.sync_api import sync_playwright

    wait_for_server_log(f"Loaded the checker for corpus {APP_CORPUS} ")  # no browser has opened the app yet
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        tab = browser.new_page()
        tab.goto(server)
        tab.locator("textarea").first.wait_for(timeout=60_000)
        wait_until_idle(tab)
        assert tab.get_by_text("Loading the corpus and models").count() == 0
        browser.close()


FIRST_VISIT_LIMIT_S = 8.0  # issue 36: the claim box within 8 s of the first visit (it took 21 s while models loaded)


@pytest.fixture(scope="module")
def page(server):
    """The app's tab, opened once the models are loaded. ``claim_box_seconds`` is how long the claim box took to
    show from opening the address (the models load in the background meanwhile, with a note saved as
    ``startup-loading.png``); ``startup_seconds`` how long until they had loaded and the note was gone."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 2200})
        dialogs: list[str] = []
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        tab.dialogs = dialogs
        started = time.perf_counter()
        tab.goto(server, wait_until="commit")
        tab.locator("textarea").first.wait_for(timeout=60_000)
        tab.claim_box_seconds = time.perf_counter() - started
        loading = tab.get_by_text("Loading the corpus and models")
        if loading.count():
            tab.screenshot(path=str(ARTIFACTS / "startup-loading.png"))
        loading.wait_for(state="detached", timeout=300_000)
        wait_until_idle(tab)  # the note goes as the page is drawn again without it: that run ends first
        tab.startup_seconds = time.perf_counter() - started
        yield tab
        browser.close()


def wait_until_idle(page) -> None:
    """Wait for the app's script run to finish."""
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(timeout=120_000)


def check_claim(page, claim: str) -> tuple[float, float]:
    """Type a claim, press Check, wait for the verdict of *this* claim, then for the rest of the
    result (the chart's script loads in the browser after the first verdict), so checks don't overlap.

    Returns:
        Seconds until Playwright saw the verdict, and until it was in the page (the page's clock).
    """
    wait_until_idle(page)  # a click while the page is being drawn again can be lost (seen once: the first check)
    box = page.locator("textarea").first
    box.fill(claim)
    page.evaluate(WATCH_FOR_VERDICT, claim)
    started = time.perf_counter()
    page.get_by_role("button", name="Check", exact=True).click()
    page.get_by_text("Claim: ", exact=False).filter(has_text=claim[:30]).first.wait_for(timeout=120_000)
    verdict = page.locator("h3", has_text="Verdict:").first
    verdict.wait_for(timeout=120_000)
    elapsed = time.perf_counter() - started
    assert any(word in verdict.inner_text() for word in VERDICT_WORDS)
    page.wait_for_function("() => window.verdictSeconds !== null", timeout=10_000)
    wait_until_idle(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    return elapsed, page.evaluate("() => window.verdictSeconds")


def evidence_table(page):
    """The first evidence table: the evidence the verdict used (the rest's table follows, collapsed)."""
    return page.locator('[data-testid="stTable"]').first


def evidence_rows(page) -> int:
    """How many evidence rows Verify shows, used or not (the collapsed table's rows are in the page too), once the
    evidence tables are drawn (they come after the verdict and its chart)."""
    page.locator('[data-testid="stTable"] tbody tr').first.wait_for(state="attached", timeout=30_000)
    return page.locator('[data-testid="stTable"] tbody tr').count()


def open_from_sidebar(page, link: str, title: str) -> None:
    """Click a page's link in the sidebar and wait until that page has been drawn (:func:`click_until_shown`)."""
    click_until_shown(
        page,
        page.locator('[data-testid="stSidebarNavLink"]', has_text=link),
        page.locator("h1", has_text=title),
        f"{title} did not open",
    )
    wait_until_idle(page)


def click_until_shown(page, target, shown, failure: str) -> None:
    """Click ``target`` and wait until ``shown`` is visible.

    A click after which the app sits idle on the same address for a minute was lost (seen in CI on a 2-core
    machine: a sidebar link right after a check with a new verifier version; "Open its verdict card" of Check a text):
    it is written to ``lost-clicks.txt`` among the test artifacts, with a screenshot, and clicked once more. When
    ``shown`` still does not come, the test fails with ``failure``, the address, the script's state and the end of
    the server's log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    address = page.url
    target.click()
    try:
        shown.wait_for(timeout=60_000)
    except PlaywrightTimeout:
        idle = page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').count() == 1
        if idle and page.url == address:
            shot = ARTIFACTS / f"lost-click-{int(time.time())}.png"
            page.screenshot(path=str(shot), full_page=True)
            with (ARTIFACTS / "lost-clicks.txt").open("a", encoding="utf-8") as log:
                log.write(f"{time.ctime()}: a click on {address} did nothing for 60 s ({failure}; {shot.name})\n")
            target.click()
        try:
            shown.wait_for(timeout=120_000)
        except PlaywrightTimeout:
            state = page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
            log_end = SERVER_LOG.read_text(errors="replace")[-3000:] if SERVER_LOG.exists() else "(no log)"
            pytest.fail(f"{failure} from {address} (now {page.url}, script {state}); the server's log ends:\n{log_end}")


def retrieval_settings(page):
    """The sidebar's "Retrieval and verdict" expander, opened."""
    expander = page.locator('[data-testid="stSidebar"] details', has_text="Retrieval and verdict")
    if not expander.evaluate("details => details.open"):
        expander.locator("summary").click()
    expander.locator(".st-key-_verifier_model input").wait_for()
    return expander


def sidebar_settings_shown(page) -> dict[str, object]:
    """The sidebar settings the page shows."""
    retrieval_settings(page)
    page.wait_for_function("() => document.querySelector('.st-key-_verifier_model input').value !== ''")
    return page.evaluate(SIDEBAR_SHOWN)


def set_slider(page, key: str, value: str) -> None:
    """Move a sidebar slider to ``value`` with the keyboard, a step at a time, letting the app take each."""
    slider = retrieval_settings(page).locator(f".st-key-{key} input")
    for _ in range(20):
        shown = slider.input_value()
        if shown == value:
            return
        slider.focus()
        page.keyboard.press("ArrowRight" if float(value) > float(shown) else "ArrowLeft")
        page.wait_for_function(
            "([key, shown]) => document.querySelector(`.st-key-${key} input`).value !== shown", arg=[key, shown]
        )
        wait_until_idle(page)
    raise AssertionError(f"the slider {key} shows {slider.input_value()}, not {value}")


def test_first_check_after_start_is_as_fast_as_warm_ones(page):
    first_seen, first_painted = check_claim(page, "Munich is the capital of the German state of Bavaria.")
    timings = [check_claim(page, WARM_CLAIMS[n % len(WARM_CLAIMS)]) for n in range(WARM_CHECKS)]
    seen, painted = zip(*timings)
    p50, painted_p50 = statistics.median(seen), statistics.median(painted)
    (ARTIFACTS / "browser-latency.txt").write_text(
        f"opening the app until the claim box shows: {page.claim_box_seconds:.2f} s\n"
        "opening the app until it is ready (models and indexes loaded in the background, one warm-up check): "
        f"{page.startup_seconds:.2f} s\n"
        f"first check after start, pressing Check to the verdict on screen: {first_seen:.2f} s "
        f"(in the page, its own clock: {first_painted:.2f} s)\n"
        f"warm, {WARM_CHECKS} checks: " + ", ".join(f"{t:.2f}" for t in seen) + f"\np50 {p50:.2f}\n"
        "in the page (its own clock, no polling delay): "
        + ", ".join(f"{t:.2f}" for t in painted)
        + f"\np50 {painted_p50:.2f}\n"
    )
    print(
        f"\nbrowser: claim box after {page.claim_box_seconds:.1f} s, ready after {page.startup_seconds:.1f} s; first check {first_seen:.2f} s "
        f"(in the page {first_painted:.2f} s); warm p50 {p50:.2f} s (in the page {painted_p50:.2f} s) "
        f"over {WARM_CHECKS}"
    )
    # loading on the first click (32 s before the app loaded at start) would be many times a warm check
    assert first_painted <= 3 * painted_p50 + 2
    assert page.claim_box_seconds <= FIRST_VISIT_LIMIT_S


def test_the_verdict_quotes_its_deciding_sentence_highlights_it_and_links_pages_to_wikipedia(page):
    check_claim(page, "Fox 2000 Pictures released the film Soul Food.")
    page.get_by_text("Deciding sentence").first.wait_for()
    table = evidence_table(page)
    film = page.locator('[data-testid="stTable"] a[href="https://en.wikipedia.org/wiki/Soul_Food_%28film%29"]')
    assert film.count() >= 1 and "2017 text" in table.inner_text()
    assert page.locator(".st-key-verdict_card blockquote", has_text="Fox 2000 Pictures").count() >= 1
    backgrounds = table.locator("td").evaluate_all("cells => cells.map(c => getComputedStyle(c).backgroundColor)")
    assert DECIDING_ROW_BACKGROUND in backgrounds
    page.screenshot(path=str(ARTIFACTS / "verify.png"), full_page=True)


def test_a_verdict_too_unsure_to_call_says_undecided_and_opens_the_sentences_to_read(page, server, tiny_nli_model):
    # A verdict the test controls: the tiny, untrained verifier gives each label about a third, far below the least a
    # shown label needs. The shipped verifier's close calls move with the CPU's arithmetic (issue 49: "Jaws is a 1975
    # comedy." read REFUTES 0.49 on one CPU and over 0.5 on another).
    open_address(
        page, server, {"claim": "Jaws is a 1975 comedy.", "verifier_model": str(tiny_nli_model)}, "Verify a claim"
    )
    # the tiny verifier's checker loads first; a stale copy of the card may show beside the new one while it is redrawn
    page.get_by_text("Too unsure to call").first.wait_for(timeout=300_000)
    wait_until_idle(page)
    card = page.locator(".st-key-verdict_card").first
    assert "Undecided" in card.locator("h3").inner_text()
    read_these = card.locator(".st-key-read_these")
    assert read_these.get_by_text("Read these").first.is_visible()
    quotes = read_these.locator("blockquote")
    assert quotes.count() >= 1 and all("This sentence alone reads:" in quote for quote in quotes.all_inner_texts())
    assert quotes.first.is_visible()  # open, not in an expander
    (probability,) = set(re.findall(r"only (\d\.\d\d) sure", card.inner_text()))  # a verifier without calibration
    bar = page.locator(".js-plotly-plot text.bartext").first  # its chart, drawn after the card
    bar.wait_for(timeout=60_000)
    assert bar.text_content() == probability
    page.screenshot(path=str(ARTIFACTS / "verify-undecided.png"))
    open_from_sidebar(page, "History", "History")  # the label withheld there too, never the one it leans to
    page.wait_for_function(CHOICE_SHOWS, arg=["Check", f"· Undecided {probability} · Jaws is a 1975 comedy."])
    page.screenshot(path=str(ARTIFACTS / "history-undecided.png"))
    open_address(page, server, {}, "Verify a claim")  # a new session: the tests after it check with the shipped one


def test_a_claim_that_can_t_be_checked_says_why_at_once(page):
    page.locator("textarea").first.fill("🙂🙂🙂")
    page.get_by_role("button", name="Check", exact=True).click()
    reason = page.get_by_text("no words or numbers")
    reason.wait_for(timeout=10_000)  # visible: not folded into a closed box
    assert page.locator("h3", has_text="Verdict:").count() == 0
    page.screenshot(path=str(ARTIFACTS / "verify-bad-input.png"))


def test_a_too_long_paste_is_not_checked_but_kept_and_carried_to_check_a_text(page):
    pasted = " ".join(["Edinburgh is the capital city of Scotland."] * 120)
    assert len(pasted) > MAX_CLAIM_CHARS
    box = page.locator("textarea").first
    box.fill(pasted)
    page.get_by_role("button", name="Check", exact=True).click()
    page.get_by_text(f"Not checked: this text has {len(pasted):,} characters").wait_for(timeout=60_000)
    wait_until_idle(page)
    assert page.locator("h3", has_text="Verdict:").count() == 0  # not cut and answered for one sentence
    assert box.input_value() == pasted  # nothing typed is lost
    page.screenshot(path=str(ARTIFACTS / "verify-long-paste.png"))
    page.get_by_role("button", name="Check it on “Check a text”").click()
    page.locator("h1", has_text="Check a text").wait_for(timeout=60_000)
    wait_until_idle(page)
    assert page.get_by_label("…or paste it: an article, a speech, a transcript").input_value() == pasted
    open_from_sidebar(page, "Verify", "Verify a claim")  # the tests after it start on Verify


def test_html_in_a_claim_shows_as_text(page):
    claim = "<script>alert(1)</script> Jaws is a film."
    check_claim(page, claim)
    assert page.get_by_text("<script>alert(1)</script>", exact=False).count() >= 1
    assert page.dialogs == []
    assert page.locator("script", has_text="alert(1)").count() == 0


def test_settings_survive_moving_between_pages(page):
    set_slider(page, "_pages_k", "3")
    set_slider(page, "_sentences_k", "4")
    retrieval_settings(page).get_by_text("Follow links (two-hop evidence)").click()
    wait_until_idle(page)
    chosen = sidebar_settings_shown(page)
    assert (chosen["_pages_k"], chosen["_sentences_k"], chosen["_two_hop"]) == ("3", "4", False)
    check_claim(page, "Fox 2000 Pictures released the film Soul Food.")
    assert evidence_rows(page) == 4

    page.get_by_role("button", name="Send to Annotate").click()
    page.locator("h1", has_text="Annotate").wait_for(timeout=120_000)
    wait_until_idle(page)
    assert sidebar_settings_shown(page) == chosen
    for link, title in [
        ("Evaluate", "Evaluate"),
        ("Corpus", "Corpus"),
        ("Verify", "Verify a claim"),
        ("Annotate", "Annotate"),
        ("Verify", "Verify a claim"),
    ]:
        open_from_sidebar(page, link, title)
        assert sidebar_settings_shown(page) == chosen, f"on {link}"
        assert page.get_by_text("can't start").count() == 0
    check_claim(page, "Edinburgh is the capital of Scotland.")
    assert evidence_rows(page) == 4
    page.screenshot(path=str(ARTIFACTS / "navigation-back-on-verify.png"), full_page=True)


def key_sentence_box(page):
    """The tick box of the Munich claim's key sentence on the Munich page (its expander opened)."""
    munich = page.locator("details").filter(has=page.locator("summary p", has_text=re.compile(r"^Munich$")))
    if not munich.evaluate("details => details.open"):
        munich.locator("summary").click()
    return munich.locator('[data-testid="stCheckbox"]', has_text=f"[0] {MUNICH_KEY_SENTENCE}")


def chosen_label(page, label: str):
    """The Annotate page's button for ``label``, when it shows as the chosen one."""
    return page.locator(
        f'[class*="st-key-label-"][class*="-{label.replace(" ", "-")}"] [data-testid="stBaseButton-primary"]'
    )


def test_annotate_the_munich_claim(page, settings):
    open_from_sidebar(page, "Verify", "Verify a claim")
    check_claim(page, MUNICH_CLAIM)
    page.get_by_role("button", name="Send to Annotate").click()
    page.locator("h1", has_text="Annotate").wait_for(timeout=120_000)
    wait_until_idle(page)
    name = page.get_by_label("Your name (saved with each annotation)")
    name.fill("Browser tester")
    name.press("Enter")
    wait_until_idle(page)
    key_sentence_box(page).locator("label").click()
    page.get_by_text("Evidence set 1: Munich [0]").wait_for(timeout=30_000)
    wait_until_idle(page)

    page.reload()  # a new session: the name and the unsaved tick come back from the page's address
    page.locator("h1", has_text="Annotate").wait_for(timeout=120_000)
    wait_until_idle(page)
    assert page.get_by_label("Your name (saved with each annotation)").input_value() == "Browser tester"
    page.get_by_text("Evidence set 1: Munich [0]").wait_for(timeout=30_000)
    assert key_sentence_box(page).locator("input").is_checked()

    assert page.get_by_text("Label: none chosen yet").count() == 1  # no label until the annotator chooses one
    page.locator("h1", has_text="Annotate").click()  # keyboard focus on the page, not in a text box
    page.keyboard.press("Alt+2")  # REFUTES
    chosen_label(page, "REFUTES").wait_for(timeout=30_000)
    wait_until_idle(page)
    page.screenshot(path=str(ARTIFACTS / "annotate-munich.png"), full_page=True)
    page.keyboard.press("Control+Enter")  # Save
    page.get_by_text("Saved as Refuted with 1 evidence set.").wait_for(timeout=30_000)
    wait_until_idle(page)

    page.reload()  # a new session, then Undo: the claim comes back with its label and tick
    page.locator("h1", has_text="Annotate").wait_for(timeout=120_000)
    wait_until_idle(page)
    page.locator("h1", has_text="Annotate").click()
    page.keyboard.press("Alt+Z")
    page.get_by_text("Undone: the claim is back in the queue.").wait_for(timeout=30_000)
    wait_until_idle(page)
    chosen_label(page, "REFUTES").wait_for(timeout=30_000)
    page.get_by_text("Evidence set 1: Munich [0]").wait_for(timeout=30_000)
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Saved as Refuted with 1 evidence set.").wait_for(timeout=30_000)
    store = AnnotationStore(settings.data_dir / "annotations.sqlite")
    saved = [(a.label, a.evidence_sets, a.annotator) for a in store.annotations() if a.claim == MUNICH_CLAIM]
    assert saved == [("REFUTES", [[("Munich", 0)]], "Browser tester")]
    page.screenshot(path=str(ARTIFACTS / "annotate-saved.png"), full_page=True)


# --- permalinks, history and batch checks (issue 19, items 5 and 6) ---------------------------------------------

PERMALINK_SETTINGS = {"corpus": "fixture", "pages_k": "2", "sentences_k": "3", "two_hop": "false"}
PERMALINK_CLAIM = "Steven Spielberg directed the film Jaws in 1975."
BATCH_SUBJECTS = [
    "Soul Food",
    "Fox 2000 Pictures",
    "Arthur Conan Doyle",
    "Sherlock Holmes",
    "Jaws",
    "Steven Spielberg",
    "Edinburgh",
    "Telemundo",
    "Munich",
    "Bavaria",
    "Saxony",
    "Dresden",
]
BATCH_PREDICATES = [
    "is a film.",
    "is a city in Germany.",
    "was born in Ohio.",
    "is an American company.",
    "is the capital of Scotland.",
    "was created by a British writer.",
    "is a television network.",
    "is in the south of Germany.",
    "was directed by Steven Spielberg.",
    "is a fictional detective.",
    "has about 1.5 million inhabitants.",
    "is a state of Germany.",
    "is in Bavaria.",
    "aired on Showtime.",
    "was released in 1997.",
    "is about a shark.",
    "is in Saxony.",
]
BATCH_CLAIMS = 40
# Whether the selectbox labelled so shows an option holding this text (a combobox shows it as its input's value).
CHOICE_SHOWS = """([label, text]) => [...document.querySelectorAll('input[role="combobox"]')].some(
    input => input.getAttribute("aria-label") === label && input.value.includes(text))"""


def open_address(page, server: str, params: dict[str, str], title: str) -> None:
    """Open the app at an address (a new session, as a pasted link is) and wait until the page is drawn."""
    page.goto(f"{server}/?{urllib.parse.urlencode(params)}")
    page.locator("h1", has_text=title).wait_for(timeout=300_000)
    wait_until_idle(page)


def history_count(settings) -> int:
    return HistoryStore(settings.data_dir / "history.sqlite").count()


def test_a_permalink_restores_its_corpus_and_settings(page, server, workspace):  # workspace: the fixture corpus
    open_address(page, server, {"claim": PERMALINK_CLAIM, **PERMALINK_SETTINGS}, "Verify a claim")
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=300_000)  # the fixture corpus's checker loads first
    wait_until_idle(page)
    shown = sidebar_settings_shown(page)
    assert "fixture" in shown["_corpus"] and "app-fixture" not in shown["_corpus"]
    assert (shown["_pages_k"], shown["_sentences_k"], shown["_two_hop"]) == ("2", "3", False)
    # once the page has settled: a rerun may still be replacing the card (its stale copy shows until it is redrawn)
    page.wait_for_function(
        "claim => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
        ".filter(e => e.innerText.trim() === 'Claim: ' + claim).length === 1",
        arg=PERMALINK_CLAIM,
        timeout=30_000,
    )
    assert page.get_by_text("Claim: " + PERMALINK_CLAIM).count() == 1
    assert evidence_rows(page) == 3
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["sentences_k"] == ["3"]
    page.screenshot(path=str(ARTIFACTS / "permalink-restored.png"), full_page=True)


def test_a_check_reopens_from_history_as_it_was_and_checks_again_on_request(page, server, settings):
    open_address(page, server, {"claim": WARM_CLAIMS[0], "corpus": "app-fixture"}, "Verify a claim")  # defaults
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
    open_from_sidebar(page, "History", "History")
    search = page.get_by_label("Search claims, deciding sentences and pages")
    search.fill("spielberg 1975")
    search.press("Enter")
    page.wait_for_function(CHOICE_SHOWS, arg=["Check", PERMALINK_CLAIM], timeout=30_000)
    wait_until_idle(page)
    page.screenshot(path=str(ARTIFACTS / "history.png"), full_page=True)
    kept = history_count(settings)

    page.get_by_role("button", name="Open in Verify").click()
    page.get_by_text("Re-opened from History").wait_for(timeout=60_000)
    wait_until_idle(page)
    assert page.get_by_text("Claim: " + PERMALINK_CLAIM).count() == 1
    assert evidence_rows(page) == 3  # the stored check: three sentences
    assert history_count(settings) == kept  # shown as it was, not checked again
    page.screenshot(path=str(ARTIFACTS / "history-reopened.png"), full_page=True)

    open_from_sidebar(page, "History", "History")
    page.get_by_role("button", name="Check again").click()
    page.get_by_text("Claim: " + PERMALINK_CLAIM).wait_for(timeout=300_000)
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
    wait_until_idle(page)
    assert page.get_by_text("Re-opened from History").count() == 0
    shown = sidebar_settings_shown(page)
    assert "app-fixture" not in shown["_corpus"] and (shown["_pages_k"], shown["_sentences_k"]) == ("2", "3")
    assert history_count(settings) == kept + 1


def test_a_check_shows_one_probability_on_its_card_its_chart_and_history(page, server):
    """Issue 48, item 1: the card said 0.56 where the bar below it said 0.82, and History 0.68 where the card said
    0.67. Whatever the verifier makes of the claim (its figures move with a CPU's arithmetic), the card, its chart and
    History write the verdict's probability, and its word, the same."""
    claim = "Edinburgh is the capital of Scotland."
    open_address(page, server, {}, "Verify a claim")  # a new session: its History holds this check alone
    check_claim(page, claim)
    card = page.locator(".st-key-verdict_card").first
    word = card.locator("h3").inner_text().removeprefix("Verdict:").strip()
    (probability,) = set(re.findall(r"probability (\d\.\d\d)", card.inner_text()))  # one, however often said
    bars = page.locator(".js-plotly-plot").first.locator("text.bartext").all_text_contents()  # SVG text: no innerText
    assert bars[0] == probability  # the chart's first bar: the verdict's, as the card writes it
    assert all(text.startswith("reads ") for text in bars[1:])  # the rest: a quoted sentence's own reading
    names = page.locator(".js-plotly-plot").first.locator(".ytick text").all_text_contents()
    assert f"Verdict: {word}" in names and all(n == f"Verdict: {word}" or n.endswith(" alone") for n in names)
    page.screenshot(path=str(ARTIFACTS / "one-probability-card.png"))
    open_from_sidebar(page, "History", "History")
    page.wait_for_function(CHOICE_SHOWS, arg=["Check", f"{word} {probability} · {claim}"], timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "one-probability-history.png"))


def test_evaluate_shows_n_a_for_metrics_without_gold_evidence(page, tmp_path):
    labelled = tmp_path / "labelled.csv"
    labelled.write_text(
        "claim,label\nEdinburgh is the capital of Scotland.,SUPPORTS\n"
        "Dresden is in Bavaria.,REFUTES\nSaxony has a coastline.,NOT ENOUGH INFO\n"
    )
    open_from_sidebar(page, "Evaluate", "Evaluate")
    page.get_by_label("Claims file").fill(str(labelled))
    page.get_by_role("button", name="Run").click()
    page.get_by_text("FEVER metrics").wait_for(timeout=120_000)
    wait_until_idle(page)
    for metric in ("label accuracy", "FEVER score", "evidence recall", "page found first", "sentences in top 5"):
        page.locator('[data-testid="stMetricLabel"]', has_text=metric).first.wait_for(timeout=60_000)  # all drawn
    shown = dict(
        zip(
            page.locator('[data-testid="stMetricLabel"]').all_inner_texts(),
            page.locator('[data-testid="stMetricValue"]').all_inner_texts(),
        )
    )
    assert shown["label accuracy"] != "n/a"
    assert {shown[m] for m in ("FEVER score", "evidence recall", "page found first", "sentences in top 5")} == {"n/a"}
    page.screenshot(path=str(ARTIFACTS / "evaluate-n-a.png"), full_page=True)


# --- evidence a journalist can trust, state that holds, a finished product (issue 27) --------------------------------

# The verdict card on a true, a false and an unverifiable claim of the app's corpus (the screenshots in docs/app.md).
CARD_CLAIMS = {
    "true": ("Edinburgh is the capital of Scotland.", "Supported"),
    "false": ("Jaws is a 1980 film.", "Refuted"),
    "unverifiable": ("Edinburgh has a famous castle.", "Not enough info"),
}
# Each page's address and title; Verify opens on a check (its permalink) so that its card and evidence show.
PAGES = {
    "verify": ({"claim": MUNICH_CLAIM, "corpus": APP_CORPUS}, "Verify a claim"),
    "check_text": ({}, "Check a text"),
    "batch": ({}, "Batch check"),
    "history": ({}, "History"),
    "annotate": ({}, "Annotate"),
    "models": ({}, "Models"),
    "evaluate": ({}, "Evaluate"),
    "corpus": ({}, "Corpus"),
}
# laptop, phone, and a 1920x1080 projector with text at 150 % (1280x720 CSS pixels, each 1.5 device pixels)
SIZES = {
    "laptop-1280x800": {"viewport": {"width": 1280, "height": 800}},
    "phone-390x844": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
    "projector-1920x1080-large-text": {"viewport": {"width": 1280, "height": 720}, "device_scale_factor": 1.5},
}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
# The colour of the verdict card's quoted sentences, and of the page's text: the same (Streamlit greys quotes).
QUOTE_COLOUR = "() => getComputedStyle(document.querySelector('.st-key-verdict_card blockquote p')).color"
TEXT_COLOUR = "() => getComputedStyle(document.querySelector('.st-key-verdict_card p:not(blockquote p)')).color"


def test_the_verdict_card_on_a_true_a_false_and_an_unverifiable_claim(page, server):
    # a permalink with the app's corpus alone: the default settings, whatever the tests before chose
    open_address(page, server, {"claim": CARD_CLAIMS["true"][0], "corpus": APP_CORPUS}, "Verify a claim")
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        for name, (claim, word) in CARD_CLAIMS.items():
            check_claim(page, claim)
            card = page.locator(".st-key-verdict_card")
            assert word in card.locator("h3").inner_text(), f"{claim}: {card.inner_text()}"
            shown = card.inner_text()
            assert re.search(
                r"(Very likely|Likely|More likely than not|Uncertain) — probability [01]\.\d\d \(on a scale", shown
            )
            assert "Why:" in shown
            if name != "unverifiable":  # a verdict that rests on a sentence quotes it, with its page and link
                assert card.locator("blockquote").count() >= 1 and card.locator('a[href*="wikipedia.org"]').count() >= 1
            card.screenshot(path=str(ARTIFACTS / f"verdict-card-{name}.png"))
    finally:
        page.set_viewport_size({"width": 1400, "height": 2200})


def test_verify_annotate_verify_keeps_the_claim_the_result_and_the_permalink(page):
    open_from_sidebar(page, "Verify", "Verify a claim")
    check_claim(page, MUNICH_CLAIM)
    address = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert address["claim"] == [MUNICH_CLAIM]
    verdict = page.locator("h3", has_text="Verdict:").first.inner_text()
    open_from_sidebar(page, "Annotate", "Annotate")
    open_from_sidebar(page, "Verify", "Verify a claim")
    page.wait_for_function(
        "claim => new URLSearchParams(location.search).get('claim') === claim", arg=MUNICH_CLAIM, timeout=30_000
    )
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query) == address
    assert page.locator("textarea").first.input_value() == MUNICH_CLAIM
    assert page.locator("h3", has_text="Verdict:").first.inner_text() == verdict
    assert page.get_by_text("Claim: " + MUNICH_CLAIM).count() == 1
    page.screenshot(path=str(ARTIFACTS / "verify-after-annotate.png"), full_page=True)


def test_no_deploy_button_nor_developer_menu(page, server):
    open_address(page, server, {}, "Verify a claim")
    assert "FEVER Workbench" in page.title()
    assert page.locator('[data-testid="stAppDeployButton"]').count() == 0
    menu = page.locator('[data-testid="stMainMenu"]')
    if menu.count():  # "minimal": the menu holds only the About text set by the app
        menu.click()
        items = page.locator('[data-testid="stMainMenuList"]').inner_text()
        assert "About" in items and "Rerun" not in items and "Clear cache" not in items and "Deploy" not in items
        page.keyboard.press("Escape")


def test_a_french_claim_gets_a_notice_that_only_english_is_read(page):
    open_from_sidebar(page, "Verify", "Verify a claim")
    check_claim(page, "Paris est la capitale de la France.")
    page.get_by_text("This claim does not look English").wait_for(timeout=10_000)


def test_evaluate_refuses_a_missing_claims_file_before_running(page):
    open_from_sidebar(page, "Evaluate", "Evaluate")
    page.get_by_label("Claims file").fill("/nowhere/claims.jsonl")
    page.get_by_role("button", name="Run").click()
    page.get_by_text("There is no file at /nowhere/claims.jsonl").wait_for(timeout=60_000)
    assert page.get_by_text("FEVER metrics").count() == 0


def test_another_browser_does_not_see_this_browser_s_history(page, server):
    open_from_sidebar(page, "History", "History")
    assert page.locator('[data-testid="stDataFrame"]').count() == 1  # this browser's checks
    assert "/" + "history.sqlite" not in page.locator("main").inner_text()  # no server path
    other = page.context.browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        tab = other.new_page()
        tab.goto(f"{server}/history")
        tab.locator("h1", has_text="History").wait_for(timeout=120_000)
        wait_until_idle(tab)
        tab.get_by_text("No checks yet").wait_for(timeout=30_000)
    finally:
        other.close()


def test_every_page_is_usable_on_a_laptop_a_phone_and_a_projector(page, server):
    """Each page at each size: drawn without an error, nothing wider than the screen, the evidence's stance
    column and the verdict card in view on a phone; a screenshot of each."""
    sizes = ARTIFACTS / "sizes"
    sizes.mkdir(exist_ok=True)
    for size, options in SIZES.items():
        context = page.context.browser.new_context(**options)
        try:
            tab = context.new_page()
            for name, (params, title) in PAGES.items():
                address = "" if name == "verify" else name
                tab.goto(f"{server}/{address}" + (f"?{urllib.parse.urlencode(params)}" if params else ""))
                tab.locator("h1", has_text=title).wait_for(timeout=300_000)
                if name == "verify":
                    tab.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
                wait_until_idle(tab)
                assert tab.locator('[data-testid="stException"]').count() == 0, f"{name} at {size}"
                assert tab.evaluate(OVERFLOW) <= 1, f"{name} at {size} is wider than the screen"
                if name == "verify":
                    # what is measured is waited for: the browser may still be drawing it when the script has ended
                    drawn = {
                        what: tab.locator(selector, **more).first
                        for what, (selector, more) in {
                            "quote": (".st-key-verdict_card blockquote p", {}),
                            "stance": ('[data-testid="stTable"] th', {"has_text": "stance"}),
                            "sentence": ('[class*="st-key-evidence_"] [data-testid="stTable"] td:nth-child(3)', {}),
                        }.items()
                    }
                    for element in drawn.values():
                        element.wait_for(timeout=60_000)
                    width = tab.viewport_size["width"]
                    card = tab.locator(".st-key-verdict_card").bounding_box()
                    stance = drawn["stance"].bounding_box()
                    assert card["x"] >= 0 and card["x"] + card["width"] <= width + 1, f"the card at {size}"
                    assert stance["x"] + stance["width"] <= width + 1, f"the stance column at {size}"
                    sentence = drawn["sentence"]
                    main = tab.locator('[data-testid="stMainBlockContainer"]').bounding_box()
                    share = 0.8 if size.startswith("phone") else 0.3  # on a phone, the sentence spans the table
                    assert sentence.bounding_box()["width"] >= share * main["width"], f"the sentence column at {size}"
                    assert tab.evaluate(QUOTE_COLOUR) == tab.evaluate(TEXT_COLOUR), f"the quotes' contrast at {size}"
                    sentence.screenshot(path=str(sizes / f"{size}-evidence-sentence.png"))
                tab.screenshot(path=str(sizes / f"{size}-{name}.png"), full_page=True)
        finally:
            context.close()


def batch_claims() -> list[str]:
    """:data:`BATCH_CLAIMS` different claims about the app's pages, true, false and unverifiable."""
    claims = [f"{subject} {predicate}" for predicate in BATCH_PREDICATES for subject in BATCH_SUBJECTS]
    return claims[:BATCH_CLAIMS]


def batch_progress(page) -> int:
    """How many claims the running batch's progress bar says are checked."""
    text = page.locator('[data-testid="stProgress"]').first.inner_text()
    return int(re.search(r"Checked (\d+) of", text).group(1))


def test_a_batch_uploaded_as_text_runs_in_the_background_with_progress_and_downloads(page, server, settings):
    open_address(page, server, {"claim": WARM_CLAIMS[0], "corpus": "app-fixture"}, "Verify a claim")  # defaults
    open_from_sidebar(page, "Batch", "Batch check")
    claims_file = ARTIFACTS / "batch-claims.txt"
    claims_file.write_text("\n".join(batch_claims()) + "\n")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(claims_file))
    page.get_by_text("batch-claims.txt").wait_for(timeout=30_000)
    started = time.perf_counter()
    page.get_by_role("button", name="Check all").click()
    page.locator('[data-testid="stProgress"]', has_text=f"of {BATCH_CLAIMS} claims").wait_for(timeout=60_000)
    page.wait_for_function(
        "() => /Checked [1-9]/.test(document.querySelector('[data-testid=\"stProgress\"]')?.innerText ?? '')",
        timeout=60_000,
    )
    first_seen = batch_progress(page)
    page.screenshot(path=str(ARTIFACTS / "batch-progress.png"), full_page=True)

    # meanwhile the app is usable: another page, a check, back to the batch, a reload of its address
    open_from_sidebar(page, "Verify", "Verify a claim")
    meanwhile, _ = check_claim(page, "Edinburgh is the capital of Scotland.")
    open_from_sidebar(page, "Batch", "Batch check")
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=30_000)
    back = batch_progress(page)
    page.reload()
    page.locator("h1", has_text="Batch check").wait_for(timeout=120_000)
    page.locator('[data-testid="stProgress"], [data-testid="stAlert"]').filter(has_text="Checked").first.wait_for(
        timeout=60_000
    )
    assert "batch=" in page.url
    page.screenshot(path=str(ARTIFACTS / "batch-after-reload.png"), full_page=True)

    done = page.locator('[data-testid="stAlert"]', has_text=f"Checked {BATCH_CLAIMS} of {BATCH_CLAIMS} claims")
    done.wait_for(timeout=900_000)
    wall_seconds = time.perf_counter() - started
    wait_until_idle(page)
    page.screenshot(path=str(ARTIFACTS / "batch-done.png"), full_page=True)
    assert first_seen < back <= BATCH_CLAIMS  # it went on while the person did something else
    metrics = page.locator('[data-testid="stMetricValue"]')
    assert metrics.all_inner_texts() == ["n/a", "n/a"]  # label accuracy and FEVER score: a text list has no labels

    with page.expect_download() as download:
        page.get_by_role("button", name="Download results (CSV)").click()
    table = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert [row["claim"] for row in table] == batch_claims()
    assert {row["verdict"] for row in table} <= {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"} and "wikipedia" in table[0]
    with page.expect_download() as download:
        page.get_by_role("button", name="Download FEVER predictions (jsonl)").click()
    predictions = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert len(predictions) == BATCH_CLAIMS

    reported = re.search(r"in ([\d.]+) s \(([\d.]+) claims/s\)", done.inner_text())
    (ARTIFACTS / "browser-batch.txt").write_text(
        f"batch of {BATCH_CLAIMS} claims uploaded as text on the {APP_CORPUS} corpus, default settings:\n"
        f"the batch's own clock: {reported.group(1)} s, {reported.group(2)} claims/s\n"
        f"pressing Check all to the results on screen (Playwright): {wall_seconds:.1f} s, "
        f"{BATCH_CLAIMS / wall_seconds:.2f} claims/s\n"
        f"meanwhile: a check on Verify took {meanwhile:.2f} s from pressing Check to the verdict; the progress read "
        f"{first_seen}, then {back} on coming back to the page; a reload found the batch running (its address)\n"
    )
    print(
        f"\nbatch: {reported.group(2)} claims/s ({BATCH_CLAIMS} claims in {reported.group(1)} s); a check meanwhile "
        f"{meanwhile:.2f} s"
    )


# --- checking a text (issue 36, item 1) --------------------------------------------------------------------------

NEWS_TEXT = """Films, detectives and German cities

Jaws is a 1975 American thriller film directed by Steven Spielberg. The film is about a giant man-eating great white
shark. Critics called it <b>terrifying</b>.

Steven Spielberg was born in Cincinnati, Ohio, in 1946. I think he is the greatest director of his generation.

Sir Arthur Conan Doyle was a British writer who created the detective Sherlock Holmes. He was born in Edinburgh in
1859. Edinburgh is the capital city of Scotland.

Munich is the capital of the German state of Saxony. Dresden is the capital city of Saxony. Will Leipzig ever be the
capital?

Soul Food is a 1997 American comedy-drama film released by Fox 2000 Pictures. We will review the film next week."""


def test_a_pasted_text_gets_its_check_worthy_sentences_marked_and_each_opens_its_card(page, server, settings):
    open_address(page, server, {"claim": WARM_CLAIMS[0], "corpus": APP_CORPUS}, "Verify a claim")  # defaults
    open_from_sidebar(page, "Check a text", "Check a text")
    page.get_by_label("…or paste it: an article, a speech, a transcript").fill(NEWS_TEXT)
    page.get_by_role("button", name="Find the sentences to check").click()
    check = page.get_by_role("button", name=re.compile(r"^Check \d+ sentences$"))
    check.wait_for(timeout=60_000)
    wait_until_idle(page)
    page.screenshot(path=str(ARTIFACTS / "check-text-choice-page.png"), full_page=True)
    page.locator('[data-testid="stDataFrame"]').first.screenshot(path=str(ARTIFACTS / "check-text-choice.png"))
    picked = int(re.search(r"\d+", check.inner_text()).group())
    kept = history_count(settings)
    check.click()
    summary = page.locator('[data-testid="stAlert"]', has_text="sentences checked")
    summary.wait_for(timeout=300_000)
    wait_until_idle(page)
    page.screenshot(path=str(ARTIFACTS / "check-text-marked-page.png"), full_page=True)
    assert summary.inner_text().startswith(f"{picked} sentences checked: ")
    marked = page.locator(".st-key-text_marked")
    marked.screenshot(path=str(ARTIFACTS / "check-text-marked.png"))
    words = re.findall(r"(Supported|Refuted|Not enough info) \((\d+)\)", marked.inner_text())
    assert [int(number) for _, number in words] == list(range(1, picked + 1))
    assert "Critics called it <b>terrifying</b>." in marked.inner_text()  # the text's HTML shown, not rendered
    assert marked.locator("b", has_text="terrifying").count() == 0
    assert history_count(settings) == kept + picked

    first = page.locator('[data-testid="stExpander"]', has_text="(1) ").first
    first.locator("summary").click()
    click_until_shown(
        page,
        first.get_by_role("button", name="Open its verdict card"),
        page.get_by_text("Re-opened from History"),
        "the first sentence's verdict card did not open",
    )
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=60_000)
    wait_until_idle(page)
    assert page.get_by_text("Claim: Jaws is a 1975 American thriller film directed by Steven Spielberg.").count() == 1
    assert words[0][0] in page.locator("h3", has_text="Verdict:").first.inner_text()
    assert history_count(settings) == kept + picked  # the card as it was checked, not checked again
    page.screenshot(path=str(ARTIFACTS / "check-text-card-page.png"), full_page=True)
    page.locator(".st-key-verdict_card").screenshot(path=str(ARTIFACTS / "check-text-card.png"))


# --- improving the verifier from the app (issue 19, item 3) -----------------------------------------------------

STATE_ANNOTATIONS = [
    ("Bavaria is in the south-east of Germany.", "SUPPORTS", [[("Bavaria", 0)]]),
    ("Bavaria is in the north of Germany.", "REFUTES", [[("Bavaria", 0)]]),
    ("The capital of Bavaria is Munich.", "SUPPORTS", [[("Bavaria", 1)]]),
    ("Dresden is the capital of Saxony.", "SUPPORTS", [[("Dresden", 0)]]),
    ("Leipzig is the capital of Saxony.", "REFUTES", [[("Saxony", 1)]]),
    ("Saxony is landlocked.", "SUPPORTS", [[("Saxony", 0)]]),
    ("Saxony has a long coastline.", "REFUTES", [[("Saxony", 0)]]),
    ("Munich has about 1.5 million inhabitants.", "SUPPORTS", [[("Munich", 1)]]),
    ("Munich is the largest city in Germany.", "REFUTES", [[("Munich", 1)]]),
    ("Dresden has a famous orchestra.", "NOT ENOUGH INFO", []),
]


def test_improve_the_verifier_from_the_app_then_use_it_and_switch_back(page, server, settings):
    open_address(page, server, {}, "Verify a claim")
    open_from_sidebar(page, "Models", "Models")  # one annotation so far (the Munich claim): not enough
    page.get_by_text("Improving needs at least 20 annotations").wait_for(timeout=30_000)
    assert page.get_by_role("button", name="Improve the verifier").is_disabled()
    store = AnnotationStore(settings.data_dir / "annotations.sqlite")
    for claim, label, sets in ANNOTATED + STATE_ANNOTATIONS:  # with the Munich claim annotated above: 20
        store.save(store.add_claim(claim), label, sets, "Browser tester")
    annotations = store.counts()["annotations"]
    before = {v.name for v in list_versions(settings.data_dir)}
    open_address(page, server, {"claim": WARM_CLAIMS[0], "corpus": APP_CORPUS}, "Verify a claim")
    open_from_sidebar(page, "Models", "Models")
    page.get_by_text("Verifier in use: shipped").wait_for(timeout=30_000)
    started = time.perf_counter()
    page.get_by_role("button", name="Improve the verifier").click()
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "models-improving.png"), full_page=True)
    page.reload()  # the run goes on in its own process; the page finds it again
    page.locator("h1", has_text="Models").wait_for(timeout=120_000)
    done = page.locator('[data-testid="stAlert"]', has_text="The last run made verifier-v")
    done.wait_for(timeout=900_000)
    seconds = time.perf_counter() - started
    wait_until_idle(page)
    [version] = [v for v in list_versions(settings.data_dir) if v.name not in before]
    assert version.annotations["train"] + version.annotations["heldout"] == annotations
    assert (version.path / "verdict.json").read_bytes() == (
        Path(DEFAULT_VERIFIER) / "verdict.json"
    ).read_bytes()  # the learned verdict is kept
    box = page.locator(f".st-key-version-{version.name}")
    box.get_by_text("held-out annotations (claims)").wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "models-new-version.png"), full_page=True)

    box.get_by_role("button", name="Use this version").click()
    page.get_by_text(f"Verifier in use: {version.name}").wait_for(timeout=60_000)
    wait_until_idle(page)
    assert sidebar_settings_shown(page)["_verifier_model"] == version.name  # its name, not the server's path
    open_from_sidebar(page, "Verify", "Verify a claim")
    check_claim(page, "Dresden is in Bavaria.")  # the new version checks claims
    open_from_sidebar(page, "Models", "Models")
    page.get_by_role("button", name="Switch back to the shipped verifier").click()
    page.get_by_text("Verifier in use: shipped").wait_for(timeout=60_000)
    wait_until_idle(page)
    assert sidebar_settings_shown(page)["_verifier_model"] == "shipped (MPNet)"

    table = "\n".join(
        f"  {row['name']} (n={row['n']}): {row['before']:.3f} -> {row['after']:.3f}"
        for row in version.table
        if row["before"] is not None and row["after"] is not None
    )
    (ARTIFACTS / "browser-improve.txt").write_text(
        f"improving the shipped verifier from the Models page on {annotations} annotations "
        f"({version.annotations['train']} learned from, {version.annotations['heldout']} held out) on {APP_CORPUS}:\n"
        f"pressing Improve to the new version on screen: {seconds:.1f} s (the run's own clock: {version.wall_s} s)\n"
        f"accuracy, base -> {version.name}:\n{table}\n"
    )
    print(f"\nimprove: {seconds:.1f} s; {table}")


def test_a_claim_checked_before_says_so_and_its_link_reopens_the_earlier_check(page, server):
    open_from_sidebar(page, "Verify", "Verify a claim")  # the test before leaves Models open
    check_claim(page, "Fox 2000 Pictures released the film Soul Food.")
    check_claim(page, "The film Soul Food was released by Fox 2000 Pictures.")
    card = page.locator(".st-key-verdict_card")
    line = card.locator("p", has_text="Checked before:").first
    line.wait_for(timeout=30_000)
    assert "Fox 2000 Pictures released the film Soul Food." in line.inner_text()
    link = card.get_by_role("link", name="re-open it ↗").first
    address = urllib.parse.urljoin(page.url, link.get_attribute("href"))
    entry = urllib.parse.parse_qs(urllib.parse.urlparse(address).query)["history"]
    page.screenshot(path=str(ARTIFACTS / "checked-before.png"), full_page=True)
    page.goto(address)
    page.get_by_text("Re-opened from History").wait_for(timeout=120_000)
    wait_until_idle(page)
    assert page.get_by_text("Claim: Fox 2000 Pictures released the film Soul Food.").count() == 1
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["history"] == entry


# --- the presenter's view (issue 48, item 3) ---------------------------------------------------------------------

PRESENTER_SCREEN = {"width": 1920, "height": 1080}
PRESENTER_BODY_PX, PRESENTER_TABLE_PX, PRESENTER_CHART_PX = 24, 18, 18  # the least each may be, in CSS pixels
# The type of the verdict card's text (not its caption), of the evidence table and of the chart, in CSS pixels as the
# browser computed it, and whether the sidebar takes any room.
PRESENTER_SHOWN = """() => {
    const sizes = selector => [...document.querySelectorAll(selector)].map(e => parseFloat(getComputedStyle(e).fontSize));
    const sidebar = document.querySelector('[data-testid="stSidebar"]');
    return {body: sizes('.st-key-verdict_card [data-testid="stMarkdown"] p'),
            table: sizes('[data-testid="stTable"] td, [data-testid="stTable"] th'),
            chart: sizes('.js-plotly-plot text'), sidebar: !!sidebar && sidebar.getBoundingClientRect().width > 0};
}"""


def presenter_view_shown(tab) -> dict:
    """The page's type and sidebar (:data:`PRESENTER_SHOWN`), once the card, its chart and the evidence are drawn."""
    for drawn in (
        '.st-key-verdict_card [data-testid="stMarkdown"] p',
        ".js-plotly-plot text",
        '[data-testid="stTable"] td',
    ):
        tab.locator(drawn).first.wait_for(timeout=60_000)
    return tab.evaluate(PRESENTER_SHOWN)


def assert_presenter_view(tab, screenshot: str) -> None:
    """Type to read from the back of a room, no sidebar, and the verdict with its first quoted sentence on the
    screen, unscrolled; the screen saved first as ``screenshot`` (a file name among the test artifacts)."""
    shown = presenter_view_shown(tab)
    tab.screenshot(path=str(ARTIFACTS / screenshot))
    assert min(shown["body"]) >= PRESENTER_BODY_PX and min(shown["table"]) >= PRESENTER_TABLE_PX, shown
    assert min(shown["chart"]) >= PRESENTER_CHART_PX and not shown["sidebar"], shown
    screen = tab.viewport_size["height"]
    for element in (tab.locator(".st-key-verdict_card h3").first, tab.locator(".st-key-verdict_card blockquote").first):
        box = element.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= screen, (element, box)


def assert_normal_view(tab) -> None:
    shown = presenter_view_shown(tab)
    assert shown["sidebar"] and max(shown["body"]) == 16, shown


def test_the_presenter_s_toggle_sets_large_type_without_the_sidebar_and_back(page, server, settings):
    claim = "Fox 2000 Pictures released the film Soul Food."  # a deciding sentence to quote
    open_address(page, server, {"claim": claim, "corpus": APP_CORPUS}, "Verify a claim")
    page.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
    wait_until_idle(page)
    page.set_viewport_size(PRESENTER_SCREEN)
    try:
        assert_normal_view(page)
        kept = history_count(settings)
        page.locator(".st-key-_present label").click()
        page.wait_for_function("() => new URLSearchParams(location.search).get('present') === '1'", timeout=30_000)
        wait_until_idle(page)
        assert_presenter_view(page, "presenter-view.png")  # the claim was checked before: no such line on stage
        check_claim(page, "Edinburgh is the capital of Scotland.")  # its permalink keeps the view
        assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["present"] == ["1"]
        assert not presenter_view_shown(page)["sidebar"]
        page.locator(".st-key-_present label").click()
        page.wait_for_function("() => !new URLSearchParams(location.search).has('present')", timeout=30_000)
        wait_until_idle(page)
        assert_normal_view(page)
        assert history_count(settings) == kept + 1  # leaving the view checked nothing again
    finally:
        page.set_viewport_size({"width": 1400, "height": 2200})


TORONTO_CLAIM = "Toronto is the capital of Canada."  # issue 48's example whose settling sentence was hidden


@pytest.fixture(scope="module")
def embedded_corpus(settings) -> str:
    """The embedded corpus, built in the session's data folder from its summaries and shipped vectors (about a
    minute on two cores); the test skips where the summaries are not on this machine."""
    from fever_core.corpus.sources.base import CorpusSourceError
    from fever_core.corpus.sources.embedded import summaries_path
    from fever_core.workspace import open_workspace

    try:
        summaries_path()
    except CorpusSourceError as exc:
        pytest.skip(str(exc))
    open_workspace("embedded", settings, progress=False)
    return "embedded"


EVEREST_CLAIM = "Mount Everest is the highest mountain on Earth."
# issue 48's examples whose settling sentence the card did not show, with that sentence, and where the card now shows
# it open with the shipped models: among the sentences to read (Toronto, Supported at 0.88 by sentences about Toronto
# and Ontario), or quoted as the deciding sentence (Everest, Supported at 0.83), the card's "Read these" beside it
SETTLING_SENTENCES = {
    TORONTO_CLAIM: ("Ottawa is the capital city of Canada.", ".st-key-read_these"),
    EVEREST_CLAIM: ("Mount Everest is the highest mountain on Earth above sea level.", ".st-key-verdict_card"),
}


def test_the_card_opens_the_sentence_that_settles_the_toronto_and_everest_examples_with_its_reading(
    page, server, embedded_corpus
):
    try:
        page.set_viewport_size({"width": 1280, "height": 1400})
        for claim, (sentence, shown_in) in SETTLING_SENTENCES.items():
            open_address(page, server, {"claim": claim, "corpus": embedded_corpus}, "Verify a claim")
            page.locator(".st-key-verdict_card h3", has_text="Verdict:").first.wait_for(timeout=300_000)  # it loads
            page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)  # drawn after the card
            wait_until_idle(page)
            # once a stale copy of the card, shown while the page is redrawn, has gone
            page.wait_for_function(
                "() => document.querySelectorAll('.st-key-verdict_card').length === 1", timeout=30_000
            )
            card = page.locator(".st-key-verdict_card")
            read_these = card.locator(".st-key-read_these")
            assert read_these.get_by_text("Read these").first.is_visible(), card.inner_text()
            quoted = page.locator(f"{shown_in} blockquote", has_text=sentence).first
            assert quoted.is_visible(), card.inner_text()  # open on the card, not collapsed under the evidence
            if shown_in == ".st-key-read_these":
                assert "This sentence alone reads:" in quoted.inner_text()
            card.screenshot(path=str(ARTIFACTS / f"verdict-card-read-these-{claim.split()[0].lower()}.png"))
    finally:
        page.set_viewport_size({"width": 1400, "height": 2200})


def test_a_link_with_present_opens_the_toronto_example_in_the_presenter_s_view_and_without_it_the_normal_one(
    page, server, embedded_corpus
):
    context = page.context.browser.new_context(viewport=PRESENTER_SCREEN)
    try:
        tab = context.new_page()
        address = {"claim": TORONTO_CLAIM, "corpus": embedded_corpus}
        tab.goto(f"{server}/?{urllib.parse.urlencode({**address, 'present': '1'})}")
        tab.locator("h3", has_text="Verdict:").first.wait_for(timeout=300_000)  # the embedded corpus's checker loads
        wait_until_idle(tab)
        assert_presenter_view(tab, "presenter-view-toronto-1920x1080.png")
        tab.goto(f"{server}/?{urllib.parse.urlencode(address)}")
        tab.locator("h3", has_text="Verdict:").first.wait_for(timeout=120_000)
        wait_until_idle(tab)
        assert_normal_view(tab)
        assert tab.get_by_text("Details: retrieved pages").count() == 1
    finally:
        context.close()


def test_check_a_text_s_example_marks_the_fact_inside_the_prediction_and_leaves_the_quoted_opinion_out(page, server):
    """Issue 48, item 4: the six-sentence example's fact inside a prediction is picked and checked as that fact alone,
    its opinion reported on a day is left out, every row of the choice is in view without scrolling inside the table,
    and each verdict tag is inside its own sentence's mark; the fact's card on Verify has the verdict the text gave
    it."""
    open_address(page, server, {"claim": WARM_CLAIMS[0], "corpus": APP_CORPUS}, "Verify a claim")  # defaults
    open_from_sidebar(page, "Check a text", "Check a text")
    from playwright.sync_api import expect

    box = page.get_by_label("…or paste it: an article, a speech, a transcript")
    for attempt in range(3):  # a click while the page is drawn again can be lost (see click_until_shown)
        wait_until_idle(page)
        page.get_by_role("button", name="Paste the example").click()
        try:  # the text appears once the app has run again and the browser has drawn it: waited for, not timed
            expect(box).to_have_value(re.compile(r"^Edinburgh is the capital of Scotland\."), timeout=60_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    click_until_shown(
        page,
        page.get_by_role("button", name="Find the sentences to check"),
        page.get_by_role("button", name="Check 3 sentences"),  # the fact, "Its" fact, the fact inside the prediction
        "the example's sentences were not found",
    )
    wait_until_idle(page)
    table = page.locator('[data-testid="stDataFrame"]').first
    table.screenshot(path=str(ARTIFACTS / "check-text-example-choice.png"))
    assert table.bounding_box()["height"] >= 6 * 72  # six rows of 72 px, and the header
    scroll = table.locator(".dvn-scroller").evaluate(
        "e => [e.scrollHeight - e.clientHeight, e.scrollWidth - e.clientWidth]"
    )
    assert scroll == [0, 0], scroll  # nothing hidden in the table's own scroll: no row below, no "checked as" beside

    page.get_by_role("button", name="Check 3 sentences").click()
    page.locator('[data-testid="stAlert"]', has_text="3 sentences checked").wait_for(timeout=300_000)
    wait_until_idle(page)
    marked = page.locator(".st-key-text_marked")
    marked.screenshot(path=str(ARTIFACTS / "check-text-example-marked.png"))
    marks = [mark.strip() for mark in marked.locator(".stMarkdownColoredBackground").all_inner_texts()]
    words = "|".join(VERDICT_WORDS)
    assert len(marks) == 3 and all(re.search(rf"\. ← ({words}) \({n}\)$", m) for n, m in enumerate(marks, 1)), marks
    fact = re.fullmatch(
        rf"Shakespeare wrote Hamlet, and the festival will stage it next summer\. ← ({words}) \(3\)", marks[2]
    )
    assert fact, marks  # the fact inside the prediction marked, its verdict at its own end
    assert "On Monday, the mayor said the city had never looked better." in marked.inner_text()
    assert not any("looked better" in mark for mark in marks)  # the opinion reported: shown as written, not marked

    item = page.locator('[data-testid="stExpander"]', has_text="(3) ").first
    item.locator("summary").click()
    item.get_by_text("Checked as: Shakespeare wrote Hamlet.").wait_for(timeout=30_000)
    click_until_shown(
        page,
        item.get_by_role("button", name="Open its verdict card"),
        page.get_by_text("Re-opened from History"),
        "the fact's verdict card did not open",
    )
    verdict = page.locator("h3", has_text="Verdict:").first
    verdict.wait_for(timeout=60_000)
    wait_until_idle(page)
    assert page.get_by_text("Claim: Shakespeare wrote Hamlet.").count() == 1
    assert fact.group(1) in verdict.inner_text()  # the verdict the text check gave the fact
