"""Every example claim Verify offers on the embedded corpus comes back with its right label, end to end, from the
shipped models (issue 48: the built-in "Marie Curie won two Nobel Prizes." was refuted on stage). The embedded
corpus is built here, in a data folder of the module's own, from its summaries and their shipped vectors (about a
minute on two cores)."""

import pytest

from fever_core.common.settings import DEFAULT_VERIFIER, Settings
from fever_core.corpus.sources.base import CorpusSourceError
from fever_core.corpus.sources.embedded import summaries_path
from pages.examples import EXAMPLES

try:
    summaries_path()
except CorpusSourceError as exc:
    pytest.skip(str(exc), allow_module_level=True)


@pytest.fixture(scope="module")
def embedded_checker(tmp_path_factory):
    from fever_core.pipeline import Checker
    from fever_core.workspace import open_workspace

    settings = Settings.from_env({}, data_dir=tmp_path_factory.mktemp("embedded-data"), device="cpu")
    assert settings.verifier_model == DEFAULT_VERIFIER
    open_workspace("embedded", settings, progress=False)
    return Checker.open("embedded", settings, progress=False)


@pytest.mark.parametrize("claim, label", EXAMPLES["embedded"])
def test_each_example_of_the_embedded_corpus_comes_back_right(embedded_checker, claim, label):
    verdict = embedded_checker.check(claim).verdict
    assert verdict.label == label, verdict.reason
