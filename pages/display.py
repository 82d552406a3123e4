"""How the pages show things: text that never interprets corpus or user text (:func:`plain`), pages with their
Wikipedia links, files and verifiers by short names (never the server's install path), corpora by name, metrics only
where there is gold data for them, widgets that keep their value across pages, and the credits footer. No retrieval
or model logic.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from fever_core.common import (
    DEFAULT_VERIFIER,
    FALLBACK_VERIFIER,
    PROJECT_ROOT,
    Claim,
    DataFileError,
    ModelVersion,
    decode_utf8,
    read_claim_list,
    wikipedia_url,
)
from fever_core.corpus import LIVE_CORPUS, corpus_claims, text_age
from pages.words import count, metric_help, metric_word

if TYPE_CHECKING:
    from fever_core.corpus import CorpusStore

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
SHIPPED_VERIFIER_NAMES = {DEFAULT_VERIFIER: "shipped (MPNet)", FALLBACK_VERIFIER: "shipped, small (MiniLM)"}
"""The verifiers installed with the workbench, by the names the pages give them (never their install path)."""


def shown_path(path: str | Path) -> str:
    """A file or folder as the pages show it: relative to the project when it is in it (``../`` and the rest when
    it is beside it, as the shared data is), else as given; never the server's install path."""
    path = Path(path).expanduser()
    if not path.is_absolute():
        return str(path)
    # as written first (a folder beside the project may be a link, e.g. ../shared), then with links resolved
    for written in (Path(os.path.normpath(path)), path.resolve()):
        for base, prefix in ((PROJECT_ROOT, ""), (PROJECT_ROOT.parent, "../")):
            with suppress(ValueError):
                return prefix + str(written.relative_to(base))
    return str(path)


def project_path(typed: str) -> Path:
    """A path typed on a page: relative ones are relative to the project (as :func:`shown_path` shows them)."""
    path = Path(typed.strip()).expanduser()
    return path if path.is_absolute() else PROJECT_ROOT / path


def verifier_name(path: str, versions: list[ModelVersion]) -> str:
    """How a verifier is named on the pages: ``shipped (MPNet)``, ``shipped, small (MiniLM)``, a version's name
    (of ``versions``, those of the data folder: :func:`~fever_core.common.model_versions.list_versions`), a folder by
    :func:`shown_path`, or a hub id as it is."""
    if path in SHIPPED_VERIFIER_NAMES:
        return SHIPPED_VERIFIER_NAMES[path]
    named = next((v.name for v in versions if path in (str(v.path.resolve()), str(v.path))), None)
    return named or (shown_path(path) if Path(path).is_absolute() else path)


def verifier_path(name: str, versions: list[ModelVersion]) -> str:
    """The verifier a name typed in the sidebar means (:func:`verifier_name` read back): a shipped one's or a
    version's (of ``versions``) folder, a folder by its path (relative to the project, or absolute), else a hub id as
    typed."""
    name = name.strip()
    shipped = {shown: path for path, shown in SHIPPED_VERIFIER_NAMES.items()}
    version = next((v for v in versions if v.name == name), None)
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


def wikipedia_links(store: CorpusStore | None, pages: Iterable[tuple[str, str]]) -> dict[str, WikipediaLink]:
    """The Wikipedia link of each ``(page_id, title)``, by page id (the text's age unknown without a store)."""
    links: dict[str, WikipediaLink] = {}
    for page_id, title in pages:
        if page_id not in links:
            page = store.page(page_id) if store is not None else None
            links[page_id] = WikipediaLink(wikipedia_url(title), text_age(page.source if page else ""))
    return links


def corpus_label(name: str) -> str:
    """How a corpus is named in the app: the live one says it is live."""
    return f"{name} (live)" if name == LIVE_CORPUS else name


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


def uploaded_claims(upload) -> list[Claim]:
    """The claims of an uploaded claim list (text, CSV or jsonl: :func:`~fever_core.common.formats.read_claim_list`);
    :class:`~fever_core.common.formats.DataFileError` naming the line and column of a byte that is not UTF-8."""
    return read_claim_list(decode_utf8(upload.getvalue(), upload.name, error=DataFileError), upload.name)


