"""A label too unsure to show, and the sentences to read (fever_core/verification/read_these.py, issue 48): which
sentences settle a claim, when a verdict's label is withheld, and both on the verdict a check reports."""

from fever_core.common.types import Stance
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.nli import NliModel
from fever_core.verification.read_these import (
    READ_THESE_K,
    SHOWN_LABEL_MIN,
    said_of_subject,
    settling_sentences,
    withholds_label,
)
from fever_core.verification.verdict import Verdict

from .test_claim_verifier import DUSSELDORF, KRAFTWERK
from .test_deciders import judge

TORONTO = "Toronto is the capital of Canada."
SURE = Stance(0.9, 0.05, 0.05)
# issue 48's Toronto check, in the order the shipped retriever read them: the sentence that settles it comes fourth
TORONTO_EVIDENCE = [
    ("Toronto", "Toronto is the capital city of the province of Ontario.", SURE),
    ("Ontario", "It is home to the nation's capital, Ottawa, and its most populous city, Toronto.", SURE),
    ("Toronto", "Toronto has a large zoo.", SURE),
    ("Ottawa", "Ottawa is the capital city of Canada.", SURE),
    ("Canada", "Canada is a country in North America.", SURE),
]


def test_what_a_claim_says_about_its_subject_is_its_content_words_less_the_subject_s():
    assert said_of_subject(TORONTO) == ["capital", "canada"]
    assert said_of_subject("Mount Everest is the highest mountain on Earth.") == ["highest", "mountain", "earth"]
    assert said_of_subject("Berlin.") == ["berlin"]  # nothing but its subject


def test_the_sentence_that_states_most_of_what_the_claim_says_comes_first_though_it_never_names_the_subject():
    evidence = judge(TORONTO, TORONTO_EVIDENCE)
    # Ottawa's states "capital" and "Canada"; the first Toronto sentence and Ontario's "capital" alone, naming
    # Toronto; Canada's "Canada" alone; the zoo's nothing the claim says of Toronto
    assert settling_sentences(TORONTO, evidence) == [3, 0, 1]
    assert settling_sentences(TORONTO, evidence, k=5) == [3, 0, 1, 4, 2]


def test_of_sentences_stating_as_much_the_one_naming_the_subject_comes_first():
    claim = "Mount Everest is the highest mountain on Earth."
    evidence = judge(
        claim,
        [
            ("K2", "K2 is the second-highest mountain on Earth.", Stance(0.05, 0.9, 0.05)),
            ("Mount Everest", "Mount Everest is the highest mountain on Earth above sea level.", SURE),
        ],
    )
    assert settling_sentences(claim, evidence) == [1, 0]


def test_a_sentence_not_judged_or_not_bearing_on_the_claim_is_never_one_to_read():
    evidence = judge(
        TORONTO,
        [
            ("Ottawa", "Ottawa is the capital city of Canada.", None),
            ("Paris", "Paris is the capital of France.", SURE),
            ("Toronto", "Toronto has a large zoo.", SURE),
        ],
    )
    assert not evidence[1].bears_on_claim
    assert settling_sentences(TORONTO, evidence) == [2]  # the last resort: it names the subject, nothing else


def test_a_label_is_withheld_when_undecided_or_below_the_least_a_shown_label_needs():
    assert withholds_label(0.99, undecided=True)
    assert withholds_label(SHOWN_LABEL_MIN - 0.01, undecided=False)
    assert not withholds_label(SHOWN_LABEL_MIN, undecided=False)
    assert not withholds_label(0.5, undecided=False, threshold=0.4)


def test_a_check_s_verdict_withholds_an_unsure_label_names_the_sentences_to_read_and_keeps_them_in_its_json(
    tiny_nli_model,
):
    # the tiny, untrained verifier is about a third sure of each label: never enough to show one
    claim = "Kraftwerk was formed in the capital of North Rhine-Westphalia."
    evidence, verdict = ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu")).verify(
        claim, [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0
    )
    assert verdict.probability < SHOWN_LABEL_MIN and verdict.label_withheld
    assert verdict.read_these == settling_sentences(claim, evidence) and len(verdict.read_these) == 2 < READ_THESE_K
    data = verdict.to_dict()
    assert (data["label_withheld"], data["read_these"]) == (True, verdict.read_these)
    assert Verdict.from_dict(data) == verdict
    kept_before = {key: value for key, value in data.items() if key not in ("label_withheld", "read_these")}
    assert Verdict.from_dict(kept_before).read_these == []
