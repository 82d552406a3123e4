"""The numbers, dates and ordinals a text states, each as the interval of values it asserts.

An NLI verifier reads "Barack Obama was the 45th president." against "... served as the 44th president ..." as
SUPPORTS (one token differs), and "The Nile is more than 7,000 kilometres long." against "At 7,088 kilometres
long ..." as REFUTES (the numbers differ). What a number asserts is arithmetic, so the number check
(:mod:`~fever_core.verification.number_check`) computes it from what this module reads (:func:`number_mentions`):
the years, ordinals, quantities with a unit, shares and plain counts a text states, each as the interval it asserts
with its qualifier honoured: "more than 7,000 km" is (7000, inf) km, "about a third" is [0.3, 0.367], "in the
1990s" is [1990, 1999], "the 19th century" is [1800, 1900], an unqualified "7,000" is what rounds to it, [6500,
7500], and a year, an ordinal or a small count is exact. Quantities come from ``quantulum3`` (units, scales,
fractions), entities and parts of speech from spaCy (the text's parse: :func:`~fever_core.common.nlp.parse`, a
claim's made once by its analysis), number words from ``numerizer``.

One module (over 400 lines) because it is one reader: each kind of number is read from the same parse, and a span
one kind has taken is free for no other (:func:`number_mentions`).
"""

from __future__ import annotations

import calendar
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from fever_core.common.nlp import parse

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

YEAR = "year"
ORDINAL = "ordinal"
QUANTITY = "quantity"
SHARE = "share"
COUNT = "count"
KINDS = (YEAR, ORDINAL, QUANTITY, SHARE, COUNT)
"""What a number is: a year (or span of years; BC negative), an ordinal or rank, a quantity with a unit (durations
in years), a share of a whole (a fraction or a percentage, as a fraction: "a third", "17%"), a plain count."""

EXACT_COUNT_BELOW = 100
"""An unqualified whole count under this ("four moons") asserts exactly that number; a larger one ("7,000"),
what rounds to it."""
ABOUT = 0.1
"""The relative tolerance, either side, of "about", "around", "approximately" ... (10 %)."""
ABOUT_YEARS = 10
"""The tolerance, either side, of "around 400 BC", "about 1990": ten years."""
MAGNITUDE = 20.0
"""A count or quantity of a sentence is tried against one of the claim only when neither is more than this many
times the other: "Russia has a population of sixteen." read against "sixteen of its urban areas" must never stand
for the claim's "more than 140 million"."""

_INF = math.inf


class Bound(Enum):
    """How a qualifier bounds the number it stands before."""

    ABOVE = "above"  # more than, over: (v, inf)
    AT_LEAST = "at_least"  # at least: [v, inf)
    BELOW = "below"  # less than, under, before: (-inf, v)
    AT_MOST = "at_most"  # at most, up to, by: (-inf, v]
    ABOUT = "about"  # about, around: v within ABOUT
    NEARLY = "nearly"  # nearly, almost: just under v
    EXACTLY = "exactly"  # exactly: v itself


