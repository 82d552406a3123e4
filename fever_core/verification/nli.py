"""A Hugging Face sequence-classification NLI model, used as the claim verifier.

Any model works whose ``config.id2label`` names its classes as FEVER labels (SUPPORTS / REFUTES /
NOT ENOUGH INFO) or NLI labels (entailment / contradiction / neutral); probabilities always come
back in :data:`LABELS` order.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.device import cpu_supports_bf16, select_device
from fever_core.common.model_paths import missing_local_model
from fever_core.common.onnx_exports import ONNX_FILE
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS
from fever_core.verification.base_models import BaseModelError
from fever_core.verification.classifiers import load_sequence_classifier
from fever_core.verification.model_integrity import ModelDamaged, check_model_folder, finite_probabilities
from fever_core.verification.onnx_export import EXPORT_META, verifier_cache_dir, verifier_export

if TYPE_CHECKING:
    import torch

_LABEL_ALIASES = {
    "supports": SUPPORTS,
    "support": SUPPORTS,
    "entailment": SUPPORTS,
    "entails": SUPPORTS,
    "refutes": REFUTES,
    "refute": REFUTES,
    "contradiction": REFUTES,
    "contradicts": REFUTES,
    "not enough info": NEI,
    "nei": NEI,
    "neutral": NEI,
}
CPU_BATCH_SIZE = 32
"""Pairs a model reads at once on the CPU, where larger batches are no faster (it is compute-bound)."""
CUDA_BATCH_SIZE = 128
"""Pairs a model reads at once on a CUDA device. On an H200 the MiniLM verifier read 1,800 pairs (shortest first, as
many claims are read) in 2.1 s in batches of 32, 0.95 s of 128 and 0.42 s of 512
(``benchmarks/gpu/reports/h200-models.json``); 128 keeps MPNet-base's activations within a small card's memory."""
RUNTIMES = ("auto", "torch", "onnx")
"""What runs a verifier (:func:`resolve_runtime`): ``auto``, PyTorch, or ONNX Runtime on the CPU
(:mod:`~fever_core.verification.onnx_export`)."""
AUTO_RUNTIME = "torch"
"""What ``auto`` runs a verifier with, on every device: PyTorch. ONNX Runtime reads the MPNet verifier as PyTorch fp32
does (no label changed on 120 claims and 600 pairs) and only about 5 % faster (verification p50 0.431 s a plain claim
against 0.456 s; bf16 autocast 0.226 s: ``benchmarks/verifier/onnx-runtime.json``); its int8 forms are either faster
and change 6 % of the labels or keep them and are no faster (``experiments/onnx_verifier/README.md``)."""
BF16_MIN_PARAMETERS = 50_000_000
"""Models at least this large run under bfloat16 autocast on CPUs with native bf16 (MPNet-base: about 2x
faster); smaller ones (MiniLM) stay in fp32, where they are fast already and their calibration was made."""


def fever_label(model_label: str) -> str:
    """Map a model's class name to a FEVER label; raises ``ValueError`` for unknown names."""
    key = model_label.strip().lower().replace("_", " ")
    if key not in _LABEL_ALIASES:
        raise ValueError(
            f"Can't map the model label {model_label!r} to SUPPORTS/REFUTES/NOT ENOUGH INFO. "
            "Set config.id2label to entailment/contradiction/neutral or the FEVER label names."
        )
    return _LABEL_ALIASES[key]


def label_columns(id2label: dict[int, str]) -> list[int]:
    """For each of :data:`LABELS`, the column of a model's output that holds it, from the model's ``id2label``.

    Raises:
        ValueError: a class name that is no FEVER or NLI label, or labels that do not cover all three.
    """
    mapped = [fever_label(id2label[i]) for i in range(len(id2label))]
    if sorted(mapped) != sorted(LABELS):
        raise ValueError(f"The model's labels {list(id2label.values())} do not cover all three FEVER labels.")
    return [mapped.index(label) for label in LABELS]


