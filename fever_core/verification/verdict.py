"""From a claim's evidence stances to its verdict: the NOT ENOUGH INFO rule, the best-sentence rule, the learned verdict.

The verifier (:mod:`~fever_core.verification.nli`) gives each evidence sentence a stance; this module turns a claim's
stances into its :class:`Verdict`. Which of its two ways decides is the verdict policy's choice
(:class:`~fever_core.verification.claim_verifier.ClaimVerifier`).

**The NEI decision rule** (:class:`DecisionRule`, :func:`decide`) ships inside a verifier's ``config.json``:
training chooses ``nei_threshold`` on held-out data and saves it with the weights, so a model and the rule it was
calibrated for travel together: a premise is NOT ENOUGH INFO when P(NEI) reaches the threshold, else the larger of
SUPPORTS and REFUTES. A model without it (a hub NLI model) gets plain argmax.

**The best-sentence rule** (:func:`rule_verdict`): only trustworthy evidence counts (DOMLIN's finding): sentences
whose selection score is below ``min_evidence_score`` are shown, with their stance, but not used. The best-ranked
trustworthy sentence decides, by the model's NEI rule; with no trustworthy evidence the verdict is NOT ENOUGH INFO.
Why the best sentence alone: on FEVER the verifier often calls an on-topic sentence that says nothing about the claim
SUPPORTS or REFUTES, so letting the most decisive of several sentences win turns NOT ENOUGH INFO claims into false
verdicts (label accuracy 0.52 vs 0.60 for the best sentence on 300 fever-dev claims, measured when this rule was
chosen in commit db3345f).

**The learned verdict** (:class:`LearnedVerdict`): whether the *claim* is settled depends on all top evidence
together: how well each sentence matches (its selection score), how decisive each stance is, whether several
sentences agree, and how much of what the claim says the evidence mentions at all (a claim whose words the evidence
lacks is more often unverifiable than refuted). A multinomial logistic regression over :func:`claim_features` weighs
these; it is trained on end-to-end runs of non-benchmark claims (:mod:`fever_core.training.verdict`) and ships beside
the verifier as :data:`VERDICT_FILE`. A verifier without that file gets the best-sentence rule. The regression sees
the evidence only through one-premise stances. The *joint verifier* reads the top sentences together with the claim
(:func:`joint_premise`), as FEVER systems that concatenate their evidence do, and was trained on the same end-to-end
runs with claim-level labels. When one is configured the verdict is the mix
``(1 - joint_weight) * regression + joint_weight * joint``; ``joint_weight`` is chosen on held-out claims and saved
in :data:`VERDICT_FILE`. **The page rule** (``LearnedVerdict.subject_stance_min``, :func:`subject_evidence`): when
set, a sure stance (SUPPORTS or REFUTES) of a first-hop sentence from a page the claim names decides where the mix
says otherwise; the regression learned FEVER's caution and read a claim's own page contradicting it as not enough
info (``benchmarks/yardsticks/mpnet-page-rule/TABLE.md``: what it gains on hand-written claims and costs on FEVER).

Whichever decides, the verdict names what it rests on, so that a reader can check it: a sentence *bears on the
claim* when it (with its page title, and for a two-hop chain the sentence that linked to it) mentions one of the
claim's names (:func:`claim_names`); the evidence *used* is the judged sentences that bear on the claim and whose own
stance is the verdict's label; the *deciding* sentences are the best-ranked one or two of those. A sentence that
bears on nothing the claim names never decides, and no sentence marked used leans against the verdict it supports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from fever_core.common.text import STOP_WORDS, WORD_RE, content_words
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.verification.model_integrity import ModelDamaged, record_checksums

VERDICT_FILE = "verdict.json"
"""The learned verdict's file in a verifier's folder."""
NEI_INDEX = LABELS.index(NEI)
"""NOT ENOUGH INFO's column in a probability row."""
JOINT_EVIDENCE_K = 5
"""The joint verifier reads this many top evidence sentences together (:func:`joint_premise`)."""
TOP_POSITIONS = 3
"""The learned verdict sees each of this many top sentences on its own (the rest through summaries)."""
FEATURE_NAMES = (
    [f"{name}@{i + 1}" for i in range(TOP_POSITIONS) for name in ("score", "p_supports", "p_refutes", "p_nei", "judged")]
    + ["max_p_supports", "max_p_refutes", "min_p_nei", "mean_p_nei", "scored_p_supports", "scored_p_refutes",
       "max_score", "mean_score", "second_hop_share", "judged_share",
       "coverage@1", "coverage@3", "coverage@5", "numbers_missing", "negation", "claim_words",
       "coverage@1*p_supports@1", "coverage@1*p_refutes@1", "coverage@1*p_nei@1"]
)
_NEGATION = frozenset(
    "not no never only exclusively incapable unable none neither nor without refused failed yet lacks".split()
)
MAX_DECIDING = 2
"""A learned verdict is quoted with at most this many deciding sentences (the rule's rests on one)."""
_NAME_RE = re.compile(r"\b(?:[^\W\d_][\w'-]*|\d[\d,.]*\d|\d)")


