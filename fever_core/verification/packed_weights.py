"""Whole-model weights stored as 8-bit integers, read back as floats: how the shipped MiniLM models fit the repository.

A model folder may hold :data:`PACKED_WEIGHTS` in place of ``model.safetensors``. In it every floating-point matrix
of at least :data:`MIN_PACKED_ELEMENTS` values (the embeddings, attention and feed-forward weights) is stored as
``int8`` with one ``float32`` scale per :data:`GROUP_SIZE` consecutive values of a row (symmetric: the group's
largest magnitude maps to 127), under the name ``<tensor>`` and ``<tensor>`` + :data:`SCALE_SUFFIX`; every other
tensor (biases, LayerNorms, the small head) is kept as written. Loading multiplies each group back by its scale, so
the model runs in floats as before (fp32 on the CPU, fp16 on CUDA): the packing changes storage, not arithmetic. Each
weight moves by at most 1/254 of its group's largest magnitude. A MiniLM-L6 verifier (22.7 M parameters) is 45 MB in
fp16 and 24 MB packed. On 694 pairs the shipped MiniLM verifier's probabilities moved by 0.004 on average and its
label changed on 0.4 % (one scale per whole row: 0.007 and 1.2 %; bfloat16 arithmetic: 0.002 and 0.3 %); what it did
to the verdicts is measured in the models' cards.

:func:`pack_model` writes the file (``python -m fever_core models pack FOLDER``); :func:`load_packed_state` reads it
back for :func:`fever_core.verification.classifiers.load_sequence_classifier`, the one way a verifier's folder becomes a model.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fever_core.verification.model_integrity import model_files, record_checksums

if TYPE_CHECKING:
    import torch

PACKED_WEIGHTS = "model.int8.safetensors"
"""The file name of packed weights in a model folder."""
PLAIN_WEIGHTS = "model.safetensors"
"""The file name Hugging Face gives a whole model's weights."""
SCALE_SUFFIX = ".int8_scale"
"""Appended to a packed tensor's name for the tensor of its groups' scales."""
GROUP_SIZE = 64
"""Consecutive values of a row that share one scale (a row whose length it does not divide has one scale)."""
MIN_PACKED_ELEMENTS = 65_536
"""Matrices with fewer values than this are kept as written (the classification head, small projections)."""


def is_packed(folder: str | Path) -> bool:
    """Whether ``folder`` holds packed weights (:data:`PACKED_WEIGHTS`)."""
    return (Path(folder) / PACKED_WEIGHTS).is_file()


def pack_tensors(tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """``tensors`` with each large floating-point matrix replaced by its ``int8`` values and their groups' scales
    (shape ``(rows, columns // GROUP_SIZE)``, or ``(rows, 1)`` when the columns don't divide into groups)."""
    import torch

    packed: dict[str, torch.Tensor] = {}
    for name, tensor in tensors.items():
        if tensor.dim() != 2 or not tensor.is_floating_point() or tensor.numel() < MIN_PACKED_ELEMENTS:
            packed[name] = tensor.contiguous()
            continue
        rows, columns = tensor.shape
        groups = tensor.float().reshape(rows, -1, GROUP_SIZE if columns % GROUP_SIZE == 0 else columns)
        scale = groups.abs().amax(dim=2, keepdim=True).clamp_min(1e-12) / 127.0
        packed[name] = torch.round(groups / scale).clamp(-127, 127).to(torch.int8).reshape(rows, columns)
        packed[name + SCALE_SUFFIX] = scale.squeeze(2).contiguous()
    return packed


def unpack_tensors(packed: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The float32 tensors that :func:`pack_tensors` packed (the others in float32 too).

    Raises:
        ValueError: an ``int8`` tensor without its scales, or scales without their tensor.
    """
    import torch

    tensors: dict[str, torch.Tensor] = {}
    for name, tensor in packed.items():
        if name.endswith(SCALE_SUFFIX):
            if name[: -len(SCALE_SUFFIX)] not in packed:
                raise ValueError(f"the scales {name} belong to no tensor")
            continue
        if tensor.dtype == torch.int8:
            scale = packed.get(name + SCALE_SUFFIX)
            rows, columns = tensor.shape
            if scale is None or scale.dim() != 2 or scale.shape[0] != rows or columns % scale.shape[1]:
                raise ValueError(f"the int8 tensor {name} has no scales for groups of its {rows} rows")
            groups = tensor.float().reshape(rows, scale.shape[1], -1)
            tensors[name] = (groups * scale.float().unsqueeze(2)).reshape(rows, columns)
        else:
            tensors[name] = tensor.float() if tensor.is_floating_point() else tensor
    return tensors


def pack_model(folder: str | Path) -> Path:
    """Replace ``folder``'s ``model.safetensors`` by :data:`PACKED_WEIGHTS` and record the folder's checksums anew.

    Returns:
        the packed file's path.

    Raises:
        FileNotFoundError: ``folder`` has no ``model.safetensors`` (an adapter, or packed already).
    """
    from safetensors.torch import load_file, save_file

    folder = Path(folder)
    plain = folder / PLAIN_WEIGHTS
    if not plain.is_file():
        raise FileNotFoundError(f"{folder} has no {PLAIN_WEIGHTS} to pack (an adapter's weights, or packed already).")
    target = folder / PACKED_WEIGHTS
    partial = target.with_name(target.name + ".partial")
    save_file(
        pack_tensors(load_file(str(plain))),
        str(partial),
        metadata={"format": "pt", "packing": f"int8, groups of {GROUP_SIZE}"},
    )
    partial.chmod(0o644)
    partial.replace(target)
    plain.unlink()
    record_checksums(folder, model_files(folder), fresh=True)
    return target


def load_packed_state(folder: str | Path) -> dict[str, torch.Tensor]:
    """The float32 state dict of ``folder``'s :data:`PACKED_WEIGHTS`."""
    from safetensors.torch import load_file

    return unpack_tensors(load_file(str(Path(folder) / PACKED_WEIGHTS)))
