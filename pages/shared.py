"""What every page shares: the sidebar settings, the checker and stores loaded once, text display
that never interprets corpus or user text, and the credits footer. No retrieval or model logic."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import streamlit as st

from fever_core.corpus.build import LIVE_CORPUS, list_corpora
from fever_core.device import limit_cpu_threads
from fever_core.settings import SHARED_DATA_DIR, Settings
from fever_core.verification.decision import load_decision_rule

if TYPE_CHECKING:
    from fever_core.corpus.store import CorpusStore

# Lazy loads (spaCy, the models' first passes) happen on a first check; the app makes this one itself.
WARM_UP_CLAIM = "Stanley Kubrick directed 2001: A Space Odyssey."
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
WIKIPEDIA_ARTICLE = "https://en.wikipedia.org/wiki/"
FM2_SOURCE = "fever:fm2-pages.jsonl"


def plain(text: str) -> str:
    """Escape text for Streamlit markdown so it shows as written (HTML and markdown stay literal)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


@dataclass(frozen=True)
class WikipediaLink:
    """A corpus page's article on Wikipedia, and how old the corpus's text of it is ("" when it is
    a recent lead, as in the embedded and live corpora)."""

    url: str
    text_age: str

    def markdown(self) -> str:
        return f"[Wikipedia ↗]({self.url})" + (f" · corpus has the {self.text_age}" if self.text_age else "")


def wikipedia_url(title: str) -> str:
    """The English Wikipedia address of a page title: spaces as underscores, URL-quoted."""
    return WIKIPEDIA_ARTICLE + urllib.parse.quote(title.replace(" ", "_"))


def text_age(source: str) -> str:
    """How old the corpus's text of a page from ``source`` is: pages from FEVER-format files are
    FEVER's Wikipedia of 2017, except Fool Me Twice's (2020); "" for the others."""
    if source == FM2_SOURCE:
        return "2020 text (Fool Me Twice)"
    return "2017 text (FEVER)" if source.startswith("fever:") else ""


def wikipedia_links(store: CorpusStore, pages: Iterable[tuple[str, str]]) -> dict[str, WikipediaLink]:
    """The Wikipedia link of each ``(page_id, title)``, by page id."""
    links: dict[str, WikipediaLink] = {}
    for page_id, title in pages:
        if page_id not in links:
            page = store.page(page_id)
            links[page_id] = WikipediaLink(wikipedia_url(title), text_age(page.source if page else ""))
    return links


@dataclass
class UiSettings:
    """The sidebar's choices."""

    corpus: str
    verifier_model: str
    pages_k: int
    sentences_k: int
    two_hop: bool
    two_hop_threshold: float
    min_evidence_score: float
    nei_threshold: float | None


def synced_widget(
    factory: Callable[..., Any], label: str, key: str, value: Any, save: Callable[[Any], None], **kwargs
) -> Any:
    """A widget that shows ``value`` on every run and hands each change the person makes to ``save``.

    Streamlit drops the state of a widget that a run does not draw (another page, a closed queue
    item), and gives a widget on another page another identity; so the value lives outside the
    widget (in a plain session key or a draft) and is written back into the widget before it is
    drawn, when the widget shows something else (only then: a write is sent to the browser, where it
    could undo a change the person is making meanwhile).
    """
    if st.session_state.get(key) != value:
        st.session_state[key] = value
    return factory(label, key=key, on_change=lambda: save(st.session_state[key]), **kwargs)


def setting_defaults() -> dict[str, Any]:
    """Each sidebar setting's value before the person changes it: the environment's settings and
    the default verifier's own decision rule."""
    settings = Settings.from_env()
    rule = load_decision_rule(settings.verifier_model)
    return {
        "corpus": settings.corpus, "verifier_model": settings.verifier_model, "pages_k": settings.pages_k,
        "sentences_k": settings.sentences_k, "two_hop": settings.two_hop,
        "two_hop_threshold": settings.two_hop_threshold,
        "min_evidence_score": rule.min_evidence_score, "custom_threshold": False,
        "nei_threshold": 0.5 if rule.nei_threshold is None else rule.nei_threshold,
    }


