"""The verdict policy: which text the verifier reads for each evidence sentence, and who decides."""

import numpy as np
import pytest

from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.claim_verifier import ClaimVerifier, chain_premise
from fever_core.verification.nli import NliModel
from fever_core.verification.verdict import FEATURE_NAMES, LearnedVerdict

KRAFTWERK = EvidenceSentence("Kraftwerk", "Kraftwerk", 0, "Kraftwerk was formed in Düsseldorf in 1970.", 0.7)
DUSSELDORF = EvidenceSentence(
    "Düsseldorf", "Düsseldorf", 0, "Düsseldorf is the capital of North Rhine-Westphalia.", 0.6, hop=2,
    via=HopLink("Kraftwerk", 0, "Düsseldorf", "Kraftwerk", "Kraftwerk was formed in Düsseldorf in 1970."),
)


def learned_verdict(two_hop_chains: bool) -> LearnedVerdict:
    n = len(FEATURE_NAMES)
    return LearnedVerdict(np.zeros((3, n)), np.zeros(3), np.zeros(n), np.ones(n), list(FEATURE_NAMES), {},
                          two_hop_chains=two_hop_chains)


def test_a_second_hop_sentence_is_read_after_the_sentence_that_links_to_it():
    assert chain_premise(DUSSELDORF) == (
        "Kraftwerk: Kraftwerk was formed in Düsseldorf in 1970. "
        "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia.")
    assert chain_premise(KRAFTWERK) == "Kraftwerk: Kraftwerk was formed in Düsseldorf in 1970."


@pytest.fixture(scope="module")
def model(tiny_nli_model):
    return NliModel.load(str(tiny_nli_model), "cpu")


def test_the_verifier_judges_the_chain_as_one_premise(model):
    claim = "Kraftwerk was formed in the capital of North Rhine-Westphalia."
    results, _ = ClaimVerifier(model).verify(claim, [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
    assert [r.premise for r in results] == [chain_premise(KRAFTWERK), chain_premise(DUSSELDORF)]
    expected = model.predict([(chain_premise(DUSSELDORF), claim)])[0]
    assert results[1].stance.as_row() == pytest.approx(expected, abs=1e-6)
    assert results[1].view().text == "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."


def test_a_verdict_fit_on_single_sentences_keeps_reading_single_sentences(model, tmp_path):
    old = ClaimVerifier(model, learned_verdict=learned_verdict(two_hop_chains=False))
    results, _ = old.verify("Kraftwerk is German.", [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
    assert results[1].premise == "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."
    saved = learned_verdict(two_hop_chains=True)
    saved.save(tmp_path)
    assert LearnedVerdict.load(tmp_path).two_hop_chains is True
    assert ClaimVerifier(model, learned_verdict=LearnedVerdict.load(tmp_path)).two_hop_chains is True


def test_untrusted_sentences_are_shown_but_not_judged(model):
    results, verdict = ClaimVerifier(model).verify("Kraftwerk is German.", [KRAFTWERK, DUSSELDORF],
                                                   min_evidence_score=0.65)
    assert [r.trusted for r in results] == [True, False] and results[1].stance is None
    assert verdict.deciding_evidence in ([], [0])


def test_the_reason_quotes_the_deciding_sentence(model):
    _, verdict = ClaimVerifier(model).verify("Kraftwerk is German.", [KRAFTWERK], min_evidence_score=0.0)
    assert 'Kraftwerk: "Kraftwerk was formed in Düsseldorf in 1970."' in verdict.reason