QUALIFIERS: dict[str, Bound] = {
    "more than": Bound.ABOVE,
    "over": Bound.ABOVE,
    "above": Bound.ABOVE,
    "greater than": Bound.ABOVE,
    "larger than": Bound.ABOVE,
    "higher than": Bound.ABOVE,
    "longer than": Bound.ABOVE,
    "upwards of": Bound.ABOVE,
    "in excess of": Bound.ABOVE,
    "exceeding": Bound.ABOVE,
    "just over": Bound.ABOVE,
    "after": Bound.ABOVE,
    "later than": Bound.ABOVE,
    "at least": Bound.AT_LEAST,
    "no fewer than": Bound.AT_LEAST,
    "no less than": Bound.AT_LEAST,
    "not less than": Bound.AT_LEAST,
    "since": Bound.AT_LEAST,
    "less than": Bound.BELOW,
    "fewer than": Bound.BELOW,
    "under": Bound.BELOW,
    "below": Bound.BELOW,
    "shorter than": Bound.BELOW,
    "smaller than": Bound.BELOW,
    "lower than": Bound.BELOW,
    "just under": Bound.BELOW,
    "before": Bound.BELOW,
    "earlier than": Bound.BELOW,
    "prior to": Bound.BELOW,
    "at most": Bound.AT_MOST,
    "up to": Bound.AT_MOST,
    "no more than": Bound.AT_MOST,
    "not more than": Bound.AT_MOST,
    "by": Bound.AT_MOST,
    "about": Bound.ABOUT,
    "around": Bound.ABOUT,
    "approximately": Bound.ABOUT,
    "roughly": Bound.ABOUT,
    "some": Bound.ABOUT,
    "circa": Bound.ABOUT,
    "c.": Bound.ABOUT,
    "an estimated": Bound.ABOUT,
    "close to": Bound.NEARLY,
    "nearly": Bound.NEARLY,
    "almost": Bound.NEARLY,
    "exactly": Bound.EXACTLY,
    "precisely": Bound.EXACTLY,
}
"""The words before a number that say how it bounds the value, longest match first."""
_YEAR_ONLY = {"after", "later than", "since", "before", "earlier than", "prior to", "by"}
"""Qualifiers that bound only years ("over 200" is a count; "after 1990" a year)."""
_ORDINAL_NUMBER = re.compile(r"(\d+)(?:st|nd|rd|th)\b")
_DECADE = re.compile(r"^(\d{3})0s$")


@dataclass(frozen=True)
class NumberMention:
    """A number a text states, as the interval of values it asserts.

    Attributes:
        kind: one of :data:`KINDS`.
        low, high: the interval's ends (``-inf`` / ``inf`` where open-ended); units as written (a year, a rank, the
            quantity in ``unit``, a count).
        low_open, high_open: whether the end itself is left out ("more than 7,000": low 7000, open).
        unit: the quantity's unit as ``quantulum3`` names it (``"kilometre"``); "" for the other kinds.
        text: the words as written, qualifier included (``"more than 7,000 kilometres"``).
        start, end: its character span in the text.
    """

    kind: str
    low: float
    high: float
    low_open: bool
    high_open: bool
    unit: str
    text: str
    start: int
    end: int

    def contains(self, other: NumberMention) -> bool:
        """Whether every value ``other`` asserts is one this one allows."""
        low_ok = other.low > self.low or (other.low == self.low and (not self.low_open or other.low_open))
        high_ok = other.high < self.high or (other.high == self.high and (not self.high_open or other.high_open))
        return low_ok and high_ok

    def apart_from(self, other: NumberMention) -> bool:
        """Whether no value is allowed by both."""

        def before(a: NumberMention, b: NumberMention) -> bool:  # a ends before b starts
            return a.high < b.low or (a.high == b.low and (a.high_open or b.low_open))

        return before(self, other) or before(other, self)

    @property
    def reference(self) -> float:
        """A finite value it names: its low end, or its high end where the low is open-ended."""
        return self.low if math.isfinite(self.low) else self.high

    def comparable(self, other: NumberMention) -> bool:
        """Whether the two can state the same thing: the same kind, for quantities the same unit, and for counts
        and quantities magnitudes within :data:`MAGNITUDE` of each other."""
        if self.kind != other.kind or self.unit != other.unit:
            return False
        if self.kind not in (COUNT, QUANTITY, SHARE):
            return True
        a, b = abs(self.reference), abs(other.reference)
        return min(a, b) > 0 and max(a, b) / min(a, b) <= MAGNITUDE


@lru_cache(maxsize=1)
def _quantity_parser() -> ModuleType:
    """``quantulum3``'s parser, with its unit classifier off: the classifier ships as a pickle of an older
    scikit-learn that the pinned one can't load, and the rule-based disambiguation is what it falls back to."""
    import quantulum3.classifier
    from quantulum3 import parser

    quantulum3.classifier.USE_CLF = False
    module: ModuleType = parser
    return module


