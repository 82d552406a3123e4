"""A check's provenance: what it was made with (the workbench's version, the models with their checksums, the corpus
with its build checksum and size, the retriever and every per-check setting), gathered from the running checker
(:func:`checker_provenance`) and written as schema.org ``PropertyValue`` nodes (:meth:`Provenance.properties`), which a
ClaimReview carries under ``additionalProperty`` (:mod:`fever_core.workbench.claimreview`).

Nothing here hashes a large file: a verifier's checksum is the SHA-256 of its ``checksums.json`` (the recorded
SHA-256 of every file it reads, compared with them when it was loaded), a corpus's is the one its build recorded,
and a corpus's size is counted once per checksum.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fever_core import __version__
from fever_core.common.settings import CHECK_SETTINGS, PROJECT_ROOT
from fever_core.corpus.store import CHECKSUM_KEY, CorpusStats, CorpusStore
from fever_core.verification.model_integrity import model_fingerprint

if TYPE_CHECKING:
    from fever_core.pipeline import Checker, CheckOptions


@dataclass(frozen=True)
class ModelRecord:
    """A model as a provenance names it.

    Attributes:
        name: its folder relative to the project (``assets/models/verifier-mpnet``) or to the data folder
            (``models/verifier-v2``), else the folder's name; a hub id as it is. Never a path of the server.
        checksum: ``sha256:HEX``, the SHA-256 of the folder's ``checksums.json``
            (``sha256sum FOLDER/checksums.json`` gives it); ``blake2b-128:HEX`` of the folder's files
            (:func:`~fever_core.common.checksums.model_checksum`) for a folder saved without one; "" for a hub id.
    """

    name: str
    checksum: str


@dataclass(frozen=True)
class Provenance:
    """What a check was made with: enough to make it again, and to tell whether another was made the same way.

    Attributes:
        workbench_version: the workbench's version (``fever_core.__version__``), with its git commit when it runs
            from a git checkout (``1.0+g313888c1a2b3``, ``-dirty`` when tracked files were changed).
        verifier: the verifier that judged the evidence (the one used, when a damaged one was refused).
        joint_verifier: the joint verifier mixed into the learned verdict; ``None`` when none was loaded.
        corpus: the corpus's name.
        corpus_checksum: ``sha256:HEX``, the content checksum its build recorded; "" for a corpus that grows
            (live Wikipedia), which has none.
        corpus_pages: pages in the corpus.
        corpus_sentences: sentences in the corpus.
        retriever: the retriever's name (``fused``, ``bm25``, ``tfidf``).
        settings: every per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`) by name, as the check
            took effect with it (:class:`~fever_core.pipeline.AppliedSettings`); ``None`` only for the NOT ENOUGH INFO
            threshold of a verifier read by plain argmax. (Whether a ``learned`` verdict could be used depends on the
            verifier, which its checksum pins, and on the retriever.)
    """

    workbench_version: str
    verifier: ModelRecord
    joint_verifier: ModelRecord | None
    corpus: str
    corpus_checksum: str
    corpus_pages: int
    corpus_sentences: int
    retriever: str
    settings: dict[str, Any] = field(default_factory=dict)

    def properties(self) -> list[dict[str, Any]]:
        """The provenance as schema.org ``PropertyValue`` nodes, one per fact, named by ``propertyID``; a fact
        without a value (a hub model's checksum, a live corpus's) is left out, and a setting without a value (a
        verifier read by plain argmax has no NOT ENOUGH INFO threshold) says so in its ``description``."""
        models = [("verifier", self.verifier), ("jointVerifier", self.joint_verifier)]
        facts: list[tuple[str, Any, str]] = [("workbenchVersion", self.workbench_version, "")]
        for prefix, model in models:
            if model is not None:
                facts += [(f"{prefix}Model", model.name, ""), (f"{prefix}Checksum", model.checksum, "")]
        facts += [
            ("corpus", self.corpus, ""),
            ("corpusChecksum", self.corpus_checksum, ""),
            ("corpusPages", self.corpus_pages, "pages"),
            ("corpusSentences", self.corpus_sentences, "sentences"),
            ("retriever", self.retriever, ""),
        ]
        nodes = [property_value(name, value, unit) for name, value, unit in facts if value != ""]
        for setting in CHECK_SETTINGS:
            value = self.settings.get(setting.name)
            node = property_value(setting.name, value, setting.unit if setting.type is not str else "")
            node["name"] = setting.label
            if value is None:
                node["description"] = "none: the verifier's stances are read by their likeliest label"
            nodes.append(node)
        return nodes


def property_value(property_id: str, value: Any, unit: str = "") -> dict[str, Any]:
    """A ``PropertyValue`` node (``value`` left out when ``None``; ``unitText`` when ``unit``)."""
    node: dict[str, Any] = {"@type": "PropertyValue", "propertyID": property_id}
    if value is not None:
        node["value"] = value
    if unit:
        node["unitText"] = unit
    return node


def checker_provenance(checker: Checker, options: CheckOptions | None = None) -> Provenance:
    """The provenance of checks the running ``checker`` makes with ``options``: the models it loaded, its corpus, its
    retriever, and each setting as the checks take effect with it (:meth:`~fever_core.pipeline.Checker.applied`).
    Reads two small files and the corpus's recorded checksum; the corpus's size is counted once per corpus build
    (:func:`corpus_size`)."""
    data_dir = checker.settings.data_dir
    verification = checker.verification
    joint = verification.joint_verifier
    store = checker.workspace.store
    sizes = corpus_size(store)
    settings = checker.applied(options).check_settings()
    return Provenance(
        workbench_version=workbench_version(),
        verifier=model_record(verification.verifier.name, data_dir),
        joint_verifier=model_record(joint.name, data_dir) if joint is not None else None,
        corpus=checker.workspace.name,
        corpus_checksum=_prefixed("sha256", store.get_meta(CHECKSUM_KEY)),
        corpus_pages=sizes.pages,
        corpus_sentences=sizes.sentences,
        retriever=checker.retriever,
        settings=settings,
    )


def model_record(name_or_path: str, data_dir: Path) -> ModelRecord:
    """A model folder (or hub id) by its short name and checksum (:class:`ModelRecord`,
    :func:`~fever_core.verification.model_integrity.model_fingerprint`)."""
    folder = Path(name_or_path).expanduser()
    if not folder.is_dir():
        return ModelRecord(name_or_path, "")
    return ModelRecord(_short_name(folder, data_dir), model_fingerprint(folder))


def _short_name(folder: Path, data_dir: Path) -> str:
    """``folder`` relative to the project or the data folder, else its own name."""
    folder = folder.resolve()
    for base in (PROJECT_ROOT, Path(data_dir).resolve()):
        if folder.is_relative_to(base):
            return folder.relative_to(base).as_posix()
    return folder.name


def _prefixed(algorithm: str, checksum: str | None) -> str:
    return f"{algorithm}:{checksum}" if checksum else ""


def corpus_size(store: CorpusStore) -> CorpusStats:
    """The store's sizes: counted once per build checksum (a built corpus does not change), each time for a store
    that grows (live Wikipedia's, which has none)."""
    checksum = store.get_meta(CHECKSUM_KEY)
    return _built_size(store, checksum) if checksum else store.stats()


@lru_cache(maxsize=16)
def _built_size(store: CorpusStore, checksum: str) -> CorpusStats:
    return store.stats()


@lru_cache(maxsize=1)
def workbench_version() -> str:
    """``fever_core.__version__``, with ``+g`` and the git commit (12 hex digits, ``-dirty`` when tracked files
    differ from it) when the workbench runs from a git checkout; asked of git once a process."""
    try:
        described = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12", "--exclude", "*"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return __version__
    commit = described.stdout.strip()
    return f"{__version__}+g{commit}" if commit else __version__
