"""The checker: claim in, verdict with ranked and scored evidence out. It only wires the stages.

    claim -> claim analysis -> document retrieval -> sentence selection -> two-hop -> verification

Use :meth:`Checker.open` to get one for a named corpus; :meth:`Checker.check` for a claim, :meth:`Checker.check_many`
for several at once (the verifier then runs over all of them together).

One module (over 400 lines) because the checker and the record it returns (the options in, the settings as they
took effect and the result out) are one interface, which every client reads from here.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.settings import CHECK_SETTINGS, Settings
from fever_core.common.text import clean_user_text
from fever_core.retrieval.claim_analysis import ClaimAnalysis, analyse_claim
from fever_core.retrieval.registry import get_retriever
from fever_core.retrieval.results import EvidenceSentence, PageCandidate
from fever_core.retrieval.two_hop import merge_hops, rank_linked_pages, second_hop
from fever_core.verification.claim_verifier import ClaimVerifier, VerificationTask
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.model_integrity import model_fingerprint
from fever_core.verification.policy import RULE, VerdictPolicy
from fever_core.verification.verdict import Verdict
from fever_core.workspace import Workspace, open_workspace

if TYPE_CHECKING:
    from fever_core.corpus.store import CorpusStore
    from fever_core.retrieval.encoder import SentenceEncoder

MAX_CLAIM_CHARS = 1000
"""The most characters a claim may have once cleaned (:func:`check_claim_text`): one statement fits; a longer text is
several, to be checked as a text (:mod:`fever_core.text_check`)."""
SENTENCES_SHOWN = 30
PAGES_SHOWN = 10
WARM_UP_CLAIM = "Stanley Kubrick directed 2001: A Space Odyssey."
"""The claim :meth:`Checker.warm_up` checks (any claim will do)."""

log = logging.getLogger(__name__)


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


_ENVIRONMENT_FAULTS = (OSError, sqlite3.Error, MemoryError)
"""Faults of the machine or the data (a full disk, a damaged store), not of one claim: they stop the whole call."""


@dataclass
class CheckOptions:
    """Per-check knobs, one field per setting of :data:`~fever_core.common.settings.CHECK_SETTINGS` (where their
    meaning, units and limits are declared; ``tests/test_check_settings.py`` holds the two to the same names and
    order). ``None`` means "use the settings" (for the verdict's values: the verifier's policy,
    :class:`~fever_core.verification.policy.VerdictPolicy`); :meth:`Checker.applied` says what each takes effect as.

    Attributes:
        pages_k: pages kept by document retrieval (pages).
        sentences_k: evidence sentences passed to the verifier (sentences).
        two_hop: follow the links of first-hop evidence.
        two_hop_threshold: minimum first-hop selection score whose links are followed (cosine).
        min_evidence_score: minimum selection score for evidence to count in the verdict (cosine).
        nei_threshold: P(NOT ENOUGH INFO) from which one sentence's stance is not decisive (probability).
        number_check: compare the claim's numbers, dates and ordinals with the evidence's.
        verdict: the decider asked for: ``learned`` or ``rule``.
    """

    pages_k: int | None = None
    sentences_k: int | None = None
    two_hop: bool | None = None
    two_hop_threshold: float | None = None
    min_evidence_score: float | None = None
    nei_threshold: float | None = None
    number_check: bool | None = None
    verdict: str | None = None


@dataclass(frozen=True)
class AppliedSettings:
    """Every setting a check took effect with, after the settings and the verifier's policy filled in what its
    :class:`CheckOptions` left out: what History, permalinks, "checked before" and ClaimReview replay.

    Attributes:
        pages_k, sentences_k, two_hop, two_hop_threshold, min_evidence_score, nei_threshold, number_check, verdict:
            each per-check setting (:data:`~fever_core.common.settings.CHECK_SETTINGS`) as the check used it;
            ``nei_threshold`` is ``None`` for a verifier read by plain argmax (a hub model).
        decider: the decider that ran, as the policy chose it from ``verdict``, the verifier and the retriever
            (:meth:`~fever_core.verification.policy.VerdictPolicy.decider`): ``learned`` or ``rule``.
        retriever: the retriever's name (``fused``, ``bm25``, ``tfidf``).
        verifier: the verifier's folder or hub id (the one used, when a damaged one was refused).
        verifier_checksum: what the verifier's files are (``sha256:`` of its recorded checksums, else ``blake2b-128:``
            of its content); "" for a hub id.
    """

    pages_k: int
    sentences_k: int
    two_hop: bool
    two_hop_threshold: float
    min_evidence_score: float
    nei_threshold: float | None
    number_check: bool
    verdict: str
    decider: str
    retriever: str
    verifier: str
    verifier_checksum: str

    def check_settings(self) -> dict[str, Any]:
        """The per-check settings alone, by name, in the order of
        :data:`~fever_core.common.settings.CHECK_SETTINGS`."""
        return {setting.name: getattr(self, setting.name) for setting in CHECK_SETTINGS}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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
            they were recorded.
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
    applied: AppliedSettings | None = None
    claim_vector: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "corpus": self.corpus,
            "analysis": self.analysis.to_dict(),
            "pages": [asdict(p) for p in self.pages],
            "sentences": [asdict(s) for s in self.sentences],
            "evidence": [e.to_dict() for e in self.evidence],
            "verdict": self.verdict.to_dict(),
            "timings": self.timings,
            "warnings": self.warnings,
            "settings": None if self.applied is None else self.applied.to_dict(),
        }

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


@dataclass
class _Retrieved:
    """One claim up to verification: what :meth:`Checker.check` reports besides the verdict, and the seconds so far."""

    claim: str
    analysis: ClaimAnalysis
    pages: list[PageCandidate]
    ranked: list[EvidenceSentence]
    evidence: list[EvidenceSentence]
    timings: dict[str, float]
    warnings: list[str]
    seconds: float
    claim_vector: np.ndarray | None


class Checker:
    """Checks claims against one corpus with one verifier.

    Args:
        workspace: the corpus and its indexes.
        verification: the verifier and the verdict policy (:class:`~fever_core.verification.claim_verifier.ClaimVerifier`).
        retriever: ``"fused"`` (title + dense + lexical; default), ``"bm25"`` (lexical only) or ``"tfidf"`` (the
            FEVER baseline's DrQA-style TF-IDF), see :mod:`fever_core.retrieval.registry`. The learned verdict
            was trained on the ``fused`` retriever's selection scores, so the others get the best-sentence rule
            (:meth:`~fever_core.verification.policy.VerdictPolicy.decider`).
    """

    def __init__(self, workspace: Workspace, verification: ClaimVerifier, retriever: str = "fused"):
        self.workspace = workspace
        self.settings = workspace.settings
        self.verification = verification
        self.retrieval = get_retriever(
            retriever,
            workspace.store,
            workspace.dense,
            workspace.folder,
            self.settings.selector_model,
            self.settings.device,
        )
        self.retriever = self.retrieval.name

    @functools.cached_property
    def _verifier_fingerprint(self) -> str:
        return model_fingerprint(self.verification.verifier.name)

    @property
    def store(self) -> CorpusStore:
        """The corpus's page store (:class:`~fever_core.corpus.store.CorpusStore`): its pages, sentences and links, for
        showing what a check found (titles, Wikipedia links, a sentence by its line)."""
        return self.workspace.store

    @property
    def warnings(self) -> list[str]:
        """What every check of this checker should say of how it is made (e.g. that a damaged verifier was refused
        and the shipped one stands in): each result's ``warnings`` start with these."""
        return list(self.verification.warnings)

    @property
    def claim_encoder(self) -> SentenceEncoder:
        """The encoder of the corpus's dense index (:class:`~fever_core.retrieval.encoder.SentenceEncoder`): what
        compares claims with claims ("checked before"), in the space of :attr:`CheckResult.claim_vector`."""
        return self.workspace.dense.encoder

    def applied(self, options: CheckOptions | None = None) -> AppliedSettings:
        """Every setting a check with ``options`` takes effect with: each option given, else the workbench's
        settings, else the verifier's policy (:meth:`~fever_core.verification.policy.VerdictPolicy.for_check`),
        and the decider the policy chooses for it. ``applied()`` is what a check without options uses: the sidebar's
        defaults for this checker's verifier."""
        values = settings_in_effect(options or CheckOptions(), self.settings, self.verification.policy)
        return AppliedSettings(
            **values,
            decider=self.verification.policy.decider(values["verdict"], self.retriever),
            retriever=self.retriever,
            verifier=self.verification.verifier.name,
            verifier_checksum=self._verifier_fingerprint,
        )

    @classmethod
    def open(
        cls, corpus: str = "embedded", settings: Settings | None = None, retriever: str = "fused", progress: bool = True
    ) -> Checker:
        """A checker for a named corpus (built first if needed) with the configured verifier (and
        joint verifier, loaded when the verifier's learned verdict gives it a weight)."""
        settings = settings or Settings.from_env()
        return cls(open_workspace(corpus, settings, progress=progress), ClaimVerifier.load(settings), retriever)

    def warm_up(self, claim: str = WARM_UP_CLAIM) -> None:
        """Load what a first check loads lazily (the claim analyser, the encoder's and the verifiers' first
        passes, the indexes' pages) so that the first check people make is as fast as the next: a local corpus
        by checking ``claim``, a live one without fetching anything."""
        if not self.workspace.fetches:
            self.check_many([claim])
            return
        analyse_claim(claim)
        if self.retrieval.dense:
            self.workspace.dense.embed([claim])
        self.verification.warm_up(claim)

    def check(self, claim: str, options: CheckOptions | None = None) -> CheckResult:
        """Check one claim. Raises :class:`ClaimError` for a claim that can't be checked."""
        outcome = self.check_many([claim], options)[0]
        if isinstance(outcome, ClaimError):
            raise outcome
        return outcome

    def check_many(
        self,
        claims: Sequence[str],
        options: CheckOptions | Sequence[CheckOptions | None] | None = None,
        cancelled: Callable[[int], bool] | None = None,
    ) -> list[CheckResult | ClaimError]:
        """Check several claims together: retrieval claim by claim, then the verifiers once over every claim's
        evidence (:meth:`~fever_core.verification.claim_verifier.ClaimVerifier.verify_many`: on a GPU about the
        time of one claim). The results are :meth:`check`'s one by one, up to float rounding.

        Args:
            claims: the claims, as typed.
            options: one set for every claim, or one per claim (``None``: the settings).
            cancelled: whether the ``i``-th claim's check is no longer wanted (its client went away, its time ran
                out); asked before each model call: before the claim's retrieval, before each of the verifier's
                batches of pairs, and before the joint verifier's and the bridges' calls. A claim stopped so gets
                :class:`ClaimCancelled`, with no partial result; the others are checked all the same.
                Default: every claim is wanted to the end.

        Returns:
            For each claim, in order: its result, or the :class:`ClaimError` saying why it can't be checked (the
            other claims are checked all the same). Each result's ``timings`` has its own retrieval stages, and
            as ``verification`` the seconds of the shared verification, which every claim of the call waited for.
        """
        if options is None or isinstance(options, CheckOptions):
            options = [options] * len(claims)
        if len(options) != len(claims):
            raise ValueError(f"{len(claims)} claims but {len(options)} options: give one set, or one per claim.")
        applied = [self.applied(o) for o in options]
        stopped = cancelled or (lambda _: False)
        outcomes: list[_Retrieved | ClaimError] = []
        for i, (claim, claim_applied) in enumerate(zip(claims, applied)):
            if stopped(i):
                outcomes.append(ClaimCancelled())
                continue
            try:
                outcomes.append(self._retrieve(claim, claim_applied))
            except ClaimError as exc:
                outcomes.append(exc)
            except _ENVIRONMENT_FAULTS:
                raise
            except Exception as exc:  # one claim's fault never fails its neighbours
                log.exception("retrieval failed on a claim")
                outcomes.append(ClaimFailed("retrieval", exc))
        started = time.perf_counter()
        tasks = [
            (
                i,
                VerificationTask(
                    r.analysis,
                    r.evidence,
                    a.verdict,
                    self.retriever,
                    a.min_evidence_score,
                    a.nei_threshold,
                    a.number_check,
                ),
            )
            for i, (r, a) in enumerate(zip(outcomes, applied))
            if isinstance(r, _Retrieved) and not stopped(i)
        ]
        claim_of_task = [i for i, _ in tasks]
        judged = dict(
            zip(
                claim_of_task,
                self._verify_each_apart_on_a_fault(
                    [task for _, task in tasks], cancelled and (lambda t: cancelled(claim_of_task[t]))
                ),
            )
        )
        verification = round(time.perf_counter() - started, 4)
        results: list[CheckResult | ClaimError] = []
        for i, (r, claim_applied) in enumerate(zip(outcomes, applied)):
            if isinstance(r, ClaimError):
                results.append(r)
                continue
            if i not in judged or stopped(i):  # its verdict, if any, was decided for nobody: not kept
                results.append(ClaimCancelled())
                continue
            outcome = judged[i]
            if isinstance(outcome, ClaimError):
                results.append(outcome)
                continue
            evidence, verdict = outcome
            timings = {**r.timings, "verification": verification, "total": round(r.seconds + verification, 4)}
            warnings = [*self.verification.warnings, *r.warnings, *verdict.notes]
            results.append(
                CheckResult(
                    r.claim,
                    self.workspace.name,
                    r.analysis,
                    r.pages,
                    r.ranked[:SENTENCES_SHOWN],
                    evidence,
                    verdict,
                    timings,
                    warnings,
                    claim_applied,
                    r.claim_vector,
                )
            )
        return results

    def _verify_each_apart_on_a_fault(
        self, tasks: list[VerificationTask], cancelled: Callable[[int], bool] | None
    ) -> list[tuple[list[JudgedSentence], Verdict] | ClaimFailed]:
        """The tasks verified together (``cancelled``, if any: whether the ``t``-th task is no longer wanted, which
        :meth:`~fever_core.verification.claim_verifier.ClaimVerifier.verify_many` reads no further); where that raises
        (a fault no claim should cause), each alone, so that the claim at fault gets a :class:`ClaimFailed` and the
        others their verdicts."""
        try:
            return list(self.verification.verify_many(tasks, cancelled))
        except _ENVIRONMENT_FAULTS:
            raise
        except Exception as exc:
            if len(tasks) == 1:
                log.exception("verification failed on a claim")
                return [ClaimFailed("verification", exc)]

        def alone(t: int) -> Callable[[int], bool] | None:
            """``cancelled`` for the ``t``-th task verified alone, as the first of one."""
            return None if cancelled is None else lambda _: cancelled(t)

        return [
            outcome for t, task in enumerate(tasks) for outcome in self._verify_each_apart_on_a_fault([task], alone(t))
        ]

    def _retrieve(self, claim: str, applied: AppliedSettings) -> _Retrieved:
        """Everything :meth:`check` does before verification, with the settings it applies. Raises
        :class:`ClaimError`."""
        pages_k, sentences_k, threshold = applied.pages_k, applied.sentences_k, applied.two_hop_threshold
        use_two_hop = applied.two_hop and self.retrieval.dense
        timings: dict[str, float] = {}
        started = clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = round(timings.get(stage, 0.0) + now - clock, 4)
            clock = now

        claim = check_claim_text(claim)
        analysis = analyse_claim(claim)
        claim_vector = self.workspace.dense.embed([claim])[0] if self.retrieval.dense else None
        lap("analysis")
        warnings = self.workspace.prepare(analysis)
        lap("fetch")
        pages = self.retrieval.pages.retrieve(analysis, claim_vector, k=max(pages_k, PAGES_SHOWN))
        for rank, page in enumerate(pages):
            page.used = rank < pages_k
        lap("documents")
        ranked = self.retrieval.sentences.select(claim, claim_vector, [p.page_id for p in pages if p.used])
        lap("sentences")
        if use_two_hop:
            warnings += self.workspace.prepare_links(ranked[:sentences_k], threshold)
            lap("fetch")
            hop2 = second_hop(self.workspace.store, self.workspace.dense, claim, ranked[:sentences_k], threshold)
            ranked = merge_hops(ranked, hop2)
            pages = rank_linked_pages(pages, ranked[:sentences_k], {e.page_id: e.title for e in hop2})
        lap("two_hop")
        return _Retrieved(
            claim,
            analysis,
            pages,
            ranked,
            ranked[:sentences_k],
            timings,
            warnings,
            time.perf_counter() - started,
            claim_vector,
        )

    def verify_evidence(
        self, claim: str, evidence: list[EvidenceSentence], options: CheckOptions | None = None
    ) -> CheckResult:
        """Verify a claim against given evidence (no retrieval): the "oracle" mode of evaluation, where the
        best-sentence rule reads the sentences together as one premise."""
        applied = dataclasses.replace(self.applied(options), verdict=RULE, decider=RULE)
        claim = check_claim_text(claim)
        started = time.perf_counter()
        analysis = ClaimAnalysis(claim)
        results, verdict = self.verification.verify(
            analysis,
            evidence,
            RULE,
            nei_threshold=applied.nei_threshold,
            number_check=applied.number_check,
            one_premise=True,
        )
        elapsed = round(time.perf_counter() - started, 4)
        return CheckResult(
            claim,
            self.workspace.name,
            analysis,
            [],
            evidence,
            results,
            verdict,
            {"verification": elapsed, "total": elapsed},
            list(self.verification.warnings),
            applied,
        )


__all__ = [
    "AppliedSettings",
    "CheckOptions",
    "CheckResult",
    "Checker",
    "ClaimCancelled",
    "ClaimError",
    "ClaimTooLong",
    "JudgedSentence",
    "check_claim_text",
    "settings_in_effect",
]
