"""The app's corpus: the shared fixture pages and a few German states, where the Munich claim's key
sentence is also shown in another candidate page's links (the case where a tick did not count)."""

from __future__ import annotations

import pytest

from ..conftest import write_jsonl

APP_CORPUS = "app-fixture"
MUNICH_CLAIM = "Munich is the capital of the German state of Saxony."
MUNICH_KEY_SENTENCE = "Munich is the capital and most populous city of the German state of Bavaria."
STATE_PAGES = [
    {
        "id": "Munich",
        "lines": "0\tMunich is the capital and most populous city of the German state of Bavaria .\tBavaria\tBavaria\n"
        "1\tWith about 1.5 million inhabitants , it is the third-largest city in Germany .",
    },
    {
        "id": "Bavaria",
        "lines": "0\tBavaria is a state in the south-east of Germany .\n"
        "1\tIts capital and largest city is Munich .\tMunich\tMunich",
    },
    {
        "id": "Saxony",
        "lines": "0\tSaxony is a landlocked state of Germany .\n"
        "1\tIts capital is Dresden , and its largest city is Leipzig .\tDresden\tDresden\tLeipzig\tLeipzig",
    },
    {"id": "Dresden", "lines": "0\tDresden is the capital city of the German state of Saxony ."},
]


@pytest.fixture(scope="session")
def app_corpus(settings, pages_file, tmp_path_factory) -> str:
    """The name of a corpus of the fixture pages and :data:`STATE_PAGES`, built in the session's data folder."""
    from fever_core.workspace import open_workspace

    states_file = write_jsonl(tmp_path_factory.mktemp("states") / "states.jsonl", STATE_PAGES)
    open_workspace(APP_CORPUS, settings, specs=[f"fever:{pages_file}", f"fever:{states_file}"], progress=False)
    return APP_CORPUS


@pytest.fixture
def data_dir(tmp_path, settings, workspace, app_corpus):
    """A data folder of the test's own (its own history and annotations) holding the session's built corpora."""
    (tmp_path / "corpora").symlink_to(settings.data_dir / "corpora", target_is_directory=True)
    return tmp_path


@pytest.fixture
def app_env(monkeypatch, data_dir, workspace, tiny_nli_model):
    """The app's environment for AppTest: the test's data folder, the fixture corpus, the tiny model."""
    monkeypatch.setenv("FEVER_DATA_DIR", str(data_dir))
    monkeypatch.setenv("FEVER_CORPUS", workspace.name)
    monkeypatch.setenv("FEVER_VERIFIER_MODEL", str(tiny_nli_model))
