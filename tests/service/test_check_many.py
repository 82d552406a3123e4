"""``Checker.check_many`` (retrieval claim by claim, the verifier once over all) against ``check`` one by one."""

from __future__ import annotations

import math

import pytest

from fever_core.common.settings import BUNDLED_MODELS_DIR
from fever_core.pipeline import Checker, CheckOptions, ClaimError
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.policy import VerdictPolicy
from tests.conftest import CLAIMS

MORE_CLAIMS = [
    "Steven Spielberg was born in Cincinnati.",
    "Arthur Conan Doyle was born in Edinburgh.",
    "Telemundo is a Spanish-language network.",
    "Soul Food aired on Showtime.",
]


def assert_same(one: object, other: object, where: str = "result", tolerance: float = 1e-4) -> None:
    """Equal, but floats only to ``tolerance``: a batch pads its model inputs differently."""
    if isinstance(one, float) or isinstance(other, float):
        assert math.isclose(one, other, abs_tol=tolerance), f"{where}: {one} != {other}"
    elif isinstance(one, dict) and isinstance(other, dict):
        assert one.keys() == other.keys(), f"{where}: keys {sorted(one)} != {sorted(other)}"
        for key in one:
            assert_same(one[key], other[key], f"{where}.{key}", tolerance)
    elif isinstance(one, list) and isinstance(other, list):
        assert len(one) == len(other), f"{where}: {len(one)} items != {len(other)}"
        for i, (a, b) in enumerate(zip(one, other)):
            assert_same(a, b, f"{where}[{i}]", tolerance)
    else:
        assert one == other, f"{where}: {one!r} != {other!r}"


def without_timings(result) -> dict:
    data = result.to_dict()
    data.pop("timings")
    return data


def claims_with_a_bad_one() -> list[str]:
    claims = [c["claim"] for c in CLAIMS] + MORE_CLAIMS
    return claims[:3] + ["   "] + claims[3:]


def test_check_many_gives_what_check_gives_one_by_one(checker):
    claims = claims_with_a_bad_one()
    together = checker.check_many(claims)
    assert len(together) == len(claims)
    for claim, outcome in zip(claims, together):
        if not claim.strip():
            assert isinstance(outcome, ClaimError) and "empty" in str(outcome)
            continue
        assert_same(without_timings(outcome), without_timings(checker.check(claim)), claim)


def test_check_many_takes_options_per_claim(checker):
    claims = [CLAIMS[2]["claim"], CLAIMS[2]["claim"], CLAIMS[0]["claim"]]
    options = [CheckOptions(two_hop=False), None, CheckOptions(verdict="rule", nei_threshold=0.9, sentences_k=2)]
    together = checker.check_many(claims, options)
    for claim, claim_options, outcome in zip(claims, options, together):
        assert_same(without_timings(outcome), without_timings(checker.check(claim, claim_options)), claim)
    assert len(together[2].evidence) == 2
    with pytest.raises(ValueError, match="3 claims but 2 options"):
        checker.check_many(claims, options[:2])


def test_each_result_reports_the_shared_verification_time(checker):
    results = checker.check_many(MORE_CLAIMS)
    assert len({r.timings["verification"] for r in results}) == 1
    for r in results:
        stages = sum(seconds for stage, seconds in r.timings.items() if stage != "total")
        assert r.timings["total"] == pytest.approx(stages, abs=0.005)


def test_check_still_raises_for_a_claim_it_cant_check(checker):
    with pytest.raises(ClaimError, match="limit is 1,000"):
        checker.check("x" * 1001)


def test_the_learned_verdict_with_the_joint_verifier_is_the_same_in_a_batch(workspace, tiny_nli_model):
    """The shipped learned verdict (it gives the joint verifier a weight) over tiny models: the learned path, where
    a batch runs the verifier once and the joint verifier once for all its claims."""
    from fever_core.verification.nli import NliModel

    learned = LearnedVerdict.load(BUNDLED_MODELS_DIR / "verifier")
    if learned is None or learned.joint_weight <= 0:
        pytest.skip("needs the shipped verifier's verdict.json with a joint-verifier weight")
    verifier, joint = NliModel.load(str(tiny_nli_model), "cpu"), NliModel.load(str(tiny_nli_model), "cpu")
    calls = {"verifier": 0, "joint": 0}
    for name, model in (("verifier", verifier), ("joint", joint)):

        def counted(pairs, batch_size=32, predict=model.predict, name=name):
            calls[name] += 1
            return predict(pairs, batch_size)

        model.predict = counted
    checker = Checker(workspace, ClaimVerifier(verifier, VerdictPolicy(learned=learned), joint))
    claims = claims_with_a_bad_one()
    together = checker.check_many(claims)
    assert calls == {"verifier": 1, "joint": 1}
    for claim, outcome in zip(claims, together):
        if not isinstance(outcome, ClaimError):
            assert_same(without_timings(outcome), without_timings(checker.check(claim)), claim)
