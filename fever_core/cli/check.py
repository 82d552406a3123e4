"""``check``, ``check-batch`` and ``check-text``: one claim, a list of claims, a text's check-worthy sentences."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from fever_core.common.claim_lists import MAX_LIST_CLAIMS

if TYPE_CHECKING:
    from collections.abc import Callable

    from fever_core.common.formats import Claim
    from fever_core.evaluation import BatchReport, BatchRow, ResultsFile
    from fever_core.pipeline import Checker, CheckResult
    from fever_core.workbench import Author

from fever_core.cli.common import (
    add_checker_options,
    add_ray_options,
    check_options_from,
    open_checker,
    settings_from,
)


def cmd_check(args: argparse.Namespace) -> int:
    from fever_core.pipeline import check_claim_text
    from fever_core.verification import SHOWN_LABEL_MIN
    from fever_core.workbench import probability_text

    claim = check_claim_text(args.claim)  # refuse a claim that can't be checked before loading any model
    author = claimreview_author(args)
    checker = open_checker(args)
    options = check_options_from(args)
    result = checker.check(claim, options)
    for warning in result.warnings:
        if warning not in checker.warnings:
            print(f"warning: {warning}", file=sys.stderr)
    if author is not None:
        from fever_core.workbench import checker_provenance, claim_review

        write_claimreview(args.claimreview, claim_review(result, checker_provenance(checker, options), author))
    if args.json:
        print(result.to_json())
        return 0
    verdict = result.verdict
    print(
        f"{shown_label(result)}  probability {probability_text(verdict.probability)}  (the deciding rule's or model's "
        "own: " + ", ".join(f"{k}={probability_text(v)}" for k, v in verdict.probabilities.items()) + ")"
    )
    print(verdict.reason)
    if verdict.label_withheld and not verdict.undecided:  # an undecided verdict's reason says so
        print(f"Undecided: a probability under {SHOWN_LABEL_MIN} is too unsure to show as a label; read these.")
    for index in verdict.read_these:
        item = result.evidence[index]
        reading = (
            "not judged"
            if item.reading is None
            else f"{item.reading.label} {probability_text(item.reading.probability)}"
        )
        print(f"Read this ({reading}): {item.sentence.title} ({item.sentence.line}): {item.sentence.text}")
    _print_checked_before(checker, result)
    for item in result.evidence:
        e = item.sentence
        hop = f" via {e.via.anchor!r}" if e.via else ""
        print(f"  [{e.score:.3f}] hop {e.hop}{hop}  {e.title} ({e.line}): {e.text}")
    print(
        "timings (s): "
        + ", ".join(f"{k}={v:.3f}" for k, v in result.timings.items())
        + f"; verifier calls: {verdict.verifier_calls}"
    )
    return 0


def _print_checked_before(checker: Checker, result: CheckResult) -> None:
    """A "Checked before:" line for each earlier check of the claim in the data folder's history and annotations
    (:class:`~fever_core.workbench.EarlierChecks`); why one of them can't be read, on stderr."""
    from fever_core.workbench import HISTORY, EarlierChecks, ago

    lookup = EarlierChecks(checker.settings.data_dir)
    for earlier in lookup.find(result.claim, checker.claim_encoder, claim_vector=result.claim_vector):
        where = (
            f"history entry {earlier.entry_id}" if earlier.source == HISTORY else f"annotated, item {earlier.entry_id}"
        )
        print(f"Checked before: {earlier.claim!r}, {earlier.verdict}, {ago(earlier.checked_at)} ({where})")
    for problem in lookup.problems:
        print(f"note: {problem}", file=sys.stderr)


