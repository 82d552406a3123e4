"""Every page of the app, driven with Streamlit's AppTest on the fixture corpora and a tiny model.

AppTest runs the frame (``app.py``) and its first page, and reruns them; ``switch_page`` then runs
the other page alone (not the frame), so moving between pages through the real sidebar is left to
the browser tests (``test_browser.py``).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import shutil
import sqlite3
import time
import urllib.parse

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from fever_core.common.settings import CHECK_SETTING, CHECK_SETTINGS, PROJECT_ROOT, Settings
from fever_core.common.types import LABELS
from fever_core.pipeline import MAX_CLAIM_CHARS
from fever_core.verification.policy import VerdictPolicy
from fever_core.workbench import probability_text, verdict_shown
from fever_core.workbench.annotation import AnnotationStore
from fever_core.workbench.history import HistoryStore
from pages.display import plain
from pages.settings_ui import SETTING_LIMITS
from pages.words import evidence_set_line, verdict_word

from ..conftest import CLAIMS
from .conftest import MUNICH_CLAIM, MUNICH_KEY_SENTENCE

SOUL_FOOD_FILM = "https://en.wikipedia.org/wiki/Soul_Food_%28film%29"


@pytest.fixture
def open_page(app_env):
    """A page of the app, run alone, with ``corpus`` chosen (the fixture corpus by default)."""

    def open_page(name: str, corpus: str = "fixture", query_params: dict[str, str] | None = None) -> AppTest:
        at = AppTest.from_file(str(PROJECT_ROOT / "pages" / f"{name}.py"), default_timeout=180)
        at.session_state["corpus"] = corpus
        at.query_params.update(query_params or {})
        return at.run()

    return open_page


@pytest.fixture
def app(open_page):
    return open_page("verify")


def press(app: AppTest, label: str) -> AppTest:
    return next(b for b in app.button if b.label == label).click().run()


def check(app: AppTest, claim: str) -> AppTest:
    app.text_area(key="claim_text").input(claim)
    return press(app, "Check")


def verdicts(app: AppTest) -> list[str]:
    return [h.value for h in app.subheader if h.value.startswith("Verdict: ")]


def evidence_of(app: AppTest) -> pd.DataFrame:
    """Every evidence row Verify shows: the evidence the verdict used, then the rest."""
    return pd.concat([table.value for table in app.table], ignore_index=True)


def test_the_frame_opens_on_verify_with_the_shared_sidebar(app_env, tiny_nli_model):
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception
    assert at.title[0].value == "Verify a claim"
    assert at.sidebar.selectbox(key="_corpus").value == "fixture"
    rule = VerdictPolicy.from_config(tiny_nli_model).nei_threshold
    assert at.sidebar.slider(key="_nei_threshold").value == (0.5 if rule is None else rule)


def test_the_sidebar_draws_each_setting_over_its_declared_range_with_its_help(app_env):
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180).run()
    for name in SETTING_LIMITS:
        slider, setting = at.sidebar.slider(key=f"_{name}"), CHECK_SETTING[name]
        assert (slider.min, slider.max, slider.label) == (setting.limits[0], setting.limits[1], setting.label)
        assert setting.help[1:] in slider.help
    assert set(SETTING_LIMITS) == {s.name for s in CHECK_SETTINGS if s.limits is not None}


def test_the_sidebar_draws_a_widget_for_every_declared_setting_and_the_verdict_choice_turns_the_rule_on(app_env):
    at = open_frame()
    for setting in CHECK_SETTINGS:
        kind = "toggle" if setting.type is bool else "selectbox" if setting.choices else "slider"
        widget = getattr(at.sidebar, kind)(key=f"_{setting.name}")
        assert widget.label == setting.label and setting.help[1:] in widget.help, setting.name
    assert at.sidebar.selectbox(key="_verdict").value == "learned" and at.sidebar.slider(key="_nei_threshold").disabled
    # AppTest runs the frame once, then the page alone: the sidebar's choices are set as its widgets keep them
    ruled = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180)
    ruled.session_state["verdict"], ruled.session_state["nei_threshold"] = "rule", 0.6
    ruled.run()
    assert ruled.sidebar.selectbox(key="_verdict").value == "rule"
    assert not ruled.sidebar.slider(key="_nei_threshold").disabled
    check(ruled, "Fox 2000 Pictures released the film Soul Food.")
    assert not ruled.exception
    assert (ruled.query_params["verdict"], ruled.query_params["nei_threshold"]) == ("rule", "0.6")


def test_the_settings_are_read_once_per_run_by_the_frame_and_handed_to_the_page(app_env, monkeypatch):
    readers = []
    read = Settings.from_env.__func__

    def from_env(cls, *args, **kwargs):
        readers.append(inspect.stack()[1].function)
        return read(cls, *args, **kwargs)

    monkeypatch.setattr(Settings, "from_env", classmethod(from_env))
    at = check(open_frame(), "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception and verdicts(at)
    # besides the frame's read, only the loads made once for the server (the checker, in its loader's thread)
    assert [reader for reader in readers if reader not in ("_open_checker", "load_workspace")] == ["read_settings"]


def test_a_setting_made_in_the_frame_reaches_the_next_page(app_env):
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180).run()
    at.sidebar.slider(key="_sentences_k").set_value(2).run()
    at.switch_page("pages/annotate.py").run()
    at.switch_page("pages/verify.py").run()
    check(at, "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception
    assert len(evidence_of(at)) == 2


def test_verify_shows_a_verdict_evidence_rows_and_wikipedia_links(app):
    check(app, "Fox 2000 Pictures released the film <b>Soul Food</b>.")
    assert not app.exception
    assert verdicts(app)
    evidence = evidence_of(app)
    assert len(evidence) >= 1
    assert list(evidence.columns) == ["stance", "page", "sentence", "score", "hop", "used"]  # stance first: phones
    film = evidence[evidence["page"].str.startswith(r"Soul Food \(film\) [0]")]
    assert len(film) >= 1
    assert film["page"].iloc[0].endswith(f"[Wikipedia ↗]({SOUL_FOOD_FILM}) · corpus has the 2017 text (FEVER)")
    pages = app.dataframe[0].value
    assert SOUL_FOOD_FILM in set(pages["Wikipedia"])
    assert pages["Wikipedia"].str.startswith("https://en.wikipedia.org/wiki/").all()
    assert app.query_params["claim"] == "Fox 2000 Pictures released the film <b>Soul Food</b>."


def reopened(open_page, data_dir, monkeypatch, result) -> AppTest:
    """Verify showing ``result``, a check the test controls, kept in the (shared) history and re-opened."""
    key = history_of(data_dir).add(result, {"corpus": "fixture"})  # settings not kept are their defaults
    monkeypatch.setenv("FEVER_SHARED_HISTORY", "1")  # the check was kept by no browser session
    return open_page("verify", query_params={"history": key})


def shown_verdict(checker, **verdict):
    """The tiny model's check of the Soul Food claim with its verdict changed as ``verdict`` says, its label shown
    unless it says otherwise (the tiny model's own is withheld: it is about a third sure of each label)."""
    result = checker.check("Fox 2000 Pictures released the film Soul Food.")
    assert result.verdict.deciding_evidence, "the tiny model's rule decides by one sentence"
    result.verdict = dataclasses.replace(result.verdict, **{"label_withheld": False, **verdict})
    return result


def test_verify_highlights_the_deciding_row_quotes_its_sentence_and_then_the_others_to_read(
    open_page, data_dir, checker, monkeypatch
):
    result = shown_verdict(checker, label="SUPPORTS", calibrated=0.93)
    app = reopened(open_page, data_dir, monkeypatch, result)
    deciding = [md.value for md in app.markdown if md.value.startswith("Deciding sentence")]
    assert len(deciding) == 1  # the tiny model has no learned verdict: the best sentence decides
    assert "#fff3b0" in app.table[0].proto.arrow_data.styler.styles
    others = [i for i in result.verdict.read_these if i not in result.verdict.deciding_evidence]
    assert others, "the fixture's Soul Food pages have more than one sentence to read"
    assert [md.value.startswith("**Read these too**") for md in app.markdown].count(True) == 1
    quotes = [md.value for md in app.markdown if md.value.startswith("> “")]
    assert len(quotes) == len(result.verdict.deciding_evidence) + len(others)
    assert "This sentence alone reads" not in quotes[0] and all("This sentence alone reads" in q for q in quotes[1:])


def chart_bars(app: AppTest) -> list[tuple[str, str]]:
    """The card's chart as ``(bar's name, its text)``, top to bottom."""
    (bars,) = json.loads(app.get("plotly_chart")[0].proto.spec)["data"]
    return list(zip(bars["y"], bars["text"]))


def test_a_check_has_one_probability_on_its_card_its_chart_and_history_written_one_way(
    open_page, data_dir, checker, monkeypatch
):
    """Issue 48, item 1: the card said 0.56 and the bar below it 0.82 (the decider's own), and the card wrote 0.675 as
    0.67 where History wrote 0.68. Every surface writes the calibrated probability with one function."""
    result = shown_verdict(
        checker,
        label="SUPPORTS",
        probabilities={"SUPPORTS": 0.82, "REFUTES": 0.08, "NOT ENOUGH INFO": 0.10},
        calibrated=0.675,
    )
    app = reopened(open_page, data_dir, monkeypatch, result)
    assert not app.exception
    card = [md.value for md in app.markdown if "probability" in md.value]
    assert card == ["**More likely than not** — probability 0.68 (on a scale of 0 to 1)"]
    bars = chart_bars(app)
    assert bars[0] == ("Verdict: Supported", "0.68")
    deciding = result.evidence[result.verdict.deciding_evidence[0]]
    assert bars[1:] == [
        (
            f"{deciding.sentence.title} [{deciding.sentence.line}] alone",
            f"reads {verdict_word(deciding.reading.label)} {probability_text(deciding.reading.probability)}",
        )
    ]  # a sentence's reading, named as that sentence's
    assert not any("0.82" in text for _, text in bars) and not any("0.82" in md for md in card)
    history = open_page("history")
    table = history.dataframe[0].value
    assert (table["verdict"].iloc[0], table["probability"].iloc[0]) == ("Supported", "0.68")
    assert table["shared"].iloc[0] == "no"  # a word, not False


def test_a_withheld_label_is_undecided_in_history_and_its_chart_leans_nowhere(
    open_page, data_dir, checker, monkeypatch
):
    result = shown_verdict(checker, label="REFUTES", calibrated=0.52, label_withheld=True)
    app = reopened(open_page, data_dir, monkeypatch, result)
    assert verdicts(app) == ["Verdict: :gray[Undecided]"]
    assert chart_bars(app)[0] == ("Verdict: Undecided", "0.52")
    assert "#fff3b0" not in app.table[0].proto.arrow_data.styler.styles  # no row highlighted as deciding
    assert any("right only about 52 times in 100 (probability 0.52)" in md.value for md in app.markdown)
    history = open_page("history")
    table = history.dataframe[0].value
    assert (table["verdict"].iloc[0], table["probability"].iloc[0]) == ("Undecided", "0.52")
    assert (table["deciding sentence"].iloc[0], table["page"].iloc[0]) == ("", "")  # as its card: none decides
    assert history.selectbox(key="_history_choice").options[0].split(" · ")[1] == "Undecided 0.52"


def test_verify_says_a_close_verdict_is_uncertain(open_page, data_dir, checker, monkeypatch):
    close = shown_verdict(
        checker,
        label="SUPPORTS",
        probabilities={"SUPPORTS": 0.45, "REFUTES": 0.40, "NOT ENOUGH INFO": 0.15},
        calibrated=0.7,
    )
    app = reopened(open_page, data_dir, monkeypatch, close)
    assert any(w.value.startswith("Uncertain: ") for w in app.warning)


def test_verify_withholds_a_label_too_unsure_to_call_and_opens_the_sentences_to_read(app, checker):
    claim = "Fox 2000 Pictures released the film Soul Food."
    result = checker.check(claim)
    verdict = result.verdict
    assert verdict.label_withheld and not verdict.undecided and verdict.read_these  # about a third sure of each
    check(app, claim)
    assert verdicts(app) == ["Verdict: :gray[Undecided]"]
    assert any(md.value.startswith("**Too unsure to call** — it leans to ") for md in app.markdown)
    assert not any(w.value.startswith("Uncertain: ") for w in app.warning)  # said once, as the verdict
    assert any(
        md.value.startswith(f"**Why it leans to {verdict_word(verdict.label).lower()}:** ") for md in app.markdown
    )
    assert not [md for md in app.markdown if md.value.startswith("Deciding sentence")]
    quotes = [md.value for md in app.markdown if md.value.startswith("> “")]
    assert len(quotes) == len(verdict.read_these)
    for index, quote in zip(verdict.read_these, quotes):
        item = result.evidence[index]
        assert quote.startswith(f"> “{plain(item.sentence.text)}”")
        assert quote.endswith(
            f"This sentence alone reads: **{verdict_word(item.reading.label)} {probability_text(item.reading.probability)}**"
        )


@pytest.mark.parametrize(("claim", "reason"), [("   ", "empty"), ("🙂🙂🙂", "no words or numbers")])
def test_verify_shows_why_a_claim_can_t_be_checked_at_once(app, claim, reason):
    check(app, claim)
    assert not app.exception
    assert [w.value for w in app.warning if reason in w.value]
    assert not app.status  # not folded into the status box, where it had to be opened to be read
    assert not verdicts(app)


def test_verify_says_a_damaged_verifier_was_refused_and_answers_with_the_shipped_one(
    open_page, tiny_nli_model, tmp_path, monkeypatch
):
    from benchmarks.reliability.models import chosen_version, flip_bytes

    damaged = chosen_version(tmp_path / "elsewhere", tiny_nli_model)
    flip_bytes(damaged / "model.safetensors")
    monkeypatch.setenv("FEVER_VERIFIER_MODEL", str(damaged))
    monkeypatch.setenv("FEVER_JOINT_VERIFIER_MODEL", "")
    at = check(open_page("verify"), "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception and verdicts(at)
    shown = [w.value.replace("\\", "") for w in at.warning]
    assert any(
        "does not match the checksum" in m and "small shipped verifier (MiniLM) was used instead" in m for m in shown
    )


def test_verify_refuses_a_text_over_the_limit_keeps_it_and_carries_it_to_check_a_text(app_env):
    app = open_frame()  # through the frame: Check a text is a page of its navigation
    pasted = ("Fox 2000 Pictures released the film Soul Food. " * 110).strip()  # 5,000 characters: about 110 claims
    assert len(pasted) > MAX_CLAIM_CHARS
    check(app, pasted)
    assert not app.exception
    assert not verdicts(app) and not app.status  # not cut to the limit and answered with one verdict
    assert app.text_area(key="claim_text").value == pasted  # nothing typed is lost
    note = next(w.value for w in app.warning if w.value.startswith("Not checked"))
    assert f"{len(pasted):,} characters" in note and "several statements" in note and "Check a text" in note
    press(app, "Check it on “Check a text”")
    assert not app.exception
    assert app.title[0].value == "Check a text" and app.text_area(key="_text_pasted").value == pasted


def test_verify_checks_a_claim_of_several_sentences_and_says_check_a_text_checks_each(app):
    check(app, "Fox 2000 Pictures released the film Soul Food. Soul Food is a film. Jaws is a film.")
    assert not app.exception and verdicts(app)
    assert any(w.value.startswith("This claim has 3 sentences") and "Check a text" in w.value for w in app.warning)
    check(app, "Fox 2000 Pictures released the film Soul Food.")
    assert not [w for w in app.warning if "sentences" in w.value]


def test_an_evidence_set_names_its_sentences_by_page_title_not_page_id():
    assert (
        evidence_set_line(2, {("Mount_Everest", 0), ("Soul_Food_-LRB-film-RRB-", 3)})
        == "Evidence set 2: Mount Everest [0], Soul Food (film) [3]"
    )
    assert evidence_set_line(1, set()) == "Evidence set 1: (empty)"


def test_every_icon_of_the_app_is_a_material_icon_that_needs_no_emoji_font():
    """On a machine with no emoji font the sidebar's emoji icons were empty boxes (issue 48)."""
    for path in [PROJECT_ROOT / "app.py", *sorted((PROJECT_ROOT / "pages").glob("*.py"))]:
        icons = re.findall(r'icon="([^"]*)"', path.read_text(encoding="utf-8"))
        assert all(re.fullmatch(r":material/[a-z0-9_]+:", icon) for icon in icons), (path.name, icons)


def ticks_of(app: AppTest, sentence: str) -> list:
    return [box for box in app.checkbox if box.label.endswith(sentence.replace(".", r"\."))]


def label_buttons(app: AppTest) -> dict:
    """Annotate's label buttons, by FEVER label (their keys end with it; they show the app's words)."""
    return {
        label: button
        for button in app.button
        if (button.key or "").startswith("label-")
        for label in LABELS
        if button.key.endswith("-" + label.replace(" ", "-"))
    }


def chosen_label(app: AppTest) -> str | None:
    """The label Annotate shows as chosen (its button highlighted), or None."""
    return next((label for label, button in label_buttons(app).items() if button.proto.type == "primary"), None)


def evidence_sets(app: AppTest) -> list[str]:
    return [t.value for t in app.text if t.value.startswith("Evidence set")]


@pytest.fixture
def annotate_munich(open_page, app_corpus):
    """The Annotate page with the Munich claim queued and shown, for an annotator named tester."""
    app = open_page("annotate", app_corpus)
    app.text_input(key="_annotator").input("tester").run()
    next(t for t in app.text_input if t.label == "Or type a claim to queue").input(MUNICH_CLAIM)
    press(app, "Queue it")
    assert not app.exception
    return app


def test_annotate_counts_a_tick_on_a_sentence_also_shown_in_another_page_s_links(annotate_munich, data_dir):
    app = annotate_munich
    boxes = ticks_of(app, MUNICH_KEY_SENTENCE)
    assert len(boxes) >= 2  # on the Munich page and in Bavaria's "Links of sentence 1"
    boxes[0].check().run()
    assert evidence_sets(app) == ["Evidence set 1: Munich [0]"]
    assert all(box.value for box in ticks_of(app, MUNICH_KEY_SENTENCE))
    assert chosen_label(app) is None and set(label_buttons(app)) == set(LABELS)  # the label starts unset
    assert [button.label for button in label_buttons(app).values()] == ["Supported", "Refuted", "Not enough info"]
    label_buttons(app)["REFUTES"].click().run()
    assert chosen_label(app) == "REFUTES"
    assert evidence_sets(app) == ["Evidence set 1: Munich [0]"]
    press(app, "Save")
    assert not app.exception
    assert [note.value for note in app.success] == ["Saved as Refuted with 1 evidence set."]
    assert [d.proto.label for d in app.get("download_button")] == ["Download 1 annotation as FEVER jsonl"]
    saved = [a for a in AnnotationStore(data_dir / "annotations.sqlite").annotations() if a.claim == MUNICH_CLAIM]
    assert saved[-1].label == "REFUTES" and saved[-1].evidence_sets == [[("Munich", 0)]]
    assert saved[-1].annotator == "tester"


def test_annotate_asks_for_a_label_and_undo_brings_the_label_back(annotate_munich):
    app = annotate_munich
    press(app, "Save")
    assert any("Choose a label" in e.value for e in app.error)
    ticks_of(app, "Dresden is the capital city of the German state of Saxony.")[0].check().run()
    label_buttons(app)["REFUTES"].click().run()
    press(app, "Save")
    assert any("queue is empty" in note.value for note in app.info)
    press(app, "Undo my last action")
    assert not app.exception
    assert chosen_label(app) == "REFUTES"
    assert evidence_sets(app) == ["Evidence set 1: Dresden [0]"]


def test_a_claim_sent_again_from_verify_says_it_is_annotated_already_and_how_to_change_it(annotate_munich):
    app = annotate_munich
    ticks_of(app, "Dresden is the capital city of the German state of Saxony.")[0].check().run()
    label_buttons(app)["REFUTES"].click().run()
    press(app, "Save")
    app.session_state["annotate_claim"] = MUNICH_CLAIM  # what Verify's "Send to Annotate" leaves
    app.run()
    assert not app.exception
    notes = [n.value for n in app.info if "is annotated already" in n.value]
    assert len(notes) == 1 and "Refuted, 1 evidence set, by tester" in notes[0] and "Undo my last action" in notes[0]


def test_annotate_keeps_the_name_and_unsaved_ticks_through_a_refresh(annotate_munich, open_page, app_corpus):
    app = annotate_munich
    ticks_of(app, MUNICH_KEY_SENTENCE)[0].check().run()
    address = dict(app.query_params)
    refreshed = open_page("annotate", app_corpus, query_params=address)  # a new session from the same address
    assert not refreshed.exception
    assert refreshed.text_input(key="_annotator").value == "tester"
    assert evidence_sets(refreshed) == ["Evidence set 1: Munich [0]"]
    assert all(box.value for box in ticks_of(refreshed, MUNICH_KEY_SENTENCE))


def test_annotate_names_a_damaged_annotations_file_instead_of_a_traceback(open_page, data_dir):
    (data_dir / "annotations.sqlite").write_bytes(b"not a database" * 100)
    at = open_page("annotate")
    assert not at.exception
    shown = [w.value.replace("\\", "") for w in at.warning]  # the message is escaped for Markdown
    assert any("annotations.sqlite is damaged" in m and "Move it aside" in m for m in shown)
    press(at, "Move annotations.sqlite aside and start a new one")
    assert not at.exception and not at.warning and at.title[0].value == "Annotate"
    (moved,) = data_dir.glob("annotations.sqlite.moved-aside-*")
    assert moved.read_bytes() == b"not a database" * 100


def test_verify_still_shows_the_verdict_when_the_history_is_damaged_and_moves_it_aside_on_request(app_env, data_dir):
    history = data_dir / "history.sqlite"
    history.write_bytes(b"not a database" * 100)
    at = check(open_frame(), "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception and verdicts(at)
    shown = [w.value.replace("\\", "") for w in at.warning]
    assert any(f"history database {history} is damaged" in m and "Move it aside" in m for m in shown)
    press(at, "Move history.sqlite aside and start a new one")
    (moved,) = data_dir.glob("history.sqlite.moved-aside-*")
    assert moved.read_bytes() == b"not a database" * 100
    at = check(at, "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception and verdicts(at) and history_of(data_dir).count() == 1  # kept in the new one


def test_history_says_why_a_damaged_history_can_t_be_shown(open_page, data_dir):
    (data_dir / "history.sqlite").write_bytes(b"not a database" * 100)
    at = open_page("history")
    assert not at.exception and at.title[0].value == "History"
    assert any("history.sqlite is damaged" in w.value.replace("\\", "") for w in at.warning)
    assert any(b.label == "Move history.sqlite aside and start a new one" for b in at.button)


def test_a_read_only_history_is_shown_and_verify_still_answers(open_page, data_dir, checker, monkeypatch):
    from fever_core.common import sqlite as sqlite_module

    path = data_dir / "history.sqlite"
    HistoryStore(path).add(checker.check("Jaws is a film by Steven Spielberg."), {"corpus": "fixture"})
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # as the last writer's close leaves it
    writable = sqlite_module.os.access
    monkeypatch.setattr(sqlite_module.os, "access", lambda p, mode: writable(p, mode) and str(p) != str(path))
    monkeypatch.setenv("FEVER_SHARED_HISTORY", "1")  # the check above was kept by no browser session
    at = open_page("history")
    assert not at.exception and list(at.dataframe[0].value["claim"]) == ["Jaws is a film by Steven Spielberg."]
    assert any("is read-only" in w.value.replace("\\", "") for w in at.warning)
    at = check(open_page("verify"), "Fox 2000 Pictures released the film Soul Food.")
    assert not at.exception and verdicts(at)
    assert any("is read-only" in w.value.replace("\\", "") and "not" in w.value for w in at.warning)
    assert not any(b.label.startswith("Move history.sqlite") for b in at.button)  # nothing wrong with the file


def test_annotation_export(open_page):
    app = open_page("annotate")
    export = next(d for d in app.get("download_button") if "annotations" in d.proto.label)
    assert "Download" in export.proto.label


def run_evaluation(app: AppTest) -> AppTest:
    """Evaluate with its form filled: Run pressed, then the page drawn again until the run has ended (it runs in the
    background, its progress polled)."""
    press(app, "Run")
    for _ in range(120):
        if app.exception or not any(b.label == "Stop" for b in app.button):
            return app
        time.sleep(0.5)
        app.run()
    raise AssertionError("the evaluation did not end in a minute")


def test_evaluate_shows_metrics(open_page, claims_file):
    app = open_page("evaluate")
    app.text_input[0].input(str(claims_file))
    run_evaluation(app)
    assert not app.exception and dict(app.query_params).keys() == {"evaluation"}
    labels = {m.label for m in app.metric}
    assert {"FEVER score", "label accuracy", "pages in top 5", "sentences in top 5"} <= labels
    assert all(m.proto.help for m in app.metric)  # each says what it measures
    assert len(app.dataframe[0].value) == len(CLAIMS)
    assert set(app.dataframe[0].value["FEVER correct"]) <= {"yes", "no"}  # words, not True / False


@pytest.mark.parametrize(
    "page, name, what",
    [("evaluate", "evaluation", "evaluation"), ("batch", "batch", "batch"), ("check_text", "text", "text check")],
)
def test_a_link_to_a_run_this_workbench_does_not_have_says_it_was_not_found_and_what_to_do(open_page, page, name, what):
    app = open_page(page, query_params={name: "0123456789ab"})  # another machine's, or from before a restart
    assert not app.exception
    (note,) = [w.value.replace("\\", "") for w in app.warning if "not found" in w.value]
    assert note.startswith(f"The {what} this link names (0123456789ab) was not found in this workbench")
    assert "another machine" in note and "restarted" in note and "Start it again here" in note
    assert name not in dict(app.query_params)


def test_corpus_search_and_read_with_a_wikipedia_link(open_page):
    app = open_page("corpus")
    assert {m.label: m.value for m in app.metric}["Pages"] == "9"
    assert "Dense index: 14 sentences, flat (exact), encoder in int8." in [c.value for c in app.caption]
    app.text_input(key="corpus_query").input("Spielberg")
    app.button[0].click().run()
    assert not app.exception
    assert "Steven Spielberg" in set(app.dataframe[0].value["page"])
    press(app, "Open")
    assert any("Spielberg" in t.value for t in app.text)
    assert any("(https://en.wikipedia.org/wiki/" in c.value for c in app.caption)


@pytest.fixture
def open_live_page(monkeypatch, tmp_path, tiny_nli_model):
    """A page of the app with the live ``wikipedia`` corpus chosen, its cache in a fresh folder,
    fetching from ``api_url``."""
    import streamlit as st

    monkeypatch.setenv("FEVER_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FEVER_VERIFIER_MODEL", str(tiny_nli_model))
    st.cache_resource.clear()  # checkers are cached per corpus name; these point at another folder

    def open_page(name: str, api_url: str) -> AppTest:
        monkeypatch.setenv("FEVER_WIKIPEDIA_API_URL", api_url)
        at = AppTest.from_file(str(PROJECT_ROOT / "pages" / f"{name}.py"), default_timeout=180)
        at.session_state["corpus"] = "wikipedia"
        return at.run()

    yield open_page
    st.cache_resource.clear()


def test_verify_on_live_wikipedia_fetches_pages_and_shows_a_verdict(open_live_page, recorded_wikipedia):
    app = open_live_page("verify", recorded_wikipedia.url)
    check(app, "Ada Lovelace worked on the Analytical Engine.")
    assert not app.exception and not [w for w in app.warning if not w.value.startswith("Uncertain: ")]
    assert verdicts(app)
    evidence = evidence_of(app)
    lovelace = evidence[evidence["page"].str.startswith("Ada Lovelace [")]
    assert lovelace["page"].iloc[0].endswith("[Wikipedia ↗](https://en.wikipedia.org/wiki/Ada_Lovelace)")
    assert any(r.get("list") == "search" for r in recorded_wikipedia.requests)

    corpus = open_live_page("corpus", recorded_wikipedia.url)
    assert int({m.label: m.value for m in corpus.metric}["Pages"]) >= 2
    corpus.text_input(key="corpus_query").input("Analytical Engine")
    corpus.button[0].click().run()
    assert "Analytical Engine" in set(corpus.dataframe[0].value["page"])


def test_verify_on_live_wikipedia_offline_warns_and_still_answers(open_live_page, offline_wikipedia_url):
    app = open_live_page("verify", offline_wikipedia_url)
    check(app, "Ada Lovelace worked on the Analytical Engine.")
    assert not app.exception
    assert any("No Wikipedia pages are cached yet" in w.value for w in app.warning)
    assert verdicts(app) == ["Verdict: :gray[Not enough info]"]


# --- permalinks, history, batch checks and metrics only where there is gold data (issue 19, items 5 and 6) ---


def open_frame(query_params: dict[str, str] | None = None) -> AppTest:
    """The app as a browser opens it (the frame, then Verify), at an address with these query parameters."""
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query_params or {})
    return at.run()


def history_of(data_dir) -> HistoryStore:
    return HistoryStore(data_dir / "history.sqlite")


def metric_values(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def test_a_check_s_permalink_keeps_the_corpus_and_the_settings_changed(open_page, app_corpus):
    at = open_page("verify", app_corpus)
    at.session_state["sentences_k"], at.session_state["two_hop"] = 2, False  # as the sidebar keeps them
    check(at, MUNICH_CLAIM)
    assert dict(at.query_params) == {
        "claim": MUNICH_CLAIM,
        "corpus": app_corpus,
        "sentences_k": "2",
        "two_hop": "false",
    }


def test_opening_a_permalink_restores_its_corpus_and_settings_and_checks_its_claim(app_env, app_corpus, data_dir):
    at = open_frame(
        {
            "claim": MUNICH_CLAIM,
            "corpus": app_corpus,
            "sentences_k": "2",
            "two_hop": "false",
            "verdict": "rule",
            "nei_threshold": "0.4",
        }
    )
    assert not at.exception
    sidebar = at.sidebar
    assert sidebar.selectbox(key="_corpus").value == app_corpus
    assert (sidebar.slider(key="_sentences_k").value, sidebar.toggle(key="_two_hop").value) == (2, False)
    assert sidebar.selectbox(key="_verdict").value == "rule" and sidebar.slider(key="_nei_threshold").value == 0.4
    assert not sidebar.slider(key="_nei_threshold").disabled
    assert verdicts(at) and len(evidence_of(at)) == 2
    assert dict(at.query_params) == {
        "claim": MUNICH_CLAIM,
        "corpus": app_corpus,
        "sentences_k": "2",
        "two_hop": "false",
        "verdict": "rule",
        "nei_threshold": "0.4",
    }
    (entry,) = history_of(data_dir).search()
    assert entry.claim == MUNICH_CLAIM and (entry.settings["verdict"], entry.settings["nei_threshold"]) == ("rule", 0.4)
    assert not at.warning or all(w.value.startswith("Uncertain: ") for w in at.warning)


def test_a_permalink_s_threshold_never_switches_the_decider(app_env, app_corpus, data_dir):
    at = open_frame({"claim": MUNICH_CLAIM, "corpus": app_corpus, "nei_threshold": "0.4"})
    assert not at.exception and verdicts(at)
    assert at.sidebar.selectbox(key="_verdict").value == "learned" and at.sidebar.slider(key="_nei_threshold").disabled
    (entry,) = history_of(data_dir).search()
    applied = history_of(data_dir).result(entry.key).applied
    assert applied.verdict == "learned" and applied.nei_threshold != 0.4  # the verifier's own: the rule is off
    assert dict(at.query_params) == {"claim": MUNICH_CLAIM, "corpus": app_corpus}


def test_the_sidebar_s_thresholds_are_the_chosen_verifier_s_and_a_check_applies_them(
    app_env, app_corpus, data_dir, tiny_nli_model, tmp_path
):
    other = tmp_path / "other-verifier"
    shutil.copytree(tiny_nli_model, other)
    config = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "nei_threshold": 0.33, "min_evidence_score": 0.1}))
    # AppTest runs the frame once, then the page alone: the sidebar's choices are set as its widgets keep them
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=180)
    at.session_state["verifier_model"], at.session_state["verdict"] = str(other), "rule"
    at.run()
    assert (at.sidebar.slider(key="_nei_threshold").value, at.sidebar.slider(key="_min_evidence_score").value) == (
        0.33,
        0.1,
    )
    check(at, MUNICH_CLAIM)
    (entry,) = history_of(data_dir).search()
    applied = history_of(data_dir).result(entry.key).applied
    assert (applied.verifier, applied.decider, applied.nei_threshold, applied.min_evidence_score) == (
        str(other),
        "rule",
        0.33,
        0.1,
    )
    assert "nei_threshold" in at.query_params and at.query_params["nei_threshold"] == "0.33"


