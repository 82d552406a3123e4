"""The checker: claim in, verdict with ranked and scored evidence out. It only wires the stages.

    claim -> claim analysis -> document retrieval -> sentence selection -> two-hop -> verification

Use :meth:`Checker.open` to get one for a named corpus; :meth:`Checker.check` for a claim, :meth:`Checker.check_many`
for several at once (the verifier then runs over all of them together).

- :mod:`~fever_core.pipeline.checker`: the :class:`Checker`, which wires the stages.
- :mod:`~fever_core.pipeline.record`: what a check takes and gives back, which every client reads (the options in,
  the settings as they took effect, the result out, the errors of a claim that can't be checked).
"""

from fever_core.pipeline.checker import Checker
from fever_core.pipeline.record import (
    MAX_CLAIM_CHARS,
    AppliedSettings,
    CheckOptions,
    CheckResult,
    ClaimCancelled,
    ClaimError,
    ClaimFailed,
    ClaimTooLong,
    check_claim_text,
    settings_in_effect,
)
from fever_core.verification.evidence import JudgedSentence

__all__ = [
    "MAX_CLAIM_CHARS",
    "AppliedSettings",
    "CheckOptions",
    "CheckResult",
    "Checker",
    "ClaimCancelled",
    "ClaimError",
    "ClaimFailed",
    "ClaimTooLong",
    "JudgedSentence",
    "check_claim_text",
    "settings_in_effect",
]
