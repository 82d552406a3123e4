"""Checks claims once with the default checker and records, per claim, the learned verdict and every evidence
sentence's page, hop, score and stance, so that verdict policies can be compared offline on the same runs.

    PYTHONPATH=. python benchmarks/yardsticks/mpnet-page-rule/run_checks.py CLAIMS.jsonl CORPUS OUT.jsonl [--sample N --seed S]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fever_core.common import Settings, load_claims
from fever_core.pipeline import Checker, ClaimError


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("claims", type=Path)
    parser.add_argument("corpus")
    parser.add_argument("out", type=Path)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    claims = load_claims(args.claims, sample=args.sample or None, seed=args.seed)  # as `evaluate --sample`
    done = set()
    if args.out.is_file():
        done = {json.loads(line)["id"] for line in args.out.read_text().splitlines()}
    checker = Checker.open(args.corpus, Settings.from_env(), progress=False)
    with args.out.open("a") as fh:
        for n, claim in enumerate(claims):
            if claim.id in done:
                continue
            try:
                result = checker.check(claim.claim)
            except ClaimError as exc:
                print(f"{claim.id}: {exc}", file=sys.stderr)
                continue
            row = {
                "id": claim.id,
                "claim": claim.claim,
                "label": claim.label,
                "gold": claim.to_fever(),
                "verdict": result.verdict.label,
                "probabilities": result.verdict.probabilities,
                "prediction": result.fever_prediction(claim.id),
                "evidence": [
                    {
                        "page_id": e.sentence.page_id,
                        "title": e.sentence.title,
                        "line": e.sentence.line,
                        "text": e.sentence.text,
                        "score": e.sentence.score,
                        "hop": e.sentence.hop,
                        "trusted": e.trusted,
                        "stance": e.stance.to_dict() if e.stance else None,
                    }
                    for e in result.evidence
                ],
            }
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            if n % 50 == 0:
                print(f"{n}/{len(claims)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