@dataclass
class Verdict:
    """A claim's verdict: a FEVER label, its probabilities, what it rests on, and why.

    Attributes:
        label: SUPPORTS, REFUTES or NOT ENOUGH INFO.
        probabilities: each label's probability for the claim, in [0, 1].
        reason: one line for logs and the command line: the verdict, the deciding sentence quoted, why.
        deciding_evidence: indexes into the evidence of the one or two sentences that decide it, best
            first (none when no single sentence does, e.g. a NOT ENOUGH INFO verdict).
        used_evidence: indexes of every sentence the verdict used (see the module's docstring), best first;
            the deciding ones lead it.
        why: the reason in one plain sentence without the quote (the app quotes the deciding sentences itself),
            e.g. "Munich's sentence names Bavaria where the claim says Saxony."
    """

    label: str
    probabilities: dict[str, float]
    reason: str
    deciding_evidence: list[int]
    used_evidence: list[int] = field(default_factory=list)
    why: str = ""

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "probabilities": self.probabilities,
            "reason": self.reason,
            "deciding_evidence": self.deciding_evidence,
            "used_evidence": self.used_evidence,
            "why": self.why,
        }


@dataclass(frozen=True)
class DecisionRule:
    """Attributes:
    nei_threshold: P(NOT ENOUGH INFO), in [0, 1], from which a stance counts as NEI;
        ``None`` means plain argmax.
    min_evidence_score: minimum sentence-selection score for evidence to count in a verdict.
        Default 0.25 (bi-encoder cosine).
    """

    nei_threshold: float | None = None
    min_evidence_score: float = 0.25


def decide(probs: np.ndarray, nei_threshold: float | None = None) -> np.ndarray:
    """Label indices (in ``LABELS`` order) for ``(n, 3)`` probabilities under the rule.

    Returns:
        int64 array of shape ``(n,)``; ties between SUPPORTS and REFUTES go to SUPPORTS.
    """
    probs = np.asarray(probs)
    if nei_threshold is None:
        return probs.argmax(axis=1).astype(np.int64)
    stance = np.where(probs[:, 0] >= probs[:, 1], 0, 1)
    return np.where(probs[:, NEI_INDEX] >= nei_threshold, NEI_INDEX, stance).astype(np.int64)


def load_decision_rule(model: str | Path) -> DecisionRule:
    """The rule saved in a local model's ``config.json``, or argmax for models without one."""
    path = Path(model) / "config.json"
    if not path.is_file():
        return DecisionRule()
    config = json.loads(path.read_text())
    threshold = config.get("nei_threshold")
    return DecisionRule(
        nei_threshold=float(threshold) if threshold is not None else None,
        min_evidence_score=float(config.get("min_evidence_score", DecisionRule.min_evidence_score)),
    )


def claim_names(claim: str) -> list[str]:
    """What a claim is about, as it writes them: its runs of capitalised words that are not stop words
    ("Munich", "ABBA", "Mona Lisa"), in order, without repeats; a claim without any gets its content words."""
    names, run = [], []
    for word in [*_NAME_RE.findall(claim), ""]:
        if word[:1].isupper() and word.lower() not in STOP_WORDS:
            run.append(word)
            continue
        if run and " ".join(run) not in names:
            names.append(" ".join(run))
        run = []
    return names or list(dict.fromkeys(content_words(claim)))


