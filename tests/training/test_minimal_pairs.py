"""Minimal pairs for the joint verifier: the same claim and sentences, without and with its gold evidence."""

import random

from fever_core.training.minimal_pairs import GoldEvidence, gold_evidence, minimal_pair, write_minimal_pairs
from fever_core.verification.features import joint_premise
from tests.conftest import write_jsonl

GOLD = "Jaws is a 1975 American thriller film directed by Steven Spielberg."
OTHERS = [f"Steven Spielberg: Other sentence number {i}." for i in range(6)]


def test_gold_evidence_keeps_claims_with_a_single_page_set_and_all_their_sentences(tmp_path):
    pairs = write_jsonl(
        tmp_path / "pairs.jsonl",
        [
            {
                "premise": "Jaws is a 1975 film . It was directed by Steven Spielberg .",
                "hypothesis": "Jaws is a film .",
                "label": "SUPPORTS",
                "source": "t",
                "pages": ["Jaws_-LRB-film-RRB-"],
            },
            {
                "premise": "Jaws grossed $ 470 million .",
                "hypothesis": "Jaws is a film .",
                "label": "SUPPORTS",
                "source": "t",
                "pages": ["Jaws_-LRB-film-RRB-", "Box_office"],
            },
            {
                "premise": "Spielberg was born in Cincinnati . Cincinnati is in Ohio .",
                "hypothesis": "Spielberg is from Ohio .",
                "label": "SUPPORTS",
                "source": "t",
                "pages": ["Steven_Spielberg", "Cincinnati"],
            },
        ],
    )
    [jaws] = gold_evidence(pairs)
    assert jaws.claim == "Jaws is a film." and jaws.title == "Jaws (film)"
    assert jaws.sentences == ("Jaws is a 1975 film.", "It was directed by Steven Spielberg.")
    assert "Jaws grossed $ 470 million." in jaws.all_sentences


def test_a_minimal_pair_differs_only_by_the_gold_evidence():
    gold = GoldEvidence("Jaws was directed by Steven Spielberg.", "SUPPORTS", "Jaws", (GOLD,), frozenset({GOLD}))
    retrieved = [f"Jaws: {GOLD}"] + OTHERS
    nei, labelled = minimal_pair(gold, retrieved, random.Random(0))
    assert nei["label"] == "NOT ENOUGH INFO" and labelled["label"] == "SUPPORTS"
    assert nei["hypothesis"] == labelled["hypothesis"] == gold.claim
    assert nei["premise"] == joint_premise(OTHERS) and GOLD not in nei["premise"]
    assert labelled["premise"].count(GOLD) == 1
    assert labelled["premise"].replace(f"Jaws: {GOLD}", "").split() == " ".join(OTHERS[:4]).split()

    places = {minimal_pair(gold, retrieved, random.Random(seed))[1]["premise"].index(GOLD) for seed in range(20)}
    assert len(places) > 1, "the gold evidence goes to a random place, not always first"


def test_no_pair_without_enough_other_sentences_or_with_too_long_evidence(tmp_path):
    gold = GoldEvidence("A claim.", "REFUTES", "Jaws", (GOLD,), frozenset({GOLD}))
    assert minimal_pair(gold, [f"Jaws: {GOLD}"] + OTHERS[:4], random.Random(0)) == []
    long = GoldEvidence("A claim.", "REFUTES", "Jaws", tuple(f"s{i}" for i in range(5)), frozenset())
    assert minimal_pair(long, OTHERS, random.Random(0)) == []
    out = tmp_path / "minimal.jsonl"
    assert write_minimal_pairs([gold, long], {"A claim.": OTHERS}, out) == 2
    assert len(out.read_text().splitlines()) == 2
