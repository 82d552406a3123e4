"""Searching a corpus by title, by words (FTS5 bm25) or by meaning (dense), for people browsing it."""

from __future__ import annotations

from dataclasses import dataclass

from fever_core.workspace import Workspace

SEARCH_MODES = ("title", "lexical", "dense")


@dataclass(frozen=True)
class CorpusHit:
    """A search hit: a page (``line`` is None) or one sentence of it. Higher scores are better."""

    page_id: str
    title: str
    score: float
    line: int | None = None
    text: str = ""


def search_corpus(workspace: Workspace, query: str, mode: str = "lexical", k: int = 10) -> list[CorpusHit]:
    """Top ``k`` hits for ``query``: pages for ``title``, sentences for ``lexical`` and ``dense``."""
    store = workspace.store
    if mode not in SEARCH_MODES:
        raise ValueError(f"Unknown search mode {mode!r}: use one of {', '.join(SEARCH_MODES)}.")
    if not query.strip():
        return []
    if mode == "title":
        return [CorpusHit(h.page_id, h.title, h.score) for h in store.search_titles(query, k)]
    if mode == "lexical":
        hits = store.search_sentences(query, k)
        return [CorpusHit(h.sentence.page_id, h.title, h.score, h.sentence.line, h.sentence.text) for h in hits]
    dense_hits = workspace.dense.search(workspace.dense.embed([query])[0], k)
    by_id = {h.sentence_id: h for h in store.sentences_by_ids([d.sentence_id for d in dense_hits])}
    return [
        CorpusHit(
            by_id[d.sentence_id].sentence.page_id,
            by_id[d.sentence_id].title,
            d.score,
            by_id[d.sentence_id].sentence.line,
            by_id[d.sentence_id].sentence.text,
        )
        for d in dense_hits
        if d.sentence_id in by_id
    ]