def _words(text: str) -> set[str]:
    return set(WORD_RE.findall(text.lower()))


def bears_on_claim(names: Sequence[str], premise: str) -> bool:
    """Whether a premise (``"Title: sentence"``, a two-hop chain read whole) mentions one of the claim's
    names (:func:`claim_names`), letter case ignored. A claim that names nothing bears on every premise."""
    wanted = {word for name in names for word in WORD_RE.findall(name.lower())}
    return not wanted or bool(wanted & _words(premise))


def stance_label(stance: Stance, nei_threshold: float | None = None) -> str:
    """A sentence's own label: its stance under the NEI rule (``None``: the likeliest label)."""
    return LABELS[int(decide(stance.as_row()[None, :], nei_threshold)[0])]


def evidence_used(
    label: str, stances: Sequence[Stance | None], relevant: Sequence[bool], nei_threshold: float | None = None
) -> list[int]:
    """The indexes, best first, of the sentences a verdict of ``label`` uses: judged, bearing on the claim, and
    of ``label`` themselves (:func:`stance_label`)."""
    return [i for i, (stance, bears) in enumerate(zip(stances, relevant))
            if stance is not None and bears and stance_label(stance, nei_threshold) == label]


def _named(text: str, other_words: set[str]) -> tuple[list[str], list[str]]:
    """The numbers and the capitalised words of ``text`` that are not stop words and not in ``other_words``."""
    found = [w for w in _NAME_RE.findall(text) if (w[:1].isupper() or w[:1].isdigit())
             and w.lower() not in STOP_WORDS and w.lower() not in other_words]
    found = list(dict.fromkeys(found))
    return [w for w in found if w[:1].isdigit()], [w for w in found if not w[:1].isdigit()]


def contrast(claim: str, sentence: str) -> str:
    """What a refuting sentence says instead of the claim, from the numbers (else the names) each has that the
    other lacks: ``"says 1975 where the claim says 1980"``, ``"names Bavaria where the claim says Saxony"``, or ""
    when they differ in none."""
    said_numbers, said_names = _named(claim, _words(sentence))
    instead_numbers, instead_names = _named(sentence, _words(claim))
    if said_numbers and instead_numbers:
        return f"says {' and '.join(instead_numbers[:2])} where the claim says {' and '.join(said_numbers[:2])}"
    if said_names and instead_names:
        return f"names {' and '.join(instead_names[:2])} where the claim says {' and '.join(said_names[:2])}"
    return ""


def _why(label: str, claim: str, sentence_text: str, title: str, stance: Stance) -> str:
    """The one plain line that says why a sentence decides ``label``, with its own probability."""
    own = f"(this sentence alone: {label.lower()} {stance.of(label):.2f})"
    if label == SUPPORTS:
        return f"The sentence from {title} states what the claim says {own}."
    instead = contrast(claim, sentence_text)
    if instead:
        return f"The sentence from {title} {instead} {own}."
    return f"The sentence from {title} contradicts the claim {own}."


def _unsettled(names: Sequence[str], relevant: Sequence[bool]) -> str:
    """Why a NOT ENOUGH INFO verdict: no sentence about the claim's names, or none that settles it."""
    if not any(relevant):
        return f"No evidence found mentions {' or '.join(names[:3])}: the corpus may not have a page about it."
    return f"The sentences found about {' and '.join(names[:3])} neither state nor contradict what the claim says."


