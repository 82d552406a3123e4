"""The claim verifier's flow (fever_core/verification/claim_verifier.py): which text the verifier reads for each
evidence sentence, which it judges, and the verdict it gets."""

import numpy as np
import pytest

from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.evidence import chain_premise
from fever_core.verification.features import FEATURE_NAMES
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import VerdictPolicy

KRAFTWERK = EvidenceSentence("Kraftwerk", "Kraftwerk", 0, "Kraftwerk was formed in Düsseldorf in 1970.", 0.7)
DUSSELDORF = EvidenceSentence(
    "Düsseldorf", "Düsseldorf", 0, "Düsseldorf is the capital of North Rhine-Westphalia.", 0.6, hop=2,
    via=HopLink("Kraftwerk", 0, "Düsseldorf", "Kraftwerk", "Kraftwerk was formed in Düsseldorf in 1970."),
)


def learned_verdict(two_hop_chains: bool) -> LearnedVerdict:
    n = len(FEATURE_NAMES)
    return LearnedVerdict(np.zeros((3, n)), np.zeros(3), np.zeros(n), np.ones(n), list(FEATURE_NAMES), {},
                          two_hop_chains=two_hop_chains)


@pytest.fixture(scope="module")
def model(tiny_nli_model):
    return NliModel.load(str(tiny_nli_model), "cpu")


def test_the_verifier_judges_the_chain_as_one_premise(model):
    claim = "Kraftwerk was formed in the capital of North Rhine-Westphalia."
    results, _ = ClaimVerifier(model).verify(claim, [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
    assert [r.premise for r in results] == [chain_premise(KRAFTWERK), chain_premise(DUSSELDORF)]
    expected = model.predict([(chain_premise(DUSSELDORF), claim)])[0]
    assert results[1].stance.as_row() == pytest.approx(expected, abs=1e-6)
    assert results[1].titled == "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."
    assert [r.bears_on_claim for r in results] == [True, True]


def test_a_verdict_fit_on_single_sentences_keeps_reading_single_sentences(model, tmp_path):
    old = ClaimVerifier(model, VerdictPolicy(learned=learned_verdict(two_hop_chains=False)))
    results, _ = old.verify("Kraftwerk is German.", [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
    assert results[1].premise == "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."
    saved = learned_verdict(two_hop_chains=True)
    saved.save(tmp_path)
    assert LearnedVerdict.load(tmp_path).two_hop_chains is True
    assert ClaimVerifier(model, VerdictPolicy.load(tmp_path)).policy.two_hop_chains is True


def test_untrusted_sentences_are_shown_but_not_judged(model):
    results, verdict = ClaimVerifier(model).verify("Kraftwerk is German.", [KRAFTWERK, DUSSELDORF],
                                                   min_evidence_score=0.65)
    assert [r.trusted for r in results] == [True, False] and results[1].stance is None
    assert verdict.deciding_evidence in ([], [0])


def test_the_reason_quotes_the_deciding_sentence(model):
    _, verdict = ClaimVerifier(model).verify("Kraftwerk is German.", [KRAFTWERK], min_evidence_score=0.0)
    assert 'Kraftwerk: "Kraftwerk was formed in Düsseldorf in 1970."' in verdict.reason


def test_the_oracle_reads_the_gold_evidence_as_one_premise_and_the_rule_decides(model):
    claim = "Kraftwerk was formed in the capital of North Rhine-Westphalia."
    results, verdict = ClaimVerifier(model, VerdictPolicy(learned=learned_verdict(True))).verify(
        claim, [KRAFTWERK, DUSSELDORF], one_premise=True)
    expected = model.predict([(f"{chain_premise(KRAFTWERK)} {chain_premise(DUSSELDORF)}", claim)])[0]
    assert results[0].stance.as_row() == pytest.approx(expected, abs=1e-6) and results[1].stance is None
    assert verdict.decided_by == "rule" and verdict.probabilities == results[0].stance.to_dict()
