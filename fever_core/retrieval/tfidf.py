"""The FEVER baseline's retrieval (Thorne et al. 2018), for side-by-side comparison.

DrQA-style TF-IDF over hashed unigrams and bigrams (2^24 buckets, log term frequency, DrQA's idf
``log((N - Nt + 0.5) / (Nt + 0.5))`` clipped at 0) ranks pages; the baseline then ranks the
sentences of the top pages by TF-IDF cosine with the claim. The page matrix is saved beside the
store and rebuilt when the store changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.base import Retriever
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence, PageCandidate, evidence_from_hits

if TYPE_CHECKING:  # scipy is imported when an index is built or read, so naming the backends stays light
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import HashingVectorizer

N_FEATURES = 2**24
MATRIX_FILE = "tfidf_pages.npz"
META_FILE = "tfidf.json"


def _vectorizer() -> HashingVectorizer:
    """The hashing vectorizer of page texts and claims: word unigrams and bigrams, English stop words left out."""
    from sklearn.feature_extraction.text import HashingVectorizer

    return HashingVectorizer(
        n_features=N_FEATURES, ngram_range=(1, 2), alternate_sign=False, norm=None, stop_words="english"
    )


def _log_tf(counts: sp.csr_matrix) -> sp.csr_matrix:
    counts = counts.tocsr().astype(np.float32)
    counts.data = np.log1p(counts.data)
    return counts


class TfidfRetriever:
    """Pages and then sentences by hashed TF-IDF, as the FEVER baseline retrieves them."""

    name = "tfidf"

    def __init__(
        self,
        store: CorpusStore,
        folder: Path,
        fingerprint: str | None,
        page_ids: list[str],
        matrix: sp.csr_matrix,
        idf: np.ndarray,
    ):
        self.store = store
        self.folder = folder
        self.fingerprint = fingerprint
        self.page_ids = page_ids
        self.matrix = matrix
        self.idf = idf
        self.vectorizer = _vectorizer()

    @classmethod
    def build_or_load(cls, store: CorpusStore, folder: Path) -> TfidfRetriever:
        """The index of ``store`` kept in ``folder`` (the corpus's folder), built there first when it is
        missing or was built for another version of the store."""
        import scipy.sparse as sp

        meta_path, matrix_path = folder / META_FILE, folder / MATRIX_FILE
        fingerprint = store.get_meta("fingerprint")
        if meta_path.is_file() and matrix_path.is_file():
            meta = json.loads(meta_path.read_text())
            if meta.get("store_fingerprint") == fingerprint:
                return cls(
                    store,
                    folder,
                    fingerprint,
                    meta["page_ids"],
                    sp.load_npz(matrix_path).tocsr(),
                    np.load(folder / "tfidf_idf.npy"),
                )
        return cls._build(store, folder, fingerprint)

    def _current(self) -> TfidfRetriever:
        """This index, or a new one when the store changed since it was built (the live Wikipedia cache grows)."""
        if self.store.get_meta("fingerprint") != self.fingerprint:
            fresh = TfidfRetriever.build_or_load(self.store, self.folder)
            self.fingerprint, self.page_ids, self.matrix, self.idf = (
                fresh.fingerprint,
                fresh.page_ids,
                fresh.matrix,
                fresh.idf,
            )
        return self

    @classmethod
    def _build(cls, store: CorpusStore, folder: Path, fingerprint: str | None) -> TfidfRetriever:
        import scipy.sparse as sp

        page_ids, texts = [], []
        for page_id, title in store.titles():
            page = store.page(page_id)
            page_ids.append(page_id)
            texts.append(f"{title} {page.text if page else ''}")
        # an empty store (a fresh live cache) gives an empty index: the vectorizer can't transform nothing
        counts = _log_tf(_vectorizer().transform(texts)) if texts else sp.csr_matrix((0, N_FEATURES), dtype=np.float64)
        doc_freq = np.bincount(counts.indices, minlength=N_FEATURES)
        n = len(page_ids)
        idf = np.log((n - doc_freq + 0.5) / (doc_freq + 0.5)).astype(np.float32)
        idf[idf < 0] = 0
        matrix = (counts @ sp.diags(idf)).tocsr()
        norms = np.sqrt(matrix.multiply(matrix).sum(axis=1)).A1
        norms[norms == 0] = 1
        matrix = sp.diags(1 / norms) @ matrix
        sp.save_npz(folder / MATRIX_FILE, matrix.tocsr())
        np.save(folder / "tfidf_idf.npy", idf)
        (folder / META_FILE).write_text(json.dumps({"store_fingerprint": fingerprint, "page_ids": page_ids}))
        return cls(store, folder, fingerprint, page_ids, matrix.tocsr(), idf)

    def _query(self, texts: list[str]) -> sp.csr_matrix:
        import scipy.sparse as sp

        vec = _log_tf(self.vectorizer.transform(texts)) @ sp.diags(self.idf)
        norms = np.sqrt(vec.multiply(vec).sum(axis=1)).A1
        norms[norms == 0] = 1
        return (sp.diags(1 / norms) @ vec).tocsr()

    def retrieve(
        self, analysis: ClaimAnalysis, claim_vector: np.ndarray | None = None, k: int = 5
    ) -> list[PageCandidate]:
        self._current()
        scores = (self.matrix @ self._query([analysis.claim]).T).toarray().ravel()
        best = [i for i in np.argsort(-scores)[:k] if scores[i] > 0]
        return [
            PageCandidate(
                self.page_ids[i],
                self.store.title_of(self.page_ids[i]) or self.page_ids[i],
                float(scores[i]),
                {"tfidf": float(scores[i])},
            )
            for i in best
        ]

    def select(self, claim: str, claim_vector: np.ndarray | None, page_ids: list[str]) -> list[EvidenceSentence]:
        hits = self.store.sentences_by_ids(self.store.sentence_ids_of_pages(page_ids))
        if not hits:
            return []
        sentences = self._query([h.sentence.text for h in hits])
        scores = (sentences @ self._query([claim]).T).toarray().ravel()
        return evidence_from_hits(hits, scores.tolist())


class TfidfBackend(Retriever):
    """``tfidf``: one :class:`TfidfRetriever`, kept in the corpus's folder, finds the pages and scores their sentences."""

    @classmethod
    def open(
        cls, store: CorpusStore, dense: DenseSentenceIndex, folder: Path, reranker_model: str = "", device: str = "auto"
    ) -> TfidfBackend:
        tfidf = TfidfRetriever.build_or_load(store, folder)
        return cls("tfidf", tfidf, tfidf, False)