def _qualifier(text: str, start: int) -> tuple[Bound | None, str]:
    """The qualifier that ends right before ``start`` (a whole phrase of :data:`QUALIFIERS`) and the phrase."""
    before = text[:start].rstrip().lower()
    for phrase in sorted(QUALIFIERS, key=len, reverse=True):
        if before.endswith(phrase) and (len(before) == len(phrase) or not before[-len(phrase) - 1].isalnum()):
            return QUALIFIERS[phrase], phrase
    return None, ""


def _rounding(value: float) -> float:
    """Half the step of the last significant digit of ``value`` ("7,000" -> 500, "2.1 million" -> 50,000,
    "8.5" -> 0.05), and at least 1 % of it: what a number written that way may have been rounded from."""
    if value == 0:
        return 0.5
    written = f"{abs(value):.6g}"
    if "e" in written:
        mantissa, exponent = written.split("e")
        step = 10.0 ** (int(exponent) - len(mantissa.replace(".", "").rstrip("0")) + 1)
    elif "." in written:
        step = 10.0 ** -len(written.partition(".")[2])
    else:
        step = 10.0 ** (len(written) - len(written.rstrip("0")))
    return max(step / 2, abs(value) * 0.01)


def _interval(kind: str, low: float, high: float, bound: Bound | None, exact: bool) -> tuple[float, float, bool, bool]:
    """The interval a number (``low`` to ``high`` as written; equal for a point) asserts under its qualifier.
    ``exact``: an unqualified point means itself (years, ordinals, small counts), else what rounds to it."""
    if bound is Bound.ABOVE:
        return high, _INF, True, False
    if bound is Bound.AT_LEAST:
        return low, _INF, False, False
    if bound is Bound.BELOW:
        return -_INF, low, False, True
    if bound is Bound.AT_MOST:
        return -_INF, high, False, False
    if bound is Bound.ABOUT:
        slack = ABOUT_YEARS if kind == YEAR else max(abs(low) * ABOUT, 0 if exact else _rounding(low))
        return low - slack, high + slack, False, False
    if bound is Bound.NEARLY:
        return low * (1 - ABOUT), high, False, False
    if bound is Bound.EXACTLY or exact or low != high:
        return low, high, False, False
    slack = _rounding(low)
    return low - slack, high + slack, False, False


def _mention(
    text: str, kind: str, low: float, high: float, unit: str, start: int, end: int, exact: bool, as_written: bool
) -> NumberMention:
    """The mention of ``text[start:end]`` with the qualifier before it (see :func:`number_mentions` for
    ``as_written``: a sentence's "about 26 years" is taken as the 26 years it states)."""
    bound, phrase = _qualifier(text, start)
    if phrase in _YEAR_ONLY and kind != YEAR:
        bound, phrase = None, ""
    if phrase:
        start = text.lower().rindex(phrase, 0, start)
    lo, hi, lo_open, hi_open = _interval(
        kind, low, high, None if as_written and bound is Bound.ABOUT else bound, exact or as_written
    )
    return NumberMention(kind, lo, hi, lo_open, hi_open, unit, text[start:end], start, end)


def _ordinal_value(words: str) -> int | None:
    """``"44th"`` -> 44, ``"forty-fourth"`` -> 44, ``"second"`` -> 2 (``numerizer``); ``None`` if not an ordinal."""
    from numerizer import numerize

    found = _ORDINAL_NUMBER.search(numerize(words))
    if found is None or len(found.group(1)) > MAX_DIGITS:  # "the 10...0th": no rank anyone compares
        return None
    return int(found.group(1))


