"""What every page shares: the sidebar settings, the checker and stores loaded once, text display
that never interprets corpus or user text, and the credits footer. No retrieval or model logic."""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from fever_core.corpus.build import LIVE_CORPUS, list_corpora
from fever_core.device import limit_cpu_threads
from fever_core.settings import SHARED_DATA_DIR, Settings
from fever_core.verification.decision import load_decision_rule

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def plain(text: str) -> str:
    """Escape text for Streamlit markdown so it shows as written (HTML and markdown stay literal)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


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


def _keep(key: str) -> None:
    st.session_state[key] = st.session_state["_" + key]


def _widget(factory, label: str, key: str, default, **kwargs):
    """A widget whose value survives switching pages: the widget's own state (``_key``) is
    restored from ``key`` when Streamlit has dropped it, and copied back on every change."""
    if "_" + key not in st.session_state:
        st.session_state["_" + key] = st.session_state.get(key, default)
    value = factory(label, key="_" + key, on_change=_keep, args=(key,), **kwargs)
    st.session_state[key] = value
    return value


def corpus_label(name: str) -> str:
    """How a corpus is named in the app: the live one says it is live."""
    return f"{name} (live)" if name == LIVE_CORPUS else name


def sidebar_settings() -> UiSettings:
    """Draw the sidebar settings (the same on every page, kept across pages) and return them."""
    defaults = Settings.from_env()
    sidebar = st.sidebar
    sidebar.header("Settings")
    corpus = _widget(
        sidebar.selectbox, "Corpus", "corpus", defaults.corpus, options=list_corpora(defaults.data_dir),
        format_func=corpus_label,
        help="embedded: 10,033 Wikipedia lead summaries. fever-dev / fm2: benchmark pages plus the summaries. "
        f"{LIVE_CORPUS} (live): searches Wikipedia for each claim and keeps the pages it fetches, so they work "
        "offline later. Others: corpora made from FEVER-format files.",
    )
    with sidebar.expander("Retrieval and verdict", expanded=False):
        pages_k = _widget(st.slider, "Pages", "pages_k", defaults.pages_k, min_value=1, max_value=10)
        sentences_k = _widget(st.slider, "Evidence sentences", "sentences_k", defaults.sentences_k, min_value=1, max_value=10)
        two_hop = _widget(st.toggle, "Follow links (two-hop evidence)", "two_hop", defaults.two_hop)
        two_hop_threshold = _widget(st.slider, "Two-hop: minimum first-hop score", "two_hop_threshold",
                                    defaults.two_hop_threshold, min_value=0.0, max_value=1.0, step=0.05)
        min_evidence_score = _widget(st.slider, "Minimum evidence score", "min_evidence_score", 0.25,
                                     min_value=0.0, max_value=1.0, step=0.05,
                                     help="Evidence scoring below this is shown but not used for the verdict.")
        custom = _widget(st.checkbox, "Override the model's NOT ENOUGH INFO threshold", "custom_threshold", False,
                         help="The shipped verdict is learned from all top evidence (the sentences' stances, mixed "
                         "with a joint verifier that reads them together); with this on, "
                         "the best trustworthy sentence decides by the threshold below instead.")
        model_threshold = load_decision_rule(defaults.verifier_model).nei_threshold
        nei_threshold = _widget(st.slider, "NOT ENOUGH INFO threshold", "nei_threshold",
                                0.5 if model_threshold is None else model_threshold,
                                min_value=0.0, max_value=1.0, step=0.01, disabled=not custom,
                                help="A stance with P(NEI) at or above this does not decide the verdict.")
        verifier_model = _widget(st.text_input, "Verifier model (path or hub id)", "verifier_model", defaults.verifier_model)
    with sidebar.expander("Add a corpus from a FEVER wiki-pages file"):
        with st.form("new_corpus"):
            name = st.text_input("Name", placeholder="my-pages")
            path = st.text_input("File path (FEVER wiki-pages jsonl)")
            with_embedded = st.checkbox("Add the embedded summaries as distractors", value=True)
            if st.form_submit_button("Build"):
                build_corpus(name.strip(), path.strip(), with_embedded)
    return UiSettings(corpus, verifier_model, pages_k, sentences_k, two_hop, two_hop_threshold,
                      min_evidence_score, nei_threshold if custom else None)


def build_corpus(name: str, path: str, with_embedded: bool) -> None:
    """Build a corpus from a FEVER file, showing progress and any error in the sidebar."""
    from fever_core.workspace import Workspace

    if not name or not path:
        st.sidebar.warning("Give the corpus a name and the path of a FEVER wiki-pages jsonl file.")
        return
    specs = [f"fever:{path}"] + (["embedded"] if with_embedded else [])
    with st.sidebar.status(f"Building {name}…") as status:
        try:
            Workspace.open(name, Settings.from_env(), specs=specs, progress=False)
            status.update(label=f"Built {name}: choose it above.", state="complete")
        except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
            status.update(label=f"Can't build {name}: {exc}", state="error")


@st.cache_resource(show_spinner="Loading the corpus and models (the first time builds the corpus index)…")
def load_checker(corpus: str, verifier_model: str):
    """One checker per (corpus, model), shared by all sessions."""
    from fever_core.pipeline import Checker

    settings = Settings.from_env(verifier_model=verifier_model)
    limit_cpu_threads(settings.app_cpu_threads)
    return Checker.open(corpus, settings, progress=False)


@st.cache_resource(show_spinner="Opening the corpus…")
def load_workspace(corpus: str):
    """One workspace per corpus, shared by all sessions (the live one is also the checkers')."""
    from fever_core.workspace import Workspace

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)
    return Workspace.open(corpus, settings, progress=False)


@st.cache_resource
def load_annotations():
    from fever_core.annotation import AnnotationStore

    return AnnotationStore(Settings.from_env().data_dir / "annotations.sqlite")


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
