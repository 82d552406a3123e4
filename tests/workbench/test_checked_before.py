"""Checked before (fever_core/workbench/checked_before.py, same_claim.py, claim_vectors.py): earlier checks of a claim or of a paraphrase found in a real
history and annotations database with the fixture corpus's encoder; numbers, names and negation that differ keep a
near claim apart; vectors kept between lookups; missing, empty, damaged and replaced files."""

from __future__ import annotations

import time

import numpy as np
import pytest

from fever_core.common.sqlite import move_aside
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.pipeline import CheckResult
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.verdict import Verdict
from fever_core.workbench.annotation import AnnotationStore
from fever_core.workbench.checked_before import ANNOTATION, HISTORY, EarlierChecks, ago
from fever_core.workbench.claim_vectors import VECTORS_FILE
from fever_core.workbench.history import HistoryStore
from fever_core.workbench.same_claim import (
    THRESHOLD,
    names_agree,
    negation_agrees,
    normalised_claim,
    numbers_agree,
    roles_agree,
    same_claim,
    things_agree,
)

SOUL_FOOD = "Fox 2000 Pictures released the film Soul Food."
SOUL_FOOD_REWORDED = "The film Soul Food was released by Fox 2000 Pictures."
SPIELBERG_BORN = "Steven Spielberg was born in Cincinnati, Ohio, in 1946."
SPIELBERG_BORN_LATER = "Steven Spielberg was born in Cincinnati, Ohio, in 1947."
SPIELBERG_BORN_ELSEWHERE = "Steven Spielberg was born in Cleveland, Ohio, in 1946."
EDINBURGH = "Edinburgh is the capital of Scotland."


class CountingEncoder:
    """The fixture corpus's encoder, counting the texts it is given to embed."""

    def __init__(self, encoder):
        self._encoder = encoder
        self.identity, self.precision, self.name, self.backend = (
            encoder.identity,
            encoder.precision,
            encoder.name,
            encoder.backend,
        )
        self.texts: list[str] = []

    def dimension(self) -> int:
        return self._encoder.dimension()

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        self.texts += texts
        return self._encoder.encode(texts, batch_size)


@pytest.fixture
def encoder(workspace) -> CountingEncoder:
    return CountingEncoder(workspace.dense.encoder)


def cosine(encoder, a: str, b: str) -> float:
    va, vb = encoder.encode([a, b])
    return float(va @ vb)


def keep(history: HistoryStore, claim: str, label: str = SUPPORTS, session: str = "") -> str:
    """Keep a check of ``claim`` with verdict ``label`` (nothing else: all a lookup reads); returns its key."""
    probabilities = {SUPPORTS: 0.1, REFUTES: 0.1, NEI: 0.1, label: 0.8}
    result = CheckResult(claim, "fixture", ClaimAnalysis(claim), [], [], [], Verdict(label, probabilities, "", []))
    return history.add(result, {}, session=session)


def annotate(path, claim: str, label: str) -> str:
    """Annotate ``claim`` with ``label`` (evidence from the fixture corpus); returns its queue item's number."""
    store = AnnotationStore(path)
    item = store.add_claim(claim)
    store.save(item, label, [] if label == NEI else [[("Soul_Food_-LRB-film-RRB-", 0)]], "tester")
    return str(item)


def test_a_claim_is_normalised_for_exact_matching():
    assert normalised_claim("  The Nile is LONG!! ") == "the nile is long"
    assert normalised_claim("Café  au lait.") == normalised_claim("cafe\u0301 au LAIT")  # NFC: é either way
    assert normalised_claim("It is 45th?”") == "it is 45th"
    assert normalised_claim("...") == ""


def test_numbers_names_and_negation_must_agree():
    assert not numbers_agree("Barack Obama was the 45th president.", "Barack Obama was the 44th president.")
    assert numbers_agree("The Nile is more than 7,000 km long.", "The Nile is over 7,000 kilometres long.")
    assert not numbers_agree("Soul Food is a 1997 film.", "Soul Food is a film.")
    assert not names_agree("Polish is a West Slavic language.", "Polish is an East Slavic language.")
    assert names_agree("Vladimir Putin became president of Russia in 2012.", "Putin became Russia's president in 2012.")
    assert not negation_agrees("Amber is fossilized tree resin.", "Amber isn't fossilized tree resin.")
    assert negation_agrees("No one disputes it.", "Nobody doesn't dispute it.") is False
    assert same_claim("Jaws.", "jaws", similarity=-1.0)  # the same text needs no similarity
    assert not same_claim(SPIELBERG_BORN, SPIELBERG_BORN_LATER, similarity=0.99)