_MONTHS = frozenset(calendar.month_name[1:]) | frozenset(calendar.month_abbr[1:])
_ERAS = {"BC": -1, "BCE": -1, "AD": 1, "CE": 1}
"""Era words after a year (and "AD" before one): years before the common era are negative."""
_DECADE_PARTS = {"early": (0, 3), "mid": (4, 6), "late": (6, 9)}
"""The years of a decade that "early", "mid" and "late" name ("the late 1880s": 1886 to 1889)."""
_YEARS_PER = {
    "second": 1 / 31_557_600,
    "minute": 1 / 525_960,
    "hour": 1 / 8766,
    "day": 1 / 365.25,
    "week": 7 / 365.25,
    "month": 1 / 12,
    "year": 1.0,
    "decade": 10.0,
    "century": 100.0,
    "millennium": 1000.0,
}
"""Durations are compared in years, whatever unit each text writes them in."""
_NAMED = {"PERSON", "ORG", "WORK_OF_ART", "EVENT", "FAC", "PRODUCT", "LAW", "NORP", "GPE", "LOC"}
"""Entities whose numbers are part of a name ("the Ten Thousand", "Apollo 11"), not a value."""


MAX_VALUE = 1e100
"""Numbers larger than this (a googol), or beyond float range ("1e400", a thousand digits), are set aside: a claim
that writes one compares no value and never raises."""
MAX_DIGITS = 40
"""Numbers written with more digits than this are set aside unread (masked before parsing: quantulum3 takes seconds
on 160 digits and minutes on a thousand), as are larger values (:data:`MAX_VALUE`)."""
_LONG_NUMBER = re.compile(rf"\d(?:[,.]?\d){{{MAX_DIGITS},}}")


def _calendar_date(span: Span) -> bool:
    """Whether a spaCy DATE entity names a day or a year ("4 August 1961"), whose day is no count; spaCy also calls
    "a quarter" a date."""
    return any(t.text in _MONTHS or (t.text.isdecimal() and len(t.text) == 4) for t in span)


def _era(doc: Doc, token: Token) -> int:
    """-1 for a year written with BC or BCE, 1 with AD or CE, 0 without."""
    after = doc[token.i + 1].text if token.i + 1 < len(doc) else ""
    before = doc[token.i - 1].text if token.i > 0 else ""
    return _ERAS.get(after, 0) or (1 if before in ("AD", "CE") else 0)


def _century(doc: Doc, after: int, value: int) -> tuple[int, int]:
    """The years of the ``value``-th century (BC when the token at ``after`` is BC or BCE), as ``(first, last)``."""
    era = _ERAS.get(doc[after].text, 1) if after < len(doc) else 1
    return ((value - 1) * 100, value * 100) if era > 0 else (-value * 100, -(value - 1) * 100)


def _fraction_word(doc: Doc, ent: Span) -> bool:
    """Whether an ORDINAL entity is a fraction ("a sixth of", "one third"), which the quantity parser reads."""
    before = doc[ent.start - 1].lower_ if ent.start > 0 else ""
    return before in ("a", "one", "two", "three") and ent.text.lower() != "first"


def _ordinals_and_centuries(text: str, doc: Doc, as_written: bool) -> list[NumberMention]:
    found = []
    for ent in doc.ents:
        if ent.label_ not in ("ORDINAL", "DATE") or (ent.label_ == "ORDINAL" and _fraction_word(doc, ent)):
            continue
        century = next(
            (t for t in doc[ent.start : min(ent.end + 1, len(doc))] if t.lower_ in ("century", "centuries")), None
        )
        value = _ordinal_value(ent.text)
        if value is None or (ent.label_ == "DATE" and century is None):
            continue
        if century is not None:
            end_token = century.i + 1
            if end_token < len(doc) and doc[end_token].text in _ERAS:
                end_token += 1
            first, last = _century(doc, century.i + 1, value)
            found.append(
                _mention(
                    text,
                    YEAR,
                    first,
                    last,
                    "",
                    ent.start_char,
                    doc[end_token - 1].idx + len(doc[end_token - 1].text),
                    True,
                    as_written,
                )
            )
        else:
            found.append(_mention(text, ORDINAL, value, value, "", ent.start_char, ent.end_char, True, as_written))
    return found


