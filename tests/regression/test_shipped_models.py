"""Regression: the small shipped verifier (the fallback, ``FALLBACK_VERIFIER``), the joint verifier and the packaged
encoder on a fixed handful of claims (the default MPNet verifier has its own: ``test_mpnet_verifier.py``).

The numbers are what the shipped models gave when this test was written (CPU, float32); they pin behaviour,
not correctness. Two of the eight verdicts below are wrong in the way docs/models.md and the verifier's card
describe (a true and a false claim called NOT ENOUGH INFO: the learned verdict leans that way on plain text),
and the verifier alone reads an unverifiable claim about Marie Curie as refuted. A change to model loading,
premise formatting, retrieval or the verdict policy moves these numbers: if the change is meant, re-measure
them (run this file with ``PRINT_PINS=1`` and ``-s``) and say why in the commit."""

import os

import pytest

from fever_core.common.formats import evidence_premise
from fever_core.common.settings import BUNDLED_MODELS_DIR, FALLBACK_VERIFIER, Settings
from fever_core.common.types import LABELS
from fever_core.pipeline import Checker, CheckOptions
from fever_core.verification.features import joint_premise
from fever_core.workspace import open_workspace
from tests.conftest import write_jsonl

for _model in ("verifier", "joint-verifier"):
    if not (BUNDLED_MODELS_DIR / _model / "model.safetensors").is_file():
        pytest.skip(
            f"needs the shipped model {BUNDLED_MODELS_DIR / _model / 'model.safetensors'} (see "
            "benchmarks/recipes/ to build it)",
            allow_module_level=True,
        )

CURIE = (
    "Marie Curie -LRB- 7 November 1867 -- 4 July 1934 -RRB- was a Polish and naturalised-French physicist and "
    "chemist who conducted pioneering research on radioactivity ."
)
NOBEL = "The Nobel Prize is a set of annual international awards bestowed by Swedish and Norwegian institutions ."
PYTHON_RELEASE = "It was first released in 1991 ."

PAGES = [
    {
        "id": "Marie_Curie",
        "lines": f"0\t{CURIE}\n1\tShe was the first woman to win a Nobel Prize .\tNobel Prize\tNobel_Prize",
    },
    {"id": "Nobel_Prize", "lines": f"0\t{NOBEL}"},
    {
        "id": "Mount_Everest",
        "lines": "0\tMount Everest is Earth 's highest mountain above sea level , located in "
        "the Himalayas .\n1\tIt lies on the border between Nepal and China .",
    },
    {
        "id": "The_Beatles",
        "lines": "0\tThe Beatles were an English rock band formed in Liverpool in 1960 .\n"
        "1\tThe group consisted of John Lennon , Paul McCartney , George Harrison and Ringo Starr .",
    },
    {
        "id": "Python_-LRB-programming_language-RRB-",
        "lines": f"0\tPython is a high-level programming language created by Guido van Rossum .\n1\t{PYTHON_RELEASE}",
    },
    {
        "id": "Amazon_River",
        "lines": "0\tThe Amazon River in South America is the largest river by discharge volume "
        "of water in the world .",
    },
]

CHECKS = [
    # claim, its true label, then pinned: the verdict, its P(S, R, NEI), the best evidence
    ("Marie Curie was a Polish chemist.", "SUPPORTS", "SUPPORTS", (0.90, 0.05, 0.05), ("Marie_Curie", 0)),
    ("Marie Curie won a Nobel Prize.", "SUPPORTS", "SUPPORTS", (0.73, 0.05, 0.22), ("Marie_Curie", 1)),
    (
        "Mount Everest is located in the Himalayas.",
        "SUPPORTS",
        "NOT ENOUGH INFO",
        (0.24, 0.14, 0.62),
        ("Mount_Everest", 0),
    ),
    # the number check decides (1991 against 2005): P(REFUTES) is how sure the verifier is that the sentence states
    # the claim up to its year, the rest NOT ENOUGH INFO
    (
        "Python was first released in 2005.",
        "REFUTES",
        "REFUTES",
        (0.00, 0.81, 0.19),
        ("Python_-LRB-programming_language-RRB-", 1),
    ),
    ("Mount Everest is the lowest mountain on Earth.", "REFUTES", "REFUTES", (0.02, 0.63, 0.35), ("Mount_Everest", 0)),
    ("The Beatles were an American jazz band.", "REFUTES", "NOT ENOUGH INFO", (0.00, 0.23, 0.77), ("The_Beatles", 0)),
    (
        "The Amazon River is popular with tourists.",
        "NOT ENOUGH INFO",
        "NOT ENOUGH INFO",
        (0.01, 0.01, 0.98),
        ("Amazon_River", 0),
    ),
    (
        "Guido van Rossum likes cycling.",
        "NOT ENOUGH INFO",
        "NOT ENOUGH INFO",
        (0.00, 0.03, 0.97),
        ("Python_-LRB-programming_language-RRB-", 0),
    ),
]

# the true claim the learned verdict calls NOT ENOUGH INFO above, decided by the best sentence alone; pinned:
# the verdict, its P(S, R, NEI) (the best sentence's stance) and that sentence
RULE_CHECK = ("Mount Everest is located in the Himalayas.", "SUPPORTS", (0.96, 0.04, 0.00), ("Mount_Everest", 0))

