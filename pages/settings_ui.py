"""The sidebar settings and the permalink that carries them: drawn by the frame (``app.py``) on every run, read by
any page (:func:`current_settings`), turned into a check's options (:func:`check_options`), written into Verify's
address and restored from it.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from fever_core.common import CHECK_SETTING, CHECK_SETTINGS, Settings
from fever_core.corpus import LIVE_CORPUS, list_corpora
from fever_core.verification import load_decision_rule
from pages.display import corpus_label, plain, synced_widget, verifier_name, verifier_path

SETTING_LIMITS = {setting.name: setting.limits for setting in CHECK_SETTINGS if setting.limits is not None}
"""Each sidebar slider's range, from the declaration: the sliders draw it, a permalink's values are held to it."""


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
    number_check: bool = True


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
        "number_check": CHECK_SETTING["number_check"].default,
    }


def _setting(name: str, defaults: dict[str, Any]) -> Any:
    return st.session_state.get(name, defaults[name])


def _setting_widget(factory: Callable[..., Any], label: str, name: str, defaults: dict[str, Any], **kwargs) -> Any:
    """A sidebar widget for setting ``name``, kept in ``session_state[name]`` (the widget's own key is ``_name``)."""
    save = partial(st.session_state.__setitem__, name)
    return synced_widget(factory, label, "_" + name, _setting(name, defaults), save, **kwargs)


def _setting_slider(name: str, defaults: dict[str, Any], **kwargs) -> Any:
    """A sidebar slider for the per-check setting ``name``: its label, range (:data:`SETTING_LIMITS`), step and help
    as :data:`~fever_core.common.settings.CHECK_SETTINGS` declares them."""
    setting = CHECK_SETTING[name]
    low, high = SETTING_LIMITS[name]
    described = setting.describe()
    return _setting_widget(st.slider, setting.label, name, defaults, min_value=low, max_value=high,
                           step=setting.type(setting.step), help=described[:1].upper() + described[1:], **kwargs)


def current_settings() -> UiSettings:
    """The sidebar's choices as last made, from any page (the frame draws the sidebar, ``app.py``)."""
    defaults = setting_defaults()
    chosen = {name: _setting(name, defaults) for name in defaults}
    return UiSettings(
        chosen["corpus"], chosen["verifier_model"], chosen["pages_k"], chosen["sentences_k"], chosen["two_hop"],
        chosen["two_hop_threshold"], chosen["min_evidence_score"],
        chosen["nei_threshold"] if chosen["custom_threshold"] else None, chosen["number_check"],
    )


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
        _setting_slider("pages_k", defaults)
        _setting_slider("sentences_k", defaults)
        _setting_widget(st.toggle, CHECK_SETTING["two_hop"].label, "two_hop", defaults)
        _setting_slider("two_hop_threshold", defaults)
        _setting_slider("min_evidence_score", defaults)
        custom = _setting_widget(
            st.checkbox, "Override the model's NOT ENOUGH INFO threshold", "custom_threshold", defaults,
            help="The shipped verdict is learned from all top evidence (the sentences' stances, mixed "
            "with a joint verifier that reads them together); with this on, "
            "the best trustworthy sentence decides by the threshold below instead.")
        _setting_slider("nei_threshold", defaults, disabled=not custom)
        number_check = CHECK_SETTING["number_check"]
        _setting_widget(st.toggle, number_check.label, "number_check", defaults,
                        help=number_check.help[:1].upper() + number_check.help[1:] + ".")
        synced_widget(st.text_input, "Verifier model (name, folder or hub id)", "_verifier_model",
                      verifier_name(_setting("verifier_model", defaults)),
                      lambda typed: st.session_state.__setitem__("verifier_model", verifier_path(typed)),
                      help="The shipped verifier is “shipped (MPNet)”; “shipped, small (MiniLM)” is faster. Versions "
                      "made on Models go by their names (verifier-v1...); any other folder by its path, relative to "
                      "the project or absolute.")
    with sidebar.expander("Add a corpus from a FEVER wiki-pages file"), st.form("new_corpus"):
        name = st.text_input("Name", placeholder="my-pages")
        path = st.text_input("File path (FEVER wiki-pages jsonl)")
        with_embedded = st.checkbox("Add the embedded summaries as distractors", value=True)
        if st.form_submit_button("Build"):
            build_corpus(name.strip(), path.strip(), with_embedded)
    return current_settings()


def check_options(ui: UiSettings):
    from fever_core.pipeline import CheckOptions

    return CheckOptions(
        pages_k=ui.pages_k, sentences_k=ui.sentences_k, two_hop=ui.two_hop,
        two_hop_threshold=ui.two_hop_threshold, min_evidence_score=ui.min_evidence_score,
        nei_threshold=ui.nei_threshold, number_check=ui.number_check,
    )


def permalink_params(claim: str, ui: UiSettings) -> dict[str, str]:
    """A check's permalink (the query parameters of Verify's address): the claim, the corpus, and each
    sidebar setting that differs from its default (a custom NOT ENOUGH INFO threshold always)."""
    defaults = setting_defaults()
    params = {"claim": claim, "corpus": ui.corpus}
    for name, value in asdict(ui).items():
        if name != "corpus" and value is not None and (name == "nei_threshold" or value != defaults[name]):
            params[name] = str(value).lower() if isinstance(value, bool) else str(value)
    return params


def settings_of(stored: Mapping[str, Any]) -> UiSettings:
    """The sidebar settings a check was made with, as kept with it (``asdict`` of :class:`UiSettings`)."""
    return UiSettings(**stored)


def setting_from_address(name: str, text: str, default: Any) -> Any:
    """A setting's value from a permalink, of its default's type and within its range; a ValueError for
    anything else. A verifier model must be a folder on this machine: a link never makes the app fetch one."""
    if isinstance(default, bool):
        if text not in ("true", "false"):
            raise ValueError(text)
        return text == "true"
    value = type(default)(text)
    if name in CHECK_SETTING:
        value = CHECK_SETTING[name].check(value)
    if name == "corpus" and value not in list_corpora(Settings.from_env().data_dir):
        raise ValueError(text)
    if name == "verifier_model" and not Path(value).is_dir():
        raise ValueError(text)
    return value


def restore_settings(params: Mapping[str, str]) -> list[str]:
    """Set the corpus and every sidebar setting from a permalink: its value there, else its default.
    Returns the ``name=value`` pairs that could not be used (those settings take their defaults)."""
    refused = []
    for name, default in setting_defaults().items():
        value = default
        if name in params and name != "custom_threshold":
            try:
                value = setting_from_address(name, params[name], default)
            except ValueError:
                refused.append(f"{name}={params[name]}")
        st.session_state[name] = value
    st.session_state["custom_threshold"] = "nei_threshold" in params and not any(
        item.startswith("nei_threshold=") for item in refused)
    return refused


def open_permalink() -> None:
    """Once per permalink opened (Verify's address with ``claim``, see :func:`permalink_params`): restore its
    corpus and settings, and leave its claim in ``session_state["permalink_claim"]`` for Verify to check (and
    what could not be restored in ``"permalink_refused"``). The frame calls it before it draws the sidebar, so
    the sidebar shows them and the checker loaded is theirs."""
    params = st.query_params.to_dict()
    if "claim" not in params or st.session_state.get("permalink_opened") == params:
        return
    check_on_verify(params)


def check_on_verify(params: dict[str, str]) -> None:
    """Make a permalink's check (:func:`permalink_params`) the one Verify makes next: its corpus and settings
    restored, its claim left in ``session_state["permalink_claim"]`` (what could not be restored in
    ``"permalink_refused"``), and the permalink marked opened, so that the frame does not open it again."""
    st.session_state["permalink_opened"] = params
    st.session_state["permalink_refused"] = restore_settings(params)
    st.session_state["permalink_claim"] = params["claim"]


def write_permalink(claim: str, ui: UiSettings) -> None:
    """Make the page's address the permalink of this check (one the frame does not open again)."""
    params = permalink_params(claim, ui)
    st.query_params.from_dict(params)
    st.session_state["permalink_opened"] = params


def permalink_url(claim: str, ui: UiSettings) -> str:
    """A relative link that opens Verify on this check (for link columns in tables)."""
    return "./?" + urllib.parse.urlencode(permalink_params(claim, ui))


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
