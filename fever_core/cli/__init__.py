"""Command line: ``python -m fever_core [--data-dir DIR] [-v] <command> ...``; ``--help`` lists the commands.

One parser reaches every command; the global options come before the command and reach them all, training
included. Each module here adds its commands: :mod:`~fever_core.cli.corpus` (corpora and their indexes),
:mod:`~fever_core.cli.check` (claims and texts),
:mod:`~fever_core.cli.evaluate` (metrics on claims and pairs), :mod:`~fever_core.cli.train` (models and their data),
:mod:`~fever_core.cli.models` (the verifier versions and the one in use).
"""

from __future__ import annotations

import argparse
import logging
import sys

from fever_core.cli import check, corpus, evaluate, models, serve, train

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fever_core", description="FEVER Workbench: fact checking against Wikipedia."
    )
    parser.add_argument(
        "--data-dir",
        help="where corpora, indexes and training data live (default: data/ in the project, or FEVER_DATA_DIR)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (corpus, check, evaluate, train, models, serve):
        module.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code (2 with a one-line ``error:`` for input it can't use)."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    level = logging.INFO if args.verbose else getattr(args, "log_level", logging.WARNING)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s")
    from fever_core.corpus.sources import CorpusSourceError
    from fever_core.pipeline import ClaimError

    try:
        code: int = args.func(args)
        return code
    except (
        ClaimError,
        CorpusSourceError,
        FileNotFoundError,
        KeyError,
        ValueError,
        RuntimeError,
        ConnectionError,
    ) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except OSError as exc:  # what no command foresaw (a read-only or full disk, a permission): still one line
        where = f"{exc.filename}: " if exc.filename else ""
        print(
            f"error: {where}{exc.strerror or exc}. Check that path: that it exists, can be written and has room.",
            file=sys.stderr,
        )
        return 2
