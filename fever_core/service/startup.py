"""Before the service answers: what must be there (checked at once, so a missing corpus or model stops the start
with a clear message instead of failing the first request), and loading the checkers.

The service never builds a corpus or an index: it serves what ``python -m fever_core corpus build NAME`` built, so
its data folder can be read-only and shared by replicas.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from fever_core.common import Settings, missing_local_model
from fever_core.corpus import (
    LIVE_CORPUS,
    STORE_FILE,
    CorpusSourceError,
    CorpusStore,
    corpus_dir,
    corpus_specs,
    source_from_spec,
    sources_fingerprint,
)
from fever_core.pipeline import Checker
from fever_core.retrieval.dense_files import META_FILE, made_by
from fever_core.retrieval.encoder import EncoderIdentity
from fever_core.verification import ClaimVerifier
from fever_core.workspace import open_workspace

log = logging.getLogger(__name__)


class ServiceStartError(RuntimeError):
    """The service can't start; the message says what is missing and what to do."""


def check_can_serve(settings: Settings, corpora: Sequence[str]) -> None:
    """Raise :class:`ServiceStartError` unless each corpus is built and current (store and dense index) and each
    configured model is there. Quick: it reads file metadata and the encoder's files (about 0.1 s), not the indexes."""
    if not corpora:
        raise ServiceStartError("No corpus to serve: name one with --corpus NAME.")
    for what, variable, path in (
        ("encoder", "FEVER_ENCODER_MODEL", settings.encoder_model),
        ("verifier", "FEVER_VERIFIER_MODEL", settings.verifier_model),
        ("joint verifier", "FEVER_JOINT_VERIFIER_MODEL", settings.joint_verifier_model),
    ):
        missing = missing_local_model(path) if path else None
        if missing is not None:
            raise ServiceStartError(
                f"No {what} model at {missing} (no config.json there). Set {variable} to a model "
                "folder or a Hugging Face id in the local cache"
                + (", or to nothing to go without it." if what == "joint verifier" else ".")
            )
    for name in corpora:  # after the models: a corpus's index is compared with the encoder's files
        _check_corpus(settings, name)


def _check_corpus(settings: Settings, name: str) -> None:
    if name == LIVE_CORPUS:
        return  # the live cache starts empty and grows as claims are checked
    try:
        folder = corpus_dir(settings.data_dir, name)
        specs = corpus_specs(settings.data_dir, name)
    except (KeyError, ValueError) as exc:
        raise ServiceStartError(exc.args[0] if exc.args else str(exc)) from None
    build = f"`python -m fever_core --data-dir {settings.data_dir} corpus build {name}`"
    why = "(the service never builds a corpus, so that its data folder can be read-only and shared)"
    store_path = folder / STORE_FILE
    if not store_path.is_file():
        raise ServiceStartError(
            f"Corpus {name!r} is not built: {store_path} is missing. Build it first with {build} {why}."
        )
    try:
        fingerprint = sources_fingerprint([source_from_spec(spec) for spec in specs])
        with CorpusStore.open(store_path) as store:
            built = store.get_meta("fingerprint")
    except (CorpusSourceError, FileNotFoundError, ValueError) as exc:
        raise ServiceStartError(f"Corpus {name!r} can't be served: {exc}") from None
    if built != fingerprint:
        raise ServiceStartError(
            f"Corpus {name!r} in {folder} is out of date with its sources. Rebuild it with {build} {why}."
        )
    meta_path = folder / META_FILE
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError):
        meta = {}
    # an index recorded with an encoder's path in another install (made_by: None) is spot-checked when it opens
    if meta.get("store_fingerprint") != built or made_by(meta, EncoderIdentity.of(settings.encoder_model)) is False:
        raise ServiceStartError(
            f"Corpus {name!r} has no current dense index ({meta_path} is missing, or was made "
            f"from another store or encoder than {settings.encoder_model!r}). Build it with "
            f"{build} {why}."
        )


def load_checkers(settings: Settings, corpora: Sequence[str]) -> dict[str, Checker]:
    """A checker per corpus, all sharing one verifier, each warmed up (:meth:`Checker.warm_up`: every model and
    index is loaded, so the first request is as fast as the next). A damaged model is replaced by the shipped one
    (:meth:`ClaimVerifier.load`): the server log says so, and so does every ``/check`` answer's ``warnings``.

    Raises:
        ModelDamaged: a shipped model is damaged, so there is no verifier to serve with (``/health`` says
            ``failed``, with this message).
    """
    verification = ClaimVerifier.load(settings)
    for warning in verification.warnings:
        log.warning("%s", warning)
    checkers = {}
    for name in corpora:
        log.info("Loading corpus %s", name)
        checkers[name] = Checker(open_workspace(name, settings, progress=False), verification)
        checkers[name].warm_up()
    return checkers
