"""A check as a schema.org ``ClaimReview`` in JSON-LD, with the provenance a reader needs to reproduce it.

:func:`claim_review` turns a :class:`~fever_core.pipeline.CheckResult` into one ClaimReview document;
:func:`claim_reviews` turns several (a batch) into one document whose ``@graph`` holds a ClaimReview each. Both are
pure: what they record about the models and the corpus comes in a :class:`Provenance`, which
:func:`checker_provenance` gathers from the running checker.

The document's terms are schema.org's, under the context ``https://schema.org`` (the one search engines and
fact-checking sites read); nothing in it needs another vocabulary:

- ``claimReviewed`` is the claim as checked, and ``itemReviewed`` a ``Claim`` with the same ``text``.
- ``reviewRating`` is a ``Rating`` on a scale of 1 to 3 (:data:`RATING_VALUES`): 1 Refuted, 2 Not enough info,
  3 Supported (``worstRating`` 1, ``bestRating`` 3), higher meaning better supported; its ``alternateName`` is the
  verdict in the workbench's words (:data:`~fever_core.common.types.VERDICT_WORDS`) and its ``ratingExplanation``
  the verdict's one-sentence why. A verdict whose label is withheld (too unsure to call, or no sentence settles it:
  the card's "Undecided") publishes no rating on the scale, as a fact-checker publishes "Unproven" rather than a
  guess: its ``Rating`` has only the ``alternateName`` "Undecided" and a ``ratingExplanation`` saying why, never the
  label it leans to (:func:`withheld_why`).
- ``citation`` lists the Wikipedia page of each evidence sentence the verdict used (``WebPage`` with ``name`` and
  ``url``), in the verdict's order, each page once; a verdict that used none (most NOT ENOUGH INFO verdicts) has no
  ``citation``. A withheld verdict cites the pages of the sentences to read (:attr:`Verdict.read_these
  <fever_core.verification.verdict.Verdict.read_these>`) instead.
- ``author`` is the ``Organization`` or ``Person`` the user names (:class:`Author`; by default "FEVER Workbench"),
  ``datePublished`` the check's date (UTC), and ``url`` the page that shows the check, when there is one: a whole
  ``http(s)://`` address without quotes, angle brackets, spaces or backslashes (:func:`review_url`).
- The provenance is a list of ``PropertyValue`` under ``additionalProperty``, each named by its ``propertyID``
  (:meth:`Provenance.properties`): the workbench's version, the verifier (and joint verifier) with its checksum, the
  corpus with its build checksum and size, the retriever and every per-check setting, and the verdict's FEVER label
  (the likeliest, for programs, even where it is withheld), whether it is withheld (``labelWithheld``) and its one
  probability, to two decimals as every page shows it (:func:`~fever_core.workbench.shown.probability_text`). ``additionalProperty`` and ``PropertyValue`` are schema.org's own terms, so any JSON-LD processor
  keeps them on expansion, where a term of a vocabulary of the workbench's own would need an address of its own
  (schema.org lists ``additionalProperty`` for products and places, so a strict validator may note it as unexpected
  on a review; it is kept all the same).

The document's text (:func:`to_jsonld`, what every download, file and answer is made of) is safe to paste into a web
page's ``<script type="application/ld+json">``: ``<``, ``>`` and ``&`` are written as JSON escapes (``\u003c``...), so a
claim holding ``</script>`` can't end the script.

Nothing here hashes a large file: a verifier's checksum is the SHA-256 of its ``checksums.json`` (the recorded
SHA-256 of every file it reads, compared with them when it was loaded), a corpus's is the one its build recorded,
and a corpus's size is counted once per checksum.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fever_core import __version__
from fever_core.common.settings import CHECK_SETTINGS, PROJECT_ROOT
from fever_core.common.text import wikipedia_url
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.corpus.store import CHECKSUM_KEY, CorpusStats, CorpusStore
from fever_core.verification.model_integrity import model_fingerprint
from fever_core.workbench.shown import probability_text, times_in_100, verdict_shown

if TYPE_CHECKING:
    from fever_core.pipeline import Checker, CheckOptions, CheckResult
    from fever_core.verification.verdict import Verdict

CONTEXT = "https://schema.org"
"""The JSON-LD context every document names (``assets/jsonld/`` holds the part of it the documents use)."""
JSONLD_MEDIA_TYPE = "application/ld+json"
"""The media type of a ClaimReview document (a download's, a response's)."""
RATING_VALUES = {REFUTES: 1, NEI: 2, SUPPORTS: 3}
"""Each verdict's ``ratingValue``: refuted is the worst rating, supported the best."""
WORST_RATING, BEST_RATING = min(RATING_VALUES.values()), max(RATING_VALUES.values())
AUTHOR_KINDS = ("Organization", "Person")
MAX_AUTHOR_CHARS = 200
URL_PATTERN = r"^https?://[^\s\x00-\x1f\x7f\"'<>\\`{}|^]+$"
"""What a ClaimReview's ``url`` may be: a whole ``http(s)://`` address, with none of the characters a web page would
read as the end of an attribute or the start of a tag (quotes, angle brackets, spaces, backslashes...)."""
MAX_URL_CHARS = 2000
_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}
"""What :func:`to_jsonld` writes as JSON escapes, so that its text can't end a ``<script>`` it is pasted into (JSON has
these characters only in strings, where the escape means the same)."""


