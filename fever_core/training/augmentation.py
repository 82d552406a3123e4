"""Augmentation of training pairs: premises rewritten the way other corpora write them.

FEVER's 2017 sentences keep their parenthetical asides ("Stanley Kubrick (July 26, 1928 - March 7, 1999) was ...")
and Wikipedia's lead summaries (the embedded corpus) don't; :func:`plain_style_pairs` adds copies of pairs with
the asides removed so that asides are no cue to the label.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from fever_core.common.formats import Pair
from fever_core.common.text import content_words

_ASIDE_RE = re.compile(r"\s*\(([^()]*)\)(?!:)")
"""A parenthetical aside, ``" (born 5 May 1950)"``; not a title's disambiguator (``"Paris (film):"``)."""


def without_asides(premise: str, claim: str) -> str | None:
    """``premise`` with its parenthetical asides removed, the way Wikipedia's lead summaries (the
    embedded corpus) write lead sentences; ``None`` when it has none, or when the claim shares a content
    word with one (``"born in 1950"`` may rest on ``"(born 5 May 1950)"``, so its label could change).

    FEVER's 2017 sentences keep their asides and the summaries don't; a verifier that sees asides only in
    SUPPORTS / REFUTES premises learns that a lead sentence without them says nothing about the claim.
    """
    asides = _ASIDE_RE.findall(premise)
    if not asides or _words(" ".join(asides)) & _words(claim):
        return None
    return remove_asides(premise)


def remove_asides(text: str) -> str:
    """``text`` without its parenthetical asides (see :func:`without_asides`), spaces before ``,.;`` closed."""
    return re.sub(r"\s+([,.;])", r"\1", _ASIDE_RE.sub("", text))


def plain_style_pairs(pairs: Sequence[Pair], fraction: float, rng: random.Random) -> list[Pair]:
    """Copies of a random ``fraction`` of ``pairs`` with their premises' asides removed
    (:func:`without_asides`; pairs it leaves alone are skipped), same label, source ``<source>-plain-style``."""
    picked = rng.sample(list(pairs), int(len(pairs) * fraction))
    out = []
    for pair in picked:
        premise = without_asides(pair.premise, pair.hypothesis)
        if premise is not None:
            out.append(Pair(premise, pair.hypothesis, pair.label, f"{pair.source}-plain-style"))
    return out


def _words(text: str) -> set[str]:
    return set(content_words(text))
