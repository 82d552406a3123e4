"""Pairs for a sentence selector trained as Papelo did: a claim's gold evidence sentence gets the
claim's label, the other sentences retrieval put beside it get NOT ENOUGH INFO; relevance at
inference is 1 - P(NOT ENOUGH INFO) (``rerank.py``).

Claims are the ``paper_test`` SUPPORTS / REFUTES claims with single-page gold evidence that the
verdict's training runs and the minimal pairs' retrieval runs checked on the fever-dev corpus
(``data/training/``; ``experiments/shipped_runs.sh`` makes the first), minus the verdict's hold-out (``training.aggregator.HOLDOUT``), which is written
apart for evaluation. No fever-dev claim is used.

    PYTHONPATH=. .venv/bin/python experiments/selector/make_pairs.py OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fever_core.training.aggregator import HOLDOUT, in_holdout, verifier_fingerprint
from fever_core.training.minimal_pairs import gold_evidence

RUNS = Path(f"data/training/aggregator-runs-fever-dev-{verifier_fingerprint(Path('assets/models/verifier'))}.jsonl")
RETRIEVAL_RUNS = Path("data/training/retrieval-runs-fever-dev.jsonl")
PAIRS = Path("../shared/data/nli/fever-paper-test.jsonl")


def main(out_dir: Path) -> None:
    if not RUNS.is_file():
        sys.exit(f"{RUNS} is missing: run ./experiments/shipped_runs.sh first (the end-to-end runs).")
    gold = {g.claim: g for g in gold_evidence(PAIRS)}
    texts: dict[str, list[str]] = {}
    # the minimal pairs' retrieval runs (`train aggregator --joint-minimal-pairs`, experiments/joint_variants)
    # add top-10 sentences
    sources = [(RUNS, "evidence")] + ([(RETRIEVAL_RUNS, "texts")] if RETRIEVAL_RUNS.is_file() else [])
    for path, field in sources:
        for line in path.open(encoding="utf-8"):
            run = json.loads(line)
            if run["claim"] in gold:
                found = [e["text"] if isinstance(e, dict) else e for e in run[field]]
                texts.setdefault(run["claim"], [])
                texts[run["claim"]] += [t for t in found if t not in texts[run["claim"]]]
    out_dir.mkdir(parents=True, exist_ok=True)
    counts = {"train": [0, 0], "heldout": [0, 0]}
    with (out_dir / "selector-train.jsonl").open("w") as train, (out_dir / "selector-heldout.jsonl").open("w") as held:
        for claim, premises in texts.items():
            side = "heldout" if in_holdout(claim, HOLDOUT, 0) else "train"
            g = gold[claim]
            for premise in premises:
                is_gold = premise.split(": ", 1)[-1] in g.all_sentences
                record = {
                    "premise": premise,
                    "hypothesis": claim,
                    "label": g.label if is_gold else "NOT ENOUGH INFO",
                    "source": f"selector-{side}",
                }
                (held if side == "heldout" else train).write(json.dumps(record, ensure_ascii=False) + "\n")
                counts[side][int(is_gold)] += 1
    print(json.dumps({side: {"claims_pairs": sum(c), "gold": c[1], "not_gold": c[0]} for side, c in counts.items()}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