def ready_claims_file(corpus: str) -> str:
    """The labelled claims file that goes with a corpus (:func:`~fever_core.corpus.build.corpus_claims`), as the
    pages show it (:func:`shown_path`); "" when there is none on this machine."""
    path = corpus_claims(corpus)
    return shown_path(path) if path is not None else ""


def as_sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, ending with a full stop (a setting's help as a tooltip)."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def show_metrics(metrics: Mapping[str, float | None], missing_for: Callable[[str], str], per_row: int = 5) -> None:
    """Each metric (in [0, 1]) by its name for people, to three decimals, or "n/a" where there is no gold data
    for it; its help says what it measures (:data:`~pages.words.METRIC_WORDS`) and, for "n/a", why
    (``missing_for(name)``)."""
    names = list(metrics)
    for start in range(0, len(names), per_row):
        for col, name in zip(st.columns(per_row), names[start : start + per_row]):
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
        synced_widget(
            st.text_input,
            "Name",
            "_claimreview_author",
            name,
            partial(st.session_state.__setitem__, "claimreview_author"),
            help="Who publishes the ClaimReview: an organisation or a person.",
        )
        synced_widget(
            st.radio,
            "The author is",
            "_claimreview_author_kind",
            kind,
            partial(st.session_state.__setitem__, "claimreview_author_kind"),
            options=AUTHOR_KINDS,
            horizontal=True,
        )
    try:
        return Author(name, kind)
    except ValueError as exc:
        st.warning(plain(f"No ClaimReview: {exc}"))
        return None


def claimreviews_button(column, results: list, provenance, author, published: float, urls: list[str | None]) -> None:
    """A download of checks (CheckResults) as schema.org ClaimReview JSON-LD, one document whose ``@graph`` holds a
    ClaimReview each (:func:`~fever_core.workbench.claim_reviews`) with their ``provenance``
    (:func:`~fever_core.workbench.checker_provenance`), dated ``published`` (Unix seconds), each with its ``url``
    (its permalink under the public address: :func:`pages.settings_ui.public_permalink`; ``None``: none); disabled,
    saying why, without an ``author`` (:func:`claimreview_author`)."""
    from fever_core.workbench import JSONLD_MEDIA_TYPE, claim_reviews, to_jsonld

    label = "Download ClaimReviews (JSON-LD)"
    if author is None:
        column.download_button(label, "", disabled=True, help="Name an author above.")
        return
    document = claim_reviews(results, provenance, author, published=published, urls=urls)
    column.download_button(
        label,
        to_jsonld(document),
        "claimreviews.jsonld",
        JSONLD_MEDIA_TYPE,
        on_click="ignore",
        help=f"{count(len(results), 'ClaimReview')} in one JSON-LD document (claims that can't be "
        "checked have none), each with the verifier's and the corpus's checksums and the settings.",
    )


def checked_before_markdown(earlier) -> str:
    """The card's line for an earlier check of the claim: its claim, verdict and when, and a link that re-opens it
    (a check in Verify, as it was made; an annotation in Annotate). ``earlier``: a
    :class:`~fever_core.workbench.EarlierCheck`."""
    from fever_core.workbench import HISTORY, ago, verdict_shown

    verdict = verdict_shown(earlier.verdict, earlier.label_withheld)
    if earlier.source == HISTORY:
        link = f"[re-open it ↗](./?history={earlier.entry_id})"
    else:
        verdict, link = f"{verdict} (annotated)", f"[open it in Annotate ↗](./annotate?item={earlier.entry_id})"
    return (
        f":material/replay: **Checked before:** “{plain(earlier.claim)}”, {verdict}, {ago(earlier.checked_at)} · {link}"
    )


def footer() -> None:
    st.divider()
    st.caption(
        "Text from Wikipedia, CC BY-SA. Benchmark data: FEVER (Thorne et al. 2018, CC BY-SA 3.0), "
        "Fool Me Twice (Eisenschlos et al. 2021, Apache-2.0, text CC BY-SA). The default verifier was trained on "
        "FEVER, VitaminC (Schuster et al. 2021, CC BY-SA 3.0), SNLI (CC BY-SA 4.0), MultiNLI stress tests, NLI "
        "phenomena sets (ConjNLI, counterfactual NLI, Breaking NLI, MED, HELP, ScoNe, TaxiNLI) and claims written or "
        "generated from the embedded pages; the small one on FEVER, SNLI, Climate-FEVER and MultiNLI stress tests: "
        "see their model cards."
    )
