"""``corpus build|info|search|export-vectors`` and ``benchmark-corpus``: corpora and their indexes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fever_core.cli.common import add_ray_options, say_pending_build, settings_from, write_json
from fever_core.common.settings import SHIPPED_VECTORS_DIR


def cmd_build(args: argparse.Namespace) -> int:
    from fever_core.workspace import open_workspace

    settings = settings_from(args)
    embedder = None
    if args.ray is not None:
        from fever_core.distributed import RayEmbedder
        from fever_core.retrieval.encoder import encoder_cache_dir

        embedder = RayEmbedder(
            settings.encoder_model,
            settings.device,
            encoder_cache_dir(settings.data_dir),
            address=args.ray,
            workers=args.ray_workers,
        )
    if not args.source and not args.rebuild:
        say_pending_build(args.name, settings, ahead=False)
    try:
        workspace = open_workspace(
            args.name, settings, specs=args.source or None, rebuild=args.rebuild, embedder=embedder
        )
    finally:
        if embedder is not None:
            embedder.close()
    stats = workspace.store.stats()
    print(
        f"Corpus {args.name}: {stats.pages:,} pages, {stats.sentences:,} sentences, {stats.links:,} links; "
        f"dense index {len(workspace.dense):,} vectors, {workspace.dense.plan.describe()}."
    )
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
        "dense_index": workspace.dense.plan.describe(),
        "dense_plan": workspace.dense.plan.to_meta(),
        "encoder_precision": workspace.dense.encoder.precision,
        "store_bytes": workspace.store.path.stat().st_size,
        "sources": json.loads(workspace.store.get_meta("sources") or "[]"),
        "fingerprint": workspace.store.get_meta("fingerprint"),
    }
    print(json.dumps(info, indent=2))
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from fever_core.workbench.search import search_corpus
    from fever_core.workspace import open_workspace

    workspace = open_workspace(args.name, settings_from(args))
    for hit in search_corpus(workspace, args.query, args.mode, args.k):
        print(f"{hit.score:8.3f}  {hit.title}" + (f" [{hit.line}]  {hit.text}" if hit.line is not None else ""))
    return 0


def cmd_export_vectors(args: argparse.Namespace) -> int:
    from fever_core.corpus.build import ensure_corpus_store
    from fever_core.retrieval.encoder import encoder_cache_dir, load_encoder, resolve_precision
    from fever_core.retrieval.shipped_vectors import export_vectors

    settings = settings_from(args)
    store = ensure_corpus_store(settings.data_dir, args.name)
    encoder = load_encoder(
        settings.encoder_model,
        settings.device,
        cache_dir=encoder_cache_dir(settings.data_dir),
        precision=resolve_precision(settings.encoder_precision, settings.device),
    )
    shipped = export_vectors(store, encoder, Path(args.out), args.name)
    size = (Path(args.out) / shipped.file).stat().st_size
    print(
        f"{shipped.sentences:,} vectors of corpus {args.name} ({shipped.encoder}, {shipped.encoder_precision}) "
        f"written to {Path(args.out) / shipped.file} ({size / 1e6:.1f} MB, {shipped.dtype}) and its manifest "
        f"{Path(args.out) / args.name}.json."
    )
    return 0


def cmd_benchmark(args: argparse.Namespace) -> int:
    from fever_core.common.claim_lists import load_claim_list
    from fever_core.evaluation.corpus_benchmark import COMPARED_KINDS, benchmark_corpus

    claims = [c.claim for c in load_claim_list(args.claims)][: args.limit] if args.claims else None
    kinds = tuple(args.index_kinds.split(",")) if args.index_kinds else COMPARED_KINDS
    nprobes = tuple(int(n) for n in args.nprobe.split(",")) if args.nprobe else ()
    data = benchmark_corpus(
        args.name,
        settings_from(args),
        cold=args.cold,
        queries=args.queries,
        claims=claims,
        kinds=kinds,
        k=args.k,
        nprobes=nprobes,
    )
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    corpus = commands.add_parser("corpus", help="build, inspect and search corpora").add_subparsers(
        dest="corpus_command", required=True
    )
    p = corpus.add_parser("build", help="build a corpus and its indexes (skipped when current)")
    p.add_argument("name", help="embedded, fever-dev, fm2, or a new name with --source")
    p.add_argument(
        "--source",
        action="append",
        help="'embedded', 'fever:PATH.jsonl' or 'fever-wiki:PATH' (FEVER's wiki-pages.zip or its folder); "
        "repeat, earlier wins on a title clash",
    )
    p.add_argument("--rebuild", action="store_true", help="rebuild even if current")
    add_ray_options(p, "embed the sentences on a Ray cluster")
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

    p = corpus.add_parser(
        "export-vectors",
        help="embed a corpus's sentences afresh and write them as the vectors "
        "shipped for it (assets/models/embedded-vectors/NAME.npz and .json), which its first build then uses",
    )
    p.add_argument("name", help="the corpus (embedded)")
    p.add_argument(
        "--out", default=str(SHIPPED_VECTORS_DIR), help="the folder (default assets/models/embedded-vectors)"
    )
    p.set_defaults(func=cmd_export_vectors)

    p = commands.add_parser(
        "benchmark-corpus",
        help="build time, memory and search latency of a corpus, and the recall of its index compressed",
    )
    p.add_argument("name", nargs="?", default="embedded")
    p.add_argument("--cold", action="store_true", help="build into a fresh temporary data folder")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument(
        "--claims",
        help="real queries (a claims file) to compare the compressed index kinds with flat "
        "search on: recall@k, build time, size, memory, latency",
    )
    p.add_argument("--limit", type=int, help="only the first N claims")
    p.add_argument("--index-kinds", help="the kinds compared, comma-separated (default ivf-sq8,ivf-pq)")
    p.add_argument("--nprobe", help="cells searched, comma-separated values to try (default each kind's own)")
    p.add_argument("-k", type=int, default=5, help="the depth of recall@k (default 5)")
    p.add_argument("--report")
    p.set_defaults(func=cmd_benchmark)
