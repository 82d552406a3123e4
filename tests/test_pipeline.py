import json
import re
from collections import Counter

import pytest

from fever_core.common.text import clean_user_text
from fever_core.pipeline import (
    MAX_CLAIM_CHARS,
    CheckOptions,
    ClaimCancelled,
    ClaimError,
    ClaimFailed,
    ClaimTooLong,
    check_claim_text,
)


def test_a_check_returns_pages_scored_evidence_a_verdict_and_timings(checker):
    result = checker.check("Fox 2000 Pictures released the film Soul Food.")
    assert result.pages[0].page_id in {"Soul_Food_-LRB-film-RRB-", "Fox_2000_Pictures"}
    assert ("Soul_Food_-LRB-film-RRB-", 0) in [e.sentence.key for e in result.evidence]
    assert len(result.evidence) <= checker.settings.sentences_k
    assert abs(sum(result.verdict.probabilities.values()) - 1) < 1e-4
    assert set(result.timings) == {"analysis", "fetch", "documents", "sentences", "two_hop", "verification", "total"}
    assert result.warnings == []
    # evidence scoring at least the rule's minimum is judged; without a learned verdict the best of it decides
    min_score = checker.verification.policy.min_evidence_score
    assert [e.trusted for e in result.evidence] == [e.sentence.score >= min_score for e in result.evidence]
    assert all(e.stance is not None for e in result.evidence if e.trusted)
    assert result.verdict.probabilities == next(e.stance for e in result.evidence if e.trusted).to_dict()
    assert result.verdict.verifier_calls == 1  # the evidence read in one call (no learned verdict: no bridge)


def test_results_serialise_to_json_and_a_fever_prediction(checker):
    result = checker.check("Sherlock Holmes was created by Charles Dickens.")
    data = json.loads(result.to_json())
    assert data["verdict"]["label"] == result.verdict.label and data["evidence"]
    assert data["verdict"]["verifier_calls"] == 1
    assert type(result).from_dict(data).verdict == result.verdict
    prediction = result.fever_prediction(7)
    assert prediction["id"] == 7 and prediction["predicted_label"] == result.verdict.label
    assert prediction["predicted_evidence"] == [[e.sentence.page_id, e.sentence.line] for e in result.evidence]


def test_a_check_s_json_is_every_field_but_the_vector_each_record_as_it_writes_itself(checker):
    import dataclasses

    result = checker.check("Jaws was directed by a man born in Ohio.", CheckOptions(two_hop=True))
    written = json.loads(result.to_json())
    assert list(written) == [
        *("claim", "corpus", "analysis", "pages", "sentences", "evidence", "verdict", "timings", "warnings"),
        "settings",
    ]
    assert written["evidence"] == [e.to_dict() for e in result.evidence]
    assert written["verdict"] == result.verdict.to_dict() and "numbers" in written["verdict"]
    assert written["pages"] == [dataclasses.asdict(p) for p in result.pages]
    assert written["sentences"] == [dataclasses.asdict(s) for s in result.sentences]
    assert written["settings"] == dataclasses.asdict(result.applied) and written["settings"]["decider"] in {
        "learned",
        "rule",
    }
    assert type(result).from_dict(written) == result


def test_two_hop_reaches_a_linked_page(checker):
    claim = "Jaws was directed by a man born in Ohio."
    with_hops = checker.check(claim, CheckOptions(pages_k=1, two_hop=True, two_hop_threshold=0.0))
    hop2 = [e.sentence for e in with_hops.evidence if e.sentence.hop == 2]
    assert ("Steven_Spielberg", 1) in [s.key for s in hop2]
    assert hop2[0].via.from_page_id == "Jaws_-LRB-film-RRB-" and hop2[0].via.anchor == "Steven Spielberg"
    without = checker.check(claim, CheckOptions(pages_k=1, two_hop=False))
    assert all(e.sentence.hop == 1 for e in without.evidence)


