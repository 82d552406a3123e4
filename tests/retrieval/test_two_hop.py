"""Which two-hop chains are drawn for a reader (fever_core/retrieval/two_hop.py): only those whose second hop
adds a page the first hop did not have, so none goes in a circle."""

from fever_core.retrieval.results import EvidenceSentence, HopLink, PageCandidate
from fever_core.retrieval.two_hop import drawn_chains, first_hop_pages

OSLO_LEAD = "Oslo is the capital and most populous city of Norway."
NORWAY_CAPITAL = "Its capital and largest city is Oslo."
OSLO = EvidenceSentence("Oslo", "Oslo", 0, OSLO_LEAD, 0.8)
NORWAY_VIA_OSLO = EvidenceSentence(
    "Norway", "Norway", 3, NORWAY_CAPITAL, 0.7, hop=2, via=HopLink("Oslo", 0, "Norway", "Oslo", OSLO_LEAD)
)
OSLO_VIA_NORWAY = EvidenceSentence(
    "Oslo",
    "Oslo",
    2,
    "The city is home to the Nobel Peace Center.",
    0.6,
    hop=2,
    via=HopLink("Norway", 3, "Oslo", "Norway", NORWAY_CAPITAL),
)
JAWS = EvidenceSentence("Jaws", "Jaws", 0, "Jaws is a 1975 film directed by Steven Spielberg.", 0.8)
SPIELBERG_VIA_JAWS = EvidenceSentence(
    "Steven_Spielberg",
    "Steven Spielberg",
    1,
    "Spielberg was born in Cincinnati, Ohio.",
    0.65,
    hop=2,
    via=HopLink("Jaws", 0, "Steven Spielberg", "Jaws", JAWS.text),
)


def test_a_chain_to_a_page_the_first_hop_had_is_not_drawn_nor_the_way_back():
    pages = [
        PageCandidate("Oslo", "Oslo", 1.0, {"title": 1.0}),
        PageCandidate("Norway", "Norway", 0.5, {"dense": 0.6, "link": 0.7}, used=True),
    ]
    evidence = [OSLO, NORWAY_VIA_OSLO, OSLO_VIA_NORWAY]
    assert first_hop_pages(pages, evidence) == {"Oslo", "Norway"}
    assert drawn_chains(pages, evidence) == []


def test_a_chain_that_brings_a_new_page_is_drawn():
    pages = [
        PageCandidate("Jaws", "Jaws", 1.0, {"title": 1.0}),
        PageCandidate("Steven_Spielberg", "Steven Spielberg", 0.65, {"link": 0.65}, "link"),
    ]
    evidence = [JAWS, SPIELBERG_VIA_JAWS, OSLO, NORWAY_VIA_OSLO]
    assert drawn_chains(pages + [PageCandidate("Oslo", "Oslo", 0.4, {"dense": 0.4})], evidence) == [
        SPIELBERG_VIA_JAWS,
        NORWAY_VIA_OSLO,
    ]  # Norway came by its link alone here
