"""What every page shares: the sidebar settings and the permalink that carries them, the checker and
stores loaded once, text display that never interprets corpus or user text, metrics shown only where
there is gold data for them, and the credits footer. No retrieval or model logic."""

from __future__ import annotations

import re
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import suppress
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from fever_core.common import (
    CHECK_SETTING,
    CHECK_SETTINGS,
    DEFAULT_VERIFIER,
    FALLBACK_VERIFIER,
    PROJECT_ROOT,
    SHARED_DATA_DIR,
    Claim,
    DataFileError,
    ModelVersion,
    Settings,
    UnusableDatabase,
    decode_utf8,
    limit_cpu_threads,
    list_versions,
    move_aside,
    read_claim_list,
    wikipedia_url,
)
from fever_core.corpus import LIVE_CORPUS, list_corpora
from fever_core.verification import RULE, VerdictPolicy
from pages.words import count, metric_help, metric_word, verdict_word

if TYPE_CHECKING:
    from fever_core.corpus import CorpusStore
    from fever_core.pipeline import CheckResult

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
FM2_SOURCE = "fever:fm2-pages.jsonl"
SESSION_COOKIE = "fever_workbench_session"
_SESSION_ID = re.compile(r"[0-9a-f]{32}")
SETTING_LIMITS = {setting.name: setting.limits for setting in CHECK_SETTINGS if setting.limits is not None}
"""Each sidebar slider's range, from the declaration: the sliders draw it, a permalink's values are held to it."""


SHIPPED_VERIFIER_NAMES = {DEFAULT_VERIFIER: "shipped (MPNet)", FALLBACK_VERIFIER: "shipped, small (MiniLM)"}
"""The verifiers installed with the workbench, by the names the pages give them (never their install path)."""


def shown_path(path: str | Path) -> str:
    """A file or folder as the pages show it: relative to the project when it is in it (``../`` and the rest when
    it is beside it, as the shared data is), else as given; never the server's install path."""
    path = Path(path).expanduser()
    if not path.is_absolute():
        return str(path)
    for base, prefix in ((PROJECT_ROOT, ""), (PROJECT_ROOT.parent, "../")):
        with suppress(ValueError):
            return prefix + str(path.resolve().relative_to(base))
    return str(path)


def project_path(typed: str) -> Path:
    """A path typed on a page: relative ones are relative to the project (as :func:`shown_path` shows them)."""
    path = Path(typed.strip()).expanduser()
    return path if path.is_absolute() else PROJECT_ROOT / path


def verifier_name(path: str, versions: list[ModelVersion] | None = None) -> str:
    """How a verifier is named on the pages: ``shipped (MPNet)``, ``shipped, small (MiniLM)``, a version's name
    (of ``versions``, by default the data folder's), a folder by :func:`shown_path`, or a hub id as it is."""
    if path in SHIPPED_VERIFIER_NAMES:
        return SHIPPED_VERIFIER_NAMES[path]
    versions = list_versions(Settings.from_env().data_dir) if versions is None else versions
    named = next((v.name for v in versions if path in (str(v.path.resolve()), str(v.path))), None)
    return named or (shown_path(path) if Path(path).is_absolute() else path)


def verifier_path(name: str) -> str:
    """The verifier a name typed in the sidebar means (:func:`verifier_name` read back): a shipped one's or a
    version's folder, a folder by its path (relative to the project, or absolute), else a hub id as typed."""
    name = name.strip()
    shipped = {shown: path for path, shown in SHIPPED_VERIFIER_NAMES.items()}
    version = next((v for v in list_versions(Settings.from_env().data_dir) if v.name == name), None)
    if name in shipped:
        return shipped[name]
    if version is not None:
        return str(version.path.resolve())
    return str(project_path(name)) if name and project_path(name).is_dir() else name


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


def text_age(source: str) -> str:
    """How old the corpus's text of a page from ``source`` is: pages from FEVER-format files are
    FEVER's Wikipedia of 2017, except Fool Me Twice's (2020); "" for the others."""
    if source == FM2_SOURCE:
        return "2020 text (Fool Me Twice)"
    return "2017 text (FEVER)" if source.startswith("fever:") else ""


