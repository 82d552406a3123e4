"""The embedded corpus's index built from the shipped int8 vectors against one embedded afresh: the same claims through
both, claim by claim (dense top 5, the pipeline's top 5 sentences, its evidence and its verdict).

    PYTHONPATH=. .venv/bin/python -m benchmarks.startup.compare_vectors FRESH_DATA SHIPPED_DATA \
        --report benchmarks/startup/compare-vectors.json

FRESH_DATA and SHIPPED_DATA are data folders whose ``corpora/embedded`` was built by embedding (before the vectors
shipped, or with them absent) and from the shipped vectors (``dense.json`` names them). One verifier (the default,
read with FRESH_DATA's settings) judges both.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from fever_core.common.formats import load_claims
from fever_core.common.settings import HAND_CLAIMS, Settings
from fever_core.pipeline import Checker
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.workspace import open_workspace

CLAIM_SETS = {
    "hand-claims": HAND_CLAIMS,
    "hand-claims-2": Path("benchmarks/embedded/hand-claims-2.jsonl"),
    "hand-claims-3": Path("benchmarks/embedded/hand-claims-3.jsonl"),
    "plain-claims": Path("benchmarks/embedded/plain-claims.jsonl"),
}
BATCH = 32
"""Claims checked together (their verification runs once)."""


def _run(checker: Checker, claims: list[str]) -> list[dict]:
    """For each claim: the dense index's top 5 sentence ids, the pipeline's top 5 sentences, its evidence and label."""
    out = []
    for start in range(0, len(claims), BATCH):
        batch = claims[start : start + BATCH]
        for claim, result in zip(batch, checker.check_many(batch)):
            dense = checker.workspace.dense
            top = [hit.sentence_id for hit in dense.search(dense.embed([claim])[0], 5)]
            prediction = result.fever_prediction()
            out.append(
                {
                    "dense_top5": top,
                    "ranked_top5": [list(s.key) for s in result.sentences[:5]],
                    "evidence": prediction["predicted_evidence"],
                    "label": prediction["predicted_label"],
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fresh", type=Path)
    parser.add_argument("shipped", type=Path)
    parser.add_argument("--report", type=Path)
    parser.add_argument("--sets", default=",".join(CLAIM_SETS), help="the claim sets, comma-separated (default all)")
    args = parser.parse_args()
    fresh_settings = Settings.from_env(data_dir=args.fresh)
    verifier = ClaimVerifier.load(fresh_settings)
    checkers = {
        name: Checker(open_workspace("embedded", replace(fresh_settings, data_dir=folder), progress=False), verifier)
        for name, folder in (("fresh", args.fresh), ("shipped", args.shipped))
    }
    if "shipped_vectors" not in checkers["shipped"].workspace.dense.meta:
        raise SystemExit(f"{args.shipped}'s embedded index was not built from the shipped vectors.")
    if "shipped_vectors" in checkers["fresh"].workspace.dense.meta:
        raise SystemExit(f"{args.fresh}'s embedded index was built from the shipped vectors, not embedded.")
    report: dict[str, dict] = {}
    for set_name in args.sets.split(","):
        claims = load_claims(CLAIM_SETS[set_name])
        runs = {name: _run(checker, [c.claim for c in claims]) for name, checker in checkers.items()}
        pairs = list(zip(claims, runs["fresh"], runs["shipped"]))
        report[set_name] = {
            "claims": len(claims),
            **{
                f"same_{key}": sum(a[key] == b[key] for _, a, b in pairs)
                for key in ("dense_top5", "ranked_top5", "evidence", "label")
            },
            "right_fresh": sum(a["label"] == c.label for c, a, _ in pairs),
            "right_shipped": sum(b["label"] == c.label for c, _, b in pairs),
            "label_changes": [
                {"id": c.id, "claim": c.claim, "gold": c.label, "fresh": a["label"], "shipped": b["label"]}
                for c, a, b in pairs
                if a["label"] != b["label"]
            ],
        }
        print(json.dumps({set_name: {k: v for k, v in report[set_name].items() if k != "label_changes"}}), flush=True)
        if args.report:  # after each set: the sets done so far
            args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
