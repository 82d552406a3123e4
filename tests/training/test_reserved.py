"""Reserved pages: no training pair, distractor or generated claim comes from them."""

from fever_core.common.formats import Pair, write_pairs
from fever_core.common.jsonl import write_jsonl
from fever_core.training.distractors import load_embedded_pool
from fever_core.training.pairs import DataSpec, build_training_pairs
from fever_core.training.reserved import names_reserved, reserved_titles

RESERVED = frozenset({"ABBA", "Mount Everest"})


def test_a_pair_names_a_reserved_page_by_its_pages_its_premise_or_a_chain():
    assert names_reserved("ABBA: ABBA were a Swedish pop group.", (), RESERVED)
    assert names_reserved("Sweden: The group ABBA came from Sweden. ABBA: ABBA were a pop group.", (), RESERVED)
    assert names_reserved("The group sold records.", ["Mount_Everest"], RESERVED)
    assert not names_reserved("K2: K2 is the second-highest mountain after Mount Everest.", ["K2"], RESERVED)
    assert not names_reserved("ABBA: anything", (), frozenset())


def test_the_reserved_titles_come_from_the_file_set_and_a_missing_file_reserves_nothing(tmp_path, monkeypatch):
    listed = tmp_path / "reserved.txt"
    listed.write_text("ABBA\n\nMount Everest\n", encoding="utf-8")
    monkeypatch.setenv("FEVER_RESERVED_PAGES", str(listed))
    assert reserved_titles() == RESERVED
    monkeypatch.setenv("FEVER_RESERVED_PAGES", str(tmp_path / "absent.txt"))
    assert reserved_titles() == frozenset()


def test_training_pairs_and_the_distractor_pool_leave_reserved_pages_out(tmp_path, monkeypatch):
    listed = tmp_path / "reserved.txt"
    listed.write_text("ABBA\n", encoding="utf-8")
    monkeypatch.setenv("FEVER_RESERVED_PAGES", str(listed))
    write_jsonl(
        tmp_path / "pool-embedded.jsonl",
        [
            {"title": "ABBA", "text": "ABBA were a Swedish pop group formed in Stockholm."},
            {"title": "Oslo", "text": "Oslo is the capital and most populous city of Norway."},
        ],
    )
    assert [s.title for s in load_embedded_pool(tmp_path)] == ["Oslo"]

    pairs = tmp_path / "pairs.jsonl"
    write_pairs(
        pairs,
        [
            Pair("ABBA: ABBA were a Swedish pop group.", "ABBA came from Sweden.", "SUPPORTS", "t"),
            Pair("Oslo: Oslo is the capital of Norway.", "Oslo is the capital of Norway.", "SUPPORTS", "t"),
        ],
    )
    built = build_training_pairs([DataSpec(pairs, None)], cache_dir=tmp_path, nei_from_evidence_fraction=0.0)
    assert [p.hypothesis for p in built] == ["Oslo is the capital of Norway."]


def test_the_verdicts_claims_leave_reserved_pages_out(tmp_path, monkeypatch):
    from fever_core.training.verdict import plain_style_claims

    listed = tmp_path / "reserved.txt"
    listed.write_text("Mount Everest\n", encoding="utf-8")
    monkeypatch.setenv("FEVER_RESERVED_PAGES", str(listed))
    claims = tmp_path / "claims.jsonl"
    write_jsonl(
        claims,
        [
            {
                "id": 1,
                "claim": "Mount Everest is the highest mountain.",
                "label": "SUPPORTS",
                "evidence": [[[None, None, "Mount_Everest", 0]]],
            },
            {
                "id": 2,
                "claim": "Oslo is the capital of Norway.",
                "label": "SUPPORTS",
                "evidence": [[[None, None, "Oslo", 0]]],
            },
        ],
    )
    assert [c.claim for c in plain_style_claims([claims], set())] == ["Oslo is the capital of Norway."]