def cmd_check_batch(args: argparse.Namespace) -> int:
    from fever_core.common.claim_lists import load_claim_list
    from fever_core.evaluation import BatchReport, ResultsFile

    # a list, or an output, that can't be used is refused before any model loads
    claims = load_claim_list(args.claims, args.max_claims)
    author = claimreview_author(args)
    if author is not None and args.ray is not None:
        raise ValueError(
            "--claimreview records the models and corpus of the checker in this process, which --ray "
            "does not open: leave out --ray, or write the results with --out."
        )
    started = time.time()
    with ResultsFile(args.out, claims) if args.out else contextlib.nullcontext() as out:
        kept = out.kept if out is not None else 0
        if out is not None and out.replacing:
            print(
                f"note: {out.path} holds other results; these replace them once every claim is checked (until "
                f"then they go to {out.writing}).",
                file=sys.stderr,
            )
        if out is not None and kept:
            print(
                f"note: {out.writing} has the rows of the first {kept:,} claims already: checking the other "
                f"{len(claims) - kept:,} (the figures below are theirs).",
                file=sys.stderr,
            )
        checker = open_checker(args) if args.ray is None and (kept < len(claims) or author is not None) else None
        report = (
            _check_claims(args, claims[kept:], out, len(claims), checker)
            if kept < len(claims)
            else BatchReport([], 0.0)
        )
        if out is not None:
            out.finish()
    if author is not None:
        from fever_core.workbench import checker_provenance, claim_reviews

        assert checker is not None, "opened above: the ClaimReview records its models and corpus"
        checked = [row.result for row in report.rows if row.result is not None]
        provenance = checker_provenance(checker, check_options_from(args))
        write_claimreview(args.claimreview, claim_reviews(checked, provenance, author, published=started))
    from fever_core.workbench import probability_text

    for row in report.rows:
        confidence = probability_text(row.confidence) if row.confidence is not None else "    "
        verdict = shown_label(row.result) if row.result else "ERROR"
        print(f"{verdict:<15} {confidence}  {row.claim.claim}" + (f"  ({row.error})" if row.error else ""))
    metrics = "  ".join(
        f"{name.replace('_', ' ')} {'n/a' if value is None else f'{value:.3f}'}"
        for name, value in report.metrics().items()
    )
    print(f"{len(report.rows)} claims, {report.claims_per_s:.2f} claims/s; {metrics}")
    return 0


def claimreview_author(args: argparse.Namespace) -> Author | None:
    """The :class:`~fever_core.workbench.Author` of the command's ClaimReview (``--author``, ``--author-type``);
    ``None`` without ``--claimreview``.

    Raises:
        ValueError: before any model loads, for an author that can't be one, or a ``--claimreview`` file that can't be
            written (a folder, a folder that can't be written to), so no check is lost for want of a place to keep it.
    """
    if not args.claimreview:
        return None
    from fever_core.workbench import Author

    author = Author(args.author if args.author is not None else Author.name, args.author_type)
    path = Path(args.claimreview)
    if path.is_dir():
        raise ValueError(f"--claimreview {path} is a folder: give a file, e.g. {path / 'claimreview.jsonld'}.")
    path.parent.mkdir(parents=True, exist_ok=True)
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(
            f"--claimreview {path} can't be written (no permission): give a file in a folder you can write to."
        )
    return author


def write_claimreview(path: str, document: dict[str, Any]) -> None:
    """Write a ClaimReview document to ``path`` as the app's download and the service's answer have it
    (:func:`~fever_core.workbench.to_jsonld`: safe to paste into a web page's ``<script>``)."""
    from fever_core.workbench import to_jsonld

    Path(path).write_text(to_jsonld(document), encoding="utf-8")