@pytest.mark.parametrize(
    "claim, other, agree",
    [
        ("Wellington defeated Napoleon at Waterloo.", "Napoleon defeated Wellington at Waterloo.", False),
        ("Wellington defeated Napoleon at Waterloo.", "Napoleon was defeated by Wellington at Waterloo.", True),
        ("Germany is larger than Austria.", "Austria is larger than Germany.", False),
        ("Germany is larger than Austria.", "Austria is smaller than Germany.", True),  # another relation: not judged
        ("China is more populous than India.", "India is more populous than China.", False),
        ("China is more populous than India.", "India is less populous than China.", True),
        ("Paris is the capital of France.", "France is the capital of Paris.", False),
        ("Bees pollinate flowers.", "Flowers pollinate bees.", False),
        ("Jaws is a 1975 film.", "Jaws came out in 1975.", True),  # no second party: not judged
    ],
)
def test_two_parties_swapped_are_not_the_same_claim(claim, other, agree):
    assert roles_agree(claim, other) is agree
    assert same_claim(claim, other, similarity=0.99) is agree


@pytest.mark.parametrize(
    "claim, other, agree",
    [
        ("Lactose is made of galactose and glucose.", "Lactose is made of fructose and glucose.", False),
        ("The sperm whale is the largest toothed whale.", "The blue whale is the largest toothed whale.", False),
        ("An inch is one twelfth of a foot.", "An inch is one tenth of a foot.", False),
        ("Drosophila is called the fruit fly.", "Drosophila is called the house fly.", False),
        ("The Russian Revolution started in 1917.", "The Russian Revolution began in 1917.", True),  # a verb
        ("The Tube is managed by Transport for London.", "The Tube is run by Transport for London.", True),
        ("Shakespeare wrote Hamlet.", "William Shakespeare is the author of Hamlet.", True),  # reworded at length
        ("Putin is the president of Russia.", "Vladimir Putin is the president of Russia.", True),  # words added
    ],
)
def test_one_thing_swapped_for_another_is_not_the_same_claim(claim, other, agree):
    assert things_agree(claim, other) is agree and things_agree(other, claim) is agree
    assert same_claim(claim, other, similarity=0.99) is agree


def test_a_paraphrase_reworded_at_length_is_found_checked_before(tmp_path, encoder):
    """Issue 48: "William Shakespeare is the author of Hamlet." after "Shakespeare wrote Hamlet." was not found (a
    cosine of about 0.89 under the corpus's encoder, below the 0.91 of old)."""
    earlier = keep(HistoryStore(tmp_path / "history.sqlite"), "Shakespeare wrote Hamlet.")
    found = EarlierChecks(tmp_path).find("William Shakespeare is the author of Hamlet.", encoder)
    assert [(e.entry_id, e.exact) for e in found] == [(earlier, False)]
    assert EarlierChecks(tmp_path).find("Shakespeare wrote Macbeth.", encoder) == []


def test_ago_says_how_long_ago_in_words():
    now = time.time()
    assert ago(now - 5, now) == "just now"
    assert ago(now - 60, now) == "1 minute ago"
    assert ago(now - 3 * 3600 - 5, now) == "3 hours ago"
    assert ago(now - 2 * 86400, now) == "2 days ago"
    assert ago(now - 40 * 86400, now) == "on " + time.strftime("%Y-%m-%d", time.localtime(now - 40 * 86400))


def test_an_exact_repeat_comes_first_then_a_paraphrase(tmp_path, encoder):
    history = HistoryStore(tmp_path / "history.sqlite")
    reworded = keep(history, SOUL_FOOD_REWORDED, SUPPORTS)
    keep(history, EDINBURGH)
    same = keep(history, SOUL_FOOD, REFUTES)
    found = EarlierChecks(tmp_path).find("  Fox 2000 Pictures  released the film Soul Food!! ", encoder)
    assert [(e.entry_id, e.exact, e.source, e.verdict) for e in found] == [
        (same, True, HISTORY, REFUTES),
        (reworded, False, HISTORY, SUPPORTS),
    ]
    assert found[1].similarity >= THRESHOLD and found[1].claim == SOUL_FOOD_REWORDED
    assert abs(found[0].checked_at - time.time()) < 60
    assert [e.entry_id for e in EarlierChecks(tmp_path, limit=1).find(SOUL_FOOD.upper(), encoder)] == [same]
    assert EarlierChecks(tmp_path).find("Sherlock Holmes is a fictional detective.", encoder) == []