@pytest.mark.parametrize(
    "claim, message",
    [
        ("", "The claim is empty: type a sentence"),
        ("   \n\t ", "The claim is empty: type a sentence"),
        ("\x00\x01", "The claim is empty: type a sentence"),
        ("?!...", "no words or numbers in it"),
        ("x" * (MAX_CLAIM_CHARS + 1), f"the limit is {MAX_CLAIM_CHARS:,}. A text this long holds several statements"),
        ("a " * 5000, "check it as a text, which checks each of its statements apart"),
    ],
)
def test_unusable_claims_get_a_clear_error(checker, claim, message):
    with pytest.raises(ClaimError, match=re.escape(message)):
        checker.check(claim)


def test_a_claim_over_the_limit_is_refused_as_too_long_with_its_length():
    with pytest.raises(ClaimTooLong) as refused:
        check_claim_text("Soul Food is a film. " * 100)
    assert refused.value.chars == len(("Soul Food is a film. " * 100).strip()) > MAX_CLAIM_CHARS
    assert check_claim_text("x" * MAX_CLAIM_CHARS) == "x" * MAX_CLAIM_CHARS


@pytest.mark.parametrize(
    "claim",
    [
        "<script>alert(1)</script> Soul Food is a film.",
        "Robert'); DROP TABLE pages;-- directed Jaws.",
        "Sherlock Holmes 🕵️ is a detective 🔍.",
        "شرلوك هولمز هو محقق خيالي",
        "Zyxqv plorbs the wintermoot.",
        "\u202eJaws is a film.",
    ],
)
def test_odd_claims_are_checked_as_text_and_leave_the_corpus_alone(checker, claim):
    before = checker.workspace.store.stats()
    result = checker.check(claim)
    assert json.loads(result.to_json())["claim"] == result.claim == clean_user_text(claim)
    assert checker.workspace.store.stats() == before


def test_verify_evidence_skips_retrieval(checker):
    from fever_core.retrieval.results import EvidenceSentence

    evidence = [EvidenceSentence("Sherlock_Holmes", "Sherlock Holmes", 0, "Sherlock Holmes is a detective.", 1.0)]
    result = checker.verify_evidence("Sherlock Holmes is a detective.", evidence)
    assert result.pages == [] and [e.sentence.key for e in result.evidence] == [("Sherlock_Holmes", 0)]


def test_warming_up_a_local_corpus_checks_one_claim(checker, monkeypatch):
    checked = []
    check_many = type(checker).check_many
    monkeypatch.setattr(
        type(checker),
        "check_many",
        lambda self, claims, options=None: checked.append(list(claims)) or check_many(self, claims, options),
    )
    checker.warm_up("Jaws is a film.")
    assert checked == [["Jaws is a film."]]


def test_one_claims_fault_never_fails_its_neighbours(checker, monkeypatch):
    faulty = "Sherlock Holmes was created by Charles Dickens."
    verify_many = checker.verification.verify_many

    def verify_many_with_a_fault(tasks, cancelled=None):
        if any(task.claim.claim == faulty for task in tasks):
            raise OverflowError("cannot convert float infinity to integer")
        return verify_many(tasks, cancelled)

    monkeypatch.setattr(checker.verification, "verify_many", verify_many_with_a_fault)
    claims = ["Fox 2000 Pictures released the film Soul Food.", faulty, "Jaws is a film."]
    outcomes = checker.check_many(claims)
    assert isinstance(outcomes[1], ClaimFailed) and outcomes[1].stage == "verification"
    assert "OverflowError" in str(outcomes[1]) and "Other claims are not affected" in str(outcomes[1])
    assert [o.claim for o in (outcomes[0], outcomes[2])] == [claims[0], claims[2]]
    assert all(o.verdict.label for o in (outcomes[0], outcomes[2]))

    def analyse_with_a_fault(claim, *args, **kwargs):
        if claim == faulty:
            raise RecursionError("deep")
        return analyse(claim, *args, **kwargs)

    from fever_core.pipeline import checker as checker_module

    analyse = checker_module.analyse_claim
    monkeypatch.setattr(checker_module, "analyse_claim", analyse_with_a_fault)
    monkeypatch.setattr(checker.verification, "verify_many", verify_many)
    outcomes = checker.check_many(claims)
    assert isinstance(outcomes[1], ClaimFailed) and outcomes[1].stage == "retrieval"
    assert not isinstance(outcomes[0], ClaimError) and not isinstance(outcomes[2], ClaimError)