def add_claimreview_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--claimreview FILE``, ``--author NAME`` and ``--author-type``: ``what`` written as schema.org ClaimReview
    JSON-LD (:mod:`fever_core.workbench.claimreview`)."""
    parser.add_argument(
        "--claimreview",
        metavar="FILE",
        help=f"also write {what} as schema.org ClaimReview JSON-LD "
        "to FILE, with the verifier's and the corpus's checksums and the settings (docs/cli.md)",
    )
    parser.add_argument("--author", help="the ClaimReview's author, a name (default: the workbench itself)")
    parser.add_argument(
        "--author-type",
        default="Organization",
        metavar="Organization|Person",
        help="whether the author is an Organization (default) or a Person",
    )


def _check_claims(
    args: argparse.Namespace, claims: list[Claim], out: ResultsFile | None, total: int, checker: Checker | None
) -> BatchReport:
    """Check ``claims`` (the last of a list of ``total``) with ``checker``, or on Ray when it is ``None``, each row
    written to ``out`` as it comes."""
    from fever_core.evaluation import run_batch

    options = check_options_from(args)
    if args.ray is not None:
        from fever_core.distributed import check_batch_on_ray, require_ray
        from fever_core.workspace import open_workspace

        require_ray()
        open_workspace(args.corpus, settings_from(args))  # built (or checked) once, before the workers open it

        def check(on_row: Callable[[BatchRow, int, int], None]) -> BatchReport:
            return check_batch_on_ray(
                args.corpus,
                settings_from(args),
                claims,
                options,
                args.retriever,
                address=args.ray,
                workers=args.ray_workers,
                on_row=on_row,
            )
    else:
        assert checker is not None, "opened by the caller when not on Ray"

        def check(on_row: Callable[[BatchRow, int, int], None]) -> BatchReport:
            return run_batch(checker, claims, options, on_row=on_row)

    with tqdm(total=total, initial=total - len(claims), desc="Checking claims", unit="claim", file=sys.stderr) as bar:

        def on_row(row: BatchRow, done: int, count: int) -> None:
            if out is not None:
                out.write(row)  # as it comes, in input order: a batch that stops keeps its finished rows
            bar.update()

        return check(on_row)


def cmd_check_text(args: argparse.Namespace) -> int:
    from fever_core.common.jsonl import write_jsonl
    from fever_core.text_check import check_text, find_sentences, read_text_file, read_text_stream, sentence_claims
    from fever_core.workbench import probability_text

    # a text, a choice or an output that can't be used is refused before any model but spaCy loads
    if args.out and Path(args.out).suffix.lower() != ".jsonl":
        raise ValueError(f"Can't write sentences to {args.out}: give a .jsonl file (one sentence a line).")
    author = claimreview_author(args)
    text = read_text_stream(sys.stdin.buffer) if args.file == "-" else read_text_file(args.file)
    sentences = find_sentences(text)
    chosen = range(len(sentences)) if args.all else None
    claims = sentence_claims(sentences, chosen)
    checker = open_checker(args)
    started = time.time()
    with tqdm(total=len(claims), desc="Checking sentences", unit="sentence", file=sys.stderr) as bar:

        def advance(*_: object) -> None:
            bar.update()

        checked = check_text(checker, text, check_options_from(args), chosen, advance, sentences=sentences)
    for item in checked.sentences:
        if item.chosen:
            probability = probability_text(item.result.verdict.probability) if item.result else "    "
            checked_as = f"  (checked as: {item.sentence.checked_as})" if item.sentence.checked_as else ""
            print(
                f"{shown_label(item.result) if item.result else 'ERROR':<15} {probability}  {item.sentence.text}{checked_as}"
                + (f"  ({item.error})" if item.error else "")
            )
    worthy = sum(s.worthy for s in sentences)
    print(f"{checked.summary()} (the text has {len(sentences):,} sentences, {worthy:,} check-worthy)")
    if args.out:
        write_jsonl(args.out, [item.to_dict() for item in checked.sentences])
    if author is not None:
        from fever_core.workbench import checker_provenance, claim_reviews

        results = [item.result for item in checked.sentences if item.chosen and item.result is not None]
        provenance = checker_provenance(checker, check_options_from(args))
        write_claimreview(args.claimreview, claim_reviews(results, provenance, author, published=started))
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("check", help="check one claim")
    p.add_argument("claim")
    add_checker_options(p)
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    add_claimreview_options(p, "the check")
    p.set_defaults(func=cmd_check)

    p = commands.add_parser("check-batch", help="check a list of claims (text, CSV or jsonl; labels optional)")
    p.add_argument(
        "claims", help='one claim a line (.txt), a CSV with a "claim" column (optional "label", "id"), or FEVER jsonl'
    )
    add_checker_options(p)
    p.add_argument(
        "--out",
        help="write the results here: a table (.csv) or FEVER predictions (.jsonl); run again "
        "with the same file, a batch that stopped goes on from its last finished row",
    )
    p.add_argument(
        "--max-claims",
        type=int,
        default=MAX_LIST_CLAIMS,
        metavar="N",
        help=f"refuse a list of more than N claims (default {MAX_LIST_CLAIMS:,}; 0: no limit)",
    )
    add_claimreview_options(
        p,
        "the claims this run checks (one document, a ClaimReview each in its @graph; claims "
        "that can't be checked have none)",
    )
    add_ray_options(p, "check the claims on a Ray cluster's workers, each with its own checker")
    p.set_defaults(func=cmd_check_batch)

    p = commands.add_parser("check-text", help="check the check-worthy sentences of a text (.txt, .md or .html)")
    p.add_argument("file", help="the text: a .txt, .md or .html file (at most 1 MB), or - for plain text on stdin")
    add_checker_options(p)
    p.add_argument("--all", action="store_true", help="check every sentence, not only the check-worthy ones")
    p.add_argument(
        "--out",
        help="write every sentence here (.jsonl, one a line): its offsets, whether it is "
        "check-worthy and why, and its verdict with the whole check",
    )
    add_claimreview_options(
        p,
        "the sentences checked (one document, a ClaimReview each in its @graph; sentences "
        "that can't be checked have none)",
    )
    p.set_defaults(func=cmd_check_text)


def shown_label(result: CheckResult) -> str:
    """A check's verdict as the command line prints it for people: its label ("SUPPORTS"), or "UNDECIDED" where the
    label is withheld (too unsure to show, as the app's card says "Undecided"; ``--json`` still has the label)."""
    return "UNDECIDED" if result.verdict.label_withheld else result.verdict.label