def test_a_permalink_s_unusable_values_are_refused_with_a_note(app_env):
    at = open_frame(
        {
            "claim": "Jaws is a film.",
            "corpus": "nowhere",
            "pages_k": "99",
            "two_hop": "maybe",
            "verifier_model": "some-org/unknown-model",
        }
    )
    assert not at.exception
    assert at.sidebar.selectbox(key="_corpus").value == "fixture"  # the default
    assert at.sidebar.slider(key="_pages_k").value == Settings.from_env().pages_k
    refused = [w.value.replace("\\", "") for w in at.warning if "can't be used here" in w.value]
    assert len(refused) == 1 and all(
        f"{name}=" in refused[0] for name in ("corpus", "pages_k", "two_hop", "verifier_model")
    )
    assert verdicts(at)


def test_history_reopens_a_check_as_it_was_without_checking_again(app_env, data_dir):
    at = open_frame()
    check(at, "Fox 2000 Pictures released the film Soul Food.")
    first_verdict = verdicts(at)
    at.switch_page("pages/history.py").run()
    assert list(at.dataframe[0].value["claim"]) == ["Fox 2000 Pictures released the film Soul Food."]
    press(at, "Open in Verify")
    assert not at.exception
    (entry,) = history_of(data_dir).search()
    assert at.title[0].value == "Verify a claim" and dict(at.query_params) == {"history": entry.key}
    assert any(note.value.startswith("Re-opened from History") for note in at.info)
    assert verdicts(at) == first_verdict and len(evidence_of(at)) >= 1
    assert history_of(data_dir).count() == 1  # not checked again


