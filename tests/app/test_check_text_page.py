"""Check a text, driven with Streamlit's AppTest on the fixture corpus and the tiny model (issue 48, items 4 and 5):
the six-sentence example's picks, every row of the choice in view, each verdict tag with its own sentence, the same
verdict as Verify gives the same claim, and a shared text check's verdict cards opening in another browser."""

from __future__ import annotations

import re
import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from fever_core.common.settings import PROJECT_ROOT
from fever_core.workbench.history import HistoryStore
from pages.words import PROBABILITY

# A text on the fixture corpus: a fact joined to a prediction (its fact checked), an opinion reported on a day (left
# out), and a fact.
FILMS = (
    "Soul Food was released by Fox 2000 Pictures in 1997, and its sequel will open next summer. On Monday, the "
    "director said the film had never looked better. Jaws is a 1975 thriller film directed by Steven Spielberg."
)


def open_page(name: str, query_params: dict[str, str] | None = None) -> AppTest:
    """A page of the app, run alone on the fixture corpus, as a new browser opens it."""
    at = AppTest.from_file(str(PROJECT_ROOT / "pages" / f"{name}.py"), default_timeout=180)
    at.session_state["corpus"] = "fixture"
    at.query_params.update(query_params or {})
    return at.run()


def press(app: AppTest, label: str) -> AppTest:
    return next(b for b in app.button if b.label == label).click().run()


def found_on_page(text: str) -> AppTest:
    app = open_page("check_text")
    app.text_area(key="_text_pasted").input(text)
    return press(app, "Find the sentences to check")


def until_checked(app: AppTest) -> AppTest:
    """The page drawn again until its check has ended."""
    for _ in range(240):
        if app.success or app.exception:
            return app
        time.sleep(0.5)
        app.run()
    raise AssertionError("the check did not end in two minutes")


def marked(app: AppTest) -> str:
    return next(md.value for md in app.markdown if "-background[" in md.value)


def test_the_example_marks_the_fact_inside_the_prediction_and_leaves_the_quoted_opinion_out(app_env):
    app = press(press(open_page("check_text"), "Paste the example"), "Find the sentences to check")
    assert not app.exception and app.text_area(key="_text_pasted").value.startswith("Edinburgh is the capital of")
    table = app.dataframe[0].value
    assert list(table["check"]) == [True, True, False, True, False, False]
    assert table["why"][2].startswith("a reported opinion (said")  # a day, but the day of the saying
    assert table["why"][3].endswith("checked without a prediction (will)")
    assert list(table["checked as"]) == [
        "",
        "Edinburgh's festival has been held every August since 1947.",
        "",
        "Shakespeare wrote Hamlet.",
        "",
        "",
    ]
    app = until_checked(press(app, "Check 3 sentences"))
    assert not app.exception and app.success[0].value.startswith("3 sentences checked: ")
    text = marked(app)
    assert r"-background[Shakespeare wrote Hamlet, and the festival will stage it next summer\. :" in text
    assert "never looked better" in text and text.count("-background[") == 3  # the opinion shown, not marked


def test_every_sentence_of_the_choice_is_in_view_without_scrolling_inside_the_table(app_env, monkeypatch):
    heights, editor = [], st.data_editor  # (AppTest keeps no element's height: the page's call is read instead)

    def data_editor(*args, **kwargs):
        heights.append(kwargs.get("height"))
        return editor(*args, **kwargs)

    monkeypatch.setattr(st, "data_editor", data_editor)
    app = press(press(open_page("check_text"), "Paste the example"), "Find the sentences to check")
    assert len(app.dataframe[0].value) == 6
    assert heights[-1] == "content"  # as tall as its rows: the sixth is not hidden in the table's own scroll


def test_each_verdict_tag_is_inside_its_own_sentence_s_mark(app_env):
    app = until_checked(press(found_on_page(FILMS), "Check 2 sentences"))
    tags = re.findall(r":(\w+)-background\[([^\]]*?) :\1\[\*\*← [A-Za-z ]+ \((\d)\)\*\*\]\]", marked(app))
    assert [(sentence, number) for _, sentence, number in tags] == [
        ("Soul Food was released by Fox 2000 Pictures in 1997, and its sequel will open next summer\\.", "1"),
        ("Jaws is a 1975 thriller film directed by Steven Spielberg\\.", "2"),
    ]


def test_a_sentence_gets_the_verdict_verify_gives_its_claim(app_env, data_dir):
    """One code path: the text check and Verify check a claim with the same checker, settings and retrieval, so the
    History keeps the same verdict, probability and evidence for both, and the page says it as the card does."""
    text = until_checked(press(found_on_page(FILMS), "Check 2 sentences"))
    assert not text.exception
    listed = [md.value for md in text.markdown if f" · {PROBABILITY} " in md.value]
    claims = ["Soul Food was released by Fox 2000 Pictures in 1997.", FILMS.rsplit(". ", 1)[1]]
    history = HistoryStore(data_dir / "history.sqlite")
    verify = open_page("verify")
    for claim, line in zip(claims, listed, strict=True):
        verify.text_area(key="claim_text").input(claim)
        press(verify, "Check")
        assert not verify.exception
        card = next(h.value for h in verify.subheader if h.value.startswith("Verdict: "))
        assert line.startswith(card.removeprefix("Verdict: ").replace("[", "[**").replace("]", "**]") + " · ")
        in_text, on_verify = (history.result(entry.key) for entry in reversed(history.search(claim, limit=2)))
        assert in_text.claim == on_verify.claim == claim
        assert in_text.verdict.to_dict() == on_verify.verdict.to_dict()
        assert [e.to_dict() for e in in_text.evidence] == [e.to_dict() for e in on_verify.evidence]
        assert in_text.applied == on_verify.applied


@pytest.mark.parametrize("shared_while", ["checked", "checking"])
def test_a_shared_text_check_s_verdict_cards_open_in_another_browser(app_env, shared_while):
    app = press(found_on_page(FILMS), "Check 2 sentences")
    if shared_while == "checked":
        until_checked(app)
    press(app, "Share link")
    job = dict(app.query_params)["text"]
    until_checked(app)
    theirs = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180).run()  # Verify: in its navigation
    theirs.query_params["text"] = job
    theirs.switch_page("pages/check_text.py").run()
    assert not theirs.exception and not theirs.warning
    press(theirs, "Open its verdict card")
    assert not theirs.exception
    assert not any("not in the history" in w.value for w in theirs.warning)
    assert any(note.value.startswith("Re-opened from History") for note in theirs.info)