def _setting(name: str, defaults: dict[str, Any]) -> Any:
    return st.session_state.get(name, defaults[name])


def _setting_widget(factory: Callable[..., Any], label: str, name: str, defaults: dict[str, Any], **kwargs) -> Any:
    """A sidebar widget for setting ``name``, kept in ``session_state[name]`` (the widget's own key is ``_name``)."""
    save = partial(st.session_state.__setitem__, name)
    return synced_widget(factory, label, "_" + name, _setting(name, defaults), save, **kwargs)


def current_settings() -> UiSettings:
    """The sidebar's choices as last made, from any page (the frame draws the sidebar, ``app.py``)."""
    defaults = setting_defaults()
    chosen = {name: _setting(name, defaults) for name in defaults}
    return UiSettings(
        chosen["corpus"], chosen["verifier_model"], chosen["pages_k"], chosen["sentences_k"], chosen["two_hop"],
        chosen["two_hop_threshold"], chosen["min_evidence_score"],
        chosen["nei_threshold"] if chosen["custom_threshold"] else None,
    )


def corpus_label(name: str) -> str:
    """How a corpus is named in the app: the live one says it is live."""
    return f"{name} (live)" if name == LIVE_CORPUS else name


def sidebar_settings() -> UiSettings:
    """Draw the sidebar settings and return them. The frame (``app.py``) draws them on every run,
    whatever the page, so they keep their values when the person moves between pages."""
    defaults = setting_defaults()
    sidebar = st.sidebar
    sidebar.header("Settings")
    corpora = list_corpora(Settings.from_env().data_dir)
    if _setting("corpus", defaults) not in corpora:
        st.session_state["corpus"] = corpora[0]
    _setting_widget(
        sidebar.selectbox, "Corpus", "corpus", defaults, options=corpora, format_func=corpus_label,
        help="embedded: 10,033 Wikipedia lead summaries. fever-dev / fm2: benchmark pages plus the summaries. "
        f"{LIVE_CORPUS} (live): searches Wikipedia for each claim and keeps the pages it fetches, so they work "
        "offline later. Others: corpora made from FEVER-format files.",
    )
    with sidebar.expander("Retrieval and verdict", expanded=False):
        _setting_widget(st.slider, "Pages", "pages_k", defaults, min_value=1, max_value=10)
        _setting_widget(st.slider, "Evidence sentences", "sentences_k", defaults, min_value=1, max_value=10)
        _setting_widget(st.toggle, "Follow links (two-hop evidence)", "two_hop", defaults)
        _setting_widget(st.slider, "Two-hop: minimum first-hop score", "two_hop_threshold", defaults,
                        min_value=0.0, max_value=1.0, step=0.05)
        _setting_widget(st.slider, "Minimum evidence score", "min_evidence_score", defaults,
                        min_value=0.0, max_value=1.0, step=0.05,
                        help="Evidence scoring below this is shown but not used for the verdict.")
        custom = _setting_widget(
            st.checkbox, "Override the model's NOT ENOUGH INFO threshold", "custom_threshold", defaults,
            help="The shipped verdict is learned from all top evidence (the sentences' stances, mixed "
            "with a joint verifier that reads them together); with this on, "
            "the best trustworthy sentence decides by the threshold below instead.")
        _setting_widget(st.slider, "NOT ENOUGH INFO threshold", "nei_threshold", defaults,
                        min_value=0.0, max_value=1.0, step=0.01, disabled=not custom,
                        help="A stance with P(NEI) at or above this does not decide the verdict.")
        _setting_widget(st.text_input, "Verifier model (path or hub id)", "verifier_model", defaults)
    with sidebar.expander("Add a corpus from a FEVER wiki-pages file"), st.form("new_corpus"):
        name = st.text_input("Name", placeholder="my-pages")
        path = st.text_input("File path (FEVER wiki-pages jsonl)")
        with_embedded = st.checkbox("Add the embedded summaries as distractors", value=True)
        if st.form_submit_button("Build"):
            build_corpus(name.strip(), path.strip(), with_embedded)
    return current_settings()


