"""Title matching: pages whose titles the claim names, exactly, after disambiguation, or nearly.

Every n-gram of the claim (up to :data:`MAX_NGRAM` words, case- and punctuation-folded) is looked up
among the titles' base names ("Soul Food (film)" -> "soul food"). Among several pages with one base
name, the claim's own words choose ("film" -> "Soul Food (film)"). Mentions found by claim analysis
that match no title exactly are matched fuzzily: titles containing all their words ("Conan Doyle"
-> "Arthur Conan Doyle") or spelled almost the same.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from fever_core.common.names import base_title
from fever_core.common.text import TITLE_STOP_WORDS, normalise_title_key
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis

MAX_NGRAM = 10


@dataclass(frozen=True)
class TitleMatch:
    """A page named by the claim: score in (0, 1], and how it matched."""

    page_id: str
    score: float
    match: str


class TitleMatcher:
    """Looks up claim n-grams and mentions among a corpus's titles. Build once per corpus."""

    def __init__(self, store: CorpusStore):
        self.store = store
        self._by_base: dict[str, list[tuple[str, str]]] = {}
        for page_id, title in store.titles():
            key = normalise_title_key(base_title(title))
            if key:
                self._by_base.setdefault(key, []).append((page_id, title))

    def match(self, analysis: ClaimAnalysis, limit: int = 20) -> list[TitleMatch]:
        """Pages the claim names, best first (at most ``limit``)."""
        claim_words = normalise_title_key(analysis.claim).split()
        mention_keys = {normalise_title_key(m) for m in analysis.mentions}
        capital_keys = {normalise_title_key(m) for m in [*analysis.entities, *analysis.capitalised]}
        capital_words = {w for key in capital_keys for w in key.split()} | {w for w in claim_words if w.isdigit()}
        found: dict[str, TitleMatch] = {}

        spans: list[tuple[int, int, str]] = []
        for n in range(min(MAX_NGRAM, len(claim_words)), 0, -1):
            for start in range(len(claim_words) - n + 1):
                key = " ".join(claim_words[start : start + n])
                if key in self._by_base and not all(w in TITLE_STOP_WORDS for w in key.split()):
                    spans.append((start, start + n, key))
        for start, end, key in spans:
            inside_longer = any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
            n = end - start
            if key in mention_keys:
                strength = 1.0
            elif all(w in capital_words for w in key.split()):
                strength = 0.8
            else:
                strength = 0.35
            score = strength * min(1.0, 0.6 + 0.1 * n) * (0.5 if inside_longer else 1.0)
            self._add_candidates(found, key, score, set(claim_words))

        for mention in [*analysis.entities, *analysis.capitalised, analysis.prefix]:
            key = normalise_title_key(mention)
            if key and key not in self._by_base and not all(w in TITLE_STOP_WORDS for w in key.split()):
                for page_id, score in self._fuzzy(key):
                    if page_id not in found:
                        found[page_id] = TitleMatch(page_id, score, "fuzzy")
        return sorted(found.values(), key=lambda m: -m.score)[:limit]

    def _add_candidates(self, found: dict[str, TitleMatch], key: str, score: float, claim_words: set[str]) -> None:
        pages = self._by_base[key]
        for page_id, title in pages:
            exact = normalise_title_key(title) == key
            if exact:
                page_score, how = score, "exact"
            else:
                hint = set(normalise_title_key(title[len(base_title(title)) :]).split()) - TITLE_STOP_WORDS
                overlap = len(hint & claim_words) / len(hint) if hint else 0.0
                page_score, how = score * (0.75 + 0.25 * overlap), "disambiguated"
            if page_id not in found or found[page_id].score < page_score:
                found[page_id] = TitleMatch(page_id, page_score, how)

    def _fuzzy(self, key: str) -> list[tuple[str, float]]:
        words = set(key.split())
        out = []
        for hit in self.store.search_titles(key, k=10):
            title_key = normalise_title_key(base_title(hit.title))
            title_words = set(title_key.split())
            if words <= title_words:
                out.append((hit.page_id, 0.7 * len(words) / len(title_words)))
            else:
                ratio = difflib.SequenceMatcher(None, key, title_key).ratio()
                if ratio >= 0.85:
                    out.append((hit.page_id, 0.6 * ratio))
        return out
