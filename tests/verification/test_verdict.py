"""A verdict's JSON holds every field of the verdict, and reads back as the verdict it was."""

import json

from fever_core.common import REFUTES
from fever_core.verification import DecidedBy
from fever_core.verification.decision import ClaimPart, Decision
from fever_core.verification.number_check import NumberCheck
from fever_core.verification.verdict import Verdict

NUMBERS = NumberCheck(REFUTES, 0, 0.97, "45th", "44th", "Barack Obama was the 44th president of the United States.")


def verdict() -> Verdict:
    decision = Decision(
        REFUTES,
        {"SUPPORTS": 0.01, "REFUTES": 0.97, "NOT ENOUGH INFO": 0.02},
        DecidedBy.NUMBER_CHECK,
        [0],
        [0],
        NUMBERS,
        parts=(ClaimPart("Obama was president.", REFUTES, 0.9, 0),),
    )
    return Verdict.of(decision, "REFUTES: ...", "The sentence says 44th.", 0.95, 1, ("a note",))


def test_the_json_has_every_field_the_number_check_s_too_and_reads_back():
    written = json.loads(json.dumps(verdict().to_dict()))
    assert set(written) == {f for f in Verdict.__dataclass_fields__}
    assert written["numbers"]["claim_says"] == "45th" and written["decided_by"] == "number_check"
    read = Verdict.from_dict(written)
    assert read == verdict() and read.numbers == NUMBERS and read.notes == ("a note",)


def test_a_verdict_kept_before_its_numbers_were_written_reads_without_them():
    written = verdict().to_dict()
    del written["numbers"]
    assert Verdict.from_dict(written).numbers is None
