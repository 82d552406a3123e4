"""A verifier run's checkpoints: the trained weights, optimizer, scheduler, step and RNG states, saved every N steps
in ``out/checkpoints/`` so that an interrupted run resumes where it stopped, with the same plan."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch
    from torch.optim import Optimizer
    from torch.optim.lr_scheduler import LRScheduler

CHECKPOINT_FILE = "last.pt"


def checkpoint_path(out: Path) -> Path:
    """Where the run writing to ``out`` keeps its checkpoint."""
    return Path(out) / "checkpoints" / CHECKPOINT_FILE


def trained_state(model: torch.nn.Module) -> dict[str, Any]:
    """The weights training changes (all of them, or an adapter's and the head's), as in a checkpoint."""
    trained = {name for name, p in model.named_parameters() if p.requires_grad}
    return {name: tensor for name, tensor in model.state_dict().items() if name in trained}


def save_checkpoint(
    path: Path, model: torch.nn.Module, optimizer: Optimizer, scheduler: LRScheduler, step: int, plan: dict[str, Any]
) -> None:
    """Write a checkpoint at ``step`` of ``plan`` to ``path``, through a temporary file."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial")
    torch.save(
        {
            "model": trained_state(model),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
            "plan": plan,
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
        },
        tmp,
    )
    tmp.replace(path)


def resume_from(
    checkpoint: Path, plan: dict[str, Any], model: torch.nn.Module, optimizer: Optimizer, scheduler: LRScheduler
) -> int:
    """Load ``checkpoint`` into ``model``, ``optimizer`` and ``scheduler``, and restore the RNG states saved with it.
    Returns the step it was saved at.

    Raises:
        RuntimeError: it was made for another ``plan``, or lacks some of the weights trained now.
    """
    import torch

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    if state["plan"] != plan:
        raise RuntimeError(
            f"The checkpoint in {checkpoint.parent} was made for a different plan ({state['plan']}, now {plan}). "
            "Delete it or pass --no-resume to start afresh."
        )
    missing = set(trained_state(model)) - set(state["model"])
    if missing:
        raise RuntimeError(
            f"The checkpoint in {checkpoint.parent} lacks {len(missing)} trained weights "
            f"(e.g. {min(missing)}); delete it or pass --no-resume."
        )
    model.load_state_dict(state["model"], strict=False)
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    random.setstate(state["rng"]["python"])
    np.random.set_state(state["rng"]["numpy"])
    torch.set_rng_state(state["rng"]["torch"])
    return int(state["step"])


def remove_checkpoints(checkpoint: Path) -> None:
    """Delete the folder of ``checkpoint`` and all in it (a finished run's, unless they are to be kept)."""
    if checkpoint.parent.is_dir():
        for path in checkpoint.parent.iterdir():
            path.unlink()
        checkpoint.parent.rmdir()