def test_a_claim_that_differs_by_a_number_or_a_name_was_not_checked_before(tmp_path, encoder):
    for other in (SPIELBERG_BORN_LATER, SPIELBERG_BORN_ELSEWHERE):
        assert cosine(encoder, SPIELBERG_BORN, other) >= THRESHOLD  # close in meaning: the checks keep them apart
    keep(HistoryStore(tmp_path / "history.sqlite"), SPIELBERG_BORN)
    lookup = EarlierChecks(tmp_path)
    assert lookup.find(SPIELBERG_BORN_LATER, encoder) == []
    assert lookup.find(SPIELBERG_BORN_ELSEWHERE, encoder) == []
    assert [e.claim for e in lookup.find("Steven Spielberg was born in 1946 in Cincinnati, Ohio.", encoder)] == [
        SPIELBERG_BORN
    ]


def test_every_session_s_checks_and_the_annotations_are_looked_up_for_everyone(tmp_path, encoder):
    history = HistoryStore(tmp_path / "history.sqlite")
    mine = keep(history, SOUL_FOOD, SUPPORTS, session="a" * 32)
    item = annotate(tmp_path / "annotations.sqlite", SOUL_FOOD_REWORDED, REFUTES)
    found = EarlierChecks(tmp_path).find(SOUL_FOOD, encoder)
    assert [(e.source, e.entry_id, e.verdict) for e in found] == [
        (HISTORY, mine, SUPPORTS),
        (ANNOTATION, item, REFUTES),
    ]
    theirs = keep(history, SOUL_FOOD_REWORDED, NEI, session="b" * 32)
    found = EarlierChecks(tmp_path).find(SOUL_FOOD_REWORDED, encoder)
    assert [(e.source, e.entry_id, e.exact) for e in found] == [
        (HISTORY, theirs, True),
        (ANNOTATION, item, True),
        (HISTORY, mine, False),
    ]


def test_a_session_finds_its_own_and_the_shared_checks_never_another_s_private_claim(tmp_path, encoder):
    history = HistoryStore(tmp_path / "history.sqlite")
    mine = keep(history, SOUL_FOOD, SUPPORTS, session="a" * 32)
    theirs = keep(history, SOUL_FOOD_REWORDED, NEI, session="b" * 32)
    item = annotate(tmp_path / "annotations.sqlite", SOUL_FOOD, REFUTES)
    lookup = EarlierChecks(tmp_path)
    assert [e.entry_id for e in lookup.find(SOUL_FOOD_REWORDED, encoder, session="a" * 32)] == [mine, item]
    assert [e.entry_id for e in lookup.find(SOUL_FOOD, encoder, session="b" * 32)] == [item, theirs]
    assert [e.entry_id for e in lookup.find(SOUL_FOOD, encoder, session="c" * 32)] == [item]
    history.share(theirs, "b" * 32)  # after the lookup read it: noticed all the same
    assert [e.entry_id for e in lookup.find(SOUL_FOOD, encoder, session="c" * 32)] == [item, theirs]
    history.share(theirs, "b" * 32, shared=False)
    assert [e.entry_id for e in lookup.find(SOUL_FOOD, encoder, session="c" * 32)] == [item]


def test_no_history_or_an_empty_one_has_nothing_checked_before(tmp_path, encoder):
    lookup = EarlierChecks(tmp_path / "new")
    assert lookup.find(SOUL_FOOD, encoder) == [] and lookup.problems == []
    assert not (tmp_path / "new").exists()  # looking writes nothing
    HistoryStore(tmp_path / "history.sqlite")
    AnnotationStore(tmp_path / "annotations.sqlite").add_claim(SOUL_FOOD)  # queued, not annotated: not a check
    assert EarlierChecks(tmp_path).find(SOUL_FOOD, encoder) == [] and encoder.texts == []


