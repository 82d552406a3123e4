"""Choosing where models run: a CUDA GPU when present, else the CPU, and on how many CPU threads."""

from __future__ import annotations

import os
from pathlib import Path


def select_device(preference: str = "auto") -> str:
    """``"cuda"`` when asked for, or when ``"auto"`` and a GPU is present; else ``"cpu"``."""
    import torch

    if preference == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if preference.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError(f"Device {preference!r} was requested but no CUDA GPU is available; use 'cpu' or 'auto'.")
    return preference


def limit_cpu_threads(threads: int) -> None:
    """Run PyTorch's CPU operations in this process on ``threads`` threads (0 leaves PyTorch's default)."""
    import torch

    if threads > 0 and torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def cpu_supports_bf16() -> bool:
    """True when this CPU has native bfloat16 arithmetic (AVX512-BF16 or AMX-BF16, read from
    ``/proc/cpuinfo``): there ``torch.autocast("cpu", dtype=torch.bfloat16)`` runs MPNet 1.8-2x faster
    than fp32. Elsewhere bf16 is emulated and slower, so callers stay in fp32. ``FEVER_CPU_BF16=0``
    turns it off, ``=1`` forces it."""
    forced = os.environ.get("FEVER_CPU_BF16")
    if forced in {"0", "1"}:
        return forced == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags
