"""FEVER text conventions: token normalisation, page ids <-> titles, premise formatting.

FEVER's Wikipedia dump is tokenised (PTB style): brackets become ``-LRB-`` and friends, quotes
become ````` and ``''``, and page ids use ``_`` for spaces. Everything shown to people or fed to
models goes through :func:`fever_to_plain`; page ids are kept exact and converted with
:func:`page_id_to_title` / :func:`title_to_page_id`.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from typing import Any, overload

_ID_TOKENS = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "-COLON-": ":",
}
_TITLE_TO_ID = {plain: token for token, plain in _ID_TOKENS.items()}
_ID_TOKEN_RE = re.compile("|".join(re.escape(t) for t in _ID_TOKENS))
_TITLE_CHAR_RE = re.compile("|".join(re.escape(c) for c in _TITLE_TO_ID))

_TEXT_TOKENS = [
    ("-LRB-", "("),
    ("-RRB-", ")"),
    ("-LSB-", "["),
    ("-RSB-", "]"),
    ("-LCB-", "{"),
    ("-RCB-", "}"),
    ("-COLON-", ":"),
    ("``", '"'),
    ("''", '"'),
    (" -- ", " – "),
]
# Spacing rules applied after token replacement, in order.
_DETOKENISE = [
    (re.compile(r"\(\s+"), "("),
    (re.compile(r"\[\s+"), "["),
    (re.compile(r"\{\s+"), "{"),
    (re.compile(r"\s+([)\]}])"), r"\1"),
    (re.compile(r"\s+([,.;:!?%])(?=\s|$)"), r"\1"),
    (re.compile(r"\s+('s|'re|'ve|'ll|'d|'m|n't|')(?=\s|$|[,.;:!?])", re.IGNORECASE), r"\1"),
    (re.compile(r'"\s+(.*?)\s+"'), r'"\1"'),
    (re.compile(r"\s{2,}"), " "),
]


def page_id_to_title(page_id: str) -> str:
    """Turn a FEVER page id into its display title.

    >>> page_id_to_title("Soul_Food_-LRB-film-RRB-")
    'Soul Food (film)'
    """
    return _ID_TOKEN_RE.sub(lambda m: _ID_TOKENS[m.group(0)], page_id).replace("_", " ")


WIKIPEDIA_ARTICLE = "https://en.wikipedia.org/wiki/"


def wikipedia_url(title: str) -> str:
    """The English Wikipedia address of a page title: spaces as underscores, URL-quoted.

    >>> wikipedia_url("Soul Food (film)")
    'https://en.wikipedia.org/wiki/Soul_Food_%28film%29'
    """
    return WIKIPEDIA_ARTICLE + urllib.parse.quote(title.replace(" ", "_"))


def title_to_page_id(title: str) -> str:
    """Turn a display title into a FEVER page id (inverse of :func:`page_id_to_title`).

    >>> title_to_page_id("Soul Food (film)")
    'Soul_Food_-LRB-film-RRB-'
    """
    title = " ".join(title.split())
    return _TITLE_CHAR_RE.sub(lambda m: _TITLE_TO_ID[m.group(0)], title).replace(" ", "_")


def fever_to_plain(text: str) -> str:
    """Turn FEVER-tokenised sentence text into plain text for display and models.

    Plain text passes through unchanged apart from whitespace folding.

    >>> fever_to_plain("Soul Food -LRB- 1997 -RRB- is a film by `` Tillman '' .")
    'Soul Food (1997) is a film by "Tillman".'
    """
    for token, plain in _TEXT_TOKENS:
        text = text.replace(token, plain)
    for pattern, repl in _DETOKENISE:
        text = pattern.sub(repl, text)
    return text.strip()


_KEPT_FORMAT_CHARACTERS = "\u200c\u200d"
"""Zero-width non-joiner and joiner: invisible, but part of words (Persian, Indic scripts) and emoji sequences."""
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_BLANK_LINES_RE = re.compile(r"\n{3,}")


def clean_user_text(text: str, typed: bool = True) -> str:
    """Clean text where it enters the workbench; each entry calls this once: a claim as typed or listed
    (``check_claim_text`` in the pipeline), and through :func:`clean_json_text` every line of a jsonl file
    (:func:`fever_core.common.jsonl.read_jsonl`: claims, corpus pages, imports) and every answer of Wikipedia's API.

    Lone surrogates always go: JSON can spell them (``"\\ud800"``) but UTF-8, the only encoding written here,
    can't, so SQLite, a results file or a terminal would refuse the whole text; they are the only code points
    UTF-8 can't encode. Typed text (``typed``, the default) is also normalised to Unicode NFC, loses control and
    format characters (but the zero-width joiner and non-joiner, which words and emoji need) and has its spaces
    folded; other text (a page's lines, a file's fields) keeps everything else as it is.
    """
    if not typed:
        return _LONE_SURROGATE_RE.sub("", text) if _LONE_SURROGATE_RE.search(text) else text
    text = unicodedata.normalize("NFC", text)  # surrogates are category Cs: the filter below drops them
    text = "".join(
        ch for ch in text if ch in "\t\n" or ch in _KEPT_FORMAT_CHARACTERS or unicodedata.category(ch)[0] != "C"
    )
    return " ".join(text.split())


def clean_user_lines(text: str) -> str:
    """Pasted text of several lines (an article, a transcript) cleaned as :func:`clean_user_text` cleans a typed claim,
    line by line, keeping the lines: ``\\r\\n`` and ``\\r`` end a line as ``\\n`` does, each line has its spaces
    folded and its ends trimmed, runs of blank lines become one blank line, and blank lines at either end go."""
    lines = [clean_user_text(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return _BLANK_LINES_RE.sub("\n\n", "\n".join(lines)).strip("\n")


@overload
def clean_json_text(value: dict[str, Any]) -> dict[str, Any]: ...


@overload
def clean_json_text(value: object) -> object: ...


def clean_json_text(value: object) -> object:
    """A parsed JSON value with every string in it, keys too, cleaned as text that is not typed
    (:func:`clean_user_text` with ``typed=False``); numbers, booleans and ``None`` as they are (a tuple becomes
    a list, as JSON has it)."""
    if isinstance(value, str):
        return clean_user_text(value, typed=False)
    if isinstance(value, (list, tuple)):
        return [clean_json_text(item) for item in value]
    if isinstance(value, dict):
        return {clean_json_text(key): clean_json_text(item) for key, item in value.items()}
    return value


WORD_RE = re.compile(r"\w+")
NEGATION_WORDS = frozenset(["not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "cannot"])
"""The words that negate what a sentence says (with "n't", which is not a word of :data:`WORD_RE`): whether two claims
are negated alike ("checked before"), and the learned verdict's ``negation`` feature (with the exclusive words)."""
STOP_WORDS = frozenset(
    (
        "a an the of in on at to for by with from and or is was are were be been being has have had it its as that "
        "this these those which who whom whose his her their he she they there also than into about after before over "
        "under only not no never"
    ).split()
)
"""Function words that say nothing of what a claim is about: the words left out of claim-word coverage
(the learned verdict's features) and of the overlap tests that build training pairs."""
ARTICLES = frozenset("la le les l el los las lo il gli un une des du der die das den dem ein eine het".split())
"""Articles of French, Spanish, Italian, German and Dutch ("La", "Der"...): capitalised at a claim's start, one alone
is no name of what the claim is about (:func:`~fever_core.common.names.claim_names`); in a name ("Los Angeles", "Die
Hard", "Le Mans") it stays. English's ("the", "a", "an") are :data:`STOP_WORDS`."""
QUERY_STOP_WORDS = frozenset(
    (
        "a an and are as at be by for from has have he her his in is it its of on or she that the their there they "
        "this to was were which who will with"
    ).split()
)
"""Words too common to help a bm25 query; dropping them keeps full-text OR-queries fast. Smaller than
:data:`STOP_WORDS`: negations and prepositions such as "after" still find sentences."""
TITLE_STOP_WORDS = frozenset(
    (
        "a an and are as at be by for from has have he her his i in is it its of on or she that the their there they "
        "this to was were which who will with not no film"
    ).split()
)
"""Words that alone can't name a page in a claim ("The", "Film"): a title made only of them is not matched."""


