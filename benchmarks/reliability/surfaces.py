"""Probe 11: the surfaces of issue 44, each as it failed there: checks private unless shared, HTML read in linear
time, ``/check-text`` bounded before and while it splits, ClaimReview exports safe to embed, a word before a long build.

- **history**: session A keeps checks in a history of its own; session B lists, searches and opens them by every key
  A has, by row numbers 1 to 50 and by a few guesses; none must open or be listed. Once A shares one, B opens that
  one by its key, and only that one.
- **html**: the issue's two pages, 720 KB of ``<svg>`` x 40,000 then ``</p>`` x 130,000, and 990 KB of nested
  ``<svg>`` (closed), and three more of what Python's own parser takes quadratic time on, read as an upload is
  (:func:`~fever_core.text_check.text_of_bytes`); each within :data:`WITHIN_S`.
- **check_text**: the checker served on 127.0.0.1 with the default limits gets a text of 20,000 tiny sentences,
  200 KB and 990 KB of prose: each refused (413 ``text_too_large``) within :data:`WITHIN_S`; then, on a server that
  allows a long text, a client posts one that takes a minute to split and leaves after a second (the process's CPU
  seconds meanwhile show the splitting under way): the CPU seconds in the 2 s that follow (one second after it left)
  must be under :data:`IDLE_CPU_S`.
- **claimreview**: a claim holding ``</script><script>alert(1)</script>`` checked, its ClaimReview (the app's download
  and ``check --claimreview``'s file: :func:`~fever_core.workbench.to_jsonld`, and ``POST /claimreview``'s answer)
  pasted into a page's ``<script type="application/ld+json">``: exactly one script, holding the whole export; a url
  with a quote and one with an angle bracket refused (422).
- **first_build**: on an empty data folder, what ``check`` says before it builds the embedded corpus
  (:func:`~fever_core.workspace.pending_build`): it must say it builds it and in about how many minutes, writing
  nothing.
"""

from __future__ import annotations

import http.client
import json
import socket
import tempfile
import time
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path

from benchmarks.reliability.common import Row
from benchmarks.reliability.service_flood import HOST, serving
from fever_core.pipeline import Checker
from fever_core.service.config import ServiceConfig
from fever_core.text_check import TextReadError, text_of_bytes
from fever_core.workbench import HistoryStore, checker_provenance, claim_review, to_jsonld
from fever_core.workspace import pending_build

WITHIN_S = 2.0
"""Seconds an HTML page of under 1 MB may take to read, and a ``/check-text`` refusal to come."""
IDLE_CPU_S = 0.3
"""CPU seconds the server may use in the 2 s after a client left its text's splitting."""
BREAKOUT = "Jaws is a film.</script><script>alert(1)</script>"
HTML_PAGES = {
    "<svg> x 40,000, </p> x 130,000 (720 KB)": "<svg>" * 40_000 + "</p>" * 130_000,
    "<svg> nested and closed (990 KB)": "<svg>" * 90_000 + "</svg>" * 90_000,
    "comments left open (990 KB)": "<!--" * 247_000,
    "tags left open (990 KB)": "<a" * 495_000,
    "attribute values left open (990 KB)": "<p a='" * 165_000,
}
PROSE = "Marie Curie won two Nobel Prizes, in 1903 and 1911. "


