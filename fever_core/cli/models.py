"""``models list|use|shipped|pack``: the verifier versions made on this machine and which one is in use
(:mod:`fever_core.common.model_versions`; ``train improve`` makes them), and a model folder's weights stored as int8
(:mod:`fever_core.verification.packed_weights`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fever_core.cli.common import settings_from
from fever_core.common.model_versions import active_verifier, list_versions, models_dir, use_verifier
from fever_core.verification.packed_weights import PLAIN_WEIGHTS, pack_model


def cmd_list(args: argparse.Namespace) -> int:
    data_dir = settings_from(args).data_dir
    active = active_verifier(data_dir)
    rows = [
        {
            "version": v.name,
            "path": str(v.path),
            "base": v.base,
            "annotations": v.annotations,
            "in_use": active == str(v.path.resolve()),
            "table": v.table,
        }
        for v in list_versions(data_dir)
    ]
    print(json.dumps({"in_use": active or "shipped", "versions": rows}, indent=2))
    return 0


def cmd_use(args: argparse.Namespace) -> int:
    data_dir = settings_from(args).data_dir
    path = models_dir(data_dir) / args.version if "/" not in args.version else Path(args.version)
    use_verifier(data_dir, path)
    print(f"in use: {path}")
    return 0


def cmd_shipped(args: argparse.Namespace) -> int:
    use_verifier(settings_from(args).data_dir, None)
    print("in use: the shipped verifier")
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    for folder in args.folders:
        plain = Path(folder) / PLAIN_WEIGHTS
        before = plain.stat().st_size if plain.is_file() else 0
        packed = pack_model(folder)
        print(f"{packed}: {packed.stat().st_size / 1e6:.1f} MB (was {before / 1e6:.1f} MB)")
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    models = commands.add_parser(
        "models", help="verifier versions made on this machine, and the one in use (FEVER_VERIFIER_MODEL overrides it)"
    ).add_subparsers(dest="models_command", required=True)
    models.add_parser("list", help="the versions, their comparison tables, and the one in use").set_defaults(
        func=cmd_list
    )
    p = models.add_parser("use", help="use a version (its name, e.g. verifier-v2, or a model folder)")
    p.add_argument("version")
    p.set_defaults(func=cmd_use)
    models.add_parser("shipped", help="switch back to the shipped verifier").set_defaults(func=cmd_shipped)
    p = models.add_parser(
        "pack",
        help="store a whole model's weights as int8, about half of fp16's size "
        "(how the shipped MiniLM models are kept)",
    )
    p.add_argument("folders", nargs="+", metavar="FOLDER")
    p.set_defaults(func=cmd_pack)
