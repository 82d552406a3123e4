"""What the learned verdict reads of a claim and its evidence: its features, and the joint verifier's premise.

Training (:mod:`fever_core.training.verdict`) and inference (:mod:`~fever_core.verification.learned`) both call
:func:`claim_features` and :func:`joint_premise`, on the same :class:`~fever_core.verification.evidence.JudgedSentence`
records, so the verdict is fit on exactly what it reads when it decides. :data:`FEATURE_NAMES` travels in the
verdict's file and is checked when it is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fever_core.common.text import NEGATION_WORDS, WORD_RE, content_words
from fever_core.verification.evidence import JudgedSentence

TOP_POSITIONS = 3
"""The learned verdict sees each of this many top sentences on its own (the rest through summaries)."""
FEATURE_EVIDENCE_K = 5
"""The learned verdict reads this many top evidence sentences."""
JOINT_EVIDENCE_K = 5
"""The joint verifier reads this many top evidence sentences together (:func:`joint_premise`)."""
FEATURE_NAMES = [
    f"{name}@{i + 1}" for i in range(TOP_POSITIONS) for name in ("score", "p_supports", "p_refutes", "p_nei", "judged")
] + [
    "max_p_supports",
    "max_p_refutes",
    "min_p_nei",
    "mean_p_nei",
    "scored_p_supports",
    "scored_p_refutes",
    "max_score",
    "mean_score",
    "second_hop_share",
    "judged_share",
    "coverage@1",
    "coverage@3",
    "coverage@5",
    "numbers_missing",
    "negation",
    "claim_words",
    "coverage@1*p_supports@1",
    "coverage@1*p_refutes@1",
    "coverage@1*p_nei@1",
]
"""The features, in the order of :func:`claim_features` and of the learned verdict's weights."""
_NEGATING = NEGATION_WORDS | frozenset("only exclusively incapable unable without refused failed yet lacks".split())
"""The words of the ``negation`` feature: :data:`~fever_core.common.text.NEGATION_WORDS`, and the words that make a
claim exclusive or say something did not happen ("only", "refused")."""


def joint_premise(texts: Sequence[str], k: int = JOINT_EVIDENCE_K) -> str:
    """The joint verifier's premise: the top ``k`` evidence sentences, each as ``"Title: sentence"``
    (:attr:`~fever_core.verification.evidence.JudgedSentence.titled`), best first, judged or not, joined with one
    space."""
    return " ".join(texts[:k])


def _coverage(claim_words: set[str], texts: Sequence[str]) -> float:
    """Share of the claim's content words that occur in ``texts`` (1.0 for a claim without any)."""
    if not claim_words:
        return 1.0
    seen = {w for text in texts for w in content_words(text)}
    return len(claim_words & seen) / len(claim_words)


def claim_features(claim: str, evidence: Sequence[JudgedSentence], k: int = FEATURE_EVIDENCE_K) -> np.ndarray:
    """The feature vector (:data:`FEATURE_NAMES` order, float64) for a claim and its top ``k`` evidence
    sentences, best first.

    Unjudged sentences and missing positions contribute zeros (and ``judged`` = 0). Scores are selection scores;
    stances are the verifier's probabilities. Coverage features are shares in [0, 1] of the claim's content words
    found in the top 1 / 3 / 5 sentences (each as ``"Title: sentence"``); ``numbers_missing`` is 1 when a number of
    the claim is in none of them; ``negation`` is 1 when the claim has a negating or exclusive word ("not",
    "only"...); ``claim_words`` is its word count / 20.
    """
    items = list(evidence)[:k]
    rows = np.zeros((max(len(items), 1), 3))
    judged = np.zeros(max(len(items), 1))
    scores = np.zeros(max(len(items), 1))
    for i, item in enumerate(items):
        scores[i] = item.sentence.score
        if item.stance is not None:
            rows[i] = item.stance.as_row()
            judged[i] = 1.0
    per_position = []
    for i in range(TOP_POSITIONS):
        if i < len(items):
            per_position += [scores[i], *rows[i], judged[i]]
        else:
            per_position += [0.0, 0.0, 0.0, 0.0, 0.0]
    any_judged = judged.any()
    weights = np.clip(scores, 0.0, None) * judged
    summary = [
        rows[:, 0].max() if any_judged else 0.0,
        rows[:, 1].max() if any_judged else 0.0,
        rows[judged > 0, 2].min() if any_judged else 1.0,
        rows[judged > 0, 2].mean() if any_judged else 1.0,
        float(weights @ rows[:, 0]),
        float(weights @ rows[:, 1]),
        scores.max() if items else 0.0,
        scores.mean() if items else 0.0,
        float(np.mean([item.sentence.hop == 2 for item in items])) if items else 0.0,
        float(judged.mean()) if items else 0.0,
    ]
    claim_words = set(content_words(claim))
    texts = [item.titled for item in items]
    numbers = {w for w in claim_words if w.isdigit()}
    coverage_1 = _coverage(claim_words, texts[:1])
    lexical = [
        coverage_1,
        _coverage(claim_words, texts[:3]),
        _coverage(claim_words, texts),
        float(bool(numbers - {w for text in texts for w in content_words(text)})),
        float(any(w in _NEGATING for w in WORD_RE.findall(claim.lower()))),
        len(WORD_RE.findall(claim)) / 20,
        coverage_1 * rows[0, 0],
        coverage_1 * rows[0, 1],
        coverage_1 * rows[0, 2],
    ]
    return np.array(per_position + summary + lexical, dtype=np.float64)
