"""What the commands share: settings from the global options, JSON reports, the checker's options (corpus,
retriever, model, and one option per per-check setting of :data:`~fever_core.common.settings.CHECK_SETTINGS`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fever_core.common.check_settings import CHECK_SETTINGS, CheckSetting
from fever_core.common.settings import Settings

if TYPE_CHECKING:
    from fever_core.pipeline import Checker, CheckOptions


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings (environment, then the global ``--data-dir`` and a command's ``--model``)."""
    return Settings.from_env(data_dir=getattr(args, "data_dir", None), verifier_model=getattr(args, "model", None))


def training_dir(args: argparse.Namespace) -> Path:
    """Where training data, caches and runs go by default: ``training/`` in the data folder."""
    return settings_from(args).data_dir / "training"


def write_json(path: str | Path | None, data: dict[str, Any]) -> None:
    """Write ``data`` as indented JSON to ``path`` (folders made as needed); nothing when ``path`` is empty."""
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False))


class SettingValue:
    """An argparse ``type`` for a number setting: the text as the setting's type, held to its declared limits."""

    def __init__(self, setting: CheckSetting):
        self.setting = setting
        self.__name__ = setting.type.__name__  # argparse names the type in "invalid int value"

    def __call__(self, text: str) -> int | float:
        try:
            value = self.setting.type(text)
        except ValueError:
            whole = "whole " if self.setting.type is int else ""
            raise argparse.ArgumentTypeError(f"{text!r} is not a {whole}number ({self.setting.unit})") from None
        try:
            checked: int | float = self.setting.check(value)
            return checked
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None


def option_name(setting: CheckSetting) -> str:
    """The command-line spelling of a setting: ``pages_k`` -> ``--pages-k``."""
    return "--" + setting.name.replace("_", "-")


def add_check_setting_options(parser: argparse.ArgumentParser) -> None:
    """One option per per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`), each ``None`` unless given
    (then the settings, or the verifier's rule, decide): ``--pages-k N``, ``--two-hop/--no-two-hop``, ``--verdict``..."""
    for setting in CHECK_SETTINGS:
        if setting.type is bool:
            parser.add_argument(
                option_name(setting), action=argparse.BooleanOptionalAction, default=None, help=setting.describe()
            )
        elif setting.choices:
            parser.add_argument(option_name(setting), choices=setting.choices, default=None, help=setting.describe())
        else:
            parser.add_argument(
                option_name(setting),
                type=SettingValue(setting),
                default=None,
                metavar=setting.unit.upper().replace(" ", "_") or "VALUE",
                help=setting.describe(),
            )


def add_checker_options(
    parser: argparse.ArgumentParser,
    corpus: str = "embedded",
    corpus_help: str = "a corpus name, or 'wikipedia' to fetch pages live (cached)",
) -> None:
    """What a command that checks claims takes: ``--corpus``, ``--retriever``, ``--model`` and the per-check
    settings (:func:`add_check_setting_options`)."""
    from fever_core.retrieval.registry import RETRIEVERS

    parser.add_argument("--corpus", default=corpus, help=corpus_help)
    parser.add_argument("--retriever", default="fused", choices=RETRIEVERS)
    parser.add_argument("--model", help="verifier model path or hub id (default: settings)")
    add_check_setting_options(parser)


def check_options_from(args: argparse.Namespace) -> CheckOptions:
    """The :class:`~fever_core.pipeline.CheckOptions` of the per-check options given (the others ``None``)."""
    from fever_core.pipeline import CheckOptions

    return CheckOptions(**{setting.name: getattr(args, setting.name) for setting in CHECK_SETTINGS})


def say_pending_build(corpus: str, settings: Settings, ahead: bool = True) -> None:
    """Say on stderr what opening ``corpus`` builds first, and about how long it takes
    (:func:`~fever_core.workspace.pending_build`), with (``ahead``) the command that builds it ahead of time; nothing
    when it is built."""
    from fever_core.workspace import pending_build

    build = pending_build(corpus, settings)
    if build is not None:
        print(build.describe(ahead), file=sys.stderr, flush=True)


def open_checker(args: argparse.Namespace) -> Checker:
    """The checker for the command's ``--corpus``, settings and ``--retriever``, saying first what it builds when the
    corpus is not built yet (:func:`say_pending_build`); what it says about its models (e.g. a damaged verifier
    refused) goes to stderr as ``warning:`` lines."""
    from fever_core.pipeline import Checker

    settings = settings_from(args)
    say_pending_build(args.corpus, settings)
    checker = Checker.open(args.corpus, settings, retriever=args.retriever)
    for warning in checker.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return checker


def add_ray_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--ray [ADDRESS]`` and ``--ray-workers N`` (Ray is an optional extra: ``requirements-ray.txt``)."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help=f"{what}: alone, a local cluster of this machine's CPUs; 'auto' for the one `ray start "
        "--head` runs here; or a cluster's address (needs `pip install -r requirements-ray.txt`)",
    )
    parser.add_argument("--ray-workers", type=int, metavar="N", help="Ray workers (default: one a CPU of the cluster)")
