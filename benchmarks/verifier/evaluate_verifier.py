"""Score a saved verifier on held-out pair sets with fever_core.evaluation.pairs; one json report per set.

Besides the sets themselves: fever-dev's oracle pairs whose premise has a parenthetical aside the claim does not
rest on, with and without the asides (``pairs.without_asides``): the embedded corpus writes its sentences
without them, and a verifier that reads the two differently won't do on it what it does on FEVER's text.
And the held-out pages' claims generated from the embedded corpus (``train generate-claims``), when written.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/verifier/evaluate_verifier.py \\
        assets/models/verifier [OUT_DIR]

Reports (``eval-SET.json``) go to OUT_DIR, by default beside this script; ``benchmarks/run_verifier.sh`` runs it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from fever_core.common.formats import Pair, load_pairs
from fever_core.evaluation.pairs import evaluate_pairs
from fever_core.training.augmentation import without_asides
from fever_core.training.verifier import load_eval_sets
from fever_core.verification.nli import NliModel

SHARED = Path("../shared/data")
EVAL_FILES = [SHARED / "nli/fever-symmetric-dev.jsonl", SHARED / "claims/fever-dev.jsonl"]
HERE = Path(__file__).parent
GENERATED_HELDOUT = Path("data/training/embedded-generated/heldout.jsonl")


def main(model_dir: str, out_dir: Path = HERE) -> None:
    torch.set_num_threads(2)
    meta = json.loads((Path(model_dir) / "verifier.json").read_text())
    threshold = meta["nei_rule"]["nei_threshold"]
    model = NliModel.load(model_dir, device="cpu", max_length=meta["max_length"])
    sets = load_eval_sets([str(p) for p in EVAL_FILES], SHARED / "corpus/fever-pages.jsonl")
    sets.update(aside_sets(sets["fever-dev-oracle"]))
    if GENERATED_HELDOUT.is_file():
        sets["embedded-generated-heldout"] = load_pairs(GENERATED_HELDOUT)
    else:
        print(f"{GENERATED_HELDOUT} not written (`python -m fever_core train generate-claims`): not scored")
    for source, pairs in sets.items():
        argmax = evaluate_pairs(model, pairs, batch_size=64)
        tuned = evaluate_pairs(model, pairs, batch_size=64, nei_threshold=threshold)
        report = {"model": model_dir, "source": source, "argmax": argmax.to_dict(), "nei_threshold": tuned.to_dict()}
        (out_dir / f"eval-{source}.json").write_text(json.dumps(report, indent=2) + "\n")
        print(
            f"{source}: n={argmax.n} accuracy {argmax.accuracy:.4f} macro-F1 {argmax.macro_f1:.4f} "
            f"2-way {argmax.two_way_accuracy:.4f} | with NEI threshold {threshold}: accuracy {tuned.accuracy:.4f}"
        )


def aside_sets(pairs: list[Pair]) -> dict[str, list[Pair]]:
    """The pairs with asides the claim doesn't use, as they are and without the asides."""
    plain = {pair: without_asides(pair.premise, pair.hypothesis) for pair in pairs}
    kept = [pair for pair in pairs if plain[pair] is not None]
    return {
        "fever-dev-oracle-with-asides": kept,
        "fever-dev-oracle-asides-removed": [Pair(plain[p], p.hypothesis, p.label, p.source) for p in kept],
    }


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "assets/models/verifier", Path(sys.argv[2]) if len(sys.argv) > 2 else HERE
    )
