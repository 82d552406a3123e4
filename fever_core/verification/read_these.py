"""The sentences to read where a verdict's label is not worth showing: "Undecided — read these" (issue 48).

A verdict is shown as its label when it is sure enough (its probability, :attr:`Verdict.probability
<fever_core.verification.verdict.Verdict.probability>`, the calibrated one, at least :data:`SHOWN_LABEL_MIN`) and
some sentence settles it (not *undecided*, :func:`~fever_core.verification.deciders.grounded`); otherwise its label
is *withheld* (:func:`withholds_label`): people are told "Undecided" and pointed at the sentences to read instead of
deciding ones. Those are :func:`settling_sentences`, named for every verdict (a shown one's card adds those it does
not quote already): the judged sentences that bear on the claim, ranked by how much of what the claim says about its
subject they state (:func:`statement_share`). "Ottawa: Ottawa is the capital city of Canada." states all that
"Toronto is the capital of Canada." says of Toronto (capital, Canada), though it never names Toronto.
"""

from __future__ import annotations

from collections.abc import Sequence

from fever_core.common.names import claim_names, mentions_a_name
from fever_core.common.text import WORD_RE, content_words
from fever_core.verification.evidence import JudgedSentence

SHOWN_LABEL_MIN = 0.55
"""The least probability (calibrated, in [0, 1]) at which a verdict's label is shown; below it the card says
"Undecided" and names the sentences to read. Chosen on the 225 calibration claims
(``benchmarks/calibration/calibration-claims.jsonl`` less those on a reserved page) with the shipped MPNet verifier on
the embedded corpus, as the lowest at which the shown labels are right four times in five: there 75.1 % of the labels
are shown and 81.1 % of those are right (every label but the undecided: 91.6 % shown, 74.3 % right). Held out, on the
plain-language yardstick: 73.9 % shown, 80.1 % right (all but the undecided: 89.7 %, 75.2 %). Command, curve and
report: ``benchmarks/read_these/README.md``."""
READ_THESE_K = 3
"""At most this many sentences to read."""


def said_of_subject(claim: str) -> list[str]:
    """What ``claim`` says about its subject, as words: its content words (lower case, without repeats) less the
    words of its first name (:func:`~fever_core.common.names.claim_names`), "Toronto is the capital of Canada." ->
    ``["capital", "canada"]``; a claim that is nothing but its subject keeps all of its words."""
    words = list(dict.fromkeys(content_words(claim)))
    names = claim_names(claim)
    subject = set(WORD_RE.findall(names[0].lower())) if names else set()
    return [word for word in words if word not in subject] or words


def statement_share(said: Sequence[str], item: JudgedSentence) -> float:
    """The share, in [0, 1], of the words ``said`` (:func:`said_of_subject`) that the sentence states, read with its
    page title (``"Title: sentence"``, so that "Canada: Its capital is Ottawa." states "Canada"); 0 for no words."""
    if not said:
        return 0.0
    stated = set(content_words(item.titled))
    return sum(word in stated for word in said) / len(said)


def settling_sentences(claim: str, evidence: Sequence[JudgedSentence], k: int = READ_THESE_K) -> list[int]:
    """The indexes into ``evidence`` of the ``k`` (default :data:`READ_THESE_K`) sentences most likely to settle
    ``claim``, most likely first: of the judged sentences that bear on the claim, those stating most of what it says
    about its subject (:func:`statement_share`), then those naming the subject, then in the order they were read.
    On the calibration claims whose settling sentence was read, the first three name it for 167 of 177 claims (the
    first three read: 163), the first for 143 (137) (``benchmarks/read_these/README.md``)."""
    said = said_of_subject(claim)
    subject = claim_names(claim)[:1]
    shares = [statement_share(said, item) for item in evidence]
    candidates = [i for i, item in enumerate(evidence) if item.judged and item.bears_on_claim]
    return sorted(candidates, key=lambda i: (-shares[i], not mentions_a_name(subject, evidence[i].titled), i))[:k]


def withholds_label(probability: float, undecided: bool, threshold: float = SHOWN_LABEL_MIN) -> bool:
    """Whether a verdict's label is withheld ("Undecided — read these"): no sentence settles it (``undecided``),
    or its ``probability`` (calibrated, in [0, 1]) is below ``threshold`` (default :data:`SHOWN_LABEL_MIN`); a
    sure NOT ENOUGH INFO is shown as such."""
    return undecided or probability < threshold