ON_CURIE = [("Marie Curie", CURIE)]
ON_CURIE_AND_NOBEL = [("Marie Curie", CURIE), ("Nobel Prize", NOBEL)]
SWEDISH_AWARD = "Marie Curie won an award bestowed by Swedish and Norwegian institutions."

PAIRS = [
    # the verifier (sentences read as one premise) or the joint verifier (the top sentences together), the
    # evidence as (title, FEVER sentence), the claim, then pinned: the model's P(S, R, NEI)
    ("verifier", ON_CURIE, "Marie Curie was a Polish chemist.", (0.97, 0.03, 0.00)),
    ("verifier", ON_CURIE, "Marie Curie was born in 1867.", (0.94, 0.06, 0.00)),
    ("verifier", ON_CURIE, "Marie Curie was a German painter.", (0.02, 0.98, 0.00)),
    ("verifier", ON_CURIE, "Marie Curie owned a dog.", (0.02, 0.97, 0.00)),
    ("verifier", ON_CURIE_AND_NOBEL, SWEDISH_AWARD, (0.86, 0.01, 0.13)),
    (
        "verifier",
        [("Python (programming language)", PYTHON_RELEASE)],
        "Python was first released in 2005.",
        (0.03, 0.97, 0.01),
    ),
    ("joint-verifier", ON_CURIE_AND_NOBEL, SWEDISH_AWARD, (0.18, 0.04, 0.78)),
    ("joint-verifier", ON_CURIE_AND_NOBEL, "Marie Curie was a German painter.", (0.01, 0.35, 0.64)),
    ("joint-verifier", ON_CURIE_AND_NOBEL, "Marie Curie owned a dog.", (0.01, 0.04, 0.96)),
]


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shipped")
    pages = write_jsonl(folder / "pages.jsonl", PAGES)
    settings = Settings.from_env(
        {}, data_dir=folder, device="cpu", verifier_model=FALLBACK_VERIFIER
    )  # + packaged encoder
    open_workspace("regression", settings, specs=[f"fever:{pages}"], progress=False)
    return Checker.open("regression", settings, progress=False)


def check(checker, claim: str, options: CheckOptions | None = None) -> tuple:
    """The verdict for ``claim``, its P(S, R, NEI) and the best evidence's key."""
    result = checker.check(claim, options)
    probabilities = tuple(result.verdict.probabilities[label] for label in LABELS)
    return result.verdict.label, probabilities, result.evidence[0].sentence.key


def predict(checker, model: str, evidence: list[tuple[str, str]], claim: str) -> tuple[float, ...]:
    """P(S, R, NEI) of the verifier or the joint verifier, with the premise formatted as the pipeline formats it."""
    if model == "verifier":
        return tuple(checker.verification.verifier.predict([(evidence_premise(evidence), claim)])[0])
    premise = joint_premise([evidence_premise([sentence]) for sentence in evidence])
    return tuple(checker.verification.joint_verifier.predict([(premise, claim)])[0])


def rounded(probabilities) -> tuple[float, ...]:
    return tuple(round(float(p), 2) for p in probabilities)


def test_print_the_observed_values_to_re_pin_them(checker):
    if not os.environ.get("PRINT_PINS"):
        pytest.skip("set PRINT_PINS=1 (and -s) to print the observed values in the tables' format")
    for claim, truth, *_ in CHECKS:
        verdict, probabilities, best = check(checker, claim)
        print(repr((claim, truth, verdict, rounded(probabilities), best)) + ",")
    verdict, probabilities, best = check(checker, RULE_CHECK[0], CheckOptions(verdict="rule"))
    print("rule:", repr((verdict, rounded(probabilities), best)))
    for model, evidence, claim, _ in PAIRS:
        print(repr((model, claim, rounded(predict(checker, model, evidence, claim)))) + ",")


def test_the_shipped_verdict_mixes_in_the_joint_verifier(checker):
    assert checker.verification.policy.learned is not None and checker.verification.joint_verifier is not None
    assert checker.verification.policy.learned.joint_weight > 0


@pytest.mark.parametrize("claim, truth, verdict, probabilities, best_evidence", CHECKS, ids=[c[0] for c in CHECKS])
def test_a_claim_checked_end_to_end_keeps_its_pinned_verdict(
    checker, claim, truth, verdict, probabilities, best_evidence
):
    assert check(checker, claim) == (verdict, pytest.approx(probabilities, abs=0.01), best_evidence)


def test_the_best_sentence_rule_decides_what_the_learned_verdict_leaves_open(checker):
    claim, verdict, probabilities, best_evidence = RULE_CHECK
    assert check(checker, claim, CheckOptions(verdict="rule")) == (
        verdict,
        pytest.approx(probabilities, abs=0.01),
        best_evidence,
    )


@pytest.mark.parametrize("model, evidence, claim, probabilities", PAIRS, ids=[f"{p[0]}: {p[2]}" for p in PAIRS])
def test_a_model_alone_keeps_its_pinned_probabilities_on_a_fixed_pair(checker, model, evidence, claim, probabilities):
    assert predict(checker, model, evidence, claim) == pytest.approx(probabilities, abs=0.01)
