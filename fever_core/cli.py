"""Command line: ``python -m fever_core <command> ...``. Run with ``--help`` for the commands."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from fever_core.settings import Settings


def _settings(args: argparse.Namespace) -> Settings:
    return Settings.from_env(
        data_dir=getattr(args, "data_dir", None),
        verifier_model=getattr(args, "model", None),
    )


def _write_json(path: str | None, data: dict) -> None:
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False))


def cmd_corpus_build(args: argparse.Namespace) -> int:
    from fever_core.workspace import Workspace

    workspace = Workspace.open(args.name, _settings(args), specs=args.source or None, rebuild=args.rebuild)
    stats = workspace.store.stats()
    print(f"Corpus {args.name}: {stats.pages:,} pages, {stats.sentences:,} sentences, {stats.links:,} links; "
          f"dense index {len(workspace.dense):,} vectors.")
    return 0


def cmd_corpus_info(args: argparse.Namespace) -> int:
    from fever_core.workspace import Workspace

    workspace = Workspace.open(args.name, _settings(args))
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


def cmd_corpus_search(args: argparse.Namespace) -> int:
    from fever_core.search import search_corpus
    from fever_core.workspace import Workspace

    workspace = Workspace.open(args.name, _settings(args))
    for hit in search_corpus(workspace, args.query, args.mode, args.k):
        print(f"{hit.score:8.3f}  {hit.title}" + (f" [{hit.line}]  {hit.text}" if hit.line is not None else ""))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from fever_core.pipeline import Checker, CheckOptions

    checker = Checker.open(args.corpus, _settings(args), retriever=args.retriever)
    result = checker.check(args.claim, CheckOptions(two_hop=False if args.no_two_hop else None, verdict=args.verdict))
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        print(result.to_json())
        return 0
    verdict = result.verdict
    print(f"{verdict.label}  " + "  ".join(f"{k}={v:.2f}" for k, v in verdict.probabilities.items()))
    print(verdict.reason)
    for item in result.evidence:
        e = item.sentence
        hop = f" via {e.via.anchor!r}" if e.via else ""
        print(f"  [{e.score:.3f}] hop {e.hop}{hop}  {e.title} ({e.line}): {e.text}")
    print("timings (s): " + ", ".join(f"{k}={v:.3f}" for k, v in result.timings.items()))
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from fever_core.evaluation.run import evaluate, load_claims
    from fever_core.pipeline import Checker, CheckOptions

    claims = load_claims(args.claims, args.limit, args.sample, args.seed)
    checker = Checker.open(args.corpus, _settings(args), retriever=args.retriever)
    options = CheckOptions(two_hop=False if args.no_two_hop else None, verdict=args.verdict)
    report = evaluate(checker, claims, args.claims, options, oracle=args.oracle_evidence,
                      predictions_path=args.predictions)
    data = report.to_dict()
    _write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def cmd_evaluate_pairs(args: argparse.Namespace) -> int:
    from fever_core.evaluation.pairs import evaluate_pairs
    from fever_core.training.pairs import load_pairs
    from fever_core.verification.decision import load_decision_rule
    from fever_core.verification.nli import NliModel

    settings = _settings(args)
    model = NliModel.load(settings.verifier_model, settings.device)
    pairs = [pair for path in args.pairs for pair in load_pairs(Path(path))]
    if args.limit:
        pairs = pairs[: args.limit]
    rule = load_decision_rule(settings.verifier_model)
    data = evaluate_pairs(model, pairs, nei_threshold=rule.nei_threshold).to_dict()
    _write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def cmd_train(args: argparse.Namespace, rest: list[str]) -> int:
    if args.what == "verifier":
        from fever_core.training.verifier import main as train_main
    elif args.what == "aggregator":
        from fever_core.training.aggregator import main as train_main
    elif args.what == "generate-claims":
        from fever_core.training.generated_claims import main as train_main
    elif args.what == "prepare-data":
        from fever_core.training.prepare import main as train_main
    else:
        raise SystemExit(
            f"Unknown training target {args.what!r}: choose 'verifier', 'aggregator', 'generate-claims' "
            "or 'prepare-data'."
        )
    return train_main(rest)


def cmd_benchmark_corpus(args: argparse.Namespace) -> int:
    from fever_core.evaluation.corpus_benchmark import benchmark_corpus

    data = benchmark_corpus(args.name, _settings(args), cold=args.cold, queries=args.queries)
    _write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def _add_verdict_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--verdict", choices=["learned", "rule"], default=None,
                        help="learned: the verifier's claim-level model over all evidence (default when it has one); "
                        "rule: the best trustworthy sentence decides")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m fever_core", description="FEVER Workbench: fact checking against Wikipedia.")
    parser.add_argument("--data-dir", help="where corpora and indexes live (default: data/ in the project)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    commands = parser.add_subparsers(dest="command", required=True)

    corpus = commands.add_parser("corpus", help="build, inspect and search corpora").add_subparsers(dest="corpus_command", required=True)
    p = corpus.add_parser("build", help="build a corpus and its indexes (skipped when current)")
    p.add_argument("name", help="embedded, fever-dev, fm2, or a new name with --source")
    p.add_argument("--source", action="append", help="'embedded' or 'fever:PATH.jsonl'; repeat, earlier wins on a title clash")
    p.add_argument("--rebuild", action="store_true", help="rebuild even if current")
    p.set_defaults(func=cmd_corpus_build)
    p = corpus.add_parser("info", help="pages, sentences, links and index sizes")
    p.add_argument("name")
    p.set_defaults(func=cmd_corpus_info)
    p = corpus.add_parser("search", help="search a corpus")
    p.add_argument("name")
    p.add_argument("query")
    p.add_argument("--mode", choices=["title", "lexical", "dense"], default="lexical")
    p.add_argument("-k", type=int, default=10)
    p.set_defaults(func=cmd_corpus_search)

    p = commands.add_parser("check", help="check one claim")
    p.add_argument("claim")
    p.add_argument("--corpus", default="embedded", help="a corpus name, or 'wikipedia' to fetch pages live (cached)")
    p.add_argument("--retriever", default="fused", choices=["fused", "bm25", "tfidf"])
    p.add_argument("--model", help="verifier model path or hub id (default: settings)")
    p.add_argument("--no-two-hop", action="store_true")
    _add_verdict_option(p)
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.set_defaults(func=cmd_check)

    p = commands.add_parser("evaluate", help="FEVER metrics on a claims file")
    p.add_argument("--claims", required=True)
    p.add_argument("--corpus", default="fever-dev")
    p.add_argument("--limit", type=int, help="only the first N claims")
    p.add_argument("--sample", type=int, help="a random sample of N claims (reproducible with --seed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--retriever", default="fused", choices=["fused", "bm25", "tfidf"])
    p.add_argument("--model", help="verifier model path or hub id (default: settings)")
    p.add_argument("--no-two-hop", action="store_true")
    _add_verdict_option(p)
    p.add_argument("--oracle-evidence", action="store_true", help="verify against gold evidence (S/R claims)")
    p.add_argument("--predictions", help="write FEVER prediction lines here (jsonl)")
    p.add_argument("--report", help="write the report here (json)")
    p.set_defaults(func=cmd_evaluate)

    p = commands.add_parser("evaluate-pairs", help="verifier accuracy on (premise, hypothesis) pair files")
    p.add_argument("--pairs", nargs="+", required=True)
    p.add_argument("--model", help="verifier model path or hub id (default: settings)")
    p.add_argument("--limit", type=int)
    p.add_argument("--report")
    p.set_defaults(func=cmd_evaluate_pairs)

    p = commands.add_parser(
        "train",
        help="train a model, or write its data (see `train verifier --help`, `train aggregator --help`, "
        "`train generate-claims --help`, `train prepare-data --help`)",
        add_help=False,
    )
    p.add_argument("what", help="verifier, aggregator, generate-claims or prepare-data")
    p.set_defaults(func=cmd_train)

    p = commands.add_parser("benchmark-corpus", help="build time, memory and search latency of a corpus")
    p.add_argument("name", nargs="?", default="embedded")
    p.add_argument("--cold", action="store_true", help="build into a fresh temporary data folder")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--report")
    p.set_defaults(func=cmd_benchmark_corpus)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    if args.command == "train":
        return cmd_train(args, rest)
    if rest:
        parser.error(f"unrecognised arguments: {' '.join(rest)}")
    from fever_core.corpus.sources import CorpusSourceError
    from fever_core.pipeline import ClaimError

    try:
        return args.func(args)
    except (ClaimError, CorpusSourceError, FileNotFoundError, KeyError, ValueError, RuntimeError, ConnectionError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2
