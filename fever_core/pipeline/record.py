"""The record of a check: the options a check is given (:class:`CheckOptions`), every setting as it took effect
(:class:`AppliedSettings`, filled in by :func:`settings_in_effect`), the result (:class:`CheckResult`), and what a
claim that can't be checked gets instead (:class:`ClaimError` and its kinds, :func:`check_claim_text`).

Every client reads these (History, permalinks, "checked before", ClaimReview, the service's answer); the
:class:`~fever_core.pipeline.checker.Checker` makes them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Never

import numpy as np

from fever_core.common.check_settings import CHECK_SETTINGS, PerCheckSettings
from fever_core.common.records import JSON_NAME, record_dict
from fever_core.common.settings import Settings
from fever_core.common.text import clean_user_text
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence, PageCandidate
from fever_core.verification.decision import DecidedBy
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.policy import VerdictPolicy
from fever_core.verification.verdict import Verdict

MAX_CLAIM_CHARS = 1000
"""The most characters a claim may have once cleaned (:func:`check_claim_text`): one statement fits; a longer text is
several, to be checked as a text (:mod:`fever_core.text_check`)."""


class ClaimError(ValueError):
    """The claim can't be checked as typed (empty, too long...); the message says what to do."""


class ClaimTooLong(ClaimError):
    """The claim is longer than :data:`MAX_CLAIM_CHARS`: a text of several statements, to be checked as a text
    (each statement apart), not cut and checked as one.

    Attributes:
        chars: the cleaned claim's length, in characters.
    """

    def __init__(self, chars: int):
        super().__init__(
            f"The claim has {chars:,} characters; the limit is {MAX_CLAIM_CHARS:,}. A text this long holds "
            "several statements: check one statement at a time, or check it as a text, which checks each "
            "of its statements apart."
        )
        self.chars = chars


class ClaimFailed(ClaimError):
    """The claim met a fault of the checker (an exception no claim should cause) in one stage; the other claims of
    the call are checked all the same. The message names the stage and the fault, for a report.

    Attributes:
        stage: ``"retrieval"`` or ``"verification"``.
    """

    def __init__(self, stage: str, fault: BaseException):
        super().__init__(
            f"This claim could not be checked: the {stage} stage failed on it ({type(fault).__name__}: "
            f"{str(fault)[:200]}). Other claims are not affected. Try rewording it, and please report it."
        )
        self.stage = stage


class ClaimCancelled(ClaimError):
    """The claim's check was stopped before its verdict (:meth:`Checker.check_many`'s ``cancelled``): nobody waits for
    it any more (its client went away, or its time ran out). Nothing of it is kept."""

    def __init__(self) -> None:
        super().__init__("This claim's check was stopped before its verdict: nobody waits for it any more.")


@dataclass(frozen=True)
class CheckOptions(PerCheckSettings[None]):
    """Per-check knobs: one field per per-check setting (:class:`~fever_core.common.settings.PerCheckSettings`, where
    their types, meaning, units and limits are declared once). ``None`` means "use the settings" (for the verdict's
    values: the verifier's policy, :class:`~fever_core.verification.policy.VerdictPolicy`); :meth:`Checker.applied`
    says what each takes effect as."""


