"""Whether the checker still predicts what an earlier run predicted: the first N claims of a seeded sample,
checked again, against that run's predictions file (label and evidence, claim by claim).

    PYTHONPATH=. python benchmarks/yardsticks/same_predictions.py CLAIMS CORPUS PREDICTIONS --sample 600 --seed 1 -n 150

Session 12 checked the restructured library this way against `fever-dev-sample600-fused.predictions.jsonl` of
commit b17ced6 (`git show b17ced6:benchmarks/pipeline/fever-dev-sample600-fused.predictions.jsonl`): 150 / 150.
"""

from __future__ import annotations

import argparse
import json

from fever_core.common.formats import load_claims
from fever_core.pipeline import Checker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("claims")
    parser.add_argument("corpus")
    parser.add_argument("predictions")
    parser.add_argument("--sample", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-n", type=int, default=None, help="only the first N claims of the sample")
    args = parser.parse_args()
    claims = load_claims(args.claims, sample=args.sample, seed=args.seed)[: args.n]
    with open(args.predictions, encoding="utf-8") as lines:
        before = {record["id"]: record for record in map(json.loads, lines)}
    checker = Checker.open(args.corpus, progress=False)
    same_label = same_evidence = 0
    for claim in claims:
        now = checker.check(claim.claim).fever_prediction(claim.id)
        same_label += now["predicted_label"] == before[claim.id]["predicted_label"]
        same_evidence += now["predicted_evidence"] == before[claim.id]["predicted_evidence"]
    print(json.dumps({"claims": len(claims), "same_label": same_label, "same_evidence": same_evidence}))


if __name__ == "__main__":
    main()
