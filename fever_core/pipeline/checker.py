"""The checker: claim in, verdict with ranked and scored evidence out. It only wires the stages.

    claim -> claim analysis -> document retrieval -> sentence selection -> two-hop -> verification

Use :meth:`Checker.open` to get one for a named corpus; :meth:`Checker.check` for a claim, :meth:`Checker.check_many`
for several at once (the verifier then runs over all of them together). What it takes and gives back is
:mod:`~fever_core.pipeline.record`'s.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.settings import Settings
from fever_core.pipeline.record import (
    AppliedSettings,
    CheckOptions,
    CheckResult,
    ClaimCancelled,
    ClaimError,
    ClaimFailed,
    check_claim_text,
    settings_in_effect,
)
from fever_core.retrieval.claim_analysis import ClaimAnalysis, analyse_claim
from fever_core.retrieval.registry import get_retriever
from fever_core.retrieval.results import EvidenceSentence, PageCandidate
from fever_core.retrieval.two_hop import merge_hops, rank_linked_pages, second_hop
from fever_core.verification.claim_verifier import ClaimVerifier, VerificationTask
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.model_integrity import model_fingerprint
from fever_core.verification.policy import RULE
from fever_core.verification.verdict import Verdict
from fever_core.workspace import Workspace, open_workspace

if TYPE_CHECKING:
    from fever_core.corpus.store import CorpusStore
    from fever_core.retrieval.encoder import SentenceEncoder

SENTENCES_SHOWN = 30
PAGES_SHOWN = 10
WARM_UP_CLAIM = "Stanley Kubrick directed 2001: A Space Odyssey."
"""The claim :meth:`Checker.warm_up` checks (any claim will do)."""

log = logging.getLogger(__name__)

_ENVIRONMENT_FAULTS = (OSError, sqlite3.Error, MemoryError)
"""Faults of the machine or the data (a full disk, a damaged store), not of one claim: they stop the whole call."""


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
        verification: the verifier and the verdict policy
            (:class:`~fever_core.verification.claim_verifier.ClaimVerifier`).
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
        applied = dataclasses.replace(self.applied(options), verdict="rule", decider=RULE)
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