def wikipedia_links(store: CorpusStore | None, pages: Iterable[tuple[str, str]]) -> dict[str, WikipediaLink]:
    """The Wikipedia link of each ``(page_id, title)``, by page id (the text's age unknown without a store)."""
    links: dict[str, WikipediaLink] = {}
    for page_id, title in pages:
        if page_id not in links:
            page = store.page(page_id) if store is not None else None
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
    number_check: bool = True


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
    rule = VerdictPolicy.from_config(settings.verifier_model)
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


CHECKER_LOADING = "Loading the corpus and models (the first time builds the corpus index)…"


@st.cache_resource(show_spinner=False)
def _checker_loader() -> ThreadPoolExecutor:
    """The thread that loads checkers, one for the whole server: a load goes on while the pages are drawn."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="checker-loader")


@st.cache_resource(show_spinner=False)
def _checker_loading(corpus: str, verifier_model: str) -> Future:
    """The load of the checker for ``(corpus, verifier_model)``, started once and shared by all sessions."""
    return _checker_loader().submit(_open_checker, corpus, verifier_model)


def _open_checker(corpus: str, verifier_model: str):
    """A checker, warmed up (:meth:`Checker.warm_up`) so that the person's first check is as fast as the next."""
    from fever_core.pipeline import Checker

    settings = Settings.from_env(verifier_model=verifier_model)
    limit_cpu_threads(settings.app_cpu_threads)
    checker = Checker.open(corpus, settings, progress=False)
    checker.warm_up()
    return checker


def start_loading_checker(ui: UiSettings) -> None:
    """Start loading the checker for the sidebar's choices in the background, once for the whole server. The
    frame calls it on every run before the page is drawn, which it does not hold up: the claim box shows at once
    on the first visit too, and a Check made meanwhile waits for the load (:func:`load_checker`)."""
    _checker_loading(ui.corpus, ui.verifier_model)


def checker_loading(ui: UiSettings) -> bool:
    """Whether the checker for the sidebar's choices is still loading."""
    return not _checker_loading(ui.corpus, ui.verifier_model).done()


def load_checker(corpus: str, verifier_model: str):
    """The checker for ``(corpus, verifier_model)``, shared by all sessions; while it loads, a spinner shows and
    this waits. Raises what the load raised, and the next call loads it again."""
    loading = _checker_loading(corpus, verifier_model)
    if not loading.done():
        with st.spinner(CHECKER_LOADING):
            wait([loading])
    try:
        return loading.result()
    except Exception:
        _checker_loading.clear(corpus, verifier_model)
        raise


@st.cache_resource(show_spinner="Opening the corpus…")
def load_workspace(corpus: str):
    """One workspace per corpus, shared by all sessions (the live one is also the checkers')."""
    from fever_core.workspace import open_workspace

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)
    return open_workspace(corpus, settings, progress=False)


def load_annotations():
    """The annotations database of the data folder, one store per folder, shared by all sessions; a file that
    can't be one stops the page with the reason (naming the file and what to do) and the offer to move it aside,
    never a traceback."""
    try:
        return _annotation_store(str(Settings.from_env().data_dir / "annotations.sqlite"))
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        st.stop()


@st.cache_resource
def _annotation_store(path: str):
    from fever_core.workbench import AnnotationStore

    return AnnotationStore(path)


def uploaded_claims(upload) -> list[Claim]:
    """The claims of an uploaded claim list (text, CSV or jsonl: :func:`~fever_core.common.formats.read_claim_list`);
    :class:`~fever_core.common.formats.DataFileError` naming the line and column of a byte that is not UTF-8."""
    return read_claim_list(decode_utf8(upload.getvalue(), upload.name, error=DataFileError), upload.name)


def load_history():
    """The history of checks of the data folder, one store per folder, shared by all sessions (each reads its own
    checks: :func:`history_session`); ``None`` when its file can't be used (the reason and the offer to move it
    aside are shown instead)."""
    try:
        return _history_store(str(Settings.from_env().data_dir / "history.sqlite"))
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        return None


def browser_session() -> str:
    """This browser's id (32 hex digits): the one its session cookie carries, else a new one, which
    :func:`keep_browser_session` gives the browser. It lasts until the browser is closed, across reloads and tabs."""
    if "browser_session" not in st.session_state:
        cookie = st.context.cookies.get(SESSION_COOKIE, "")
        known = isinstance(cookie, str) and _SESSION_ID.fullmatch(cookie)  # (AppTest has no cookies to give)
        st.session_state["browser_session"] = cookie if known else uuid.uuid4().hex
    return st.session_state["browser_session"]