def test_a_check_kept_before_verdicts_named_their_evidence_reopens_saying_so(open_page, data_dir, checker, monkeypatch):
    at = reopened(open_page, data_dir, monkeypatch, shown_verdict(checker, used_evidence=[]))  # as kept before
    assert not at.exception and verdicts(at)
    assert any(c.value.startswith("Not recorded: this check was kept by an older version") for c in at.caption)


def test_an_undecided_verdict_its_parts_and_a_rewritten_reading_show_as_the_verdict_counted_them(
    open_page, data_dir, checker, monkeypatch
):
    from fever_core.verification import Reading
    from fever_core.verification.deciders import ClaimPart

    result = checker.check("Fox 2000 Pictures released the film Soul Food.")
    judged = [i for i, item in enumerate(result.evidence) if item.stance is not None]
    first = judged[0]
    result.evidence[first].reading = Reading("REFUTES", 0.97, "Fox 2000 Pictures released the film Soul Train.")
    result.verdict = dataclasses.replace(
        result.verdict,
        label="NOT ENOUGH INFO",
        undecided=True,
        deciding_evidence=[first],
        used_evidence=[first],
        parts=(
            ClaimPart("Fox 2000 Pictures released a film.", "SUPPORTS", 0.95, first),
            ClaimPart("The film is Soul Food.", "NOT ENOUGH INFO"),
        ),
    )
    at = reopened(open_page, data_dir, monkeypatch, result)
    assert not at.exception
    assert verdicts(at) == ["Verdict: :gray[Undecided]"]
    assert any("No sentence settles this claim on its own" in m.value for m in at.markdown)
    assert any(
        m.value.startswith("This claim was checked as 2 facts:")
        and "Supported 0.95" in m.value
        and "no sentence settles it" in m.value
        for m in at.markdown
    )
    stances = list(evidence_of(at)["stance"])
    assert any(
        stance.startswith("Refuted 0.97 (read as “Fox 2000 Pictures released the film Soul Train") for stance in stances
    )  # the claim as read, escaped as the table's Markdown needs
    part = plain("Fox 2000 Pictures released a film.")
    assert sum(stance.endswith(f"; Supported 0.95 (read as “{part}”)") for stance in stances) == 1  # as the card says


