"""Training pairs (fever_core/training/pairs.py): FEVER claims to pairs, the assembled training set, subsampling
and the dev split."""

from pathlib import Path

from fever_core.common.formats import Pair, load_claims
from fever_core.common.types import LABELS, NEI
from fever_core.training.pairs import (
    DataSpec,
    balanced_subsample,
    build_training_pairs,
    fever_claims_to_pairs,
    split_dev,
)
from tests.conftest import write_jsonl
from tests.training.conftest import POOL


def test_fever_claims_to_pairs(tmp_path):
    path = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": 1,
                "label": "SUPPORTS",
                "claim": "Paris is in France.",
                "evidence": [[[9, 9, "Missing_Page", 0]], [[1, 1, "Paris", 0], [1, 2, "France", 3]]],
            },
            {"id": 2, "label": "REFUTES", "claim": "Paris is in Spain.", "evidence": [[[2, 2, "Paris", 0]]]},
            {"id": 3, "label": "NOT ENOUGH INFO", "claim": "Paris has a zoo.", "evidence": [[[3, None, None, None]]]},
            {"id": 4, "label": "SUPPORTS", "claim": "Nobody knows.", "evidence": [[[4, 4, "Missing_Page", 1]]]},
        ],
    )
    text = {
        ("Paris", 0): ("Paris", "Paris is the capital of France ."),
        ("France", 3): ("France", "France -LRB- officially -RRB- is in Europe ."),
    }
    claims = load_claims(path)
    assert claims[0].evidence_sets() == ((("Missing_Page", 0),), (("Paris", 0), ("France", 3)))

    # the first set names a sentence nobody has: the second, complete set makes the pair
    pairs = fever_claims_to_pairs(claims, lambda page, line: text.get((page, line)), source="t")
    assert pairs == [
        Pair(
            "Paris: Paris is the capital of France. France: France (officially) is in Europe.",
            "Paris is in France.",
            "SUPPORTS",
            "t",
        ),
        Pair("Paris: Paris is the capital of France.", "Paris is in Spain.", "REFUTES", "t"),
    ]
    with_nei = fever_claims_to_pairs(
        claims, lambda p, l: text.get((p, l)), distractors=lambda c: [("Zoo", "Zoos exist.")]
    )
    assert with_nei[-1] == Pair("Zoo: Zoos exist.", "Paris has a zoo.", NEI, "fever-claims")


def write_fever_pairs(tmp_path: Path, paris: str, berlin: str) -> Path:
    """A FEVER pair file of two claims: "Paris is in France ." (SUPPORTS) and "Berlin is in Italy ." (REFUTES)."""
    return write_jsonl(
        tmp_path / "fever.jsonl",
        [
            {
                "premise": paris,
                "hypothesis": "Paris is in France .",
                "label": "SUPPORTS",
                "source": "fever-paper-test",
                "pages": ["Paris"],
            },
            {
                "premise": berlin,
                "hypothesis": "Berlin is in Italy .",
                "label": "REFUTES",
                "source": "fever-paper-test",
                "pages": ["Berlin"],
            },
        ],
    )


def test_build_training_pairs_with_nei_claims_and_mismatches(tmp_path):
    pairs_file = write_fever_pairs(
        tmp_path, "Paris is the capital and most populous city of France .", "Berlin is the capital of Germany ."
    )
    nei_file = write_jsonl(tmp_path / "nei-claims.jsonl", [{"id": 1, "claim": "The tiger eats grass.", "label": NEI}])
    pairs = build_training_pairs(
        [DataSpec(pairs_file), DataSpec(nei_file)], nei_from_evidence_fraction=1.0, pool=POOL, cache_dir=tmp_path
    )
    sources = {p.source for p in pairs}
    assert sources == {"fever-paper-test", "fever-paper-test-nei-mismatch", "nei-retrieved"}
    assert all(p.label == NEI for p in pairs if p.source != "fever-paper-test")


def test_build_training_pairs_adds_plain_style_copies_of_premises_with_asides(tmp_path):
    pairs_file = write_fever_pairs(
        tmp_path,
        "Paris is the capital of France .",
        "Berlin -LRB- pronounced bear-LEEN -RRB- is the capital of Germany .",
    )
    pairs = build_training_pairs(
        [DataSpec(pairs_file)], nei_from_evidence_fraction=0.0, plain_style_fraction=1.0, pool=POOL, cache_dir=tmp_path
    )
    [plain] = [p for p in pairs if p.source == "fever-paper-test-plain-style"]  # Paris has no aside to remove
    assert plain.label == "REFUTES" and "(" not in plain.premise and plain.premise.endswith("capital of Germany.")


def test_balanced_subsample_and_split():
    pairs = [Pair(f"p{i}", f"h{i}", LABELS[0] if i < 90 else LABELS[i % 2 + 1], "s") for i in range(100)]
    sample = balanced_subsample(pairs, 20, seed=0)
    counts = {label: sum(p.label == label for p in sample) for label in LABELS}
    assert len(sample) == 20 and counts[LABELS[1]] == 5 and counts[LABELS[2]] == 5
    train, dev = split_dev(pairs, 0.2, seed=0)
    assert len(train) + len(dev) == 100 and 5 < len(dev) < 40
    assert split_dev(pairs, 0.2, seed=0) == (train, dev)
    assert DataSpec.parse("/a/b.jsonl:300") == DataSpec(Path("/a/b.jsonl"), 300)
    assert DataSpec.parse("b.jsonl", 7) == DataSpec(Path("b.jsonl"), 7)


def test_the_dev_split_keeps_every_pair_of_a_claim_on_one_side():
    pairs = [Pair(f"premise {i}", f"claim {i % 30}", LABELS[i % 3], "s") for i in range(120)]
    train, dev = split_dev(pairs, 0.3, seed=1)
    assert dev and not {p.hypothesis for p in train} & {p.hypothesis for p in dev}
