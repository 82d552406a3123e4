"""The claim verifier's flow (fever_core/verification/claim_verifier.py): which text the verifier reads for each
evidence sentence, which it judges, and the verdict it gets."""

import json

import numpy as np
import pytest

from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.claim_verifier import ClaimVerifier, VerificationTask
from fever_core.verification.evidence import chain_premise
from fever_core.verification.features import FEATURE_NAMES
from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
from fever_core.verification.model_integrity import ModelDamaged, record_checksums
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import LEARNED, VerdictPolicy

KRAFTWERK = EvidenceSentence("Kraftwerk", "Kraftwerk", 0, "Kraftwerk was formed in Düsseldorf in 1970.", 0.7)
DUSSELDORF = EvidenceSentence(
    "Düsseldorf",
    "Düsseldorf",
    0,
    "Düsseldorf is the capital of North Rhine-Westphalia.",
    0.6,
    hop=2,
    via=HopLink("Kraftwerk", 0, "Düsseldorf", "Kraftwerk", "Kraftwerk was formed in Düsseldorf in 1970."),
)


def learned_verdict() -> LearnedVerdict:
    n = len(FEATURE_NAMES)
    return LearnedVerdict(np.zeros((3, n)), np.zeros(3), np.zeros(n), np.ones(n), list(FEATURE_NAMES), {})


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


