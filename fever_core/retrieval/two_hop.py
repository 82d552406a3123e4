"""Two-hop evidence (Stammbach & Neumann 2019): follow the links of good first-hop sentences.

A linked page's sentences are scored against the claim *and* the first-hop sentence together, so
"He was born in Hawaii" is found for "Obama was born in the US" through the link from Obama's page.
A second-hop sentence's score is the mean of its first-hop sentence's score and its own conditioned
score, so a chain is never more trusted than its first link. Links are followed to first-hop pages
too: a page that retrieval found but whose sentence only makes sense given the first one ("Raees
stars an actor born in 1965": Shah Rukh Khan's page) gets its sentences re-scored through the link,
and :func:`merge_hops` keeps each sentence's better score. Pages whose sentences end up as evidence
join the page ranking after the page that links to them (:func:`rank_linked_pages`).

A chain is worth showing a reader only when its second hop brought a page the first hop did not have
(:func:`drawn_chains`): Oslo's sentence -> link "Norway" -> "Its capital is Oslo." on Norway's page, when
retrieval found Norway itself, adds nothing, and drawn both ways it goes in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence, HopLink, PageCandidate

MAX_SOURCES = 3
MAX_LINKS_PER_SENTENCE = 4
PER_LINKED_PAGE = 2


def second_hop(
    store: CorpusStore,
    dense: DenseSentenceIndex,
    claim: str,
    first_hop: list[EvidenceSentence],
    threshold: float,
) -> list[EvidenceSentence]:
    """Second-hop sentences reached from the best first-hop sentences, best first.

    Args:
        first_hop: first-hop sentences, best first; those scoring at least ``threshold`` (at most
            :data:`MAX_SOURCES`) have their links followed.

    Returns:
        Up to :data:`PER_LINKED_PAGE` sentences per linked page, each with ``hop=2`` and ``via``.
    """
    sources = [e for e in first_hop if e.score >= threshold][:MAX_SOURCES]
    if not sources:
        return []
    queries = dense.embed([f"{claim} {e.title}: {e.text}" for e in sources])
    found: dict[tuple[str, int], EvidenceSentence] = {}
    for source, query in zip(sources, queries):
        sentence = store.sentence(source.page_id, source.line)
        links = [l for l in (sentence.links if sentence else []) if l.target != source.page_id]
        for link in links[:MAX_LINKS_PER_SENTENCE]:
            ids = store.sentence_ids_of_pages([link.target])
            if not ids:
                continue
            scores = dense.vectors_of(ids) @ query
            best = scores.argsort()[::-1][:PER_LINKED_PAGE]
            for hit, score in zip(store.sentences_by_ids([ids[i] for i in best]), scores[best]):
                item = EvidenceSentence(
                    hit.sentence.page_id,
                    hit.title,
                    hit.sentence.line,
                    hit.sentence.text,
                    score=float((source.score + score) / 2),
                    hop=2,
                    via=HopLink(source.page_id, source.line, link.anchor, source.title, source.text),
                )
                if item.key not in found or found[item.key].score < item.score:
                    found[item.key] = item
    return sorted(found.values(), key=lambda e: -e.score)


def merge_hops(first_hop: list[EvidenceSentence], second_hop: list[EvidenceSentence]) -> list[EvidenceSentence]:
    """Both hops in one ranking, best first; a sentence reached both ways keeps its better-scored version."""
    best: dict[tuple[str, int], EvidenceSentence] = {}
    for item in first_hop + second_hop:
        if item.key not in best or best[item.key].score < item.score:
            best[item.key] = item
    return sorted(best.values(), key=lambda e: -e.score)


def rank_linked_pages(
    pages: list[PageCandidate], evidence: list[EvidenceSentence], titles: dict[str, str]
) -> list[PageCandidate]:
    """The page ranking with the pages that second-hop *evidence* came from placed right after the
    page that links to them (Stammbach & Neumann's multi-hop document retrieval).

    A page already ranked further down moves up; pages reached by links that gave no evidence are
    not added.

    Args:
        pages: first-hop pages, best first.
        evidence: the evidence sentences (both hops), best first.
        titles: display titles of the second-hop pages, by page id.
    """
    ranked = list(pages)
    for item in evidence:
        if item.hop != 2 or item.via is None:
            continue
        source = next((i for i, p in enumerate(ranked) if p.page_id == item.via.from_page_id), None)
        existing = next((i for i, p in enumerate(ranked) if p.page_id == item.page_id), None)
        if source is None or (existing is not None and existing < source):
            continue
        page = (
            ranked.pop(existing)
            if existing is not None
            else PageCandidate(item.page_id, titles.get(item.page_id, item.title), item.score)
        )
        page.signals = {**page.signals, "link": item.score}
        page.match = page.match or "link"
        page.used = True
        ranked.insert(source + 1, page)
    return ranked


def first_hop_pages(pages: Sequence[PageCandidate], evidence: Sequence[EvidenceSentence]) -> set[str]:
    """The ids of the pages the first hop had: those retrieval found by a signal of its own (a page that only a
    link brought in has the ``link`` signal alone, :func:`rank_linked_pages`), and those of first-hop evidence."""
    found = {p.page_id for p in pages if set(p.signals) - {"link"}}
    return found | {e.page_id for e in evidence if e.hop == 1}


def drawn_chains(pages: Sequence[PageCandidate], evidence: Sequence[EvidenceSentence]) -> list[EvidenceSentence]:
    """The second-hop evidence worth drawing as a chain (first-hop sentence -> link -> sentence), best first: the
    chains whose second hop adds a page the first hop did not have (:func:`first_hop_pages`). Such a chain
    never leads back to a page it started from, so none is drawn in a circle."""
    had = first_hop_pages(pages, evidence)
    return [
        e
        for e in evidence
        if e.hop == 2 and e.via is not None and e.page_id not in had and e.page_id != e.via.from_page_id
    ]