@dataclass
class SurfacesResult:
    """What each surface did; ``failures`` says which invariant broke (none: all hold).

    Attributes:
        history: keys and row numbers tried from the other session, how many opened or were listed, and whether the
            shared one opened.
        html_s: seconds to read each page, by name.
        check_text: per text, the status, code and seconds of ``/check-text``'s answer; and ``cpu_after_leaving_s``.
        claimreview: script elements found in the page for each export (must be 1 each), and the url refusals.
        first_build: what ``check`` says first on an empty data folder.
        failures: each broken invariant, in words.
    """

    history: dict = field(default_factory=dict)
    html_s: dict[str, float] = field(default_factory=dict)
    check_text: dict = field(default_factory=dict)
    claimreview: dict = field(default_factory=dict)
    first_build: str = ""
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def rows(self) -> list[Row]:
        h, c = self.history, self.check_text
        return [
            (
                "11 history, another session",
                "ok" if not any("history" in f for f in self.failures) else "FAIL",
                (
                    f"{h.get('tried', 0)} ids tried (its keys, rows 1-50, guesses): {h.get('opened', 0)} opened, "
                    f"{h.get('listed', 0)} listed; shared one opens: {h.get('shared_opens')}"
                ),
            ),
            (
                "11 HTML pages",
                "ok" if not any("HTML" in f for f in self.failures) else "FAIL",
                "; ".join(f"{name} {seconds:.2f} s" for name, seconds in self.html_s.items()),
            ),
            (
                "11 /check-text limits",
                "ok" if not any("check-text" in f for f in self.failures) else "FAIL",
                "; ".join(
                    f"{name}: {a['status']} {a['code']} in {a['seconds']:.2f} s"
                    for name, a in c.get("texts", {}).items()
                )
                + f"; CPU while splitting {c.get('cpu_splitting_s', float('nan')):.2f} s in 0.8 s, after the client "
                f"left {c.get('cpu_after_leaving_s', float('nan')):.2f} s in 2 s",
            ),
            (
                "11 ClaimReview in a page",
                "ok" if not any("ClaimReview" in f for f in self.failures) else "FAIL",
                ", ".join(f"{name}: {n} script" for name, n in self.claimreview.get("scripts", {}).items())
                + f'; urls with " and < refused: {self.claimreview.get("urls_refused")}',
            ),
            ("11 first build", "ok" if not any("build" in f for f in self.failures) else "FAIL", self.first_build),
        ] + [("", "FAIL", failure[:140]) for failure in self.failures]