def test_a_learned_verdict_reads_chains_and_one_fit_before_chains_is_refused_with_the_way_to_refit(model, tmp_path):
    learned_verdict().save(tmp_path)
    verifier = ClaimVerifier(model, VerdictPolicy.load(tmp_path))
    results, verdict = verifier.verify("Kraftwerk is German.", [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
    assert verdict.decided_by == LEARNED and results[1].premise == chain_premise(DUSSELDORF)
    saved = json.loads((tmp_path / VERDICT_FILE).read_text())
    del saved["two_hop_chains"]  # as verdicts were written before chains were read
    (tmp_path / VERDICT_FILE).write_text(json.dumps(saved))
    record_checksums(tmp_path, [VERDICT_FILE])
    with pytest.raises(ModelDamaged, match="fit before second-hop sentences were read.*train verdict"):
        LearnedVerdict.load(tmp_path)


def test_untrusted_sentences_are_shown_but_not_judged(model):
    results, verdict = ClaimVerifier(model).verify(
        "Kraftwerk is German.", [KRAFTWERK, DUSSELDORF], min_evidence_score=0.65
    )
    assert [r.trusted for r in results] == [True, False] and results[1].stance is None
    assert verdict.deciding_evidence in ([], [0])


def test_the_reason_quotes_the_deciding_sentence(model):
    _, verdict = ClaimVerifier(model).verify("Kraftwerk is German.", [KRAFTWERK], min_evidence_score=0.0)
    assert 'Kraftwerk: "Kraftwerk was formed in Düsseldorf in 1970."' in verdict.reason


def test_the_oracle_reads_the_gold_evidence_as_one_premise_and_the_rule_decides(model):
    claim = "Kraftwerk was formed in the capital of North Rhine-Westphalia."
    results, verdict = ClaimVerifier(model, VerdictPolicy(learned=learned_verdict())).verify(
        claim, [KRAFTWERK, DUSSELDORF], one_premise=True
    )
    expected = model.predict([(f"{chain_premise(KRAFTWERK)} {chain_premise(DUSSELDORF)}", claim)])[0]
    assert results[0].stance.as_row() == pytest.approx(expected, abs=1e-6) and results[1].stance is None
    assert verdict.decided_by == "rule" and verdict.probabilities == results[0].stance.to_dict()


# --- one verifier call per check (issue 49, item 2) ---------------------------------------------------------------


class ScriptedVerifier:
    """A verifier that reads each claim as the test says (by its words; NOT ENOUGH INFO 0.9 otherwise) and keeps the
    pairs of each call."""

    name = "scripted"

    def __init__(self, readings: dict[str, list[float]]):
        self.readings = readings
        self.calls: list[list[tuple[str, str]]] = []

    def predict(self, pairs, batch_size=None):
        self.calls.append(list(pairs))
        return np.array([self.readings.get(claim, [0.05, 0.05, 0.9]) for _, claim in pairs], dtype=np.float32)


def scripted_policy(tmp_path) -> VerdictPolicy:
    """A learned verdict that leaves every claim NOT ENOUGH INFO, with the sure-sentence rule, the parts and the
    bridges at 0.9."""
    n = len(FEATURE_NAMES)
    verdict = LearnedVerdict(
        np.zeros((3, n)),
        np.array([0.0, 0.0, 5.0]),
        np.zeros(n),
        np.ones(n),
        list(FEATURE_NAMES),
        {},
        sure_sentence_min=0.9,
        claim_parts_min=0.9,
        bridge_min=0.9,
    )
    verdict.save(tmp_path)
    return VerdictPolicy.load(tmp_path)


SURE = [0.97, 0.01, 0.02]


def scripted_verdict(tmp_path, claim: str, readings: dict[str, list[float]], evidence) -> tuple:
    """The scripted verifier (reading the claims of ``readings`` as given) and its verdict on ``claim`` against
    ``evidence``, every sentence judged and the number check on."""
    verifier = ScriptedVerifier(readings)
    _, verdict = ClaimVerifier(verifier, scripted_policy(tmp_path)).verify(
        claim, evidence, min_evidence_score=0.0, number_check=True
    )
    return verifier, verdict


def test_the_evidence_parts_and_numbers_are_read_in_one_call(tmp_path):
    claim = "Kraftwerk was formed in Düsseldorf in 1971 and is a German band."
    verifier, verdict = scripted_verdict(
        tmp_path,
        claim,
        {
            "Kraftwerk was formed in Düsseldorf in 1970 and is a German band.": SURE,
            "Kraftwerk is a German band.": SURE,
        },
        [KRAFTWERK, DUSSELDORF],
    )
    assert len(verifier.calls) == 1 and verdict.verifier_calls == 1
    claims_read = {hypothesis for _, hypothesis in verifier.calls[0]}
    assert claim in claims_read  # the evidence
    assert {"Kraftwerk was formed in Düsseldorf in 1971.", "Kraftwerk is a German band."} <= claims_read  # its parts
    assert "Kraftwerk was formed in Düsseldorf in 1970 and is a German band." in claims_read  # the sentence's number
    assert verdict.label == "REFUTES" and verdict.decided_by == "number_check", verdict.reason  # 1970, not 1971


def test_a_bridge_read_after_the_evidence_makes_a_second_call_and_no_more(tmp_path):
    claim = "Kraftwerk was formed in the capital of a state in western Germany."
    verifier, verdict = scripted_verdict(
        tmp_path,
        claim,
        {
            "Kraftwerk was formed in Düsseldorf.": SURE,
            "Düsseldorf is the capital of a state in western Germany.": SURE,
        },
        [KRAFTWERK, DUSSELDORF],
    )
    assert len(verifier.calls) == 2 and verdict.verifier_calls == 2
    assert "Kraftwerk was formed in Düsseldorf." in {h for _, h in verifier.calls[1]}, verifier.calls[1]
    assert verdict.label == "SUPPORTS" and verdict.decided_by == "bridge", verdict.reason


def test_claims_checked_together_share_the_calls(tmp_path):
    verifier = ScriptedVerifier({"Kraftwerk was formed in Düsseldorf.": SURE, "Kraftwerk was formed in 1970.": SURE})
    checker = ClaimVerifier(verifier, scripted_policy(tmp_path))
    outcomes = checker.verify_many(
        [
            VerificationTask(ClaimAnalysis("Kraftwerk was formed in 1970."), [KRAFTWERK], min_evidence_score=0.0),
            VerificationTask(
                ClaimAnalysis("Kraftwerk was formed in the capital of a state in western Germany."),
                [KRAFTWERK, DUSSELDORF],
                min_evidence_score=0.0,
            ),
            VerificationTask(ClaimAnalysis("Kraftwerk sold many records."), [], min_evidence_score=0.0),
        ]
    )
    assert len(verifier.calls) == 2  # every claim's evidence in the first, the one bridge in the second
    assert [verdict.verifier_calls for _, verdict in outcomes] == [1, 2, 0]


def test_a_claim_with_more_numbers_than_are_tried_says_so_in_its_verdict(tmp_path):
    claim = "Kraftwerk was formed in 1971, 1972, 1973, 1974 and 1975."
    verifier, verdict = scripted_verdict(tmp_path, claim, {}, [KRAFTWERK])
    assert len(verifier.calls) == 1 and len(verifier.calls[0]) <= 1 + 3  # the evidence, and 3 of the 5 numbers
    assert verdict.notes == (
        (
            "The claim states 5 numbers: the number check tried the first 3 against the evidence, "
            "not the other 2, so they neither support nor refute it."
        ),
    )