def _years(text: str, doc: Doc, free: Callable[[int, int], bool], as_written: bool) -> list[NumberMention]:
    found = []
    for token in doc:
        end = token.idx + len(token.text)
        if not free(token.idx, end):
            continue
        decade = _DECADE.match(token.text)
        if decade:
            low = int(decade.group(1)) * 10
            part = doc[token.i - 1].lower_ if token.i > 0 else ""
            start = doc[token.i - 1].idx if part in _DECADE_PARTS else token.idx
            first, last = _DECADE_PARTS.get(part, (0, 9))
            found.append(_mention(text, YEAR, low + first, low + last, "", start, end, True, as_written))
            continue
        if not token.text.isdecimal() or len(token.text) > 4:  # not "²": a digit int() does not read
            continue
        value, era = int(token.text), _era(doc, token)
        after_month = token.i > 0 and doc[token.i - 1].text in _MONTHS and value > 31
        plain_year = (
            len(token.text) == 4
            and 1000 <= value <= 2100
            and (token.ent_type_ == "DATE" or token.i + 1 >= len(doc) or doc[token.i + 1].pos_ not in ("NOUN", "PROPN"))
        )
        if era or after_month or plain_year:
            if era and token.i + 1 < len(doc) and doc[token.i + 1].text in _ERAS:
                end = doc[token.i + 1].idx + len(doc[token.i + 1].text)
            year = -value if era < 0 else value
            found.append(_mention(text, YEAR, year, year, "", token.idx, end, True, as_written))
    return found


def _quantities(text: str, doc: Doc, free: Callable[[int, int], bool], as_written: bool) -> list[NumberMention]:
    dates = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "DATE" and _calendar_date(e)]
    names = [(e.start_char, e.end_char) for e in doc.ents if e.label_ in _NAMED]
    parser = _quantity_parser()
    quantities = parser.parse(text)
    found = []
    i = 0
    while i < len(quantities):
        quantity = quantities[i]
        start, end = quantity.span
        value, unit = float(quantity.value), quantity.unit.name
        surface = text[start:end].lower()
        if surface.startswith("half a") and value >= 1:  # quantulum3 reads "half a million" as 1.5 million
            rest = parser.parse(text[start + len("half ") : end])
            value = 0.5 * float(rest[0].value) if rest else value
        following = quantities[i + 1] if i + 1 < len(quantities) else None
        if (
            following is not None
            and 0 < value < 1
            and unit == "dimensionless"
            and text[end : following.span[0]].strip().lower() == "of"
        ):
            value, unit, end = value * float(following.value), following.unit.name, following.span[1]
            i += 1
        i += 1
        if any(start < b and end > a for a, b in dates + names) or not free(start, end):
            continue
        if not math.isfinite(value) or abs(value) > MAX_VALUE:  # "1e400", a thousand digits: no value to compare
            continue
        if unit in _YEARS_PER:
            value, unit = value * _YEARS_PER[unit], "year"
        kind = COUNT if unit == "dimensionless" else QUANTITY
        if unit == "percentage" or (kind == COUNT and 0 < value < 1):
            kind, unit, value = SHARE, "", value / 100 if unit == "percentage" else value
        exact = kind == COUNT and value == int(value) and abs(value) < EXACT_COUNT_BELOW
        found.append(
            _mention(text, kind, value, value, unit if kind == QUANTITY else "", start, end, exact, as_written)
        )
    return found


def number_mentions(text: str, as_written: bool = False) -> list[NumberMention]:
    """The years, ordinals, quantities, shares and counts ``text`` states, in order (see :class:`NumberMention`).

    Args:
        as_written: an unqualified number means exactly itself, as an evidence sentence's do ("7,088 km" is 7,088);
            ``False`` (default, a claim's): a large one means what rounds to it ("7,000 km" is 6,500 to 7,500).
    """
    text = "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in text)  # "8,848.86\xa0m": same spans
    text = _LONG_NUMBER.sub(lambda m: "x" * len(m.group()), text)  # same spans; quantulum3 is cubic in digits
    doc = parse(text)
    found: list[NumberMention] = []

    def free(start: int, end: int) -> bool:
        return all(end <= m.start or start >= m.end for m in found)

    found += _ordinals_and_centuries(text, doc, as_written)
    found += _years(text, doc, free, as_written)
    found += _quantities(text, doc, free, as_written)
    return sorted(found, key=lambda m: m.start)