def content_words(text: str, stop_words: frozenset[str] = STOP_WORDS) -> list[str]:
    """The lower-cased words of ``text`` that are not ``stop_words``, in order, repeats kept."""
    return [w for w in WORD_RE.findall(text.lower()) if w not in stop_words]


def premise_text(title: str, sentence: str) -> str:
    """The text a model sees for one evidence sentence: its page title, a colon, the sentence.

    Training and inference both use this, so the verifier sees the same format in both.
    """
    return f"{title}: {sentence}"


def normalise_title_key(text: str) -> str:
    """Case- and punctuation-folded key used to match mentions against titles.

    >>> normalise_title_key("The Beatles'")
    'the beatles'
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^\w\s]", " ", text.lower())
    return " ".join(text.split())


_OTHER_LANGUAGES_FUNCTION_WORDS = frozenset(
    (
        "le la les des du un une est et dans sur pour avec sont était se à au aux trouve der das ist und ein eine "
        "nicht mit auf dem den zu wurde steht liegt hat war im el los las es y del por con una que fue en está son se "
        "encuentra il lo gli è di che della sono era si trova nel nella os um uma não é em foi fica het een zijn niet "
        "werd ligt"
    ).split()
)
NON_LATIN_SHARE = 0.3
"""A text whose letters are more than this share non-ASCII is taken to be written in another script."""


def probably_not_english(text: str) -> bool:
    """A cheap guess that ``text`` is not English, for a notice (the verifier reads English only).

    True when more than :data:`NON_LATIN_SHARE` of its letters are not ASCII (Cyrillic, Greek, Chinese...), or
    when its lower-case words (names left out; the first word counts, lower-cased) hold at least two function
    words of French, German, Spanish, Italian, Portuguese or Dutch and more of them than English ones
    (:data:`STOP_WORDS`): "Paris est la capitale de la France." and "La tour Eiffel se trouve à Paris." but not
    "Charles de Gaulle was a French general." nor "Le Mans hosts a famous car race."
    """
    letters = [ch for ch in text if ch.isalpha()]
    if letters and sum(not ch.isascii() for ch in letters) / len(letters) > NON_LATIN_SHARE:
        return True
    found = WORD_RE.findall(text)
    words = [w for w in found[:1] if w[:1].isupper() and w[1:].islower()] + [w for w in found if w.islower()]
    words = [w.lower() for w in words]
    other = sum(w in _OTHER_LANGUAGES_FUNCTION_WORDS for w in words)
    return other >= 2 and other > sum(w in STOP_WORDS for w in words)
