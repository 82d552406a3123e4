"""The claims Verify offers as examples, for each corpus, with the label each must come back with: a presenter who
clicks one gets a right answer in front of a room (issue 48; ``tests/regression/test_app_examples.py`` checks the
embedded corpus's with the shipped models, the others where their corpora are built)."""

from __future__ import annotations

from fever_core.common import NEI, REFUTES, SUPPORTS
from fever_core.corpus import LIVE_CORPUS

GENERAL_EXAMPLES = [
    ("Stanley Kubrick directed 2001: A Space Odyssey.", SUPPORTS),
    ("The Great Wall of China is in Japan.", REFUTES),
    ("Marie Curie won two Nobel Prizes.", SUPPORTS),
]
# Each corpus's example claims with their labels (FEVER's for fever-dev and fm2).
EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "embedded": GENERAL_EXAMPLES,
    LIVE_CORPUS: GENERAL_EXAMPLES,
    "fever-dev": [("Fox 2000 Pictures released the film Soul Food.", SUPPORTS), ("Tilda Swinton is a vegan.", NEI)],
    "fm2": [("Filming for the movie Gandhi in India was delayed due to political unrest.", SUPPORTS)],
}


def example_claims(corpus: str) -> list[str]:
    """The example claims Verify offers on ``corpus`` (none for a corpus of the user's own)."""
    return [claim for claim, _ in EXAMPLES.get(corpus, [])]
