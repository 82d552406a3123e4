from fever_core.retrieval.claim_analysis import analyse_claim
from fever_core.retrieval.fused import FusedDocumentRetriever, reciprocal_rank_fusion
from fever_core.retrieval.titles import TitleMatcher


def test_reciprocal_rank_fusion_adds_weighted_inverse_ranks():
    fused = reciprocal_rank_fusion({"a": [("x", 9.0), ("y", 1.0)], "b": [("y", 0.5)]}, {"a": 1.0, "b": 2.0}, k=1)
    assert [(p, round(s, 4)) for p, s, _ in fused] == [("y", round(1 / 3 + 2 / 2, 4)), ("x", 0.5)]
    assert fused[0][2] == {"a": 1.0, "b": 0.5}


def test_claim_analysis_finds_mentions_and_keeps_numbers_aside():
    analysis = analyse_claim("Fox 2000 Pictures released the film Soul Food in 1997.")
    assert "Soul Food" in analysis.mentions and "Fox 2000 Pictures" in analysis.mentions
    assert analysis.prefix == "Fox 2000 Pictures"
    assert "1997" in analysis.numbers


def test_title_match_disambiguates_with_the_claims_words(workspace):
    matcher = TitleMatcher(workspace.store)
    film = matcher.match(analyse_claim("Soul Food is a film starring Vanessa Williams."))
    assert film[0].page_id == "Soul_Food_-LRB-film-RRB-" and film[0].match == "disambiguated"
    series = matcher.match(analyse_claim("Soul Food is a television series."))
    assert series[0].page_id == "Soul_Food_-LRB-TV_series-RRB-"


def test_fuzzy_title_match_for_a_partial_name(workspace):
    matches = TitleMatcher(workspace.store).match(analyse_claim("Conan Doyle was born in Scotland."))
    assert ("Arthur_Conan_Doyle", "fuzzy") in [(m.page_id, m.match) for m in matches]


def test_fused_retrieval_says_why_each_page_was_found(workspace):
    retriever = FusedDocumentRetriever(workspace.store, workspace.dense)
    claim = "Fox 2000 Pictures released the film Soul Food."
    pages = retriever.retrieve(analyse_claim(claim), workspace.dense.embed([claim])[0], k=3)
    assert pages[0].page_id in {"Soul_Food_-LRB-film-RRB-", "Fox_2000_Pictures"}
    assert {"title", "dense", "lexical"} <= set(pages[0].signals)
    assert [p.score for p in pages] == sorted((p.score for p in pages), reverse=True)
