import pytest

from fever_core.retrieval.bm25 import Bm25SentenceSelector
from fever_core.retrieval.fused import DenseSentenceSelector
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.retrieval.two_hop import merge_hops, second_hop


def test_dense_selection_scores_every_candidate_and_ranks_the_evidence_first(workspace):
    selector = DenseSentenceSelector(workspace.store, workspace.dense)
    claim = "Steven Spielberg was born in Ohio."
    ranked = selector.select(claim, workspace.dense.embed([claim])[0], ["Steven_Spielberg", "Edinburgh"])
    assert len(ranked) == 4
    assert ranked[0].key == ("Steven_Spielberg", 1)
    assert [e.score for e in ranked] == sorted((e.score for e in ranked), reverse=True)


def test_bm25_selection_stays_within_the_pages(workspace):
    ranked = Bm25SentenceSelector(workspace.store).select("born in Edinburgh", None, ["Arthur_Conan_Doyle"])
    assert ranked[0].key == ("Arthur_Conan_Doyle", 1)
    assert {e.page_id for e in ranked} == {"Arthur_Conan_Doyle"}


def test_second_hop_follows_links_of_good_first_hop_sentences(workspace):
    selector = DenseSentenceSelector(workspace.store, workspace.dense)
    claim = "Jaws was directed by a man born in Ohio."
    first = selector.select(claim, workspace.dense.embed([claim])[0], ["Jaws_-LRB-film-RRB-"])
    hop2 = second_hop(workspace.store, workspace.dense, claim, first, threshold=0.0)
    assert hop2[0].key == ("Steven_Spielberg", 1)
    assert (
        hop2[0].hop == 2
        and hop2[0].via.from_page_id == "Jaws_-LRB-film-RRB-"
        and hop2[0].via.anchor == "Steven Spielberg"
    )
    assert all(e.page_id != "Jaws_-LRB-film-RRB-" for e in hop2)
    assert second_hop(workspace.store, workspace.dense, claim, first, threshold=1.1) == []


def test_a_first_hop_page_reached_again_through_a_link_keeps_its_better_score():
    first = [EvidenceSentence("A", "A", 0, "a", 0.9), EvidenceSentence("B", "B", 1, "b", 0.3)]
    second = [
        EvidenceSentence("B", "B", 1, "b", 0.6, hop=2, via=HopLink("A", 0, "B")),
        EvidenceSentence("C", "C", 0, "c", 0.2, hop=2, via=HopLink("A", 0, "C")),
        EvidenceSentence("A", "A", 0, "a", 0.5, hop=2, via=HopLink("B", 1, "A")),
    ]
    merged = merge_hops(first, second)
    assert [(e.key, e.hop) for e in merged] == [(("A", 0), 1), (("B", 1), 2), (("C", 0), 2)]


def test_pages_that_second_hop_evidence_came_from_join_the_ranking():
    from fever_core.retrieval.results import EvidenceSentence, HopLink, PageCandidate
    from fever_core.retrieval.two_hop import rank_linked_pages

    pages = [PageCandidate("A", "A", 0.9), PageCandidate("B", "B", 0.8), PageCandidate("C", "C", 0.7, used=False)]
    evidence = [
        EvidenceSentence("A", "A", 0, "a", 0.9),
        EvidenceSentence("C", "C", 2, "c", 0.8, hop=2, via=HopLink("A", 0, "see C")),
        EvidenceSentence("D", "D", 1, "d", 0.7, hop=2, via=HopLink("B", 0, "see D")),
    ]
    ranked = rank_linked_pages(pages, evidence, {"D": "Page D"})
    assert [p.page_id for p in ranked] == ["A", "C", "B", "D"]
    assert ranked[1].used and ranked[1].signals == {"link": 0.8} and ranked[3].title == "Page D"


def test_a_reranker_reorders_the_head_and_keeps_scores_on_the_cosine_scale(workspace, tiny_reranker):
    from fever_core.common.text import premise_text
    from fever_core.retrieval.reranker import load_reranker

    reranker = load_reranker(str(tiny_reranker), "cpu")
    claim = "Steven Spielberg was born in Ohio."
    vector = workspace.dense.embed([claim])[0]
    pages = ["Steven_Spielberg", "Edinburgh", "Sherlock_Holmes"]
    plain = DenseSentenceSelector(workspace.store, workspace.dense).select(claim, vector, pages)
    with_reranker = DenseSentenceSelector(workspace.store, workspace.dense, reranker, rerank_depth=3)
    reranked = with_reranker.select(claim, vector, pages)

    relevance = reranker.predict([(claim, premise_text(e.title, e.text)) for e in plain[:3]])
    assert [e.key for e in reranked[:3]] == [plain[i].key for i in sorted(range(3), key=lambda i: -relevance[i])]
    assert [e.score for e in reranked] == [e.score for e in plain]  # the head's cosines, in rank order
    assert [e.key for e in reranked[3:]] == [e.key for e in plain[3:]]


def test_a_reranker_that_is_not_one_output_or_not_found_is_refused_clearly(tiny_nli_model, tmp_path):
    from fever_core.retrieval.reranker import load_reranker

    with pytest.raises(ValueError, match="has 3 outputs"):
        load_reranker(str(tiny_nli_model), "cpu")
    with pytest.raises(FileNotFoundError, match="No sentence re-ranker"):
        load_reranker(str(tmp_path / "missing"), "cpu")
