"""Augmentation of training pairs (fever_core/training/augmentation.py): premises without parenthetical asides."""

import random

from fever_core.common.formats import Pair
from fever_core.training.augmentation import plain_style_pairs, remove_asides, without_asides

KUBRICK = "Stanley Kubrick: Stanley Kubrick (July 26, 1928 - March 7, 1999) was an American film director (auteur)."


def test_asides_are_removed_unless_the_claim_may_rest_on_them():
    assert without_asides(KUBRICK, "Stanley Kubrick was a painter.") == (
        "Stanley Kubrick: Stanley Kubrick was an American film director."
    )
    assert without_asides(KUBRICK, "Stanley Kubrick was born in 1928.") is None  # "1928" is in an aside
    assert without_asides("Paris (film): Paris is a 2008 film.", "Paris is a film.") is None  # a title, not an aside


def test_removing_an_aside_closes_the_space_before_punctuation():
    assert (
        remove_asides("Berlin (pronounced bear-LEEN) is big (very) , and old (ancient) .") == "Berlin is big, and old."
    )


def test_plain_style_copies_keep_the_label_and_mark_the_source():
    pairs = [
        Pair(KUBRICK, "Stanley Kubrick was a painter.", "REFUTES", "fever"),
        Pair(KUBRICK, "Stanley Kubrick was born in 1928.", "SUPPORTS", "fever"),  # rests on an aside: no copy
        Pair("Paris: Paris is the capital of France.", "Paris is in France.", "SUPPORTS", "fever"),  # no aside
    ]
    assert plain_style_pairs(pairs, 1.0, random.Random(0)) == [
        Pair(
            "Stanley Kubrick: Stanley Kubrick was an American film director.",
            "Stanley Kubrick was a painter.",
            "REFUTES",
            "fever-plain-style",
        ),
    ]
    assert plain_style_pairs(pairs, 0.0, random.Random(0)) == []