def keep_browser_session() -> None:
    """Give the browser its session cookie (:func:`browser_session`) once per app session when it lacks it.
    The frame calls it on every run; the script holds only the id this app made (never user text)."""
    session = browser_session()
    if st.context.cookies.get(SESSION_COOKIE) == session or st.session_state.get("session_cookie_sent"):
        return
    st.session_state["session_cookie_sent"] = True
    st.sidebar.html(f"<script>document.cookie = '{SESSION_COOKIE}={session}; path=/; SameSite=Strict';</script>",
                    unsafe_allow_javascript=True)


def history_session() -> str | None:
    """Whose checks History reads and clears: this browser session's, or everyone's (``None``) when the server
    was started with a shared history (``FEVER_SHARED_HISTORY=1``, :class:`~fever_core.common.settings.Settings`)."""
    return None if Settings.from_env().shared_history else browser_session()


@st.cache_resource
def _history_store(path: str):
    from fever_core.workbench import HistoryStore

    return HistoryStore(path)


def keep_in_history(result: CheckResult, settings: dict) -> None:
    """Keep a check made on Verify in this browser session's history; when the history can't keep it, say why (the
    check stands)."""
    history = load_history()
    try:
        if history is not None:
            history.add(result, settings, session=browser_session())
    except UnusableDatabase as exc:
        show_unusable_database(exc)


def earlier_checks(checker) -> Callable[[str], list]:
    """The lookup of a claim's earlier checks (:class:`~fever_core.workbench.EarlierChecks`: every browser session's
    history and the annotations of the data folder; one for the server) with the encoder of ``checker``'s corpus, as
    a function of the claim that any thread may call (a batch's). Call it before the check is kept in the history."""
    return partial(_earlier_checks(str(Settings.from_env().data_dir)).find, encoder=checker.workspace.dense.encoder)


@st.cache_resource
def _earlier_checks(data_dir: str):
    from fever_core.workbench import EarlierChecks

    return EarlierChecks(data_dir)


def show_unusable_database(error: UnusableDatabase) -> None:
    """A warning naming the database that can't be used and why; for a damaged or foreign one, a button that
    moves it aside (kept, renamed) so that a new one starts."""
    st.warning(plain(str(error)), icon="⚠️")
    if error.movable:
        st.button(f"Move {error.path.name} aside and start a new one", key=f"move_aside_{error.path}",
                  on_click=_move_database_aside, args=(error.path,))


def _move_database_aside(path: Path) -> None:
    try:
        moved = move_aside(path)
    except OSError as exc:
        st.toast(plain(f"{path} can't be moved ({exc.strerror}): move it yourself, or point FEVER_DATA_DIR elsewhere."),
                 icon="⚠️")
        return
    _history_store.clear()  # a store opened before still holds the moved file
    _annotation_store.clear()
    st.toast(plain(f"{path.name} was moved to {moved.name} (kept there); a new one starts in its place."), icon="📦")


def corpus_store_or_none(corpus: str) -> CorpusStore | None:
    """The store of a corpus of the data folder, or None when it is not (or no longer) there."""
    from fever_core.corpus import STORE_FILE, CorpusStore, corpus_dir

    with suppress(OSError, ValueError):
        return CorpusStore.open(corpus_dir(Settings.from_env().data_dir, corpus) / STORE_FILE)
    return None


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
        nei_threshold=ui.nei_threshold, number_check=ui.number_check,
        verdict=RULE if ui.nei_threshold is not None else None,  # the threshold is the best-sentence rule's
    )


def ready_claims_file(corpus: str) -> str:
    """A labelled claims file that goes with a corpus, as the pages show it (:func:`shown_path`): the hand-written
    claims for ``embedded`` (shipped in ``benchmarks/embedded/``), the dev claims for ``fever-dev`` and ``fm2`` when
    ../shared is there; "" otherwise."""
    from fever_core.training.improve import HAND_CLAIMS

    name = {"fever-dev": "fever-dev.jsonl", "fm2": "fm2-dev.jsonl"}.get(corpus)
    path = HAND_CLAIMS if corpus == "embedded" else SHARED_DATA_DIR / "claims" / name if name else None
    return shown_path(path) if path and path.is_file() else ""


