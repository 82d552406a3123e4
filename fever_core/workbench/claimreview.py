"""A check as a schema.org ``ClaimReview`` in JSON-LD, with the provenance a reader needs to reproduce it.

:func:`claim_review` turns a :class:`~fever_core.pipeline.CheckResult` into one ClaimReview document;
:func:`claim_reviews` turns several (a batch) into one document whose ``@graph`` holds a ClaimReview each. Both are
pure: what they record about the models and the corpus comes in a
:class:`~fever_core.workbench.provenance.Provenance`, which :func:`~fever_core.workbench.provenance.checker_provenance`
gathers from the running checker (:mod:`fever_core.workbench.provenance`).

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
  (:meth:`~fever_core.workbench.provenance.Provenance.properties`): the workbench's version, the verifier (and joint verifier) with its checksum, the
  corpus with its build checksum and size, the retriever and every per-check setting, and the verdict's FEVER label
  (the likeliest, for programs, even where it is withheld), whether it is withheld (``labelWithheld``) and its one
  probability, to two decimals as every page shows it (:func:`~fever_core.workbench.shown.probability_text`). ``additionalProperty`` and ``PropertyValue`` are schema.org's own terms, so any JSON-LD processor
  keeps them on expansion, where a term of a vocabulary of the workbench's own would need an address of its own
  (schema.org lists ``additionalProperty`` for products and places, so a strict validator may note it as unexpected
  on a review; it is kept all the same).

The document's text (:func:`to_jsonld`, what every download, file and answer is made of) is safe to paste into a web
page's ``<script type="application/ld+json">``: ``<``, ``>`` and ``&`` are written as JSON escapes (``\u003c``...), so a
claim holding ``</script>`` can't end the script.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fever_core.common.text import wikipedia_url
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.workbench.provenance import Provenance, property_value
from fever_core.workbench.shown import probability_text, times_in_100, verdict_shown

if TYPE_CHECKING:
    from fever_core.pipeline import CheckResult
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
        property_value("feverLabel", verdict.label),
        property_value("labelWithheld", verdict.label_withheld),
        property_value("probability", float(probability_text(verdict.probability)), "probability"),
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
