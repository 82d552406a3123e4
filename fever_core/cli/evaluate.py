"""``evaluate`` and ``evaluate-pairs``: FEVER's metrics on a claims file, the verifier's accuracy on pair files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fever_core.cli.common import add_checker_options, check_options_from, open_checker, settings_from, write_json


def cmd_evaluate(args: argparse.Namespace) -> int:
    from fever_core.common.formats import load_claims
    from fever_core.evaluation.run import evaluate

    claims = load_claims(args.claims, args.limit, args.sample, args.seed)
    checker = open_checker(args)
    report = evaluate(
        checker,
        claims,
        args.claims,
        check_options_from(args),
        oracle=args.oracle_evidence,
        predictions_path=args.predictions,
    )
    data = report.to_dict()
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def cmd_evaluate_pairs(args: argparse.Namespace) -> int:
    from fever_core.common.formats import load_pairs
    from fever_core.evaluation.pairs import evaluate_pairs
    from fever_core.verification.nli import NliModel
    from fever_core.verification.onnx_export import verifier_cache_dir
    from fever_core.verification.policy import VerdictPolicy

    pairs = [pair for path in args.pairs for pair in load_pairs(Path(path))]
    if args.limit:
        pairs = pairs[: args.limit]
    settings = settings_from(args)
    model = NliModel.load(
        settings.verifier_model,
        settings.device,
        runtime=settings.verifier_runtime,
        cache_dir=verifier_cache_dir(settings.data_dir),
    )
    policy = VerdictPolicy.from_config(settings.verifier_model)
    data = evaluate_pairs(model, pairs, nei_threshold=policy.nei_threshold).to_dict()
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("evaluate", help="FEVER metrics on a claims file")
    p.add_argument("--claims", required=True)
    add_checker_options(p, corpus="fever-dev", corpus_help="a corpus name")
    p.add_argument("--limit", type=int, help="only the first N claims")
    p.add_argument("--sample", type=int, help="a random sample of N claims (reproducible with --seed)")
    p.add_argument("--seed", type=int, default=0)
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