def test_history_checks_again_through_the_check_s_permalink(app_env, app_corpus):
    permalink = {"claim": MUNICH_CLAIM, "corpus": app_corpus, "sentences_k": "2"}
    at = open_frame(permalink)
    at.switch_page("pages/history.py").run()
    press(at, "Check again")  # AppTest runs the page switched to without the frame: the browser test checks it
    assert not at.exception
    assert at.title[0].value == "Verify a claim" and dict(at.query_params) == permalink


def test_history_search_and_clearing_after_a_confirmation(app_env, data_dir):
    at = open_frame()
    for claim in ("Jaws is a film by Steven Spielberg.", "Edinburgh is the capital of Scotland."):
        check(at, claim)
    at.switch_page("pages/history.py").run()
    at.text_input(key="_history_search").input("spielberg JAWS").run()
    assert list(at.dataframe[0].value["claim"]) == ["Jaws is a film by Steven Spielberg."]
    press(at, "Clear the history…")
    assert any("Delete all 2 of this browser's checks" in w.value for w in at.warning)
    press(at, "Cancel")
    assert history_of(data_dir).count() == 2
    press(at, "Clear the history…")
    press(at, "Yes, delete them all")
    assert not at.exception
    assert [s.value for s in at.success] == ["Deleted 2 checks."] and history_of(data_dir).count() == 0
    assert any("No checks yet" in note.value for note in at.info)


def run_batch_page(open_page, pasted: str) -> AppTest:
    """The Batch page with ``pasted`` checked: started, then drawn again until the batch has ended."""
    app = open_page("batch")
    app.text_area(key="batch_text").input(pasted)
    press(app, "Check all")
    for _ in range(120):
        if app.success or app.exception:
            return app
        time.sleep(0.5)
        app.run()
    raise AssertionError("the batch did not end in a minute")


SPEECH = "Fox 2000 Pictures released the film Soul Food.\nJaws is a film by Steven Spielberg.\n🙂🙂🙂\n"