@dataclass(frozen=True, kw_only=True)
class AppliedSettings(PerCheckSettings[Never]):
    """Every setting a check took effect with, after the settings and the verifier's policy filled in what its
    :class:`CheckOptions` left out: what History, permalinks, "checked before" and ClaimReview replay. Each
    per-check setting (:class:`~fever_core.common.settings.PerCheckSettings`) as the check used it, then:

    Attributes:
        decider: the decider that ran, as the policy chose it from ``verdict``, the verifier and the retriever
            (:meth:`~fever_core.verification.policy.VerdictPolicy.decider`): ``learned`` or ``rule``.
        retriever: the retriever's name (``fused``, ``bm25``, ``tfidf``).
        verifier: the verifier's folder or hub id (the one used, when a damaged one was refused).
        verifier_checksum: what the verifier's files are (``sha256:`` of its recorded checksums, else ``blake2b-128:``
            of its content); "" for a hub id.
    """

    decider: DecidedBy
    retriever: str
    verifier: str
    verifier_checksum: str

    def check_settings(self) -> dict[str, Any]:
        """The per-check settings alone, by name, in the order of
        :data:`~fever_core.common.settings.CHECK_SETTINGS`."""
        return {setting.name: getattr(self, setting.name) for setting in CHECK_SETTINGS}

    def to_dict(self) -> dict[str, Any]:
        """Every field, by its name (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)


@dataclass
class CheckResult:
    """Everything one check produced. Serialises to JSON and to a FEVER prediction line.

    Attributes:
        claim: the claim as checked (cleaned of control characters).
        corpus: the corpus name.
        analysis: mentions found in the claim.
        pages: retrieved pages, best first, with the signals that found them; sentences are
            selected from those marked ``used`` (the first ``pages_k``).
        sentences: the best-scored candidate sentences (both hops), best first.
        evidence: the top sentences passed to the verifier, with their stances.
        verdict: the claim's verdict.
        timings: seconds spent per stage (``analysis``, ``fetch`` (live Wikipedia), ``documents``,
            ``sentences``, ``two_hop``, ``verification``, ``total``).
        warnings: what the reader should know about how the check was done, e.g. that live
            Wikipedia could not be reached and only cached pages were read, or that a damaged verifier was
            refused and the shipped one used.
        applied: every setting as the check used it (:class:`AppliedSettings`); ``None`` for a check kept before
            they were recorded. The JSON names it ``settings``.
        claim_vector: the claim's vector from the corpus's encoder (float32, unit length), as retrieval used it:
            what "checked before" compares claims with; ``None`` when the retriever reads none, or for a check
            read back from JSON (which does not hold it).
    """

    claim: str
    corpus: str
    analysis: ClaimAnalysis
    pages: list[PageCandidate]
    sentences: list[EvidenceSentence]
    evidence: list[JudgedSentence]
    verdict: Verdict
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    applied: AppliedSettings | None = field(default=None, metadata={JSON_NAME: "settings"})
    claim_vector: np.ndarray | None = field(default=None, repr=False, compare=False, metadata={JSON_NAME: None})

    def to_dict(self) -> dict[str, Any]:
        """Every field but the claim's vector, by its name (``applied`` as ``settings``), each record in it as its own
        ``to_dict`` writes it (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckResult:
        """The result that :meth:`to_dict` wrote (the History page re-opens checks with it)."""
        return cls(
            data["claim"],
            data["corpus"],
            ClaimAnalysis(**data["analysis"]),
            [PageCandidate(**page) for page in data["pages"]],
            [EvidenceSentence.from_dict(s) for s in data["sentences"]],
            [JudgedSentence.from_dict(item) for item in data["evidence"]],
            Verdict.from_dict(data["verdict"]),
            data["timings"],
            data["warnings"],
            AppliedSettings(**data["settings"]) if data.get("settings") else None,
        )

    def to_json(self, indent: int | None = 2) -> str:
        """The result as JSON; strict JSON (a non-finite number is a ``ValueError``, never a bare ``NaN``)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)

    def fever_prediction(self, claim_id: int | str | None = None) -> dict[str, Any]:
        """A prediction line as the FEVER scorer reads it."""
        line: dict[str, Any] = {}
        if claim_id is not None:
            line["id"] = claim_id
        line["predicted_label"] = self.verdict.label
        line["predicted_evidence"] = [[e.sentence.page_id, e.sentence.line] for e in self.evidence]
        return line


def settings_in_effect(options: CheckOptions, settings: Settings, policy: VerdictPolicy) -> dict[str, Any]:
    """Each per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`, by name, in its order) as a check
    with ``options`` takes it: the option given, else the workbench's ``settings`` (``FEVER_PAGES_K``...), else the
    verifier's ``policy`` (:meth:`~fever_core.verification.policy.VerdictPolicy.for_check`: its thresholds), else the
    declared default. The one place that fills in what a check leaves out: checks (:meth:`Checker.applied`) and the
    app's sidebar defaults read it."""
    policy = policy.for_check(options.min_evidence_score, options.nei_threshold, options.number_check)
    values = {}
    for setting in CHECK_SETTINGS:
        given = getattr(options, setting.name)
        if given is None:
            given = getattr(settings, setting.name, None)
        if given is None:
            given = getattr(policy, setting.name, None)
        values[setting.name] = setting.default if given is None and setting.default is not None else given
    return values


def check_claim_text(claim: str) -> str:
    """Clean a typed claim, or raise :class:`ClaimError` saying what is wrong with it."""
    if not isinstance(claim, str):
        raise ClaimError("A claim must be text.")
    cleaned = clean_user_text(claim)
    if not cleaned:
        raise ClaimError("The claim is empty: type a sentence to check, e.g. 'Stanley Kubrick directed Lolita.'")
    if len(cleaned) > MAX_CLAIM_CHARS:
        raise ClaimTooLong(len(cleaned))
    if not any(ch.isalnum() for ch in cleaned):
        raise ClaimError("The claim has no words or numbers in it: type a sentence to check.")
    return cleaned
