"""Distractor sentences for NOT ENOUGH INFO pairs: on-topic text that does not settle the claim.

A FEVER system hands its verifier the sentences retrieval found, and for a claim the corpus can't settle those
are same-subject sentences that say nothing about it. The pool of candidates (:class:`PoolSentence`) is the
embedded summaries (:func:`load_embedded_pool`) and, optionally, the evidence sentences of the training pair
files (:func:`evidence_pool`), so NOT ENOUGH INFO premises are written like the SUPPORTS / REFUTES ones.
:class:`DistractorIndex` ranks them by TF-IDF against the claim; :func:`nei_pairs` keeps those that can't settle
it; :func:`same_page_nei_pairs` pairs a claim with another claim's evidence about the same page.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fever_core.common.formats import Pair, evidence_premise, evidence_sentences, iter_records, pair_premise
from fever_core.common.jsonl import write_jsonl
from fever_core.common.text import content_words, fever_to_plain, page_id_to_title, premise_text
from fever_core.common.types import NEI, SUPPORTS
from fever_core.training.reserved import reserved_titles


def _content_words(text: str) -> set[str]:
    return set(content_words(text))


@dataclass(frozen=True)
class PoolSentence:
    """A candidate distractor: page title and plain sentence text."""

    title: str
    text: str


def load_embedded_pool(cache_dir: Path) -> list[PoolSentence]:
    """Every sentence of the embedded Wikipedia summaries but the reserved pages'
    (:func:`~fever_core.training.reserved.reserved_titles`), cached as ``pool-embedded.jsonl`` (~30 s uncached)."""
    reserved = reserved_titles()
    cache = Path(cache_dir) / "pool-embedded.jsonl"
    if cache.is_file():
        return [PoolSentence(r["title"], r["text"]) for _, r in iter_records(cache) if r["title"] not in reserved]
    from fever_core.corpus.sources.embedded import EmbeddedSummariesSource

    pool = [
        PoolSentence(page.title, s.text)
        for page in EmbeddedSummariesSource().iter_pages()
        for s in page.sentences
        if len(s.text.split()) >= 4
    ]
    write_jsonl(cache, (asdict(item) for item in pool))
    return [item for item in pool if item.title not in reserved]


class DistractorIndex:
    """TF-IDF nearest sentences over ``"title: sentence"`` strings: same-subject, non-evidence text.

    Ranking by TF-IDF cosine to the claim favours sentences of the claim's subject page (its title words
    match), which is what document retrieval would hand the verifier for a claim it can't settle.
    """

    def __init__(self, pool: Sequence[PoolSentence]):
        from sklearn.feature_extraction.text import TfidfVectorizer

        if not pool:
            raise ValueError("The distractor pool is empty.")
        self.pool = list(pool)
        self._vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english", ngram_range=(1, 1), min_df=1)
        self._matrix = self._vectorizer.fit_transform(premise_text(p.title, p.text) for p in self.pool)

    def nearest(self, queries: Sequence[str], k: int = 10, batch_size: int = 1024) -> list[list[int]]:
        """Indices into :attr:`pool` of the ``k`` most similar sentences for each query, best first."""
        import numpy as np

        out: list[list[int]] = []
        for start in range(0, len(queries), batch_size):
            q = self._vectorizer.transform(queries[start : start + batch_size])
            scores = (q @ self._matrix.T).toarray()
            k_eff = min(k, scores.shape[1])
            top = np.argpartition(-scores, k_eff - 1, axis=1)[:, :k_eff]
            for row, cand in zip(scores, top):
                ranked = cand[np.argsort(-row[cand])]
                out.append([int(i) for i in ranked if row[i] > 0])
        return out


def _stems(words: set[str]) -> set[str]:
    """Words cut to their first four letters: a crude stem that lets "stars" meet "starred"."""
    return {w[:4] for w in words}


def _overlaps(candidate: PoolSentence, evidence_words: set[str], max_overlap: float) -> bool:
    words = _content_words(candidate.text)
    return not words or len(words & evidence_words) / len(words) > max_overlap


def nei_pairs(
    claims: Sequence[str],
    index: DistractorIndex,
    source: str,
    evidence: Sequence[str] | None = None,
    max_sentences: int = 2,
    max_overlap: float = 0.5,
    max_claim_coverage: float = 0.5,
    seed: int = 0,
) -> list[Pair]:
    """NOT ENOUGH INFO pairs: each claim with 1..``max_sentences`` retrieved non-evidence sentences.

    Args:
        claims: claim texts (plain).
        index: the distractor pool.
        source: the pairs' ``source``.
        evidence: for claims that do have evidence (SUPPORTS / REFUTES claims), their gold premise text;
            candidates sharing more than ``max_overlap`` of their content words with it are skipped, so
            a restatement of the evidence is never labelled NEI.
        max_sentences: premises hold a random 1..max_sentences of the nearest acceptable sentences, so the
            model can't use premise length as a cue.
        max_overlap: fraction in [0, 1], see ``evidence``.
        max_claim_coverage: a candidate holding this share or more of the claim's content words that are not
            in the candidate's page title (compared by their first four letters, so "stars" meets "starred")
            is skipped: it may well settle the claim, and FEVER's NOT ENOUGH INFO claims are often settled by
            sentences written after 2017 or about another page ("Steve Coogan starred in a movie." against
            "It stars Steve Coogan as Raymond.").
        seed: for the number of sentences drawn.

    Returns:
        One pair per claim that has at least one acceptable candidate.
    """
    rng = random.Random(seed)
    nearest = index.nearest(list(claims), k=20 + max_sentences)
    pairs = []
    for i, (claim, cands) in enumerate(zip(claims, nearest)):
        claim_stems = _stems(_content_words(claim))
        banned = _content_words(evidence[i]) if evidence is not None else set()
        chosen = []
        for j in cands:
            cand = index.pool[j]
            if evidence is not None and _overlaps(cand, banned, max_overlap):
                continue
            focus = claim_stems - _stems(_content_words(cand.title))
            if not focus or len(focus & _stems(_content_words(cand.text))) / len(focus) >= max_claim_coverage:
                continue
            chosen.append((cand.title, cand.text))
            if len(chosen) == max_sentences:
                break
        if chosen:
            n = rng.randint(1, len(chosen))
            pairs.append(Pair(evidence_premise(chosen[:n]), claim, NEI, source))
    return pairs


def evidence_pool(records: Iterable[dict[str, Any]]) -> list[PoolSentence]:
    """Sentences of single-page FEVER evidence in pair-file records, titled with their page.

    Distractors from here are written the way FEVER's 2017 pages are (the text a FEVER corpus hands
    the verifier), about the pages FEVER claims are about, so an unverifiable claim finds on-topic
    sentences in the same style as the SUPPORTS / REFUTES premises, not only modern summaries.
    """
    seen: set[tuple[str, str]] = set()
    pool = []
    for record in records:
        pages = record.get("pages") or []
        if len(pages) != 1:
            continue
        title = page_id_to_title(pages[0])
        for text in evidence_sentences(record["premise"]):
            if len(text.split()) >= 4 and (title, text) not in seen:
                seen.add((title, text))
                pool.append(PoolSentence(title, text))
    return pool


def same_page_nei_pairs(
    records: Sequence[dict[str, Any]], fraction: float, rng: random.Random, source: str
) -> list[Pair]:
    """NOT ENOUGH INFO pairs from a claim and the evidence of *another* claim about the same page.

    This is what retrieval hands the verifier for an unverifiable claim about a known subject: true,
    on-topic sentences that say nothing about the claim. FEVER writes several claims (and mutations of
    them) from one sentence, so another claim's evidence often *does* bear on this one; a pair is left
    out when the two evidence texts share a sentence, or when the other evidence contains more than a
    third of the claim's content words that are not in the page title.

    Args:
        records: pair-file records with ``premise``, ``hypothesis`` and ``pages`` (FEVER evidence).
        fraction: share of the SUPPORTS records that get such a pair (when their page has another
            claim). REFUTES claims are not used: they are mostly mutations that other sentences about
            the same page contradict, which would make the NEI label wrong.
    """
    by_page: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("pages"):
            by_page.setdefault(record["pages"][0], []).append(record)
    out = []
    supported = [r for r in records if r.get("label") == SUPPORTS]
    for record in rng.sample(supported, int(len(supported) * fraction)):
        pages = record.get("pages") or []
        own = set(evidence_sentences(record["premise"]))
        others = [
            other
            for other in by_page.get(pages[0] if pages else "", [])
            if other["hypothesis"] != record["hypothesis"] and not own & set(evidence_sentences(other["premise"]))
        ]
        title_words = _content_words(page_id_to_title(pages[0])) if pages else set()
        claim_words = _content_words(record["hypothesis"]) - title_words
        others = [
            other
            for other in others
            if len(claim_words & _content_words(fever_to_plain(other["premise"]))) <= len(claim_words) / 3
        ]
        if others and claim_words:
            other = rng.choice(others)
            out.append(Pair(pair_premise(other["premise"], other["pages"]), record["hypothesis"], NEI, source))
    return out