def subject_title(title: str) -> str:
    """A page title without its disambiguation, as a claim would name the page: "Soul Food (film)" -> "Soul Food"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


def names_the_page(claim: str, title: str) -> bool:
    """Whether the claim names the page (its :func:`subject_title`, as whole words, letter case ignored)."""
    name = subject_title(title)
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", claim, re.IGNORECASE) is not None


def subject_evidence(
    claim: str, views: Sequence[EvidenceView], texts: Sequence[tuple[str, str]] | None, min_probability: float
) -> tuple[str, int] | None:
    """The label and the best-ranked sentence of confident evidence from the claim's own pages: first-hop judged
    sentences of a page the claim names (:func:`names_the_page`) whose stance gives SUPPORTS or REFUTES at least
    ``min_probability``. ``None`` when there is none, or when such sentences disagree."""
    if texts is None:
        return None
    found: dict[str, int] = {}
    for i, (view, (title, _)) in enumerate(zip(views, texts)):
        if view.stance is None or view.hop != 1 or not names_the_page(claim, title):
            continue
        for label in (SUPPORTS, REFUTES):
            if view.stance.of(label) >= min_probability:
                found.setdefault(label, i)
    return next(iter(found.items())) if len(found) == 1 else None


def rule_verdict(
    stances: list[Stance | None],
    descriptions: list[str],
    nei_threshold: float | None = None,
    claim: str = "",
    texts: Sequence[tuple[str, str]] | None = None,
) -> Verdict:
    """The best-sentence rule's verdict from per-evidence stances, given best evidence first: the best-ranked judged
    sentence that bears on the claim decides.

    Args:
        stances: one per evidence sentence in selection order, ``None`` for untrustworthy sentences.
        descriptions: how the reason names each evidence sentence (``Munich: "Munich is ..."``).
        nei_threshold: the model's NEI rule (see :func:`decide`);
            ``None`` means argmax.
        claim: the claim (its names decide which sentences bear on it; "" = every sentence does).
        texts: each sentence's ``(title, premise)``: the page title, and the text read for relevance (the
            whole two-hop chain for a second-hop sentence); ``None``: every sentence bears on the claim.

    Returns:
        The verdict; ``deciding_evidence`` holds the index of the sentence it rests on.
    """
    names = claim_names(claim) if claim else []
    relevant = [True] * len(stances) if texts is None else [bears_on_claim(names, premise) for _, premise in texts]
    trusted = [i for i, s in enumerate(stances) if s is not None and relevant[i]]
    if not trusted:
        why = (_unsettled(names, relevant) if any(s is not None for s in stances) and names
               else "No trustworthy evidence was found in the corpus.")
        return Verdict(NEI, {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}, why, [], [], why)
    best = trusted[0]
    stance = stances[best]
    probabilities = stance.to_dict()
    label = stance_label(stance, nei_threshold)
    used = [best] + [i for i in evidence_used(label, stances, relevant, nei_threshold) if i != best]
    title = texts[best][0] if texts is not None else descriptions[best]
    if label == NEI:
        why = (f"The best evidence, from {title}, neither supports nor refutes the claim "
               f"(this sentence alone: not enough info {stance.not_enough_info:.2f}).")
        return Verdict(NEI, probabilities, f"The best evidence, {descriptions[best]}, neither supports nor refutes "
                       f"the claim (P(NOT ENOUGH INFO) = {stance.not_enough_info:.2f}).", [best], used, why)
    text = texts[best][1] if texts is not None else ""
    why = _why(label, claim, text, title, stance)
    verb = "Supported" if label == SUPPORTS else "Refuted"
    return Verdict(label, probabilities, f"{verb} by {descriptions[best]}. {why}", [best], used, why)


@dataclass
class EvidenceView:
    """What the learned verdict sees of one evidence sentence.

    Attributes:
        score: selection score (bi-encoder cosine, about -1..1; higher is more relevant).
        hop: 1 for first-hop evidence, 2 when reached through a link.
        stance: the verifier's stance, or ``None`` when the sentence was not judged (below the minimum
            evidence score).
        text: the sentence as ``"Title: sentence"`` (a second-hop stance may have been judged on a chain:
            :func:`~fever_core.verification.claim_verifier.chain_premise`).
    """

    score: float
    hop: int
    stance: Stance | None
    text: str = ""

    def to_dict(self) -> dict:
        """As the verdict's training runs record it (the stance as ``{label: probability}``)."""
        return {"score": self.score, "hop": self.hop, "stance": self.stance.to_dict() if self.stance else None,
                "text": self.text}

    @classmethod
    def from_dict(cls, record: dict) -> EvidenceView:
        """The inverse of :meth:`to_dict`."""
        stance = record.get("stance")
        return cls(record["score"], record["hop"], Stance.from_dict(stance) if stance else None, record.get("text", ""))