@dataclass(frozen=True)
class Author:
    """Who the ClaimReview says reviewed the claim.

    Attributes:
        name: the organisation's or person's name (at most :data:`MAX_AUTHOR_CHARS` characters).
        kind: ``"Organization"`` (default) or ``"Person"`` (:data:`AUTHOR_KINDS`).

    Raises:
        ValueError: an empty or too long name, or another kind; the message says what to give.
    """

    name: str = "FEVER Workbench"
    kind: str = "Organization"

    def __post_init__(self) -> None:
        name = " ".join(str(self.name).split())
        if not name:
            raise ValueError("The author's name is empty: name the organisation or person who publishes the review.")
        if len(name) > MAX_AUTHOR_CHARS:
            raise ValueError(f"The author's name has {len(name):,} characters; at most {MAX_AUTHOR_CHARS} are kept.")
        if self.kind not in AUTHOR_KINDS:
            raise ValueError(f"An author is an Organization or a Person, not {self.kind!r}.")
        object.__setattr__(self, "name", name)


@dataclass(frozen=True)
class ModelRecord:
    """A model as a provenance names it.

    Attributes:
        name: its folder relative to the project (``assets/models/verifier-mpnet``) or to the data folder
            (``models/verifier-v2``), else the folder's name; a hub id as it is. Never a path of the server.
        checksum: ``sha256:HEX``, the SHA-256 of the folder's ``checksums.json``
            (``sha256sum FOLDER/checksums.json`` gives it); ``blake2b-128:HEX`` of the folder's files
            (:func:`~fever_core.common.checksums.model_checksum`) for a folder saved without one; "" for a hub id.
    """

    name: str
    checksum: str