def show_metrics(metrics: Mapping[str, float | None], missing_for: Callable[[str], str], per_row: int = 5) -> None:
    """Each metric (in [0, 1]) by its name for people, to three decimals, or "n/a" where there is no gold data
    for it; its help says what it measures (:data:`~pages.words.METRIC_WORDS`) and, for "n/a", why
    (``missing_for(name)``)."""
    names = list(metrics)
    for start in range(0, len(names), per_row):
        for col, name in zip(st.columns(per_row), names[start:start + per_row]):
            value = metrics[name]
            why = f"\n\nn/a: {missing_for(name)}." if value is None else ""
            col.metric(metric_word(name), "n/a" if value is None else f"{value:.3f}", help=metric_help(name) + why)


def claimreview_author():
    """The author that ClaimReview downloads name (:class:`~fever_core.workbench.Author`), chosen in a collapsed
    section and kept for the session on every page; ``None``, with the reason shown, when it can't be one."""
    from fever_core.workbench import AUTHOR_KINDS, Author

    name = st.session_state.get("claimreview_author", Author.name)
    kind = st.session_state.get("claimreview_author_kind", Author.kind)
    with st.expander(plain(f"ClaimReview author: {name} ({kind})")):
        synced_widget(st.text_input, "Name", "_claimreview_author", name,
                      partial(st.session_state.__setitem__, "claimreview_author"),
                      help="Who publishes the ClaimReview: an organisation or a person.")
        synced_widget(st.radio, "The author is", "_claimreview_author_kind", kind,
                      partial(st.session_state.__setitem__, "claimreview_author_kind"), options=AUTHOR_KINDS,
                      horizontal=True)
    try:
        return Author(name, kind)
    except ValueError as exc:
        st.warning(plain(f"No ClaimReview: {exc}"))
        return None


def claimreviews_button(column, results: list, ui: UiSettings, author, published: float) -> None:
    """A download of checks (CheckResults) as schema.org ClaimReview JSON-LD, one document whose ``@graph`` holds a
    ClaimReview each (:func:`~fever_core.workbench.claim_reviews`), with the provenance of ``ui``'s checker; dated
    ``published`` (Unix seconds); disabled, saying why, without an ``author`` (:func:`claimreview_author`)."""
    from fever_core.workbench import JSONLD_MEDIA_TYPE, checker_provenance, claim_reviews, to_jsonld

    label = "Download ClaimReviews (JSON-LD)"
    if author is None:
        column.download_button(label, "", disabled=True, help="Name an author above.")
        return
    provenance = checker_provenance(checker_or_stop(ui), check_options(ui))
    document = claim_reviews(results, provenance, author, published=published)
    column.download_button(label, to_jsonld(document), "claimreviews.jsonld", JSONLD_MEDIA_TYPE, on_click="ignore",
                           help=f"{count(len(results), 'ClaimReview')} in one JSON-LD document (claims that can't be "
                           "checked have none), each with the verifier's and the corpus's checksums and the settings.")


def checked_before_markdown(earlier) -> str:
    """The card's line for an earlier check of the claim: its claim, verdict and when, and a link that re-opens it
    (a check in Verify, as it was made; an annotation in Annotate). ``earlier``: a
    :class:`~fever_core.workbench.EarlierCheck`."""
    from fever_core.workbench import HISTORY, ago

    verdict = verdict_word(earlier.verdict)
    if earlier.source == HISTORY:
        link = f"[re-open it ↗](./?history={earlier.entry_id})"
    else:
        verdict, link = f"{verdict} (annotated)", f"[open it in Annotate ↗](./annotate?item={earlier.entry_id})"
    return f"🔁 **Checked before:** “{plain(earlier.claim)}”, {verdict}, {ago(earlier.checked_at)} · {link}"


def footer() -> None:
    st.divider()
    st.caption(
        "Text from Wikipedia, CC BY-SA. Benchmark data: FEVER (Thorne et al. 2018, CC BY-SA 3.0), "
        "Fool Me Twice (Eisenschlos et al. 2021, Apache-2.0, text CC BY-SA). The default verifier was trained on "
        "FEVER, VitaminC (Schuster et al. 2021, CC BY-SA 3.0), MultiNLI stress tests and claims generated from the "
        "embedded pages; the small one on FEVER, SNLI (CC BY-SA 4.0), Climate-FEVER and MultiNLI stress tests: see "
        "their model cards."
    )
