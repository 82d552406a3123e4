"""``corpus build|info|search`` and ``benchmark-corpus``: corpora and their indexes."""

from __future__ import annotations

import argparse
import json

from fever_core.cli.common import settings_from, write_json


def cmd_build(args: argparse.Namespace) -> int:
    from fever_core.workspace import open_workspace

    workspace = open_workspace(args.name, settings_from(args), specs=args.source or None, rebuild=args.rebuild)
    stats = workspace.store.stats()
    print(f"Corpus {args.name}: {stats.pages:,} pages, {stats.sentences:,} sentences, {stats.links:,} links; "
          f"dense index {len(workspace.dense):,} vectors.")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from fever_core.workspace import open_workspace

    workspace = open_workspace(args.name, settings_from(args))
    stats = workspace.store.stats()
    info = {
        "corpus": args.name,
        "pages": stats.pages,
        "sentences": stats.sentences,
        "links": stats.links,
        "links_per_page": round(stats.links_per_page, 2),
        "dense_vectors": len(workspace.dense),
        "dense_dim": int(workspace.dense.index.d),
        "store_bytes": workspace.store.path.stat().st_size,
        "sources": json.loads(workspace.store.get_meta("sources") or "[]"),
        "fingerprint": workspace.store.get_meta("fingerprint"),
    }
    print(json.dumps(info, indent=2))
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from fever_core.search import search_corpus
    from fever_core.workspace import open_workspace

    workspace = open_workspace(args.name, settings_from(args))
    for hit in search_corpus(workspace, args.query, args.mode, args.k):
        print(f"{hit.score:8.3f}  {hit.title}" + (f" [{hit.line}]  {hit.text}" if hit.line is not None else ""))
    return 0


def cmd_benchmark(args: argparse.Namespace) -> int:
    from fever_core.evaluation.corpus_benchmark import benchmark_corpus

    data = benchmark_corpus(args.name, settings_from(args), cold=args.cold, queries=args.queries)
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def add_commands(commands: argparse._SubParsersAction) -> None:
    corpus = commands.add_parser("corpus", help="build, inspect and search corpora").add_subparsers(
        dest="corpus_command", required=True)
    p = corpus.add_parser("build", help="build a corpus and its indexes (skipped when current)")
    p.add_argument("name", help="embedded, fever-dev, fm2, or a new name with --source")
    p.add_argument("--source", action="append",
                   help="'embedded' or 'fever:PATH.jsonl'; repeat, earlier wins on a title clash")
    p.add_argument("--rebuild", action="store_true", help="rebuild even if current")
    p.set_defaults(func=cmd_build)
    p = corpus.add_parser("info", help="pages, sentences, links and index sizes")
    p.add_argument("name")
    p.set_defaults(func=cmd_info)
    p = corpus.add_parser("search", help="search a corpus")
    p.add_argument("name")
    p.add_argument("query")
    p.add_argument("--mode", choices=["title", "lexical", "dense"], default="lexical")
    p.add_argument("-k", type=int, default=10)
    p.set_defaults(func=cmd_search)

    p = commands.add_parser("benchmark-corpus", help="build time, memory and search latency of a corpus")
    p.add_argument("name", nargs="?", default="embedded")
    p.add_argument("--cold", action="store_true", help="build into a fresh temporary data folder")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--report")
    p.set_defaults(func=cmd_benchmark)