@dataclass(frozen=True)
class Provenance:
    """What a check was made with: enough to make it again, and to tell whether another was made the same way.

    Attributes:
        workbench_version: the workbench's version (``fever_core.__version__``), with its git commit when it runs
            from a git checkout (``1.0+g313888c1a2b3``, ``-dirty`` when tracked files were changed).
        verifier: the verifier that judged the evidence (the one used, when a damaged one was refused).
        joint_verifier: the joint verifier mixed into the learned verdict; ``None`` when none was loaded.
        corpus: the corpus's name.
        corpus_checksum: ``sha256:HEX``, the content checksum its build recorded; "" for a corpus that grows
            (live Wikipedia), which has none.
        corpus_pages: pages in the corpus.
        corpus_sentences: sentences in the corpus.
        retriever: the retriever's name (``fused``, ``bm25``, ``tfidf``).
        settings: every per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`) by name, as the check
            took effect with it (:class:`~fever_core.pipeline.AppliedSettings`); ``None`` only for the NOT ENOUGH INFO
            threshold of a verifier read by plain argmax. (Whether a ``learned`` verdict could be used depends on the
            verifier, which its checksum pins, and on the retriever.)
    """

    workbench_version: str
    verifier: ModelRecord
    joint_verifier: ModelRecord | None
    corpus: str
    corpus_checksum: str
    corpus_pages: int
    corpus_sentences: int
    retriever: str
    settings: dict[str, Any] = field(default_factory=dict)

    def properties(self) -> list[dict[str, Any]]:
        """The provenance as schema.org ``PropertyValue`` nodes, one per fact, named by ``propertyID``; a fact
        without a value (a hub model's checksum, a live corpus's) is left out, and a setting without a value (a
        verifier read by plain argmax has no NOT ENOUGH INFO threshold) says so in its ``description``."""
        models = [("verifier", self.verifier), ("jointVerifier", self.joint_verifier)]
        facts: list[tuple[str, Any, str]] = [("workbenchVersion", self.workbench_version, "")]
        for prefix, model in models:
            if model is not None:
                facts += [(f"{prefix}Model", model.name, ""), (f"{prefix}Checksum", model.checksum, "")]
        facts += [
            ("corpus", self.corpus, ""),
            ("corpusChecksum", self.corpus_checksum, ""),
            ("corpusPages", self.corpus_pages, "pages"),
            ("corpusSentences", self.corpus_sentences, "sentences"),
            ("retriever", self.retriever, ""),
        ]
        nodes = [_property(name, value, unit) for name, value, unit in facts if value != ""]
        for setting in CHECK_SETTINGS:
            value = self.settings.get(setting.name)
            node = _property(setting.name, value, setting.unit if setting.type is not str else "")
            node["name"] = setting.label
            if value is None:
                node["description"] = "none: the verifier's stances are read by their likeliest label"
            nodes.append(node)
        return nodes


def _property(property_id: str, value: Any, unit: str = "") -> dict[str, Any]:
    """A ``PropertyValue`` node (``value`` left out when ``None``; ``unitText`` when ``unit``)."""
    node: dict[str, Any] = {"@type": "PropertyValue", "propertyID": property_id}
    if value is not None:
        node["value"] = value
    if unit:
        node["unitText"] = unit
    return node


def checker_provenance(checker: Checker, options: CheckOptions | None = None) -> Provenance:
    """The provenance of checks the running ``checker`` makes with ``options``: the models it loaded, its corpus, its
    retriever, and each setting as the checks take effect with it (:meth:`~fever_core.pipeline.Checker.applied`).
    Reads two small files and the corpus's recorded checksum; the corpus's size is counted once per corpus build
    (:func:`corpus_size`)."""
    data_dir = checker.settings.data_dir
    verification = checker.verification
    joint = verification.joint_verifier
    store = checker.workspace.store
    sizes = corpus_size(store)
    settings = checker.applied(options).check_settings()
    return Provenance(
        workbench_version=workbench_version(),
        verifier=model_record(verification.verifier.name, data_dir),
        joint_verifier=model_record(joint.name, data_dir) if joint is not None else None,
        corpus=checker.workspace.name,
        corpus_checksum=_prefixed("sha256", store.get_meta(CHECKSUM_KEY)),
        corpus_pages=sizes.pages,
        corpus_sentences=sizes.sentences,
        retriever=checker.retriever,
        settings=settings,
    )


def model_record(name_or_path: str, data_dir: Path) -> ModelRecord:
    """A model folder (or hub id) by its short name and checksum (:class:`ModelRecord`,
    :func:`~fever_core.verification.model_integrity.model_fingerprint`)."""
    folder = Path(name_or_path).expanduser()
    if not folder.is_dir():
        return ModelRecord(name_or_path, "")
    return ModelRecord(_short_name(folder, data_dir), model_fingerprint(folder))


