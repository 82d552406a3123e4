"""The number check: a claim's numbers, dates and ordinals against those of its evidence, decided by arithmetic.

1. **Sentences** (:func:`number_sentences`): the best judged evidence that bears on the claim (at most
   :data:`NUMBER_SENTENCES`).
2. **Candidates** (:func:`number_trial`): for each number of the claim (:mod:`~fever_core.verification.numbers`)
   and each number of the same kind (and unit) in a sentence, the claim rewritten with the sentence's number in its
   place ("Barack Obama was the 44th president of the United States.").
3. **Settling** (:func:`settle`): the verifier reads each rewritten claim against its sentence (the caller runs the
   model: this module runs none). Where it is sure (P(SUPPORTS) at least :data:`SETTLED`) the sentence states the
   claim's fact up to that number, and the numbers decide: the claim's interval holding the sentence's makes it
   SUPPORTS, the two being apart makes it REFUTES (45th against 44th). Overlapping intervals ("about 1,200" against
   "over 1,000") decide nothing, and neither do numbers the verifier can't tie to a sentence that states the rest
   of the claim. What it settles overrides the verdict (:func:`~fever_core.verification.deciders.number_check`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fever_core.common.types import REFUTES, SUPPORTS
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.numbers import NumberMention, number_mentions

NUMBER_SENTENCES = 3
"""The number check reads this many of the best judged sentences that bear on the claim."""
SETTLED = 0.8
"""P(SUPPORTS), in [0, 1], from which the verifier's reading of a rewritten claim counts as the sentence stating the
claim's fact up to the number (see the module's docstring). Default 0.8."""
MAX_CANDIDATES = 4
"""The most sentence numbers a claim's number is tried against, per sentence (nearest kind first)."""
MAX_CLAIM_NUMBERS = 3
"""The most numbers of one claim the number check tries (its first ones): a claim that states more is refuted by a
number found apart, never supported by its numbers (the others untried), and its check says so."""
MAX_REWRITINGS = NUMBER_SENTENCES * MAX_CANDIDATES
"""The most rewritten claims the verifier reads for one claim (the best sentence's first): what one number can cost.
A claim listing 190 numbers made 233 long model inputs and held the service for minutes (issue 51)."""


@dataclass(frozen=True)
class NumberCandidate:
    """A claim's number tried against one number of one evidence sentence.

    Attributes:
        evidence: the sentence's index in the evidence list the caller gave.
        claim_number, sentence_number: the two numbers.
        rewritten_claim: the claim with the sentence's number in the place of its own (what the verifier reads
            against the sentence).
    """

    evidence: int
    claim_number: NumberMention
    sentence_number: NumberMention
    rewritten_claim: str


@dataclass(frozen=True)
class NumberTrial:
    """A claim's numbers and every rewriting of it to try (:func:`number_trial`).

    Attributes:
        claim_numbers: the numbers the claim states, in order.
        candidates: each claim number tried against each comparable number of each sentence (at most
            :data:`MAX_REWRITINGS`).
        untried: the claim's numbers beyond :data:`MAX_CLAIM_NUMBERS`, not tried.
    """

    claim_numbers: tuple[NumberMention, ...]
    candidates: tuple[NumberCandidate, ...]
    untried: tuple[NumberMention, ...] = ()

    def untried_note(self) -> str | None:
        """What the check did not try, in words for the reader; ``None`` when it tried every number."""
        if not self.untried:
            return None
        return (
            f"The claim states {len(self.claim_numbers)} numbers: the number check tried the first "
            f"{len(self.claim_numbers) - len(self.untried)} against the evidence, not the other "
            f"{len(self.untried)}, so they neither support nor refute it."
        )


@dataclass(frozen=True)
class NumberCheck:
    """What the numbers settle (or a contrast word: :mod:`~fever_core.verification.contrasts`, whose
    ``claim_says`` and ``sentence_says`` are the two words, "bigger" and "smaller").

    Attributes:
        label: SUPPORTS (every number of the claim holds in a sentence that states the rest of the claim) or
            REFUTES (one number is apart from the sentence's).
        evidence: the deciding sentence's index in the evidence list.
        p_settled: the verifier's P(SUPPORTS) of the rewritten claim against that sentence, in [0, 1]: how sure it
            is that the sentence states the claim's fact up to the number.
        claim_says, sentence_says: the two numbers as written ("45th", "44th").
        rewritten_claim: the claim with the sentence's number in its place, as the verifier read it against the
            sentence ("Barack Obama was the 44th president of the United States.").
    """

    label: str
    evidence: int
    p_settled: float
    claim_says: str
    sentence_says: str
    rewritten_claim: str = ""


