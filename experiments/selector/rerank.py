"""Does a sentence re-ranker pay for itself? (issue 4, item 2)

Sentence recall@5 and latency on fever-dev claims with the bi-encoder alone and with the top
``--depth`` sentences re-ranked by a 3-way model's 1 - P(NOT ENOUGH INFO) (Papelo's relevance),
the model being the shipped verifier or a selector trained for it (``train_selector.sh``).

    PYTHONPATH=. .venv/bin/python experiments/selector/rerank.py --reranker none
    PYTHONPATH=. .venv/bin/python experiments/selector/rerank.py --reranker assets/models/verifier [--no-two-hop]

Prints one JSON line; the verdict is the best-sentence rule (the learned verdict was fit on the
bi-encoder's scores, so its label figures would not compare).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from fever_core.common.formats import load_claims
from fever_core.common.settings import Settings
from fever_core.common.types import LABELS
from fever_core.evaluation.run import evaluate
from fever_core.pipeline import Checker, CheckOptions
from fever_core.verification.nli import NliModel


class NeiRelevance:
    """Adapter with the ``CrossEncoder.predict`` shape the sentence selector calls: (claim, premise)
    pairs in, 1 - P(NOT ENOUGH INFO) out."""

    def __init__(self, model: NliModel):
        self.model = model
        self.pairs_scored = 0

    def predict(self, pairs, show_progress_bar=False) -> np.ndarray:
        self.pairs_scored += len(pairs)
        probabilities = self.model.predict([(premise, claim) for claim, premise in pairs])
        return 1.0 - probabilities[:, LABELS.index("NOT ENOUGH INFO")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reranker", default="none", help="'none' or a 3-way model directory")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--claims", default="../shared/data/claims/fever-dev.jsonl")
    parser.add_argument("--sample", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-two-hop", action="store_true", help="first-hop sentences only (selection alone)")
    args = parser.parse_args()
    settings = Settings.from_env(joint_verifier_model="")
    checker = Checker.open("fever-dev", settings, progress=False)
    reranker = None
    if args.reranker != "none":
        reranker = NeiRelevance(NliModel.load(args.reranker, settings.device, max_length=128))
        checker.retrieval.sentences.cross_encoder = reranker
        checker.retrieval.sentences.rerank_depth = args.depth
    claims = load_claims(args.claims, sample=args.sample, seed=args.seed)
    started = time.perf_counter()
    options = CheckOptions(verdict="rule", two_hop=not args.no_two_hop)
    report = evaluate(checker, claims, args.claims, options, progress=False)
    data = report.to_dict()
    print(
        json.dumps(
            {
                "reranker": args.reranker,
                "depth": args.depth if reranker else 0,
                "two_hop": not args.no_two_hop,
                "n_claims": data["n_claims"],
                "sentence_recall_at_5": round(data["sentence_recall_at_5"], 4),
                "latency_p50_s": round(data["latency_p50_s"], 4),
                "sentences_p50_s": round(data["stage_latency_p50_s"].get("sentences", 0.0), 4),
                "pairs_scored_per_claim": round(reranker.pairs_scored / len(claims), 1) if reranker else 0,
                "wall_s": round(time.perf_counter() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