def _short_name(folder: Path, data_dir: Path) -> str:
    """``folder`` relative to the project or the data folder, else its own name."""
    folder = folder.resolve()
    for base in (PROJECT_ROOT, Path(data_dir).resolve()):
        if folder.is_relative_to(base):
            return folder.relative_to(base).as_posix()
    return folder.name


def _prefixed(algorithm: str, checksum: str | None) -> str:
    return f"{algorithm}:{checksum}" if checksum else ""


def corpus_size(store: CorpusStore) -> CorpusStats:
    """The store's sizes: counted once per build checksum (a built corpus does not change), each time for a store
    that grows (live Wikipedia's, which has none)."""
    checksum = store.get_meta(CHECKSUM_KEY)
    return _built_size(store, checksum) if checksum else store.stats()


@lru_cache(maxsize=16)
def _built_size(store: CorpusStore, checksum: str) -> CorpusStats:
    return store.stats()


@lru_cache(maxsize=1)
def workbench_version() -> str:
    """``fever_core.__version__``, with ``+g`` and the git commit (12 hex digits, ``-dirty`` when tracked files
    differ from it) when the workbench runs from a git checkout; asked of git once a process."""
    try:
        described = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12", "--exclude", "*"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return __version__
    commit = described.stdout.strip()
    return f"{__version__}+g{commit}" if commit else __version__


def _date(published: float | None) -> str:
    """Unix seconds (``None``: now) as the ISO date in UTC."""
    moment = dt.datetime.fromtimestamp(time.time() if published is None else published, dt.UTC)
    return moment.date().isoformat()


def _citations(result: CheckResult) -> list[dict[str, Any]]:
    """The Wikipedia page of each evidence sentence the verdict used (a check kept before the verdict named them:
    the deciding ones), in the verdict's order, each page once; for a withheld label, those of the sentences to
    read (a check kept before they were named: those an undecided verdict leans on)."""
    verdict = result.verdict
    if verdict.label_withheld:
        cited = verdict.read_these or verdict.deciding_evidence
    else:
        cited = verdict.used_evidence or verdict.deciding_evidence
    pages: dict[str, dict[str, Any]] = {}
    for index in cited:
        sentence = result.evidence[index].sentence
        url = wikipedia_url(sentence.title)
        pages.setdefault(url, {"@type": "WebPage", "name": sentence.title, "url": url})
    return list(pages.values())


def _review(
    result: CheckResult, provenance: Provenance, author: Author, published: float | None, url: str | None
) -> dict[str, Any]:
    """The ClaimReview node of one check (no ``@context``)."""
    if url is not None:
        review_url(url)
    verdict = result.verdict
    rating: dict[str, Any] = {"@type": "Rating"}
    if verdict.label_withheld:
        rating |= {
            "alternateName": verdict_shown(verdict.label, withheld=True),
            "ratingExplanation": withheld_why(verdict),
        }
    else:
        rating |= {
            "ratingValue": RATING_VALUES[verdict.label],
            "bestRating": BEST_RATING,
            "worstRating": WORST_RATING,
            "alternateName": verdict_shown(verdict.label, withheld=False),
        }
        if verdict.why or verdict.reason:
            rating["ratingExplanation"] = verdict.why or verdict.reason
    node: dict[str, Any] = {
        "@type": "ClaimReview",
        "claimReviewed": result.claim,
        "itemReviewed": {"@type": "Claim", "text": result.claim},
        "reviewRating": rating,
        "author": {"@type": author.kind, "name": author.name},
        "datePublished": _date(published),
    }
    if url is not None:
        node["url"] = url
    citations = _citations(result)
    if citations:
        node["citation"] = citations
    node["additionalProperty"] = [
        *provenance.properties(),
        _property("feverLabel", verdict.label),
        _property("labelWithheld", verdict.label_withheld),
        _property("probability", float(probability_text(verdict.probability)), "probability"),
    ]
    return node


