"""The retrievers by name (fever_core/retrieval/registry.py), and a checker on each."""

import subprocess
import sys
from pathlib import Path

import pytest

from fever_core.pipeline import Checker
from fever_core.retrieval.base import Retriever
from fever_core.retrieval.bm25 import Bm25DocumentRetriever, Bm25SentenceSelector
from fever_core.retrieval.fused import DenseSentenceSelector, FusedDocumentRetriever
from fever_core.retrieval.registry import BACKENDS, RETRIEVERS, get_retriever
from fever_core.retrieval.tfidf import TfidfRetriever
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.nli import NliModel

PARTS = {  # a registered name without a row here fails the test below
    "fused": (FusedDocumentRetriever, DenseSentenceSelector, True),
    "bm25": (Bm25DocumentRetriever, Bm25SentenceSelector, False),
    "tfidf": (TfidfRetriever, TfidfRetriever, False),
}


@pytest.mark.parametrize("name", RETRIEVERS)
def test_each_name_gives_its_page_retriever_and_sentence_selector(workspace, tmp_path, name):
    pages, sentences, dense = PARTS[name]
    retriever = get_retriever(name, workspace.store, workspace.dense, tmp_path)
    assert retriever.name == name and retriever.dense is dense  # only fused reads the claim's vector
    assert isinstance(retriever.pages, pages) and isinstance(retriever.sentences, sentences)


def test_each_name_is_a_backend_class_in_a_module_of_its_own():
    assert RETRIEVERS == ("fused", "bm25", "tfidf")
    for name, backend in BACKENDS.items():
        assert issubclass(backend, Retriever) and backend.__module__ == f"fever_core.retrieval.{name}"


def test_naming_the_backends_leaves_scipy_unloaded_until_tfidf_is_opened():
    code = "import sys, fever_core.retrieval.registry; print('scipy.sparse' in sys.modules)"
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert run.stdout.strip() == "False"


def test_the_fused_retriever_takes_a_reranker_only_when_one_is_named(workspace, tmp_path, tiny_reranker):
    fused = get_retriever("fused", workspace.store, workspace.dense, tmp_path, reranker_model="")
    assert fused.sentences.cross_encoder is None
    reranked = get_retriever(
        "fused", workspace.store, workspace.dense, tmp_path, reranker_model=str(tiny_reranker), device="cpu"
    )
    assert reranked.sentences.cross_encoder is not None


def test_an_unknown_name_is_refused_with_the_choices(workspace, tmp_path):
    with pytest.raises(ValueError, match="Unknown retriever 'magic': choose one of fused, bm25, tfidf"):
        get_retriever("magic", workspace.store, workspace.dense, tmp_path)


@pytest.mark.parametrize("name", RETRIEVERS)
def test_a_checker_on_each_retriever_finds_the_page_a_claim_names(workspace, tiny_nli_model, name):
    checker = Checker(workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu")), retriever=name)
    result = checker.check("Steven Spielberg was born in Ohio.")
    assert checker.retriever == name
    assert result.pages[0].page_id == "Steven_Spielberg"
    assert result.evidence[0].sentence.key == ("Steven_Spielberg", 1)