def joint_premise(texts: Sequence[str], k: int = JOINT_EVIDENCE_K) -> str:
    """The joint verifier's premise: the top ``k`` evidence premises (``"Title: sentence"``, best
    first, judged or not) joined with one space. Training and the pipeline both build it here."""
    return " ".join(texts[:k])


def _coverage(claim_words: set[str], texts: Sequence[str]) -> float:
    """Share of the claim's content words that occur in ``texts`` (1.0 for a claim without any)."""
    if not claim_words:
        return 1.0
    seen = {w for text in texts for w in content_words(text)}
    return len(claim_words & seen) / len(claim_words)


def claim_features(claim: str, evidence: Sequence[EvidenceView], k: int = 5) -> np.ndarray:
    """The feature vector (``FEATURE_NAMES`` order, float64) for a claim and its top ``k`` evidence
    sentences, best first.

    Unjudged sentences and missing positions contribute zeros (and ``judged`` = 0). Coverage features
    are shares in [0, 1] of the claim's content words found in the top 1 / 3 / 5 premises;
    ``numbers_missing`` is 1 when a number of the claim is in none of them; ``negation`` is 1 when the
    claim has a negating or exclusive word ("not", "only"...); ``claim_words`` is its word count / 20.
    """
    items = list(evidence)[:k]
    rows = np.zeros((max(len(items), 1), 3))
    judged = np.zeros(max(len(items), 1))
    scores = np.zeros(max(len(items), 1))
    for i, item in enumerate(items):
        scores[i] = item.score
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
        float(np.mean([item.hop == 2 for item in items])) if items else 0.0,
        float(judged.mean()) if items else 0.0,
    ]
    claim_words = set(content_words(claim))
    texts = [item.text for item in items]
    numbers = {w for w in claim_words if w.isdigit()}
    coverage_1 = _coverage(claim_words, texts[:1])
    lexical = [
        coverage_1,
        _coverage(claim_words, texts[:3]),
        _coverage(claim_words, texts),
        float(bool(numbers - {w for text in texts for w in content_words(text)})),
        float(any(w in _NEGATION for w in WORD_RE.findall(claim.lower()))),
        len(WORD_RE.findall(claim)) / 20,
        coverage_1 * rows[0, 0],
        coverage_1 * rows[0, 1],
        coverage_1 * rows[0, 2],
    ]
    return np.array(per_position + summary + lexical, dtype=np.float64)