def withheld_why(verdict: Verdict) -> str:
    """Why a verdict whose label is withheld has no rating, in one sentence for a ClaimReview's reader, without the
    label it leans to: no sentence settles the claim, or verdicts as unsure are right too seldom to publish."""
    if verdict.undecided:
        return (
            "Undecided: no sentence of the evidence read settles the claim on its own, so no rating is given; "
            "the cited pages hold the sentences to read."
        )
    return (
        f"Undecided: too unsure to call (verdicts this unsure are right only about {times_in_100(verdict.probability)} "
        f"times in 100, probability {probability_text(verdict.probability)}), so no rating is given; the cited pages "
        "hold the sentences most likely to settle the claim."
    )


def claim_review(
    result: CheckResult,
    provenance: Provenance,
    author: Author | None = None,
    published: float | None = None,
    url: str | None = None,
) -> dict[str, Any]:
    """One check as a ClaimReview JSON-LD document (the module's docstring says what each field holds).

    Args:
        result: the check.
        provenance: what it was made with (:func:`checker_provenance`).
        author: who publishes the review; default :class:`Author`'s, "FEVER Workbench", an Organization.
        published: when the check was made, Unix seconds; ``None``: now. Written as its date in UTC.
        url: the web address of the page that shows the check, if there is one (:func:`review_url`).

    Raises:
        ValueError: ``url`` is not a whole ``http(s)://`` address, or holds a quote, an angle bracket, a space...
    """
    return {"@context": CONTEXT, **_review(result, provenance, author or Author(), published, url)}


def claim_reviews(
    results: Sequence[CheckResult],
    provenance: Provenance,
    author: Author | None = None,
    published: float | None = None,
    urls: Sequence[str | None] | None = None,
) -> dict[str, Any]:
    """Several checks made the same way (a batch) as one JSON-LD document: a ClaimReview each in its ``@graph``,
    in order, each with its provenance (see :func:`claim_review`); ``urls``: each check's web address, in the same
    order (``None`` for one without; default: none has one).

    Raises:
        ValueError: ``urls`` is not one a check, or one of them can't be a ClaimReview's (:func:`review_url`).
    """
    author = author or Author()
    urls = [None] * len(results) if urls is None else list(urls)
    if len(urls) != len(results):
        raise ValueError(f"{len(urls)} urls for {len(results)} ClaimReviews: give one a check (None for none).")
    return {
        "@context": CONTEXT,
        "@graph": [_review(result, provenance, author, published, url) for result, url in zip(results, urls)],
    }


def review_url(url: str) -> str:
    """``url``, when it can be a ClaimReview's: a whole ``http(s)://`` address with a host, at most
    :data:`MAX_URL_CHARS` characters, none of them a quote, an angle bracket, a space, a backslash or a control
    character (:data:`URL_PATTERN`).

    Raises:
        ValueError: it can't; the message says what to give.
    """
    if len(url) > MAX_URL_CHARS or not re.fullmatch(URL_PATTERN, url) or not urlsplit(url).hostname:
        raise ValueError(
            f"A ClaimReview's url must be a whole web address (https://host/...) of at most "
            f"{MAX_URL_CHARS:,} characters, without quotes, angle brackets, spaces or backslashes (escape "
            f"them as %22, %3C...), not {url[:100]!r}."
        )
    return url


def to_jsonld(document: dict[str, Any]) -> str:
    """A document as JSON-LD text: UTF-8-ready (characters as they are, but ``<``, ``>``, ``&``, U+2028 and U+2029
    as ``\\u`` escapes, so that it is safe inside a web page's ``<script>``), indented, strict (a non-finite number is
    a ``ValueError``)."""
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False).translate(_JSON_ESCAPES) + "\n"