def test_a_claim_listing_more_numbers_than_are_tried_is_checked_with_a_warning_saying_so(checker):
    claim = "Soul Food is a " + ", ".join(str(year) for year in range(1990, 2000)) + " American film."
    result = checker.check(claim, CheckOptions(number_check=True, min_evidence_score=0.0))
    note = "The claim states 10 numbers: the number check tried the first 3 against the evidence"
    assert any(warning.startswith(note) for warning in result.warnings), result.warnings
    assert result.verdict.notes and result.verdict.notes[0].startswith(note)


@pytest.mark.parametrize(
    "stop, read_by_the_verifier",
    [
        ("before its retrieval", False),
        ("before the verifier", False),  # retrieved: asked again before the verifier's batches
        ("once the verifier has read it", True),  # its verdict, decided without the joint verifier or bridges, not kept
    ],
)
def test_a_claim_no_longer_wanted_stops_at_its_next_model_call_and_its_neighbours_get_their_verdicts(
    checker, monkeypatch, stop, read_by_the_verifier
):
    """Issue 51: a batch already taken was checked to the end for a client that had gone."""
    claims = [
        "Fox 2000 Pictures released the film Soul Food.",
        "Jaws is a film.",
        "Sherlock Holmes was created by Charles Dickens.",
    ]
    alone = [checker.check(claim).verdict for claim in (claims[0], claims[2])]
    read: list[str] = []
    predict = checker.verification.verifier.predict
    monkeypatch.setattr(
        checker.verification.verifier,
        "predict",
        lambda pairs, *args: read.extend(claim for _, claim in pairs) or predict(pairs, *args),
    )
    asked: Counter[int] = Counter()

    def cancelled(i: int) -> bool:
        asked[i] += 1
        return (
            i == 1
            and {
                "before its retrieval": True,
                "before the verifier": asked[i] > 1,
                "once the verifier has read it": claims[1] in read,
            }[stop]
        )

    outcomes = checker.check_many(claims, cancelled=cancelled)
    assert isinstance(outcomes[1], ClaimCancelled) and "stopped before its verdict" in str(outcomes[1])
    assert (claims[1] in read) == read_by_the_verifier
    for outcome, verdict in zip((outcomes[0], outcomes[2]), alone):
        assert outcome.verdict.label == verdict.label
        assert outcome.verdict.probabilities == pytest.approx(verdict.probabilities, abs=1e-4)


def test_a_claim_no_longer_wanted_is_read_no_further_between_the_verifier_s_batches(checker, monkeypatch):
    claims = ["Fox 2000 Pictures released the film Soul Food.", "Jaws is a film."]
    read: list[str] = []
    predict = checker.verification.verifier.predict
    monkeypatch.setattr(
        checker.verification.verifier,
        "predict",
        lambda pairs, *args: read.extend(claim for _, claim in pairs) or predict(pairs, *args),
    )
    monkeypatch.setattr(checker.verification.verifier, "batch_size", 1)  # one pair a model batch
    pairs_of_jaws = sum(e.trusted for e in checker.check(claims[1]).evidence)
    read.clear()
    outcomes = checker.check_many(claims, cancelled=lambda i: i == 1 and claims[1] in read)
    assert pairs_of_jaws > 1 and read.count(claims[1]) == 1  # its first pair read, then no more
    assert isinstance(outcomes[1], ClaimCancelled) and outcomes[0].verdict.label
