"""What a text names: a page title as claims and sentences name the page, and the names a claim is about.

One helper per job, for every layer: :func:`base_title` (corpus linking, title matching, the verdict's page rule,
the generated training claims), :func:`claim_names` and :func:`mentions_a_name` (which evidence bears on a claim),
:func:`names_page` (whether a claim names a page).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from fever_core.common.text import ARTICLES, STOP_WORDS, WORD_RE, content_words

_DISAMBIGUATION_RE = re.compile(r"\s*\([^()]*\)\s*$")
_NAME_RE = re.compile(r"\b(?:[^\W\d_][\w'-]*|\d[\d,.]*\d|\d)")
"""A word as a name is written: letters (with inner apostrophes and hyphens), or a number with its separators."""


def base_title(title: str) -> str:
    """A page title without its trailing disambiguation, as a claim or a sentence names the page:
    ``"Soul Food (film)"`` -> ``"Soul Food"``. A title that is nothing but one keeps it (``"(film)"``)."""
    return _DISAMBIGUATION_RE.sub("", title).strip() or title


def claim_names(claim: str) -> list[str]:
    """What a claim is about, as it writes them: its runs of capitalised words that are not stop words
    ("Munich", "ABBA", "Mona Lisa"), in order, without repeats, an article alone not one ("La" of "La tour Eiffel":
    :data:`~fever_core.common.text.ARTICLES`); a claim without any gets its content words.
    Read from the claim's words as written (not its parse), so that "which evidence bears on the claim" is the same
    for any claim, parsed or not."""
    names, run = [], []
    for word in [*_NAME_RE.findall(claim), ""]:
        if word[:1].isupper() and word.lower() not in STOP_WORDS:
            run.append(word)
            continue
        if run and " ".join(run) not in names and not (len(run) == 1 and _is_article(run[0])):
            names.append(" ".join(run))
        run = []
    return names or list(dict.fromkeys(content_words(claim)))


def _is_article(word: str) -> bool:
    """Whether ``word`` is a capitalised article ("La", "Der"; not an acronym such as "UN")."""
    return word.lower() in ARTICLES and word == word.capitalize()


def mentions_a_name(names: Sequence[str], text: str) -> bool:
    """Whether ``text`` mentions a word of one of ``names`` (:func:`claim_names`), letter case ignored. No names:
    every text does."""
    wanted = {word for name in names for word in WORD_RE.findall(name.lower())}
    return not wanted or bool(wanted & set(WORD_RE.findall(text.lower())))


def names_page(claim: str, title: str) -> bool:
    """Whether ``claim`` names the page ``title`` (its :func:`base_title`, as whole words, letter case ignored)."""
    name = base_title(title)
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", claim, re.IGNORECASE) is not None
