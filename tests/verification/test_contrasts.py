"""The contrast check (fever_core/verification/contrasts.py): a claim's comparative, direction or order word against
its opposite in a sentence, settled by the verifier's reading of the rewritten claim."""

from fever_core.common.types import REFUTES
from fever_core.verification.contrasts import OPPOSITES, contrast_trial, settle_contrast

BOAT = "A boat is a watercraft of many sizes, but generally smaller than a ship."


def test_the_claim_is_rewritten_with_the_opposite_word_the_sentence_uses():
    [candidate] = contrast_trial("A boat is generally bigger than a ship.", [BOAT])
    assert (candidate.claim_word, candidate.sentence_word) == ("bigger", "smaller")
    assert candidate.rewritten_claim == "A boat is generally smaller than a ship."
    [north] = contrast_trial("North of the river lies the old town.", ["South of the river lies the old town."])
    assert north.rewritten_claim == "South of the river lies the old town."  # the claim's capital kept


def test_a_sentence_without_the_opposite_or_with_the_claims_own_word_is_not_tried():
    assert contrast_trial("A boat is generally bigger than a ship.", ["A boat is a watercraft."]) == []
    both = "Grenada is south of Saint Vincent and north of Trinidad."
    assert contrast_trial("Grenada lies north of Trinidad.", [both]) == []  # the sentence says so itself
    [vincent] = contrast_trial("Grenada lies north of Saint Vincent.", [both])  # its "south" compares Saint Vincent
    assert vincent.rewritten_claim == "Grenada lies south of Saint Vincent."
    infrared = "Infrared is radiation with wavelengths longer than that of visible light but shorter than microwaves."
    [light] = contrast_trial("Infrared has shorter wavelengths than visible light.", [infrared])
    assert light.rewritten_claim == "Infrared has longer wavelengths than visible light."
    assert contrast_trial("Paris is the capital of France.", ["Paris is in the north of France."]) == []


def test_a_sentence_that_says_the_converse_is_not_tried():
    intestine = "Although it is shorter than the small intestine, it is called the large intestine."
    assert contrast_trial("The small intestine is longer than the large intestine.", [intestine]) == []
    humboldt = "He was the younger brother of the Prussian minister, philosopher and linguist Wilhelm von Humboldt."
    assert contrast_trial("Alexander von Humboldt had an older brother, Wilhelm.", [humboldt]) == []


def test_a_sure_reading_of_the_opposite_refutes_and_nothing_else_settles():
    candidates = contrast_trial("A boat is generally bigger than a ship.", ["Boats are old.", BOAT])
    check = settle_contrast(candidates, [0.97])
    assert (check.label, check.evidence, check.claim_says, check.sentence_says) == (REFUTES, 1, "bigger", "smaller")
    assert check.rewritten_claim == "A boat is generally smaller than a ship."
    assert settle_contrast(candidates, [0.6]) is None  # the verifier is not sure the sentence states it


def test_every_contrast_word_has_opposites_that_have_it_back():
    assert all(word in OPPOSITES[opposite] for word, opposites in OPPOSITES.items() for opposite in opposites)
    assert OPPOSITES["shorter"] == ("longer", "taller") and OPPOSITES["north"] == ("south",)
