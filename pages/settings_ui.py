"""The sidebar settings and the permalink that carries them: drawn by the frame (``app.py``) on every run, read by
any page (:func:`current_settings`), written into Verify's address and restored from it.

The per-check settings are :data:`~fever_core.common.settings.CHECK_SETTINGS`: the sidebar draws one widget for each,
as the declaration says (a toggle for on/off, a choice for text with choices, a slider over the declared range),
with its label, step and help; a setting the declaration adds appears here without a line of this module changing.
Their values before the person changes them are those a check with the chosen verifier takes effect with
(:func:`setting_defaults`: the workbench's settings, else the chosen verifier's policy). Only the values the person
set are kept in the session: a setting left alone follows the verifier chosen. Besides them the sidebar holds the
corpus and the verifier.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from fever_core.common import CHECK_SETTING, CHECK_SETTINGS, CheckSetting, Settings, list_versions
from fever_core.corpus import CORPORA_HELP, list_corpora
from fever_core.pipeline import CheckOptions, CheckResult, settings_in_effect
from fever_core.verification import VerdictPolicy
from pages.display import as_sentence, corpus_label, plain, synced_widget, verifier_name, verifier_path
from pages.presenter import view_params, without_view

SETTING_LIMITS = {setting.name: setting.limits for setting in CHECK_SETTINGS if setting.limits is not None}
"""Each sidebar slider's range, from the declaration: the sliders draw it, a permalink's values are held to it."""
RULE_SETTINGS = ("nei_threshold",)
"""The settings only the best-sentence rule reads: a check gets them only when its ``verdict`` setting is ``rule``,
and the sidebar draws them disabled otherwise (a threshold never changes the decider:
:meth:`~fever_core.verification.policy.VerdictPolicy.decider`)."""


@dataclass(frozen=True)
class UiSettings:
    """The sidebar's choices.

    Attributes:
        corpus: the corpus name.
        verifier_model: the verifier's folder or hub id.
        values: a value for each per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`), by name,
            as the sidebar shows it (a threshold the verdict does not read included).
    """

    corpus: str
    verifier_model: str
    values: Mapping[str, Any]

    @property
    def options(self) -> CheckOptions:
        """The options a check made with these choices gets: every value, those of :data:`RULE_SETTINGS` only when
        the verdict is ``rule``."""
        rule = self.values["verdict"] == "rule"
        return CheckOptions(**{name: value for name, value in self.values.items() if rule or name not in RULE_SETTINGS})

    def to_dict(self) -> dict[str, Any]:
        """The choices as one flat mapping (corpus, verifier, each setting), as History keeps them with a check."""
        return {"corpus": self.corpus, "verifier_model": self.verifier_model, **self.values}

    @classmethod
    def of(cls, values: Mapping[str, Any], settings: Settings) -> UiSettings:
        """The choices ``values`` names (a permalink's, or as History kept them), the others their defaults for the
        corpus and verifier chosen (:func:`setting_defaults`)."""
        given = {name: value for name, value in values.items() if value is not None}
        chosen = {**setting_defaults(settings, given.get("verifier_model"), given.get("corpus")), **given}
        return cls(
            chosen["corpus"],
            chosen["verifier_model"],
            {setting.name: chosen[setting.name] for setting in CHECK_SETTINGS},
        )

    @classmethod
    def of_check(cls, result: CheckResult) -> UiSettings | None:
        """The choices a check was made with, as its result recorded them in effect
        (:attr:`~fever_core.pipeline.CheckResult.applied`); ``None`` for a check kept before they were recorded."""
        if result.applied is None:
            return None
        return cls(result.corpus, result.applied.verifier, result.applied.check_settings())


def setting_defaults(
    settings: Settings, verifier_model: str | None = None, corpus: str | None = None
) -> dict[str, Any]:
    """Each sidebar choice's value before the person changes it: the corpus and verifier chosen (default: the
    workbench's ``settings``); for each per-check setting, the value a check with that verifier takes effect with
    (:func:`~fever_core.pipeline.settings_in_effect`: ``settings``' own, ``FEVER_PAGES_K``..., else the verifier's
    policy), else, for a threshold the verifier does not read (a hub model's NEI rule), the middle of its range."""
    verifier_model = verifier_model or settings.verifier_model
    defaults: dict[str, Any] = {
        "corpus": corpus or settings.corpus,
        "verifier_model": verifier_model,
        **settings_in_effect(CheckOptions(), settings, VerdictPolicy.from_config(verifier_model)),
    }
    for setting in CHECK_SETTINGS:
        if defaults[setting.name] is None and setting.limits is not None:
            defaults[setting.name] = setting.type(sum(setting.limits) / 2)
    return defaults


def _chosen(name: str, defaults: Mapping[str, Any]) -> Any:
    return st.session_state.get(name, defaults[name])


def current_settings(settings: Settings) -> UiSettings:
    """The sidebar's choices as last made, from any page (the frame draws the sidebar, ``app.py``): those the person
    set, the others the defaults for the corpus and verifier chosen."""
    return UiSettings.of(
        {name: st.session_state.get(name) for name in ("corpus", "verifier_model", *CHECK_SETTING)}, settings
    )


def _widget(factory: Callable[..., Any], label: str, name: str, defaults: Mapping[str, Any], **kwargs) -> Any:
    """A sidebar widget for choice ``name``, kept in ``session_state[name]`` (the widget's own key is ``_name``)."""
    save = partial(st.session_state.__setitem__, name)
    return synced_widget(factory, label, "_" + name, _chosen(name, defaults), save, **kwargs)


def setting_widget(setting: CheckSetting, defaults: Mapping[str, Any], disabled: bool = False) -> Any:
    """The sidebar's widget for a per-check setting, as it is declared: a toggle for on/off, a choice among its
    ``choices``, or a slider over its range (:data:`SETTING_LIMITS`) by its step; its label and help."""
    shown = {"help": as_sentence(setting.describe()), "disabled": disabled}
    if setting.type is bool:
        return _widget(st.toggle, setting.label, setting.name, defaults, **shown)
    if setting.choices:
        return _widget(st.selectbox, setting.label, setting.name, defaults, options=setting.choices, **shown)
    low, high = SETTING_LIMITS[setting.name]
    return _widget(
        st.slider,
        setting.label,
        setting.name,
        defaults,
        min_value=low,
        max_value=high,
        step=setting.type(setting.step),
        **shown,
    )


def sidebar_settings(settings: Settings) -> UiSettings:
    """Draw the sidebar settings and return them. The frame (``app.py``) draws them on every run,
    whatever the page, so they keep their values when the person moves between pages."""
    defaults = current_settings(settings).to_dict()
    sidebar = st.sidebar
    sidebar.header("Settings")
    corpora = list_corpora(settings.data_dir)
    if _chosen("corpus", defaults) not in corpora:
        st.session_state["corpus"] = corpora[0]
    _widget(
        sidebar.selectbox, "Corpus", "corpus", defaults, options=corpora, format_func=corpus_label, help=CORPORA_HELP
    )
    with sidebar.expander("Retrieval and verdict", expanded=False):
        rule = _chosen("verdict", defaults) == "rule"
        for setting in CHECK_SETTINGS:
            setting_widget(setting, defaults, disabled=setting.name in RULE_SETTINGS and not rule)
        versions = list_versions(settings.data_dir)
        synced_widget(
            st.text_input,
            "Verifier model (name, folder or hub id)",
            "_verifier_model",
            verifier_name(_chosen("verifier_model", defaults), versions),
            lambda typed: st.session_state.__setitem__("verifier_model", verifier_path(typed, versions)),
            help="The shipped verifier is “shipped (MPNet)”; “shipped, small (MiniLM)” is faster. "
            "Versions made on Models go by their names (verifier-v1...); any other folder by its path, "
            "relative to the project or absolute.",
        )
    with sidebar.expander("Add a corpus from a FEVER wiki-pages file"), st.form("new_corpus"):
        name = st.text_input("Name", placeholder="my-pages")
        path = st.text_input("File path (FEVER wiki-pages jsonl)")
        with_embedded = st.checkbox("Add the embedded summaries as distractors", value=True)
        if st.form_submit_button("Build"):
            build_corpus(settings, name.strip(), path.strip(), with_embedded)
    return current_settings(settings)


def permalink_params(claim: str, ui: UiSettings, settings: Settings) -> dict[str, str]:
    """A check's permalink (the query parameters of Verify's address): the claim, the corpus, the verifier and each
    per-check setting that differ from their defaults (for the verifier chosen), and the rule's settings whenever the
    rule decides."""
    defaults = setting_defaults(settings, ui.verifier_model)
    params = {"claim": claim, "corpus": ui.corpus}
    rule = ui.values["verdict"] == "rule"
    for name, value in ui.to_dict().items():
        if name != "corpus" and (rule if name in RULE_SETTINGS else value != defaults[name]):
            params[name] = str(value).lower() if isinstance(value, bool) else str(value)
    return params


def settings_of(result: CheckResult | None, stored: Mapping[str, Any], settings: Settings) -> UiSettings:
    """The sidebar settings a check was made with: as its result recorded them in effect
    (:meth:`UiSettings.of_check`), else (no result, or one kept before they were recorded) as History kept the
    sidebar's (:meth:`UiSettings.to_dict`; any not kept take their defaults)."""
    return (result is not None and UiSettings.of_check(result)) or UiSettings.of(stored, settings)


def setting_from_address(name: str, text: str, default: Any, settings: Settings) -> Any:
    """A setting's value from a permalink, of its default's type and within its range; a ValueError for
    anything else. A verifier model must be a folder on this machine: a link never makes the app fetch one."""
    if isinstance(default, bool):
        if text not in ("true", "false"):
            raise ValueError(text)
        return text == "true"
    value = type(default)(text)
    if name in CHECK_SETTING:
        value = CHECK_SETTING[name].check(value)
    if name == "corpus" and value not in list_corpora(settings.data_dir):
        raise ValueError(text)
    if name == "verifier_model" and not Path(value).is_dir():
        raise ValueError(text)
    return value


def restore_settings(params: Mapping[str, str], settings: Settings) -> list[str]:
    """Set the corpus and every sidebar setting from a permalink: its value there, else its default (for the verifier
    the permalink names: a setting it leaves out is not kept in the session, so it follows the verifier).
    Returns the ``name=value`` pairs that could not be used (those settings take their defaults)."""
    defaults = setting_defaults(settings)
    given, refused = {}, []
    for name, default in defaults.items():
        if name in params:
            try:
                given[name] = setting_from_address(name, params[name], default, settings)
            except ValueError:
                refused.append(f"{name}={params[name]}")
    for name in defaults:
        st.session_state.pop(name, None)
    st.session_state.update(given)
    return refused


def open_permalink(settings: Settings) -> None:
    """Once per permalink opened (Verify's address with ``claim``, see :func:`permalink_params`): restore its
    corpus and settings, and leave its claim in ``session_state["permalink_claim"]`` for Verify to check (and
    what could not be restored in ``"permalink_refused"``). The frame calls it before it draws the sidebar, so
    the sidebar shows them and the checker loaded is theirs. The presenter's view (``?present=1``) is no part of
    the check: turning it on or off does not open the permalink again."""
    params = without_view(st.query_params.to_dict())
    if "claim" not in params or st.session_state.get("permalink_opened") == params:
        return
    check_on_verify(params, settings)


def check_on_verify(params: dict[str, str], settings: Settings) -> None:
    """Make a permalink's check (:func:`permalink_params`) the one Verify makes next: its corpus and settings
    restored, its claim left in ``session_state["permalink_claim"]`` (what could not be restored in
    ``"permalink_refused"``), and the permalink marked opened, so that the frame does not open it again."""
    st.session_state["permalink_opened"] = params
    st.session_state["permalink_refused"] = restore_settings(params, settings)
    st.session_state["permalink_claim"] = params["claim"]


def write_permalink(claim: str, ui: UiSettings, settings: Settings) -> None:
    """Make the page's address the permalink of this check (one the frame does not open again), in the presenter's
    view while it is on (:mod:`pages.presenter`)."""
    params = permalink_params(claim, ui, settings)
    st.query_params.from_dict({**params, **view_params()})
    st.session_state["permalink_opened"] = params


def permalink_url(claim: str, ui: UiSettings, settings: Settings) -> str:
    """A relative link that opens Verify on this check (for link columns in tables)."""
    return "./?" + urllib.parse.urlencode(permalink_params(claim, ui, settings))


def public_permalink(claim: str, ui: UiSettings, settings: Settings) -> str | None:
    """The whole address of this check's permalink under the app's public address
    (:attr:`~fever_core.common.settings.Settings.public_url`, ``FEVER_PUBLIC_URL``): a ClaimReview's ``url``. ``None``
    when no public address is set (the ClaimReview then has no ``url``)."""
    if not settings.public_url:
        return None
    return urllib.parse.urljoin(settings.public_url.rstrip("/") + "/", permalink_url(claim, ui, settings))


def build_corpus(settings: Settings, name: str, path: str, with_embedded: bool) -> None:
    """Build a corpus from a FEVER file, showing progress and any error in the sidebar."""
    from fever_core.workspace import open_workspace

    if not name or not path:
        st.sidebar.warning("Give the corpus a name and the path of a FEVER wiki-pages jsonl file.")
        return
    specs = [f"fever:{path}"] + (["embedded"] if with_embedded else [])
    with st.sidebar.status(plain(f"Building {name}…")) as status:
        try:
            open_workspace(name, settings, specs=specs, progress=False)
            status.update(label=plain(f"Built {name}: choose it above."), state="complete")
        except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
            status.update(label=plain(f"Can't build {name}: {exc}"), state="error")
