"""What every command shares: settings from the global options, JSON reports, the verdict option."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fever_core.common.settings import Settings


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings (environment, then the global ``--data-dir`` and a command's ``--model``)."""
    return Settings.from_env(data_dir=getattr(args, "data_dir", None), verifier_model=getattr(args, "model", None))


def training_dir(args: argparse.Namespace) -> Path:
    """Where training data, caches and runs go by default: ``training/`` in the data folder."""
    return settings_from(args).data_dir / "training"


def write_json(path: str | Path | None, data: dict) -> None:
    """Write ``data`` as indented JSON to ``path`` (folders made as needed); nothing when ``path`` is empty."""
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False))


def add_verdict_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--verdict", choices=["learned", "rule"], default=None,
                        help="learned: the verifier's claim-level model over all evidence (default when it has one); "
                        "rule: the best trustworthy sentence decides")


def add_ray_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--ray [ADDRESS]`` and ``--ray-workers N`` (Ray is an optional extra: ``requirements-ray.txt``)."""
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help=f"{what}: alone, a local cluster of this machine's CPUs; 'auto' for the one `ray start "
                        "--head` runs here; or a cluster's address (needs `pip install -r requirements-ray.txt`)")
    parser.add_argument("--ray-workers", type=int, metavar="N", help="Ray workers (default: one a CPU of the cluster)")
