"""The plain-language yardstick (``benchmarks/embedded/plain-claims.jsonl``, issue 37) scored two ways.

    .venv/bin/python -m benchmarks.plain_claims pairs [--verifier DIR] --report OUT.json
    .venv/bin/python -m benchmarks.plain_claims end-to-end PREDICTIONS.jsonl --report OUT.json

``pairs``: the verifier alone on each claim's settling sentences (read together, as the pipeline reads a two-hop
chain: ``"A: sentence. B: sentence."``), NOT ENOUGH INFO claims against their nearest on-topic sentence (``near``);
by the verifier's own decision rule, then with the number check (``fever_core/verification/numbers.py``) over the
settling sentences one by one. Per kind: accuracy, opposite-label errors (SUPPORTS for REFUTES or the reverse) and
NOT ENOUGH INFO errors.

``end-to-end``: the predictions ``python -m fever_core evaluate --claims benchmarks/embedded/plain-claims.jsonl
--corpus embedded --predictions PREDICTIONS.jsonl`` wrote, scored per gold label (single-page claims) with the
two-hop claims apart, and per kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

CLAIMS = Path(__file__).parent / "embedded" / "plain-claims.jsonl"
LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def load_claims(path: Path = CLAIMS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _tally(rows: list[tuple[str, str, str]]) -> dict:
    """``(group, gold, predicted)`` rows -> per group: n, accuracy, opposite-label and NEI error shares."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for group, gold, predicted in rows:
        groups[group].append((gold, predicted))
        groups["all"].append((gold, predicted))
    out = {}
    for group, pairs in groups.items():
        n = len(pairs)
        right = sum(g == p for g, p in pairs)
        opposite = sum({g, p} == {"SUPPORTS", "REFUTES"} for g, p in pairs)
        nei = sum(p == "NOT ENOUGH INFO" and g != p for g, p in pairs)
        out[group] = {
            "n": n,
            "accuracy": round(right / n, 4),
            "opposite": round(opposite / n, 4),
            "nei_errors": round(nei / n, 4),
        }
    return out


def _own_words(settling: str, title: str) -> str:
    prefix = f"{title}: "
    return settling.removeprefix(prefix)


def score_pairs(verifier_dir: str) -> dict:
    """The verifier alone on the settling sentences, then with the number check (see the module's docstring)."""
    from fever_core.common.text import page_id_to_title
    from fever_core.common.types import LABELS as MODEL_LABELS
    from fever_core.retrieval.claim_analysis import ClaimAnalysis
    from fever_core.verification.nli import NliModel
    from fever_core.verification.number_check import number_trial, settle
    from fever_core.verification.policy import VerdictPolicy, decide

    claims = load_claims()
    model = NliModel.load(verifier_dir, device="cpu")
    rule = VerdictPolicy.from_config(verifier_dir)
    premises = [" ".join(c["settling"]) if c["settling"] else c["near"]["text"] for c in claims]
    probabilities = model.predict([(p, c["claim"]) for p, c in zip(premises, claims)])
    alone = [MODEL_LABELS[i] for i in decide(probabilities, rule.nei_threshold)]
    trials, pairs = [], []
    for claim in claims:
        titles = [page_id_to_title(e[2]) for e in claim["evidence"][0] if e[2]]
        sentences = [_own_words(s, t) for s, t in zip(claim["settling"], titles)]
        trial = number_trial(ClaimAnalysis(claim["claim"]), sentences)
        trials.append(trial)
        pairs += [(claim["settling"][c.evidence], c.rewritten_claim) for c in trial.candidates]
    p_supports = iter(model.predict(pairs)[:, 0] if pairs else [])
    checked = []
    for label, trial in zip(alone, trials):
        check = settle(trial, [next(p_supports) for _ in trial.candidates])
        checked.append(label if check is None else check.label)
    return {
        "verifier": verifier_dir,
        "verifier_alone": _tally([(c["kind"], c["label"], p) for c, p in zip(claims, alone)]),
        "with_number_check": _tally([(c["kind"], c["label"], p) for c, p in zip(claims, checked)]),
        "predictions": [{"id": c["id"], "alone": a, "number_check": n} for c, a, n in zip(claims, alone, checked)],
    }


def score_end_to_end(predictions: Path) -> dict:
    """Per gold label (single-page claims), two-hop apart, and per kind, from ``evaluate``'s predictions."""
    predicted = {}
    for line in predictions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            predicted[record["id"]] = record["predicted_label"]
    claims = [c for c in load_claims() if c["id"] in predicted]
    by_label = [("two-hop" if c["hops"] == 2 else c["label"], c["label"], predicted[c["id"]]) for c in claims]
    by_kind = [(c["kind"], c["label"], predicted[c["id"]]) for c in claims]
    return {"predictions": str(predictions), "by_label": _tally(by_label), "by_kind": _tally(by_kind)}


def _print(title: str, table: dict) -> None:
    print(title)
    for group, row in table.items():
        print(
            f"  {group:14} n={row['n']:4}  right {row['accuracy']:.3f}  opposite {row['opposite']:.3f}  "
            f"NEI errors {row['nei_errors']:.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.plain_claims", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pairs = commands.add_parser("pairs", help="the verifier alone on the settling sentences")
    pairs.add_argument("--verifier", default="assets/models/verifier-mpnet")
    pairs.add_argument("--report", type=Path, required=True)
    end = commands.add_parser("end-to-end", help="score evaluate's predictions on the yardstick")
    end.add_argument("predictions", type=Path)
    end.add_argument("--report", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "pairs":
        report = score_pairs(args.verifier)
        _print(f"verifier alone ({args.verifier})", report["verifier_alone"])
        _print("with the number check", report["with_number_check"])
    else:
        report = score_end_to_end(args.predictions)
        _print("end to end, by label", report["by_label"])
        _print("end to end, by kind", report["by_kind"])
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