def build_corpus(name: str, path: str, with_embedded: bool) -> None:
    """Build a corpus from a FEVER file, showing progress and any error in the sidebar."""
    from fever_core.workspace import open_workspace

    if not name or not path:
        st.sidebar.warning("Give the corpus a name and the path of a FEVER wiki-pages jsonl file.")
        return
    specs = [f"fever:{path}"] + (["embedded"] if with_embedded else [])
    with st.sidebar.status(plain(f"Building {name}…")) as status:
        try:
            open_workspace(name, Settings.from_env(), specs=specs, progress=False)
            status.update(label=plain(f"Built {name}: choose it above."), state="complete")
        except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
            status.update(label=plain(f"Can't build {name}: {exc}"), state="error")


@st.cache_resource(show_spinner="Loading the corpus and models (the first time builds the corpus index)…")
def load_checker(corpus: str, verifier_model: str):
    """One checker per (corpus, model), shared by all sessions, warmed up by one check so that the
    person's first check is as fast as the next (the live corpus is not: its check would fetch)."""
    from fever_core.pipeline import Checker

    settings = Settings.from_env(verifier_model=verifier_model)
    limit_cpu_threads(settings.app_cpu_threads)
    checker = Checker.open(corpus, settings, progress=False)
    if corpus != LIVE_CORPUS:
        checker.check(WARM_UP_CLAIM)
    return checker


def preload_checker(ui: UiSettings) -> None:
    """Load the checker for the sidebar's choices now (a spinner shows while it loads), not on the
    first Check. One that can't load is left to the page that needs it, which says why."""
    with suppress(Exception):  # checker_or_stop reports it where a checker is needed
        load_checker(ui.corpus, ui.verifier_model)


@st.cache_resource(show_spinner="Opening the corpus…")
def load_workspace(corpus: str):
    """One workspace per corpus, shared by all sessions (the live one is also the checkers')."""
    from fever_core.workspace import open_workspace

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)
    return open_workspace(corpus, settings, progress=False)


def load_annotations():
    """The annotations database of the data folder, one store per folder, shared by all sessions."""
    return _annotation_store(str(Settings.from_env().data_dir / "annotations.sqlite"))


@st.cache_resource
def _annotation_store(path: str):
    from fever_core.annotation import AnnotationStore

    return AnnotationStore(path)


def checker_or_stop(ui: UiSettings):
    """The checker for the sidebar's choices, or an error box and a stop when it can't load."""
    try:
        return load_checker(ui.corpus, ui.verifier_model)
    except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
        st.error(f"The checker can't start: {exc}")
        st.stop()


def check_options(ui: UiSettings):
    from fever_core.pipeline import CheckOptions

    return CheckOptions(
        pages_k=ui.pages_k, sentences_k=ui.sentences_k, two_hop=ui.two_hop,
        two_hop_threshold=ui.two_hop_threshold, min_evidence_score=ui.min_evidence_score,
        nei_threshold=ui.nei_threshold,
    )


def shared_claims_file(corpus: str) -> str:
    """The benchmark claims file that goes with a corpus, when ../shared is there ("" otherwise)."""
    name = {"fever-dev": "fever-dev.jsonl", "fm2": "fm2-dev.jsonl"}.get(corpus)
    path = SHARED_DATA_DIR / "claims" / name if name else None
    return str(path) if path and path.is_file() else ""


def footer() -> None:
    st.divider()
    st.caption(
        "Text from Wikipedia, CC BY-SA. Benchmark data: FEVER (Thorne et al. 2018, CC BY-SA 3.0), "
        "Fool Me Twice (Eisenschlos et al. 2021, Apache-2.0, text CC BY-SA). The verifier was trained on "
        "FEVER, SNLI (CC BY-SA 4.0), Climate-FEVER and MultiNLI stress tests: see its model card."
    )