def test_a_pasted_batch_without_labels_has_results_and_downloads_but_no_metrics(open_page, data_dir):
    app = run_batch_page(open_page, SPEECH)
    assert not app.exception
    assert app.success[0].value.startswith("Checked 3 of 3 claims")
    assert metric_values(app) == {"label accuracy": "n/a", "FEVER score": "n/a"}
    table = app.dataframe[0].value
    assert list(table.columns) == [
        "claim",
        "verdict",
        "probability",
        "deciding sentence",
        "page",
        "Wikipedia",
        "can't check",
        "open",
    ]
    assert table["Wikipedia"].dropna().str.startswith("https://en.wikipedia.org/wiki/").all()
    assert "no words or numbers" in table["can't check"].iloc[2]
    downloads = {d.proto.label: d for d in app.get("download_button")}
    assert set(downloads) == {
        "Download results (CSV)",
        "Download FEVER predictions (jsonl)",
        "Download ClaimReviews (JSON-LD)",
    }
    assert [e.batch for e in history_of(data_dir).search()] == [dict(app.query_params)["batch"]] * 2
    by_claim = {e.claim: e for e in history_of(data_dir).search()}
    shown = [by_claim[claim] for claim in SPEECH.splitlines()[:2]]  # as its card shows it (the tiny model's: Undecided)
    assert list(table["verdict"].iloc[:2]) == [verdict_shown(e.verdict, e.label_withheld) for e in shown]
    assert list(table["probability"].iloc[:2]) == [probability_text(e.probability) for e in shown]
    withheld = [e.label_withheld for e in shown]
    assert table.loc[:1][withheld]["deciding sentence"].isna().all()  # an Undecided row quotes none, as its card


def test_a_batch_opens_in_another_browser_only_once_its_maker_shares_it(open_page, data_dir):
    """Issue 51: a run's link opened the whole pasted text and its verdicts in any browser. Shared, its checks'
    verdict cards open too (issue 48: a shared text check's cards did not)."""
    mine = run_batch_page(open_page, "Jaws is a film by Steven Spielberg.\n")
    job = dict(mine.query_params)["batch"]
    theirs = open_page("batch", query_params={"batch": job})  # a new session: another browser
    assert any("made in another browser and not shared" in w.value for w in theirs.warning)
    assert not theirs.success and "batch" not in dict(theirs.query_params)
    assert drawn_after(mine, "subheader", "button", "Share link")  # beside its results, not above the upload box
    press(mine, "Share link")
    assert any(f"?batch={job}" in c.value for c in mine.code)
    assert [e.shared for e in history_of(data_dir).search() if e.batch == job] == [True]
    theirs = open_page("batch", query_params={"batch": job})
    assert theirs.success and theirs.success[0].value.startswith("Checked 1 of 1 claim")
    assert not [b for b in theirs.button if b.label in ("Share link", "Stop sharing")]  # not theirs to share
    press(mine, "Stop sharing")
    assert [e.shared for e in history_of(data_dir).search() if e.batch == job] == [False]
    theirs = open_page("batch", query_params={"batch": job})
    assert any("made in another browser and not shared" in w.value for w in theirs.warning)


def drawn_after(app: AppTest, first: str, then: str, label: str) -> bool:
    """Whether the page draws an element of type ``then`` labelled ``label`` after its first of type ``first``."""
    drawn = [(element.type, getattr(element, "label", None)) for element in app.main if hasattr(element, "type")]
    start = next(n for n, (kind, _) in enumerate(drawn) if kind == first)
    return (then, label) in drawn[start:]


def test_a_pasted_csv_batch_with_labels_has_label_accuracy_but_no_fever_score(open_page):
    app = run_batch_page(
        open_page,
        "claim,label\nFox 2000 Pictures released the film Soul Food.,SUPPORTS\nJaws is a film by Steven Spielberg.,\n",
    )
    assert not app.exception
    values = metric_values(app)
    assert values["FEVER score"] == "n/a" and values["label accuracy"] in ("0.000", "1.000")
    assert list(app.dataframe[0].value["gold label"].fillna("")) == ["Supported", ""]
    (caption,) = [c.value for c in app.caption if "gold label" in c.value]
    assert (
        caption.startswith(
            "1 of 2 claims have a gold label, but 1 of the 1 labelled Supported or Refuted claim has no gold evidence"
        )
        and "the FEVER score needs gold evidence" in caption
    )


def test_a_batch_without_labels_says_the_metrics_need_gold_labels(open_page):
    app = run_batch_page(open_page, "Jaws is a film by Steven Spielberg.\n")
    assert [c.value for c in app.caption if "gold label" in c.value] == [
        "0 of 1 claim has a gold label: the metrics need gold labels, so they are n/a."
    ]


def test_a_batch_list_that_can_t_be_read_says_why(open_page):
    app = open_page("batch")
    app.text_area(key="batch_text").input("claim,label\n,SUPPORTS\n")
    press(app, "Check all")
    assert [e.value.replace("\\", "") for e in app.error] == [
        "Can't read the claims: pasted text:2: the claim is empty."
    ]


def run_evaluate_page(open_page, tmp_path, name: str, text: str) -> AppTest:
    path = tmp_path / name
    path.write_text(text)
    app = open_page("evaluate")
    app.text_input[0].input(str(path))
    return run_evaluation(app)


LABELLED_CSV = (
    "claim,label\nFox 2000 Pictures released the film Soul Food.,SUPPORTS\n"
    "Sherlock Holmes was created by Charles Dickens.,REFUTES\nEdinburgh has a famous castle.,NOT ENOUGH INFO\n"
)


def test_evaluate_shows_n_a_for_metrics_without_gold_evidence(open_page, tmp_path):
    app = run_evaluate_page(open_page, tmp_path, "labelled.csv", LABELLED_CSV)
    assert not app.exception
    values = metric_values(app)
    assert values["label accuracy"] != "n/a"
    for metric in ("FEVER score", "evidence recall", "evidence precision", "page found first", "sentences in top 5"):
        assert values[metric] == "n/a", metric


def test_evaluate_accepts_a_file_without_labels(open_page, tmp_path):
    app = run_evaluate_page(open_page, tmp_path, "speech.txt", SPEECH)
    assert not app.exception
    values = metric_values(app)
    assert {values[m] for m in ("FEVER score", "label accuracy", "evidence recall", "pages in top 5")} == {"n/a"}
    assert list(app.dataframe[0].value["claim"]) == SPEECH.split("\n")[:3]


def test_evaluate_only_errors_lists_only_wrong_claims(open_page, tmp_path):
    app = run_evaluate_page(open_page, tmp_path, "labelled.csv", LABELLED_CSV)
    every = app.dataframe[0].value
    app.toggle[0].set_value(True).run()
    errors = app.dataframe[0].value
    assert list(errors["claim"]) == list(every[every["gold"] != every["predicted"]]["claim"])


# --- evidence a journalist can trust, state that holds, a finished product (issue 27) ------------------------------


def test_verify_shows_the_evidence_it_used_first_and_no_used_row_leans_against_the_verdict(app, checker):
    claim = "Fox 2000 Pictures released the film Soul Food."
    check(app, claim)
    assert not app.exception
    expected = verdict_word(checker.check(claim).verdict.label)  # the card may withhold it: "Undecided"
    rows = evidence_of(app)
    assert set(rows["used"]) <= {"yes", "no"}  # words, not True / False
    used = rows[rows["used"] == "yes"]
    assert list(rows["used"]) == sorted(rows["used"], reverse=True)  # used first, then the rest
    assert all(stance.startswith(expected + " ") for stance in used["stance"])
    assert len(app.table) == (1 if used.empty or len(used) == len(rows) else 2)
    assert any(e.label.startswith("Other evidence read") for e in app.expander) == (len(used) < len(rows))
    assert any(e.label.startswith("Details: ") for e in app.expander)  # the developer detail, collapsed
    assert any("**stance**" in c.value and "**used**" in c.value for c in app.caption)  # the legend


def test_coming_back_to_verify_keeps_the_claim_the_result_and_the_permalink(app_env, app_corpus):
    at = open_frame()
    at.session_state["corpus"] = app_corpus
    check(at, MUNICH_CLAIM)
    shown, address = verdicts(at), dict(at.query_params)
    at.switch_page("pages/annotate.py").run()
    at.query_params.clear()  # the sidebar's link to another page leaves the address bare
    at.switch_page("pages/verify.py").run()
    assert not at.exception
    assert at.text_area(key="claim_text").value == MUNICH_CLAIM
    assert verdicts(at) == shown and dict(at.query_params) == address == {"claim": MUNICH_CLAIM, "corpus": app_corpus}


def test_a_claim_that_is_not_english_gets_a_notice(app):
    for claim in ("Paris est la capitale de la France.", "La tour Eiffel se trouve à Paris."):
        check(app, claim)
        assert any("does not look English" in note.value for note in app.info), claim
    check(app, "Fox 2000 Pictures released the film Soul Food.")
    assert not any("does not look English" in note.value for note in app.info)


def test_evaluate_offers_the_hand_claims_for_embedded_and_refuses_a_missing_file(open_page, tmp_path):
    from fever_core.common import HAND_CLAIMS
    from pages.display import ready_claims_file

    assert ready_claims_file("embedded") == "assets/claims/hand-claims.jsonl" and HAND_CLAIMS.is_file()
    assert ready_claims_file("fixture") == ""
    app = open_page("evaluate")
    assert app.text_input[0].value == ""
    press(app, "Run")
    assert not app.exception and any("Give the path of a claims file" in e.value for e in app.error)
    missing = tmp_path / "nowhere" / "claims.jsonl"
    app.text_input[0].input(str(missing))
    press(app, "Run")
    assert not app.exception and not app.metric
    shown = [e.value.replace("\\", "") for e in app.error]  # the message is escaped for Markdown
    assert any(m.startswith(f"There is no file at {missing}") for m in shown)


def test_history_belongs_to_the_browser_session_unless_shared(app_env, monkeypatch, data_dir):
    mine = open_frame()
    check(mine, "Jaws is a film by Steven Spielberg.")
    mine.switch_page("pages/history.py").run()
    assert list(mine.dataframe[0].value["claim"]) == ["Jaws is a film by Steven Spielberg."]
    assert not any(str(data_dir) in c.value.replace("\\", "") for c in mine.caption)  # no server path
    theirs = open_frame()  # another browser
    theirs.switch_page("pages/history.py").run()
    assert not theirs.dataframe and any("No checks yet" in note.value for note in theirs.info)
    monkeypatch.setenv("FEVER_SHARED_HISTORY", "1")  # read by the frame at the start of a run (AppTest: the first)
    shared = open_frame()  # another browser again, on a server with a shared history
    shared.switch_page("pages/history.py").run()
    assert list(shared.dataframe[0].value["claim"]) == ["Jaws is a film by Steven Spielberg."]


