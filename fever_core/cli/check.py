"""``check``, ``check-batch``, ``evaluate`` and ``evaluate-pairs``: one claim, a list of claims, a claims file,
a pair file."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from fever_core.common.formats import MAX_LIST_CLAIMS

if TYPE_CHECKING:
    from fever_core.common.formats import Claim
    from fever_core.evaluation import BatchReport, ResultsFile

from fever_core.cli.common import (
    add_checker_options,
    add_ray_options,
    check_options_from,
    open_checker,
    settings_from,
    write_json,
)


def cmd_check(args: argparse.Namespace) -> int:
    from fever_core.pipeline import check_claim_text

    claim = check_claim_text(args.claim)  # refuse a claim that can't be checked before loading any model
    checker = open_checker(args)
    result = checker.check(claim, check_options_from(args))
    for warning in result.warnings:
        if warning not in checker.verification.warnings:
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


def cmd_check_batch(args: argparse.Namespace) -> int:
    from fever_core.common.formats import load_claim_list
    from fever_core.evaluation import BatchReport, ResultsFile

    # a list, or an output, that can't be used is refused before any model loads
    claims = load_claim_list(args.claims, args.max_claims)
    with ResultsFile(args.out, claims) if args.out else contextlib.nullcontext() as out:
        kept = out.kept if out is not None else 0
        if out is not None and out.replacing:
            print(f"note: {out.path} holds other results; these replace them once every claim is checked (until "
                  f"then they go to {out.writing}).", file=sys.stderr)
        if kept:
            print(f"note: {out.writing} has the rows of the first {kept:,} claims already: checking the other "
                  f"{len(claims) - kept:,} (the figures below are theirs).", file=sys.stderr)
        report = _check_claims(args, claims[kept:], out, len(claims)) if kept < len(claims) else BatchReport([], 0.0)
        if out is not None:
            out.finish()
    for row in report.rows:
        confidence = f"{row.confidence:.2f}" if row.confidence is not None else "    "
        print(f"{row.verdict or 'ERROR':<15} {confidence}  {row.claim.claim}" + (f"  ({row.error})" if row.error else ""))
    metrics = "  ".join(f"{name.replace('_', ' ')} {'n/a' if value is None else f'{value:.3f}'}"
                        for name, value in report.metrics().items())
    print(f"{len(report.rows)} claims, {report.claims_per_s:.2f} claims/s; {metrics}")
    return 0


def _check_claims(args: argparse.Namespace, claims: list[Claim], out: ResultsFile | None, total: int) -> BatchReport:
    """Check ``claims`` (the last of a list of ``total``) here or on Ray, each row written to ``out`` as it comes."""
    from fever_core.evaluation import run_batch

    options = check_options_from(args)
    if args.ray is not None:
        from fever_core.distributed import check_batch_on_ray, require_ray
        from fever_core.workspace import open_workspace

        require_ray()
        open_workspace(args.corpus, settings_from(args))  # built (or checked) once, before the workers open it

        def check(on_row):
            return check_batch_on_ray(args.corpus, settings_from(args), claims, options, args.retriever,
                                      address=args.ray, workers=args.ray_workers, on_row=on_row)
    else:
        checker = open_checker(args)

        def check(on_row):
            return run_batch(checker, claims, options, on_row=on_row)
    with tqdm(total=total, initial=total - len(claims), desc="Checking claims", unit="claim", file=sys.stderr) as bar:

        def on_row(row, done: int, count: int) -> None:
            if out is not None:
                out.write(row)  # as it comes, in input order: a batch that stops keeps its finished rows
            bar.update()

        return check(on_row)


def cmd_evaluate(args: argparse.Namespace) -> int:
    from fever_core.evaluation.run import evaluate
    from fever_core.common.formats import load_claims

    claims = load_claims(args.claims, args.limit, args.sample, args.seed)
    checker = open_checker(args)
    report = evaluate(checker, claims, args.claims, check_options_from(args), oracle=args.oracle_evidence,
                      predictions_path=args.predictions)
    data = report.to_dict()
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def cmd_evaluate_pairs(args: argparse.Namespace) -> int:
    from fever_core.evaluation.pairs import evaluate_pairs
    from fever_core.common.formats import load_pairs
    from fever_core.verification.verdict import load_decision_rule
    from fever_core.verification.nli import NliModel

    pairs = [pair for path in args.pairs for pair in load_pairs(Path(path))]
    if args.limit:
        pairs = pairs[: args.limit]
    settings = settings_from(args)
    model = NliModel.load(settings.verifier_model, settings.device)
    rule = load_decision_rule(settings.verifier_model)
    data = evaluate_pairs(model, pairs, nei_threshold=rule.nei_threshold).to_dict()
    write_json(args.report, data)
    print(json.dumps(data, indent=2))
    return 0


def add_commands(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("check", help="check one claim")
    p.add_argument("claim")
    add_checker_options(p)
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.set_defaults(func=cmd_check)

    p = commands.add_parser("check-batch", help="check a list of claims (text, CSV or jsonl; labels optional)")
    p.add_argument("claims", help="one claim a line (.txt), a CSV with a \"claim\" column (optional \"label\", \"id\"), "
                   "or FEVER jsonl")
    add_checker_options(p)
    p.add_argument("--out", help="write the results here: a table (.csv) or FEVER predictions (.jsonl); run again "
                   "with the same file, a batch that stopped goes on from its last finished row")
    p.add_argument("--max-claims", type=int, default=MAX_LIST_CLAIMS, metavar="N",
                   help=f"refuse a list of more than N claims (default {MAX_LIST_CLAIMS:,}; 0: no limit)")
    add_ray_options(p, "check the claims on a Ray cluster's workers, each with its own checker")
    p.set_defaults(func=cmd_check_batch)

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