def number_sentences(judged_bearing: Sequence[int]) -> list[int]:
    """The indexes of the sentences the number check reads: the best of those judged that bear on the claim
    (``judged_bearing``, their indexes best first), at most :data:`NUMBER_SENTENCES`."""
    return list(judged_bearing[:NUMBER_SENTENCES])


def number_trial(claim: ClaimAnalysis, sentences: Sequence[str], max_candidates: int = MAX_CANDIDATES) -> NumberTrial:
    """Each number of the claim tried against each comparable number
    (:meth:`~fever_core.verification.numbers.NumberMention.comparable`) of each sentence, at most ``max_candidates``
    per sentence, as the claim rewritten with the sentence's number in place: the claim's first
    :data:`MAX_CLAIM_NUMBERS` numbers, at most :data:`MAX_REWRITINGS` rewritings in all (the best sentence's first).
    The claim's numbers are read from its analysis's parse; ``sentences`` are the sentences' own words (without their
    page titles), parsed only when the claim has numbers."""
    claimed = tuple(number_mentions(claim.claim))
    tried = claimed[:MAX_CLAIM_NUMBERS]
    text = claim.claim
    candidates = []
    for index, sentence in enumerate(sentences if claimed else ()):
        stated = number_mentions(sentence, as_written=True)
        for number in tried:
            for other in [m for m in stated if number.comparable(m)][:max_candidates]:
                rewritten = text[: number.start] + other.text + text[number.end :]
                candidates.append(NumberCandidate(index, number, other, rewritten))
    return NumberTrial(claimed, tuple(candidates[:MAX_REWRITINGS]), claimed[MAX_CLAIM_NUMBERS:])


def settle(trial: NumberTrial, p_supports: Sequence[float], settled: float = SETTLED) -> NumberCheck | None:
    """What the claim's numbers settle, given the verifier's P(SUPPORTS) for each candidate's rewritten claim
    against its sentence (the candidates' order): REFUTES when a number of the claim is apart from the number of a
    sentence that, with that number, states the claim; SUPPORTS when every number of the claim holds in such a
    sentence; else ``None`` (the verdict stands). Each claim number is read against the best-ranked such sentence
    (then its surest number): "Barack Obama was the 45th president" against "... the 44th president ..." of the
    first sentence, not "... the first African American to serve as president" of the second. A sentence that states
    the claim's own number (one it holds) never has it apart: "built between 1887 and 1889" is not refuted by the 1887
    of "constructed from 1887 to 1889"."""
    stated = {(c.claim_number, c.evidence) for c in trial.candidates if c.claim_number.contains(c.sentence_number)}
    best: dict[NumberMention, tuple[float, NumberCandidate]] = {}
    for candidate, p in zip(trial.candidates, p_supports):  # the best-ranked sentence first, then the surest reading
        if (candidate.claim_number, candidate.evidence) in stated and not candidate.claim_number.contains(
            candidate.sentence_number
        ):
            continue
        if p >= settled and (
            candidate.claim_number not in best
            or (candidate.evidence, -p) < (best[candidate.claim_number][1].evidence, -best[candidate.claim_number][0])
        ):
            best[candidate.claim_number] = (float(p), candidate)
    apart = [(p, c) for p, c in best.values() if c.claim_number.apart_from(c.sentence_number)]
    if apart:
        p, c = max(apart, key=lambda pc: pc[0])
        return NumberCheck(REFUTES, c.evidence, p, c.claim_number.text, c.sentence_number.text, c.rewritten_claim)
    held = [(p, c) for p, c in best.values() if c.claim_number.contains(c.sentence_number)]
    if held and len(held) == len(trial.claim_numbers):
        p, c = min(held, key=lambda pc: pc[0])
        return NumberCheck(SUPPORTS, c.evidence, p, c.claim_number.text, c.sentence_number.text, c.rewritten_claim)
    return None