MIN_ANNOTATIONS = 20  # pages/models.py's (importing a page would run it)


def test_models_asks_for_twenty_annotations_and_says_how_long_improving_takes(open_page, data_dir):
    store = AnnotationStore(data_dir / "annotations.sqlite")
    for n in range(MIN_ANNOTATIONS - 1):
        store.save(store.add_claim(f"Claim {n} about Jaws."), "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)]], "tester")
    app = open_page("models")
    improve = next(b for b in app.button if b.label == "Improve the verifier")
    assert improve.disabled and any(
        "at least 20 annotations" in note.value and "held out" in note.value for note in app.info
    )
    assert any(c.value.startswith("Takes about ") for c in app.caption)
    store.save(store.add_claim("Claim 20 about Jaws."), "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)]], "tester")
    app.run()
    assert not next(b for b in app.button if b.label == "Improve the verifier").disabled


PAGE_HELPERS = (
    "display.py",
    "presenter.py",
    "resources.py",
    "settings_ui.py",
    "words.py",
)  # imported by the pages, not run as pages


@pytest.mark.parametrize(
    "page",
    [p for p in sorted((PROJECT_ROOT / "pages").glob("*.py")) if p.name not in PAGE_HELPERS]
    + [PROJECT_ROOT / "app.py"],
    ids=lambda path: path.name,
)
def test_no_page_has_a_bare_string_that_streamlit_would_show(page):
    """Streamlit's magic writes every bare expression of a page script onto the page (not of the helpers the
    pages import, :data:`PAGE_HELPERS`), a string below a constant included: a docstring only counts at the top of a module, function or
    class."""
    import ast

    body = ast.parse(page.read_text(encoding="utf-8")).body
    shown = [
        node.lineno
        for node in body[1:]
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]
    assert not shown, f"{page.name}: bare strings at lines {shown} would be shown on the page; make them comments"


# --- the rough edges a newcomer hit in the browser (issue 36, item 4) ------------------------------------------------


def test_history_check_again_checks_the_chosen_check_again_after_opening_it(app_env, app_corpus, data_dir):
    at = open_frame({"claim": MUNICH_CLAIM, "corpus": app_corpus, "sentences_k": "2"})  # the older check
    at.session_state["corpus"] = "fixture"
    check(at, "Fox 2000 Pictures released the film Soul Food.")  # the newest, with the default settings
    at.switch_page("pages/history.py").run()
    munich = next(e for e in history_of(data_dir).search() if e.claim == MUNICH_CLAIM)
    at.selectbox(key="_history_choice").set_value(munich.key).run()
    press(at, "Open in Verify")
    assert any(note.value.startswith("Re-opened from History") for note in at.info)
    at.switch_page("pages/history.py").run()
    assert at.selectbox(key="_history_choice").value == munich.key  # the choice stayed
    press(at, "Check again")
    assert not at.exception and at.title[0].value == "Verify a claim"
    assert not any(note.value.startswith("Re-opened from History") for note in at.info)
    assert any(caption.value == "Claim: " + MUNICH_CLAIM.replace(".", r"\.") for caption in at.caption)
    assert len(evidence_of(at)) == 2  # with the settings the check had
    assert [e.claim for e in history_of(data_dir).search()][:1] == [MUNICH_CLAIM]  # a new entry, the newest
    assert history_of(data_dir).count() == 3
    at.switch_page("pages/history.py").run()
    press(at, "Check again")  # the newest check, whose permalink is the address: checked again all the same
    assert history_of(data_dir).count() == 4


def test_every_page_says_supported_refuted_not_enough_info_and_probability(app_env, app_corpus):
    at = open_frame()
    check(at, "Fox 2000 Pictures released the film Soul Food.")
    words = {"Supported", "Refuted", "Not enough info"}
    assert {stance.rsplit(" ", 1)[0] for stance in evidence_of(at)["stance"]} <= words | {"not judged"}
    assert set(at.dataframe[2].value.columns) >= words  # Details: each sentence's stance probabilities
    at.switch_page("pages/history.py").run()
    table = at.dataframe[0].value
    shown = words | {"Undecided"}  # a label too unsure to show (the tiny model's) is withheld
    assert "probability" in table.columns and "confidence" not in table.columns and set(table["verdict"]) <= shown


def test_a_batch_shows_verdicts_and_gold_labels_in_the_app_s_words(open_page):
    app = run_batch_page(open_page, LABELLED_CSV)
    table = app.dataframe[0].value
    assert set(table["verdict"]) <= {"Supported", "Refuted", "Not enough info", "Undecided"}
    assert list(table["gold label"]) == ["Supported", "Refuted", "Not enough info"]
    assert "probability" in table.columns and "confidence" not in table.columns
    assert app.success[0].value.startswith("Checked 3 of 3 claims")


def test_counts_say_one_thing_and_many_things():
    from pages.words import count

    assert [count(1, "annotation"), count(2, "annotation"), count(0, "claim"), count(1200, "pass", "passes")] == [
        "1 annotation",
        "2 annotations",
        "0 claims",
        "1,200 passes",
    ]


def test_a_path_through_a_link_beside_the_project_is_shown_as_written(tmp_path):
    """``../shared`` is often a link to where the data lives: a path through it keeps its short name."""
    from pages.display import shown_path

    link = PROJECT_ROOT / "test-artifacts" / "linked-data"
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(tmp_path, target_is_directory=True)
    try:
        assert shown_path(link / "claims.jsonl") == "test-artifacts/linked-data/claims.jsonl"
        assert shown_path(PROJECT_ROOT / "assets" / ".." / "README.md") == "README.md"
    finally:
        link.unlink()


def test_no_server_path_on_screen_claims_files_and_verifiers_go_by_short_names(open_page, data_dir):
    from fever_core.common import DEFAULT_VERIFIER, FALLBACK_VERIFIER
    from pages.display import project_path, shown_path, verifier_name, verifier_path

    app = open_page("evaluate", "embedded")
    typed = app.text_input[0].value
    assert typed == "assets/claims/hand-claims.jsonl" and project_path(typed).is_file()
    assert str(PROJECT_ROOT) not in " ".join(c.value for c in app.caption)
    assert shown_path(PROJECT_ROOT.parent / "shared" / "data" / "claims.jsonl") == "../shared/data/claims.jsonl"
    assert (verifier_name(DEFAULT_VERIFIER, []), verifier_name(FALLBACK_VERIFIER, [])) == (
        "shipped (MPNet)",
        "shipped, small (MiniLM)",
    )
    assert verifier_path("shipped (MPNet)", []) == DEFAULT_VERIFIER
    assert verifier_path("org/some-model", []) == "org/some-model"
    assert verifier_name(str(PROJECT_ROOT / "assets"), []) == "assets"
    assert verifier_path("assets", []) == str(PROJECT_ROOT / "assets")
    assert verifier_name("org/some-model", []) == "org/some-model"


def test_missing_values_show_as_a_dash_not_none(app, open_page):
    check(app, "Fox 2000 Pictures released the film Soul Food.")
    assert [frame.proto.placeholder for frame in app.dataframe] == ["—"] * len(app.dataframe) and app.dataframe
    corpus = open_page("corpus")
    corpus.text_input(key="corpus_query").input("Spielberg")
    corpus.radio(key="corpus_mode").set_value("title")
    corpus.button[0].click().run()
    hits = corpus.dataframe[0]
    assert list(hits.value.columns) == ["page", "score"] and hits.proto.placeholder == "—"  # pages, not lines


def test_annotate_finds_a_page_by_the_words_of_a_sentence_and_offers_only_pages_not_shown(annotate_munich):
    app = annotate_munich
    assert "Steven Spielberg" not in {e.label for e in app.expander}
    search = next(t for t in app.text_input if t.label.startswith("Search a page to add"))
    search.input("born in Cincinnati")  # words of a sentence of Steven Spielberg's page, not its title
    press(app, "Search")
    offered = {b.label.replace("\\", ""): b for b in app.button if b.label.startswith("Add page")}  # escaped
    assert "Add page: Steven Spielberg — [1] Spielberg was born in Cincinnati, Ohio, in 1946." in offered
    offered["Add page: Steven Spielberg — [1] Spielberg was born in Cincinnati, Ohio, in 1946."].click().run()
    assert not app.exception and "Steven Spielberg" in {e.label for e in app.expander}
    assert not [b for b in app.button if b.label.startswith("Add page")]  # gone once the page is shown
    search = next(t for t in app.text_input if t.label.startswith("Search a page to add"))
    search.input("Steven Spielberg")
    app.radio(key="add_page_mode").set_value("title")
    press(app, "Search")
    assert not [b for b in app.button if "Steven Spielberg" in b.label]  # shown: not offered again
    assert any("is shown above" in c.value for c in app.caption)


def test_evaluate_checks_a_sample_across_labels_and_says_so(open_page, tmp_path):
    sorted_by_label = (
        "claim,label\n"
        + "".join(f"Jaws is film number {n}.,SUPPORTS\n" for n in range(6))
        + ("Sherlock Holmes was created by Charles Dickens.,REFUTES\nEdinburgh has a famous castle.,NOT ENOUGH INFO\n")
    )
    path = tmp_path / "sorted.csv"
    path.write_text(sorted_by_label)
    app = open_page("evaluate")
    app.text_input[0].input(str(path))
    app.number_input[0].set_value(3)
    run_evaluation(app)
    assert not app.exception
    assert sorted(app.dataframe[0].value["gold"]) == ["Not enough info", "Refuted", "Supported"]
    assert any(
        c.value.startswith(
            "Checking a sample of 3 of the file's 8 claims, drawn at random evenly across the labels (seed 0"
        )
        and "1 Supported, 1 Refuted, 1 Not enough info" in c.value
        for c in app.caption
    )


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """What the download buttons of the runs that follow serve, by file name (the last run's, for each name)."""
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    served: dict[str, bytes] = {}
    keep = MemoryMediaFileStorage.load_and_get_id

    def load_and_get_id(self, path_or_data, mimetype, kind, filename=None):
        served[filename] = path_or_data if isinstance(path_or_data, bytes) else path_or_data.encode()
        return keep(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load_and_get_id)
    return served


def test_verify_downloads_the_check_as_a_claimreview_by_the_author_named(app, downloads):
    from tests.jsonld import expand, values

    claim = "Fox 2000 Pictures released the film <b>Soul Food</b>."
    check(app, claim)
    button = next(d for d in app.get("download_button") if d.proto.label == "Download ClaimReview (JSON-LD)")
    assert not button.proto.disabled
    document = json.loads(downloads["claimreview.jsonld"].decode("utf-8"))
    facts = {node["propertyID"]: node.get("value") for node in document["additionalProperty"]}
    shown = verdict_shown(facts["feverLabel"], facts["labelWithheld"])  # the tiny model's label: withheld
    assert document["claimReviewed"] == claim and document["reviewRating"]["alternateName"] == shown
    assert document["author"] == {"@type": "Organization", "name": "FEVER Workbench"}
    (review,), dropped = expand(document)
    assert not dropped
    facts = {values(node, "propertyID")[0]: values(node, "value") for node in values(review, "additionalProperty")}
    assert facts["corpus"] == ["fixture"] and facts["corpusChecksum"][0].startswith("sha256:")
    app.text_input(key="_claimreview_author").input("Fact Desk").run()
    app.radio(key="_claimreview_author_kind").set_value("Person").run()
    assert not app.exception
    assert json.loads(downloads["claimreview.jsonld"])["author"] == {"@type": "Person", "name": "Fact Desk"}
    app.text_input(key="_claimreview_author").input("  ").run()
    button = next(d for d in app.get("download_button") if d.proto.label == "Download ClaimReview (JSON-LD)")
    assert button.proto.disabled and any("author's name is empty" in w.value for w in app.warning)


def test_a_batch_downloads_a_claimreview_for_each_claim_it_could_check(open_page, downloads):
    from tests.jsonld import expand

    app = run_batch_page(open_page, SPEECH)
    assert not app.exception
    document = json.loads(downloads["claimreviews.jsonld"].decode("utf-8"))
    assert [node["claimReviewed"] for node in document["@graph"]] == SPEECH.splitlines()[:2]  # the emoji: none
    expanded, dropped = expand(document)
    assert len(expanded) == 2 and not dropped


PUBLIC_URL = "https://factcheck.example.org/desk"


def test_every_claimreview_s_url_is_its_permalink_under_the_public_address_and_none_without_one(
    open_page, downloads, monkeypatch
):
    claim = "Fox 2000 Pictures released the film Soul Food."
    app = check(open_page("verify"), claim)
    assert "url" not in json.loads(downloads["claimreview.jsonld"])  # no public address: no url (not localhost)
    batch = run_batch_page(open_page, SPEECH)
    assert all("url" not in node for node in json.loads(downloads["claimreviews.jsonld"])["@graph"])
    monkeypatch.setenv("FEVER_PUBLIC_URL", PUBLIC_URL)
    app = check(open_page("verify"), claim)
    assert not app.exception
    assert json.loads(downloads["claimreview.jsonld"])["url"] == (
        f"{PUBLIC_URL}/?claim=Fox+2000+Pictures+released+the+film+Soul+Food.&corpus=fixture"
    )
    batch = run_batch_page(open_page, SPEECH)
    assert not batch.exception
    graph = json.loads(downloads["claimreviews.jsonld"])["@graph"]
    assert [node["url"] for node in graph] == [
        f"{PUBLIC_URL}/?" + urllib.parse.urlencode({"claim": node["claimReviewed"], "corpus": "fixture"})
        for node in graph
    ] and len(graph) == 2
    text = until_checked(
        press(find_sentences_on_page(open_page, "Jaws is a 1975 film by Steven Spielberg."), "Check 1 sentence")
    )
    assert not text.exception
    (node,) = json.loads(downloads["claimreviews.jsonld"])["@graph"]
    assert node["url"] == f"{PUBLIC_URL}/?" + urllib.parse.urlencode(
        {"claim": node["claimReviewed"], "corpus": "fixture"}
    )


def test_a_check_re_opened_from_history_downloads_its_claimreview_dated_when_it_was_made(app_env, data_dir, downloads):
    at = open_frame()
    check(at, "Fox 2000 Pictures released the film Soul Food.")
    at.switch_page("pages/history.py").run()
    press(at, "Open in Verify")
    assert dict(at.query_params) == {"history": history_of(data_dir).search()[0].key}
    button = next(d for d in at.get("download_button") if d.proto.label == "Download ClaimReview (JSON-LD)")
    assert not button.proto.disabled  # made with the sidebar's corpus and verifier, which are loaded
    document = json.loads(downloads["claimreview.jsonld"])
    made = history_of(data_dir).search()[0].checked_at
    assert document["datePublished"] == time.strftime("%Y-%m-%d", time.gmtime(made)) and "url" not in document


# --- checked before (issue 36, item 2) -----------------------------------------------------------------------------


def checked_before(app: AppTest) -> list[str]:
    """The card's "Checked before" lines, unescaped."""
    return [md.value.replace("\\", "") for md in app.markdown if "Checked before:" in md.value]


def test_verify_says_a_paraphrase_was_checked_before_in_this_browser_or_shared_and_links_to_it(app_env, data_dir):
    first = check(open_frame(), "Fox 2000 Pictures released the film Soul Food.")
    assert not first.exception and not checked_before(first)  # nothing before it
    (kept,) = history_of(data_dir).search()
    line = (
        f":material/replay: **Checked before:** “Fox 2000 Pictures released the film Soul Food.”, "
        f"{verdict_shown(kept.verdict, kept.label_withheld)}, "
        f"just now · [re-open it ↗](./?history={kept.key})"
    )
    check(first, "The film Soul Food was released by Fox 2000 Pictures.")
    assert checked_before(first) == [line]
    other_browser = check(open_frame(), "The film Soul Food was released by Fox 2000 Pictures.")
    assert not checked_before(other_browser)  # another browser's claim is private to it
    first.switch_page("pages/history.py").run()
    first.selectbox(key="_history_choice").set_value(kept.key).run()
    press(first, "Share link")
    assert any(code.value.endswith(f"?history={kept.key}") for code in first.code)
    check(other_browser, "Fox 2000 Pictures released the film Soul Food!")
    assert checked_before(other_browser)[0] == line  # shared: found (the exact repeat first), and linked to
    check(other_browser, "Edinburgh is the capital of Scotland.")
    assert not other_browser.exception and verdicts(other_browser) and not checked_before(other_browser)
    reopened = open_frame({"history": kept.key})  # the link, in the other browser
    assert any(note.value.startswith("Re-opened from History") for note in reopened.info)
    assert reopened.caption and any(
        c.value.replace("\\", "") == "Claim: Fox 2000 Pictures released the film Soul Food." for c in reopened.caption
    )


def test_another_browser_opens_no_unshared_check_by_its_key_or_its_row_number(app_env, data_dir):
    mine = check(open_frame(), "Fox 2000 Pictures released the film Soul Food.")
    (kept,) = history_of(data_dir).search()
    for address in (kept.key, str(kept.entry_id), "1", "2"):
        theirs = open_frame({"history": address})
        assert not theirs.exception and not verdicts(theirs)
        assert any("not in the history, or it was not shared" in w.value for w in theirs.warning)
    mine.switch_page("pages/history.py").run()  # its maker opens it
    press(mine, "Open in Verify")
    assert any(note.value.startswith("Re-opened from History") for note in mine.info)


def test_verify_says_an_annotated_claim_was_checked_before(app_env, data_dir):
    store = AnnotationStore(data_dir / "annotations.sqlite")
    item = store.add_claim("Jaws is a film by Steven Spielberg.")
    store.save(item, "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)]], "tester")
    at = check(open_frame(), "jaws is a film by steven spielberg")
    assert checked_before(at) == [
        (
            ":material/replay: **Checked before:** “Jaws is a film by Steven Spielberg.”, Supported (annotated), "
            f"just now · [open it in Annotate ↗](./annotate?item={item})"
        )
    ]


def test_a_batch_names_the_claims_checked_before(open_page, data_dir):
    app = run_batch_page(
        open_page,
        "Fox 2000 Pictures released the film Soul Food.\nJaws is a film by Steven Spielberg."
        "\nThe film Soul Food was released by Fox 2000 Pictures.\n",
    )
    assert not app.exception
    table = app.dataframe[0].value
    assert list(table.columns)[-2:] == ["checked before", "open"]
    assert list(table["checked before"].fillna("")) == ["", "", "Fox 2000 Pictures released the film Soul Food."]


# --- check a text (issue 36, item 1) -----------------------------------------------------------------------------

NEWS = """Films and their makers

Jaws is a 1975 thriller film directed by Steven Spielberg. I think it is <b>wonderful</b>. Spielberg was born in
Cincinnati. Who could forget the shark? Soul Food was released by Fox 2000 Pictures in 1997."""


def find_sentences_on_page(open_page, text: str) -> AppTest:
    app = open_page("check_text")
    app.text_area(key="_text_pasted").input(text)
    return press(app, "Find the sentences to check")


def until_checked(app: AppTest) -> AppTest:
    """The page drawn again until its check has ended."""
    for _ in range(120):
        if app.success or app.exception:
            return app
        time.sleep(0.5)
        app.run()
    raise AssertionError("the check did not end in a minute")


def sentence_cards(app: AppTest) -> list[str]:
    """The checked sentences' expanders, by sentence (the ClaimReview author's expander aside)."""
    return [e.label.split(" · ")[1] for e in app.expander if " · " in e.label]


def test_check_a_text_picks_the_check_worthy_sentences_checks_them_and_marks_them(open_page, data_dir):
    app = find_sentences_on_page(open_page, NEWS)
    assert not app.exception
    choice = app.dataframe[0].value
    assert list(choice.columns) == ["check", "sentence", "why"]
    assert list(choice["check"]) == [False, True, False, True, False, True]
    assert choice["why"][2] == "an opinion (think)" and choice["why"][4] == "a question"
    until_checked(press(app, "Check 3 sentences"))
    assert not app.exception
    summary = app.success[0].value
    assert summary.startswith("3 sentences checked: ") and "SUPPORTS" not in summary
    assert (
        sum(int(n) for n in __import__("re").findall(r"(\d+) (?:Supported|Refuted|Not enough info|Undecided)", summary))
        == 3
    )
    marked = next(md.value for md in app.markdown if "Spielberg was born" in md.value)
    assert marked.count("-background[") == 3 and "(1)**]" in marked and "(3)**]" in marked
    assert r"I think it is \<b\>wonderful\</b\>\." in marked  # the user's HTML escaped, never rendered
    assert sentence_cards(app) == [
        r"Jaws is a 1975 thriller film directed by Steven Spielberg\.",
        r"Spielberg was born in Cincinnati\.",
        r"Soul Food was released by Fox 2000 Pictures in 1997\.",
    ]
    assert dict(app.query_params)["text"] and history_of(data_dir).count() == 3


def test_a_text_checked_again_marks_its_sentences_checked_before_and_downloads_its_claimreviews(
    open_page, data_dir, downloads
):
    from tests.jsonld import expand

    first = until_checked(press(find_sentences_on_page(open_page, NEWS), "Check 3 sentences"))
    assert not any("checked before" in c.value for c in first.caption)
    assert not [md for md in first.markdown if "Checked before:" in md.value]
    first.text_area(key="_text_pasted").input(NEWS + " ")  # the same browser checks it again
    again = until_checked(press(press(first, "Find the sentences to check"), "Check 3 sentences"))
    assert not again.exception
    assert any(c.value.startswith("3 sentences checked before") for c in again.caption)
    elsewhere = until_checked(press(find_sentences_on_page(open_page, NEWS), "Check 3 sentences"))
    assert not any("checked before" in c.value for c in elsewhere.caption)  # another browser's checks are its own
    lines = [md.value for md in again.markdown if "Checked before:" in md.value]
    assert len(lines) == 3 and any("Spielberg was born in Cincinnati" in line for line in lines)
    document = __import__("json").loads(downloads["claimreviews.jsonld"].decode("utf-8"))
    assert [node["claimReviewed"] for node in document["@graph"]] == [
        "Jaws is a 1975 thriller film directed by Steven Spielberg.",
        "Spielberg was born in Cincinnati.",
        "Soul Food was released by Fox 2000 Pictures in 1997.",
    ]
    expanded, dropped = expand(document)
    assert len(expanded) == 3 and not dropped


def test_check_a_text_checks_the_sentences_the_person_ticks_and_opens_a_card(app_env, data_dir):
    app = open_frame()
    app.switch_page("pages/check_text.py").run()  # through the frame: Verify is a page of its navigation
    app.text_area(key="_text_pasted").input(NEWS)
    press(app, "Find the sentences to check")
    draft = app.session_state["text_draft"]
    app.session_state[f"text_choice_{draft.draft_id}"] = {
        "edited_rows": {1: {"check": False}, 2: {"check": True}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    until_checked(press(app, "Check 3 sentences"))
    assert not app.exception
    assert sentence_cards(app) == [
        r"I think it is \<b\>wonderful\</b\>\.",
        r"Spielberg was born in Cincinnati\.",
        r"Soul Food was released by Fox 2000 Pictures in 1997\.",
    ]
    entry = history_of(data_dir).search("wonderful")[0]
    press(app, "Open its verdict card")
    assert not app.exception
    assert app.title[0].value == "Verify a claim" and dict(app.query_params) == {"history": entry.key}
    assert any(note.value.startswith("Re-opened from History") for note in app.info)
    assert history_of(data_dir).count() == 3  # the card as it was checked, not checked again


@pytest.mark.parametrize(
    "text, why",
    [
        (
            "Thank you all so much! I think we should do better. Will it rain?",
            ("None of the text's 3 sentences looks worth checking"),
        ),
        ("   ", "Can't read the text: The text is empty"),
    ],
)
def test_check_a_text_says_why_it_has_nothing_to_check(open_page, text, why):
    app = find_sentences_on_page(open_page, text)
    if app.error:
        assert app.error[0].value.replace("\\", "").startswith(why)
        return
    assert [b.disabled for b in app.button if b.label.startswith("Check ")] == [True]
    assert app.info[0].value.startswith(why)


def test_check_a_text_shows_what_a_sentence_opening_with_a_pronoun_is_checked_as(open_page):
    app = find_sentences_on_page(open_page, "Steven Spielberg directed Jaws in 1975. He was born in Cincinnati.")
    table = app.dataframe[0].value
    assert list(table["checked as"]) == ["", "Steven Spielberg was born in Cincinnati."]
    app = find_sentences_on_page(open_page, "Jaws is a 1975 film by Steven Spielberg.")
    assert "checked as" not in app.dataframe[0].value.columns  # no column when every sentence is checked as written


def test_check_a_text_s_why_column_comes_before_the_sentence_and_its_cells_wrap(open_page):
    app = find_sentences_on_page(open_page, "Marie Curie won two Nobel Prizes in 1903 and 1911 in Paris, France.")
    table = app.dataframe[0].proto
    assert list(table.column_order) == ["check", "why", "sentence"]  # shown whole at 1280 px, not cut off last
    assert table.row_height > 64  # Streamlit wraps a cell's text in rows taller than 4rem
    why = json.loads(table.columns)["why"]
    assert why["label"] == "why (not) picked" and why["width"] >= 200


def test_check_a_text_reads_an_uploaded_html_file_without_its_scripts(open_page):
    app = open_page("check_text")
    assert app.file_uploader[0].proto.max_upload_size_mb == 1  # the widget says 1 MB, as the reader refuses more
    page = b"<html><script>alert('SCRIPT-1')</script><p>Jaws is a 1975 film by Steven Spielberg.</p></html>"
    app.file_uploader[0].set_value(("article.html", page, "text/html")).run()
    press(app, "Find the sentences to check")
    assert not app.exception
    assert list(app.dataframe[0].value["sentence"]) == ["Jaws is a 1975 film by Steven Spielberg."]


# --- the presenter's view, the models loaded at the server's start (issue 48, items 3 and 5) ------------------------


def test_the_presenter_s_view_keeps_the_card_and_the_evidence_used_in_its_address_and_its_toggle(
    app_env, app_corpus, data_dir
):
    at = open_frame({"claim": MUNICH_CLAIM, "corpus": app_corpus, "present": "1"})
    assert not at.exception and verdicts(at) and at.toggle(key="_present").value
    assert dict(at.query_params) == {"claim": MUNICH_CLAIM, "corpus": app_corpus, "present": "1"}
    assert not at.main.expander and not at.get("download_button")  # no details, other evidence, downloads
    assert at.table and any("font-size: 24px" in str(h.proto) for h in at.get("html"))  # its stylesheet
    check(at, "Edinburgh is the capital of Scotland.")  # a new check's permalink keeps the view
    assert dict(at.query_params)["present"] == "1" and at.toggle(key="_present").value
    kept = history_of(data_dir).count()
    at.toggle(key="_present").set_value(False).run()
    assert not at.exception and "present" not in dict(at.query_params)
    assert dict(at.query_params)["claim"] == "Edinburgh is the capital of Scotland."
    assert history_of(data_dir).count() == kept  # leaving the view does not check the claim again
    assert any(e.label.startswith("Details") for e in at.main.expander) and at.get("download_button")
    assert not any("font-size: 24px" in str(h.proto) for h in at.get("html"))
    at.toggle(key="_present").set_value(True).run()
    assert dict(at.query_params)["present"] == "1" and history_of(data_dir).count() == kept


def test_the_checker_loaded_at_the_server_s_start_is_the_one_the_first_visitor_uses(app_env, monkeypatch):
    from pages import resources

    loads, open_checker = [], resources._open_checker

    def counted(corpus: str, verifier_model: str):
        loads.append(corpus)
        return open_checker(corpus, verifier_model)

    monkeypatch.setattr(resources, "_open_checker", counted)
    resources._checker_loading.clear()
    resources.start_loading_first_checker()  # as app_server.py does when the server starts, before any visit
    at = check(open_frame(), "Jaws is a film.")
    assert not at.exception and verdicts(at)
    assert loads == ["fixture"]  # the first visitor's check used that load, and nothing loaded twice


def test_a_text_check_and_an_evaluation_open_in_another_browser_only_once_shared(open_page, tmp_path):
    """Issue 51, item 6: Check a text and Evaluate keep their runs as Batch does (the same gate: another browser is
    told the run is its maker's until shared)."""
    text = until_checked(press(find_sentences_on_page(open_page, NEWS), "Check 3 sentences"))
    evaluation = run_evaluate_page(open_page, tmp_path, "labelled.csv", LABELLED_CSV)
    for page, name, mine in (("check_text", "text", text), ("evaluate", "evaluation", evaluation)):
        job = dict(mine.query_params)[name]
        theirs = open_page(page, query_params={name: job})
        assert any("made in another browser and not shared" in w.value for w in theirs.warning), page
        assert name not in dict(theirs.query_params)
        press(mine, "Share link")
        theirs = open_page(page, query_params={name: job})
        assert not any("made in another browser" in w.value for w in theirs.warning), page