class _Scripts(HTMLParser):
    """The script elements of a page, each as its text (Python's parser reads a script's text as a browser does)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.found.append("")
            self._inside = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.found[-1] += data


def scripts_when_embedded(text: str) -> list[str]:
    """The scripts of a page whose ``<script type="application/ld+json">`` holds ``text``."""
    parser = _Scripts()
    parser.feed(f'<html><head><script type="application/ld+json">{text}</script></head><body>A check.</body></html>')
    parser.close()
    return parser.found


def history(checker: Checker, work: Path, result: SurfacesResult) -> None:
    store = HistoryStore(work / "history.sqlite")
    checked = checker.check("Marie Curie won two Nobel Prizes.")
    mine, theirs = "a" * 32, "b" * 32
    keys = [store.add(checked, {}, session=mine) for _ in range(50)]
    guesses = [*keys, *map(str, range(1, 51)), "", "0", "%", "' OR 1=1 --"]
    opened = sum(store.entry(key, theirs) is not None or store.result(key, theirs) is not None for key in guesses)
    listed = len(store.search(session=theirs)) + len(store.search("Curie", session=theirs)) + store.count(theirs)
    store.share(keys[0], mine)
    shared_opens = store.entry(keys[0], theirs) is not None and store.entry(keys[1], theirs) is None
    result.history = {"tried": len(guesses), "opened": opened, "listed": listed, "shared_opens": shared_opens}
    if opened or listed or not shared_opens:
        result.failures.append(
            f"history: another session opened {opened} and listed {listed} of a session's "
            f"checks; the shared one opens only: {shared_opens}"
        )


def html(result: SurfacesResult) -> None:
    for name, page in HTML_PAGES.items():
        started = time.perf_counter()
        try:
            text_of_bytes(page.encode(), "page.html")
        except TextReadError:
            pass  # "is empty": no text in them
        result.html_s[name] = seconds = round(time.perf_counter() - started, 3)
        if seconds > WITHIN_S:
            result.failures.append(f"HTML: {name} took {seconds:.1f} s to read (at most {WITHIN_S} s)")


def _post(port: int, path: str, body: dict) -> tuple[int, dict, str, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=300)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    answer = connection.getresponse()
    text = answer.read().decode("utf-8")
    connection.close()
    data = json.loads(text)
    return answer.status, data, text, time.monotonic() - started


def _cpu_seconds(wall_s: float) -> float:
    before = time.process_time()
    time.sleep(wall_s)
    return time.process_time() - before


def check_text(checker: Checker, corpus: str, result: SurfacesResult) -> None:
    texts = {"20,000 tiny sentences": "Yes.\n\n" * 20_000, "200 KB": PROSE * 3_900, "990 KB": PROSE * 19_000}
    answers = {}
    with serving(checker, corpus, ServiceConfig(api_key="")) as port:
        for name, text in texts.items():
            status, data, _, seconds = _post(port, "/check-text", {"text": text})
            code = data.get("data", {}).get("code", "")
            answers[name] = {"status": status, "code": code, "seconds": round(seconds, 2)}
            if status != 413 or seconds > WITHIN_S:
                result.failures.append(
                    f"check-text: {name} answered {status} in {seconds:.1f} s (413 within {WITHIN_S} s expected)"
                )
    slow = "\n\n".join(f"Paris Berlin Rome Madrid Vienna number {n} and some more words to parse" for n in range(6_000))
    body = json.dumps({"text": slow}).encode()
    with serving(checker, corpus, ServiceConfig(api_key="", max_text_sentences=10_000, split_timeout_s=600)) as port:
        sock = socket.create_connection((HOST, port), timeout=10)
        sock.sendall(
            b"POST /check-text HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        time.sleep(0.2)
        working = _cpu_seconds(0.8)
        sock.close()
        time.sleep(1.0)
        after = _cpu_seconds(2.0)
    result.check_text = {"texts": answers, "cpu_splitting_s": round(working, 2), "cpu_after_leaving_s": round(after, 2)}
    if working < 0.4:
        result.failures.append(f"check-text: the long text was not being split ({working:.2f} CPU s in 0.8 s)")
    if after > IDLE_CPU_S:
        result.failures.append(f"check-text: the splitting went on after its client left ({after:.2f} CPU s in 2 s)")


def claimreview(checker: Checker, corpus: str, result: SurfacesResult) -> None:
    checked = checker.check(BREAKOUT)
    document = claim_review(checked, checker_provenance(checker), url="https://example.org/c?a=1&b=2")
    scripts = {"download and file": scripts_when_embedded(to_jsonld(document))}
    refused = []
    with serving(checker, corpus, ServiceConfig(api_key="")) as port:
        _, _answer, text, _ = _post(port, "/claimreview", {"claim": BREAKOUT})
        scripts["POST /claimreview"] = scripts_when_embedded(text)
        for url in ('https://example.org/"><script>alert(1)</script>', "https://example.org/<b>"):
            refused.append(_post(port, "/claimreview", {"claim": BREAKOUT, "url": url})[0] == 422)
    result.claimreview = {
        "scripts": {name: len(found) for name, found in scripts.items()},
        "urls_refused": all(refused),
    }
    for name, found in scripts.items():
        whole = len(found) == 1 and json.loads(found[0]).get("claimReviewed") == BREAKOUT
        if not whole:
            result.failures.append(f"ClaimReview: {name} pasted into a page makes {len(found)} scripts")
    if not all(refused):
        result.failures.append("ClaimReview: a url with a quote or an angle bracket was taken")


def first_build(checker: Checker, result: SurfacesResult) -> None:
    with tempfile.TemporaryDirectory(prefix="fever-empty-") as empty:
        build = pending_build("embedded", replace(checker.settings, data_dir=Path(empty)))
        result.first_build = build.describe() if build is not None else "(nothing said)"
        wrote = any(Path(empty).iterdir())
    if build is None or "for the first time (about" not in result.first_build or wrote:
        result.failures.append(f"first build: {result.first_build!r} (wrote in the folder: {wrote})")


def run(checker: Checker, corpus: str, work: Path) -> SurfacesResult:
    """Probe each surface with ``checker`` (its corpus ``corpus``), writing only under ``work``."""
    work.mkdir(parents=True, exist_ok=True)
    result = SurfacesResult()
    history(checker, work, result)
    html(result)
    check_text(checker, corpus, result)
    claimreview(checker, corpus, result)
    first_build(checker, result)
    return result