def test_a_damaged_history_is_left_out_with_its_reason_and_kept_as_it_was(tmp_path, encoder):
    damaged = b"not a database" * 100
    (tmp_path / "history.sqlite").write_bytes(damaged)
    item = annotate(tmp_path / "annotations.sqlite", SOUL_FOOD, SUPPORTS)
    lookup = EarlierChecks(tmp_path)
    assert [(e.source, e.entry_id) for e in lookup.find(SOUL_FOOD, encoder)] == [(ANNOTATION, item)]
    (problem,) = lookup.problems
    assert f"history database {tmp_path / 'history.sqlite'} is damaged" in problem and "Move it aside" in problem
    assert (tmp_path / "history.sqlite").read_bytes() == damaged  # nothing written to it
    move_aside(tmp_path / "history.sqlite")
    checked = keep(HistoryStore(tmp_path / "history.sqlite"), SOUL_FOOD_REWORDED)
    assert [e.entry_id for e in lookup.find(SOUL_FOOD, encoder) if e.source == HISTORY] == [checked]
    assert lookup.problems == []


def test_a_cleared_or_replaced_history_is_noticed(tmp_path, encoder):
    history = HistoryStore(tmp_path / "history.sqlite")
    keep(history, SOUL_FOOD)
    lookup = EarlierChecks(tmp_path)
    assert lookup.find(SOUL_FOOD, encoder)
    history.clear()
    assert lookup.find(SOUL_FOOD, encoder) == []
    keep(history, EDINBURGH)
    move_aside(tmp_path / "history.sqlite")
    assert lookup.find(EDINBURGH, encoder) == []  # the file moved aside is not read any more
    keep(HistoryStore(tmp_path / "history.sqlite"), EDINBURGH)
    assert [e.claim for e in lookup.find(EDINBURGH, encoder)] == [EDINBURGH]


def test_a_claim_is_embedded_once_even_by_another_process(tmp_path, encoder):
    history = HistoryStore(tmp_path / "history.sqlite")
    for claim in (SOUL_FOOD, EDINBURGH, SPIELBERG_BORN):
        keep(history, claim)
    lookup = EarlierChecks(tmp_path)
    lookup.find(SOUL_FOOD_REWORDED, encoder)
    assert sorted(encoder.texts) == sorted([SOUL_FOOD_REWORDED, SOUL_FOOD, EDINBURGH, SPIELBERG_BORN])
    encoder.texts.clear()
    keep(history, SOUL_FOOD_REWORDED)  # the claim just looked up, now kept: its vector is known
    assert lookup.find(SOUL_FOOD, encoder)[0].exact and encoder.texts == []
    assert [e.claim for e in EarlierChecks(tmp_path).find("Scotland's capital is Edinburgh.", encoder)] == [EDINBURGH]
    assert encoder.texts == ["Scotland's capital is Edinburgh."]  # a new lookup read the others' vectors back


def test_a_damaged_vectors_file_is_moved_aside_and_the_lookup_goes_on(tmp_path, encoder):
    (tmp_path / VECTORS_FILE).write_bytes(b"not a database" * 100)
    keep(HistoryStore(tmp_path / "history.sqlite"), SOUL_FOOD)
    assert [e.claim for e in EarlierChecks(tmp_path).find(SOUL_FOOD_REWORDED, encoder)] == [SOUL_FOOD]
    (moved,) = tmp_path.glob(f"{VECTORS_FILE}.moved-aside-*")
    assert moved.read_bytes() == b"not a database" * 100


def test_a_check_s_own_vector_is_used_not_embedded_again_and_kept_for_later_lookups(tmp_path, encoder, checker):
    history = HistoryStore(tmp_path / "history.sqlite")
    reworded = keep(history, SOUL_FOOD_REWORDED, SUPPORTS)
    result = checker.check(SOUL_FOOD)
    assert result.claim_vector is not None
    found = EarlierChecks(tmp_path).find(result.claim, encoder, claim_vector=result.claim_vector)
    assert [e.entry_id for e in found] == [reworded]
    assert result.claim not in encoder.texts  # the check's vector was the query's
    keep(history, result.claim, REFUTES)
    encoder.texts.clear()
    EarlierChecks(tmp_path).find(SOUL_FOOD_REWORDED, encoder)  # another process: reads the kept vectors
    assert result.claim not in encoder.texts
