"""Every page of the app, driven with Streamlit's AppTest on the fixture corpus and a tiny model."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from fever_core.annotation import AnnotationStore
from fever_core.settings import PROJECT_ROOT
from fever_core.verification.decision import load_decision_rule

from ..conftest import CLAIMS


@pytest.fixture
def open_page(monkeypatch, settings, workspace, tiny_nli_model):
    """A page of the app with the fixture corpus chosen in its sidebar.

    Pages are run one by one: AppTest does not re-run a ``st.navigation`` frame after the first run.
    """
    monkeypatch.setenv("FEVER_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("FEVER_VERIFIER_MODEL", str(tiny_nli_model))

    def open_page(name: str) -> AppTest:
        at = AppTest.from_file(str(PROJECT_ROOT / "pages" / f"{name}.py"), default_timeout=180)
        at.session_state["corpus"] = "fixture"
        return at.run()

    return open_page


@pytest.fixture
def app(open_page):
    return open_page("verify")


def test_the_frame_opens_on_verify_with_the_shared_sidebar(monkeypatch, settings):
    monkeypatch.setenv("FEVER_DATA_DIR", str(settings.data_dir))
    at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert at.title[0].value == "Verify a claim"
    assert at.sidebar.selectbox(key="_corpus").value == "embedded"


def test_verify_shows_a_verdict_and_evidence_rows(app):
    app.text_area(key="claim_text").input("Fox 2000 Pictures released the film <b>Soul Food</b>.")
    app.button[0].click().run()
    assert not app.exception
    assert any(md.value.startswith("### Verdict: ") for md in app.markdown)
    evidence = app.table[0].value
    assert len(evidence) >= 1 and {"line", "sentence", "score", "supports", "hop"} <= set(evidence.columns)
    assert "Soul Food (film)" in set(evidence.index)
    assert app.query_params["claim"] == "Fox 2000 Pictures released the film <b>Soul Food</b>."


def test_threshold_override_starts_at_the_verifier_s_own_rule(app, tiny_nli_model):
    rule = load_decision_rule(tiny_nli_model).nei_threshold
    assert app.sidebar.slider(key="_nei_threshold").value == (0.5 if rule is None else rule)


def test_verify_explains_an_empty_claim(app):
    app.text_area(key="claim_text").input("   ")
    app.button[0].click().run()
    assert not app.exception
    assert any("empty" in w.value for w in app.warning)


def test_annotation_is_saved_and_exported(open_page, settings):
    app = open_page("annotate")
    app.text_input(key="annotator").input("tester").run()
    app.text_input[1].input("Jaws was directed by a man born in Ohio.")
    app.button[0].click().run()  # queue it
    assert not app.exception
    box = next(cb for cb in app.checkbox if cb.label.startswith("[0] Jaws is a 1975"))
    box.check().run()
    app.radio(key=next(r.key for r in app.radio if r.key.startswith("label-"))).set_value("SUPPORTS").run()
    next(b for b in app.button if b.label == "Save").click().run()
    assert not app.exception
    store = AnnotationStore(settings.data_dir / "annotations.sqlite")
    saved = [a for a in store.annotations() if a.claim == "Jaws was directed by a man born in Ohio."]
    assert saved and saved[-1].label == "SUPPORTS" and ("Jaws_-LRB-film-RRB-", 0) in saved[-1].evidence_sets[0]
    export = next(d for d in app.get("download_button") if "annotations" in d.proto.label)
    assert "Download" in export.proto.label


def test_evaluate_shows_metrics(open_page, claims_file):
    app = open_page("evaluate")
    app.text_input[0].input(str(claims_file))
    app.button[0].click().run()
    assert not app.exception
    labels = {m.label for m in app.metric}
    assert {"fever score", "label accuracy", "doc recall at 5", "sentence recall at 5"} <= labels
    assert len(app.dataframe[0].value) == len(CLAIMS)


def test_corpus_search_and_read(open_page):
    app = open_page("corpus")
    assert {m.label: m.value for m in app.metric}["Pages"] == "9"
    app.text_input(key="corpus_query").input("Spielberg")
    app.button[0].click().run()
    assert not app.exception
    assert "Steven Spielberg" in set(app.dataframe[0].value["page"])
    next(b for b in app.button if b.label == "Open").click().run()
    assert any("Spielberg" in t.value for t in app.text)


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
    assert app.sidebar.selectbox(key="_corpus").value == "wikipedia"
    app.text_area(key="claim_text").input("Ada Lovelace worked on the Analytical Engine.")
    app.button[0].click().run()
    assert not app.exception and not app.warning
    assert any(md.value.startswith("### Verdict: ") for md in app.markdown)
    assert "Ada Lovelace" in set(app.table[0].value.index)
    assert any(r.get("list") == "search" for r in recorded_wikipedia.requests)

    corpus = open_live_page("corpus", recorded_wikipedia.url)
    assert int({m.label: m.value for m in corpus.metric}["Pages"]) >= 2
    corpus.text_input(key="corpus_query").input("Analytical Engine")
    corpus.button[0].click().run()
    assert "Analytical Engine" in set(corpus.dataframe[0].value["page"])


def test_verify_on_live_wikipedia_offline_warns_and_still_answers(open_live_page, offline_wikipedia_url):
    app = open_live_page("verify", offline_wikipedia_url)
    app.text_area(key="claim_text").input("Ada Lovelace worked on the Analytical Engine.")
    app.button[0].click().run()
    assert not app.exception
    assert any("No Wikipedia pages are cached yet" in w.value for w in app.warning)
    assert any(md.value == "### Verdict: :gray[Not enough info]" for md in app.markdown)