@dataclass
class LearnedVerdict:
    """The learned verdict: a multinomial logistic regression over standardised :func:`claim_features`.

    Attributes:
        weights: ``(3, n_features)`` in ``LABELS`` order.
        bias: ``(3,)``.
        mean, scale: per-feature standardisation.
        feature_names: the features the weights belong to (checked on load).
        report: how it was trained and scored (kept for the model card).
        joint_weight: share in [0, 1] of the joint verifier's probabilities in the verdict, when the
            caller has them. Default 0 (the regression alone).
        two_hop_chains: the runs it was fit on read each second-hop sentence together with the first-hop
            sentence that links to it (:func:`~fever_core.verification.claim_verifier.chain_premise`), so
            the checker must read them so too. ``False`` for verdicts fit before chains were read.
        subject_stance_min: when set, in [0.5, 1]: a stance at least this sure (P(SUPPORTS) or P(REFUTES)) of a
            first-hop sentence from a page the claim names decides the verdict when the regression says otherwise
            (:func:`subject_evidence`). The regression learned FEVER's caution; on claims written about a page
            ("Jacques Derrida was a German philosopher.") it read the page's own refuting sentence as not enough
            info. ``None`` (default): the regression decides alone.
    """

    weights: np.ndarray
    bias: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    feature_names: list[str]
    report: dict
    joint_weight: float = 0.0
    two_hop_chains: bool = False
    subject_stance_min: float | None = None

    def probabilities(
        self, claim: str, evidence: Sequence[EvidenceView], joint: np.ndarray | None = None
    ) -> np.ndarray:
        """P(SUPPORTS, REFUTES, NOT ENOUGH INFO) for the claim, shape ``(3,)``.

        Args:
            joint: the joint verifier's probabilities for the claim (``LABELS`` order), mixed in with
                ``joint_weight``; ``None`` when there is no joint verifier.
        """
        row = self.probabilities_of(claim_features(claim, evidence)[None, :])[0]
        return row if joint is None else mix(row, np.asarray(joint, dtype=np.float64), self.joint_weight)

    def probabilities_of(self, features: np.ndarray) -> np.ndarray:
        """Row-wise probabilities for an ``(n, n_features)`` feature matrix."""
        logits = ((features - self.mean) / self.scale) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def verdict(
        self,
        claim: str,
        views: list[EvidenceView],
        descriptions: list[str],
        joint: np.ndarray | None = None,
        texts: Sequence[tuple[str, str]] | None = None,
    ) -> Verdict:
        """The claim's verdict from its evidence, given best evidence first.

        ``joint`` is the joint verifier's probabilities for the claim (``LABELS`` order), or ``None``
        without a joint verifier (see :meth:`probabilities`). ``descriptions`` and ``texts`` are as
        :func:`rule_verdict` takes them. The evidence used is :func:`evidence_used`; the deciding sentences are its
        best one and, when one of the others names what the claim is about in its own words (not only through its
        page title), the best of those, for a SUPPORTS or REFUTES verdict: a sentence that leans the verdict's way
        but is itself NOT ENOUGH INFO never decides; a NOT ENOUGH INFO verdict rests on no sentence.
        """
        row = self.probabilities(claim, views, joint)
        probabilities = dict(zip(LABELS, (float(p) for p in row)))
        label = LABELS[int(row.argmax())]
        names = claim_names(claim)
        relevant = [True] * len(views) if texts is None else [bears_on_claim(names, premise) for _, premise in texts]
        subject = (None if self.subject_stance_min is None
                   else subject_evidence(claim, views, texts, self.subject_stance_min))
        if subject is not None and subject[0] != label:
            return self._subject_verdict(claim, views, descriptions, texts, relevant, *subject)
        used = evidence_used(label, [v.stance for v in views], relevant)
        p = probabilities[label]
        if label == NEI:
            why = _unsettled(names, relevant)
            return Verdict(NEI, probabilities, f"The evidence found does not settle the claim "
                           f"(P(NOT ENOUGH INFO) = {p:.2f}). {why}", [], used, why)
        verb = "Supported" if label == SUPPORTS else "Refuted"
        if not used:
            why = ("No single sentence says so on its own: the verdict weighs the evidence read together "
                   f"(the likeliest single sentences are {NEI if label == SUPPORTS else 'not refuting'}).")
            return Verdict(label, probabilities, f"{verb} on balance of the evidence (P = {p:.2f}). {why}", [], [], why)
        best = used[0]
        title = texts[best][0] if texts is not None else descriptions[best]
        why = _why(label, claim, views[best].text, title, views[best].stance)
        # a second deciding sentence names what the claim is about in its own words, not only by its page's title
        seconds = [i for i in used[1:] if texts is None or bears_on_claim(names, _own_words(*texts[i]))]
        return Verdict(label, probabilities, f"{verb} by {descriptions[best]} (P = {p:.2f}). {why}",
                       [best, *seconds][:MAX_DECIDING], used, why)

    @staticmethod
    def _subject_verdict(claim: str, views: list[EvidenceView], descriptions: list[str],
                         texts: Sequence[tuple[str, str]], relevant: list[bool], label: str, best: int) -> Verdict:
        """The verdict a confident sentence of the claim's own page decides (see ``subject_stance_min``): its label,
        its stance's probabilities, and it as the deciding sentence."""
        stance = views[best].stance
        used = [best] + [i for i in evidence_used(label, [v.stance for v in views], relevant) if i != best]
        why = _why(label, claim, views[best].text, texts[best][0], stance)
        verb = "Supported" if label == SUPPORTS else "Refuted"
        return Verdict(label, stance.to_dict(), f"{verb} by {descriptions[best]}, a sentence of a page the claim "
                       f"names (P = {stance.of(label):.2f}). {why}", [best], used, why)

    def save(self, model_dir: Path) -> Path:
        """Write :data:`VERDICT_FILE` into the verifier's folder, and its checksum beside the weights'."""
        path = Path(model_dir) / VERDICT_FILE
        data = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in asdict(self).items()}
        path.write_text(json.dumps(data, indent=1) + "\n")
        record_checksums(model_dir, [VERDICT_FILE])
        return path

    @classmethod
    def load(cls, model_dir: str | Path) -> LearnedVerdict | None:
        """The learned verdict saved beside a local verifier (:func:`verdict_file`), or ``None`` (hub models, older
        verifiers, or a learned verdict trained on other features).

        Raises:
            ModelDamaged: the file is there but is not a learned verdict with finite numbers.
        """
        path = verdict_file(model_dir)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("feature_names") != list(FEATURE_NAMES):
                return None
            learned = cls(
                np.array(data["weights"], dtype=np.float64), np.array(data["bias"], dtype=np.float64),
                np.array(data["mean"], dtype=np.float64), np.array(data["scale"], dtype=np.float64),
                list(data["feature_names"]), data.get("report", {}), float(data.get("joint_weight", 0.0)),
                bool(data.get("two_hop_chains", False)),
                None if data.get("subject_stance_min") is None else float(data["subject_stance_min"]),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ModelDamaged(str(model_dir), f"{path} can't be read as a learned verdict ({exc.__class__.__name__}): "
                               "restore the verifier folder from a copy, or train the verdict again (`python -m "
                               "fever_core train verdict`).") from exc
        n = len(FEATURE_NAMES)
        shapes = (learned.weights.shape, learned.bias.shape, learned.mean.shape, learned.scale.shape)
        numbers = (learned.weights, learned.bias, learned.mean, learned.scale, [learned.joint_weight])
        subject_min = learned.subject_stance_min
        if shapes != ((3, n), (3,), (n,), (n,)) or not all(np.isfinite(a).all() for a in numbers) \
                or not (learned.scale != 0).all() or (subject_min is not None and not 0.5 <= subject_min <= 1):
            raise ModelDamaged(str(model_dir), f"{path} does not hold {n} finite weights for each of the 3 labels (and "
                               "a non-zero scale for each feature; a subject_stance_min, if any, in [0.5, 1]): restore "
                               "the verifier folder from a copy, or train the verdict again (`python -m fever_core "
                               "train verdict`).")
        return learned


def verdict_file(model_dir: str | Path) -> Path | None:
    """The learned verdict's file in a verifier's folder (:data:`VERDICT_FILE`); ``None`` when it has none.

    Raises:
        ModelDamaged: the folder holds a learned verdict under another name (a version trained before the file had
            its name): the message says to rename it.
    """
    path = Path(model_dir) / VERDICT_FILE
    if path.is_file() or not Path(model_dir).is_dir():
        return path if path.is_file() else None
    for other in Path(model_dir).glob("*.json"):
        if other.stat().st_size < 100_000 and {"weights", "feature_names"} <= set(_json_keys(other)):
            raise ModelDamaged(str(model_dir), f"{other} is a learned verdict under its old name: rename it to "
                               f"{VERDICT_FILE}, and its entry in checksums.json beside it likewise.")
    return None


def _json_keys(path: Path) -> list[str]:
    """The keys of the JSON object in ``path`` (none when it is not one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(data) if isinstance(data, dict) else []


def _own_words(title: str, premise: str) -> str:
    """The sentence's own words: its premise without its page title (``"Title: sentence"`` -> ``"sentence"``), and
    for a two-hop chain without the first-hop sentence read before it (``"Jaws (film): ... Steven Spielberg. Steven
    Spielberg: Steven Spielberg is an American filmmaker."`` -> ``"Steven Spielberg is an American filmmaker."``)."""
    head, found, own = premise.rpartition(f"{title}: ")
    return own if found else premise


def mix(regression: np.ndarray, joint: np.ndarray, joint_weight: float) -> np.ndarray:
    """``(1 - joint_weight) * regression + joint_weight * joint``, row-wise; both in ``LABELS`` order."""
    return (1.0 - joint_weight) * regression + joint_weight * joint
