"""Choosing where models run: a CUDA GPU when present, else the CPU, and on how many CPU threads."""

from __future__ import annotations


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