class NliModel:
    """Claim verifier: (premise, hypothesis) pairs in, probabilities over :data:`LABELS` out, run by PyTorch.

    On CUDA the model runs in fp16, :data:`CUDA_BATCH_SIZE` pairs at once; on the CPU in fp32, or under bfloat16
    autocast for models of at least :data:`BF16_MIN_PARAMETERS` on CPUs with native bf16 (``bf16`` says which),
    :data:`CPU_BATCH_SIZE` at once. :class:`OnnxNliModel` runs the same model through ONNX Runtime;
    :meth:`load` chooses (:data:`RUNTIMES`).
    """

    runtime = "torch"
    """What runs the model: ``torch``, or ``onnx`` (:class:`OnnxNliModel`)."""

    def __init__(
        self, model: torch.nn.Module, tokenizer: Any, device: str, max_length: int = 256, name: str = "model"
    ) -> None:
        self.name = name
        """The folder or hub id it was loaded from, named when its outputs are refused."""
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.max_length = max_length
        self.batch_size = CUDA_BATCH_SIZE if device.startswith("cuda") else CPU_BATCH_SIZE
        """Pairs read at once unless :meth:`predict` is told otherwise."""
        self.bf16 = device == "cpu" and is_large(model) and cpu_supports_bf16()
        config: Any = model.config  # a transformers model's, which torch's Module does not declare
        self._columns = label_columns(config.id2label)

    @classmethod
    def load(
        cls,
        name_or_path: str,
        device: str = "auto",
        max_length: int = 256,
        runtime: str = "torch",
        cache_dir: Path | None = None,
    ) -> NliModel:
        """Load from a local directory or a hub id (works offline when the hub id is cached). A LoRA adapter
        folder (:data:`~fever_core.verification.classifiers.ADAPTER_CONFIG`) is loaded onto its base and merged, so
        it runs as fast as a plain model.

        Args:
            runtime: one of :data:`RUNTIMES` (:func:`resolve_runtime`); default ``torch``. ONNX Runtime runs a local
                folder's model on the CPU, whatever ``device``, from its export in ``cache_dir`` (default: the
                ``verifiers/`` of the settings' data folder), made there the first time.

        Raises:
            ModelDamaged: a local folder's files differ from their checksums or can't be read
                (:func:`check_model_folder`), or they can't be loaded as a verifier (the message names what failed,
                e.g. a damaged file); weights that can't be read (a truncated ``.safetensors``) wherever they are.
            BaseModelError: an adapter's base can't be found or assembled.
            FileNotFoundError: a local folder without ``config.json`` whose checksums don't list one (a wrong path).
            RuntimeError: a hub id that is not in the Hugging Face cache while the hub can't be reached.
        """
        from safetensors import SafetensorError
        from transformers import AutoTokenizer

        check_model_folder(name_or_path)  # first: a folder that lost a config.json its checksums list is damaged
        local = missing_local_model(name_or_path)
        if local is not None:
            raise FileNotFoundError(
                f"No verifier model at {local} (no config.json). Train one with "
                "`python -m fever_core train verifier ...` or set FEVER_VERIFIER_MODEL (FEVER_JOINT_VERIFIER_MODEL for the "
                "joint verifier) to a model path or hub id."
            )
        device = select_device(device)
        folder = Path(name_or_path).expanduser()
        runtime = resolve_runtime(runtime, device, name_or_path)
        try:
            if runtime != "torch":
                export = verifier_export(folder, cache_dir or _default_cache_dir())
                return OnnxNliModel(export, name_or_path, max_length)
            tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            model = load_sequence_classifier(name_or_path).to(device).eval()
            model = model.half() if device.startswith("cuda") else model.float()
            return cls(model, tokenizer, device, max_length, name_or_path)
        except BaseModelError:
            raise
        except SafetensorError as exc:
            raise ModelDamaged(
                name_or_path,
                f"The weights of the model {name_or_path} (its .safetensors file) can't be read ({exc}): the file is "
                "truncated or damaged. Copy or train the model again, or choose another one (FEVER_VERIFIER_MODEL, "
                "`python -m fever_core models use`).",
            ) from exc
        except Exception as exc:
            if folder.is_dir():  # its files, not the network: a damaged folder, refused like one
                raise ModelDamaged(
                    name_or_path,
                    f"The model folder {folder} can't be loaded as a verifier ({exc.__class__.__name__}: {exc}). "
                    "Restore the folder from a copy, or make the model again.",
                ) from exc
            if isinstance(exc, OSError):
                raise RuntimeError(  # noqa: TRY004 - not a wrong type given: a model that can't be reached
                    f"Can't load the verifier {name_or_path!r}: it is not a local model directory and is not "
                    f"in the Hugging Face cache, and the hub can't be reached ({exc.__class__.__name__})."
                ) from exc
            raise

    def predict(self, pairs: list[tuple[str, str]], batch_size: int | None = None) -> np.ndarray:
        """Probabilities for each (premise, hypothesis) pair, read ``batch_size`` at once (default :attr:`batch_size`).

        Returns:
            float32 array of shape ``(len(pairs), 3)`` in :data:`LABELS` order; rows sum to 1.

        Raises:
            ModelDamaged: a probability is not a finite number (damaged weights).
        """
        batch_size = batch_size or self.batch_size
        out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
        with self._reading():
            for start in range(0, len(pairs), batch_size):
                batch = pairs[start : start + batch_size]
                out[start : start + len(batch)] = self._probabilities(batch)[:, self._columns]
        return finite_probabilities(out, self.name)

    def _tokens(self, batch: list[tuple[str, str]], tensors: str) -> Any:
        """The tokenizer's ids and mask for ``batch``, as ``tensors`` (``pt``, ``np``)."""
        return self.tokenizer(
            [p for p, _ in batch],
            [h for _, h in batch],
            truncation=True,
            max_length=self.max_length,
            padding=True,
            return_tensors=tensors,
        )

    def _reading(self) -> contextlib.AbstractContextManager[object]:
        import torch

        autocast = torch.autocast("cpu", dtype=torch.bfloat16) if self.bf16 else contextlib.nullcontext()
        stack = contextlib.ExitStack()
        stack.enter_context(torch.inference_mode())
        stack.enter_context(autocast)
        return stack

    def _probabilities(self, batch: list[tuple[str, str]]) -> np.ndarray:
        """Softmax rows of the model's logits for ``batch``, in the model's column order."""
        import torch

        logits = self.model(**self._tokens(batch, "pt").to(self.device)).logits.float()
        return torch.softmax(logits, dim=-1).cpu().numpy()


class OnnxNliModel(NliModel):
    """The same verifier run by ONNX Runtime on the CPU, from its export
    (:func:`~fever_core.verification.onnx_export.verifier_export`), :data:`CPU_BATCH_SIZE` pairs at once on
    ``threads`` threads (0: as many as PyTorch uses in this process, which the app sets to
    ``Settings.app_cpu_threads``)."""

    def __init__(self, folder: Path, name: str, max_length: int = 256, threads: int = 0):
        import onnxruntime
        import torch
        from transformers import AutoConfig, AutoTokenizer

        self.name = name
        self.device = "cpu"
        self.max_length = max_length
        self.batch_size = CPU_BATCH_SIZE
        self.bf16 = False
        self.runtime = "onnx"
        self.inputs = list(json.loads((folder / EXPORT_META).read_text())["inputs"])
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder))
        self._columns = label_columns(AutoConfig.from_pretrained(str(folder)).id2label)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or torch.get_num_threads()
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(folder / ONNX_FILE), options, providers=["CPUExecutionProvider"]
        )

    def _reading(self) -> contextlib.AbstractContextManager[object]:
        return contextlib.nullcontext()

    def _probabilities(self, batch: list[tuple[str, str]]) -> np.ndarray:
        tokens = self._tokens(batch, "np")
        logits = self.session.run(None, {name: tokens[name].astype(np.int64) for name in self.inputs})[0]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities: np.ndarray = shifted / shifted.sum(axis=1, keepdims=True)
        return probabilities


def resolve_runtime(runtime: str, device: str, name_or_path: str) -> str:
    """What runs a verifier: ``runtime`` unless it is ``auto``, which is PyTorch (:data:`AUTO_RUNTIME` says why).

    Raises:
        ValueError: ``runtime`` is none of :data:`RUNTIMES`, or an ONNX one for a hub id (export a local folder).
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"Unknown verifier runtime {runtime!r}: use one of {', '.join(RUNTIMES)}.")
    local = Path(name_or_path).expanduser().is_dir()
    if runtime != "auto":
        if runtime != "torch" and not local:
            raise ValueError(
                f"The verifier {name_or_path!r} is no local folder: ONNX Runtime runs the export of a "
                "folder (download the model to a folder first), PyTorch runs hub ids (runtime torch)."
            )
        return runtime
    return AUTO_RUNTIME


def _default_cache_dir() -> Path:
    from fever_core.common.settings import Settings

    return verifier_cache_dir(Settings.from_env().data_dir)


def is_large(model: torch.nn.Module) -> bool:
    """Whether ``model`` has at least :data:`BF16_MIN_PARAMETERS` parameters (it gets the faster arithmetic)."""
    return sum(p.numel() for p in model.parameters()) >= BF16_MIN_PARAMETERS
