"""The checker: claim in, verdict with ranked and scored evidence out. It only wires the stages.

    claim -> claim analysis -> document retrieval -> sentence selection -> two-hop -> verification

Use :meth:`Checker.open` to get one for a named corpus; :meth:`Checker.check` for a claim.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field

from fever_core.retrieval.claim_analysis import ClaimAnalysis, analyse_claim
from fever_core.retrieval.documents import Bm25DocumentRetriever, FusedDocumentRetriever
from fever_core.retrieval.results import EvidenceSentence, PageCandidate
from fever_core.retrieval.sentences import Bm25SentenceSelector, DenseSentenceSelector
from fever_core.retrieval.two_hop import merge_hops, rank_linked_pages, second_hop
from fever_core.settings import Settings
from fever_core.text import clean_user_text, premise_text
from fever_core.types import NEI, Stance
from fever_core.verification.aggregator import EvidenceView, LearnedAggregator, joint_premise
from fever_core.verification.decision import DecisionRule, load_decision_rule
from fever_core.verification.nli import NliModel
from fever_core.verification.verdict import Verdict, aggregate, aggregate_learned
from fever_core.workspace import FetchReport, Workspace

MAX_CLAIM_CHARS = 1000
RETRIEVERS = ("fused", "bm25", "tfidf")
SENTENCES_SHOWN = 30
PAGES_SHOWN = 10


class ClaimError(ValueError):
    """The claim can't be checked as typed (empty, too long...); the message says what to do."""


@dataclass
class CheckOptions:
    """Per-check knobs; ``None`` means "use the settings".

    Attributes:
        pages_k: pages kept by document retrieval.
        sentences_k: evidence sentences passed to the verifier.
        two_hop: follow hyperlinks of first-hop evidence.
        two_hop_threshold: minimum first-hop selection score to follow its links.
        min_evidence_score: minimum selection score for evidence to count in the verdict.
        nei_threshold: P(NOT ENOUGH INFO) from which a stance is not decisive (the model's rule by default);
            setting it makes the rule decide.
        verdict: ``"learned"`` (the verifier's claim-level model when it has one; the default) or
            ``"rule"`` (the best trustworthy sentence decides by the NEI threshold).
    """

    pages_k: int | None = None
    sentences_k: int | None = None
    two_hop: bool | None = None
    two_hop_threshold: float | None = None
    min_evidence_score: float | None = None
    nei_threshold: float | None = None
    verdict: str | None = None


@dataclass
class EvidenceResult:
    """An evidence sentence as the verifier judged it."""

    sentence: EvidenceSentence
    stance: Stance | None
    trusted: bool

    def view(self) -> EvidenceView:
        """What the learned verdict sees of it (and what its training runs record)."""
        sentence, stance = self.sentence, self.stance.to_dict() if self.stance else None
        return EvidenceView(sentence.score, sentence.hop, stance, premise_text(sentence.title, sentence.text))


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
        verdict: the aggregate verdict.
        timings: seconds spent per stage (``analysis``, ``fetch`` (live Wikipedia), ``documents``,
            ``sentences``, ``two_hop``, ``verification``, ``total``).
        warnings: what the reader should know about how the check was done, e.g. that live
            Wikipedia could not be reached and only cached pages were read.
    """

    claim: str
    corpus: str
    analysis: ClaimAnalysis
    pages: list[PageCandidate]
    sentences: list[EvidenceSentence]
    evidence: list[EvidenceResult]
    verdict: Verdict
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "claim": self.claim,
            "corpus": self.corpus,
            "analysis": self.analysis.to_dict(),
            "pages": [asdict(p) for p in self.pages],
            "sentences": [asdict(s) for s in self.sentences],
            "evidence": [
                {**asdict(e.sentence), "stance": e.stance.to_dict() if e.stance else None, "trusted": e.trusted}
                for e in self.evidence
            ],
            "verdict": self.verdict.to_dict(),
            "timings": self.timings,
            "warnings": self.warnings,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def fever_prediction(self, claim_id: int | str | None = None) -> dict:
        """A prediction line as the FEVER scorer reads it."""
        line: dict = {}
        if claim_id is not None:
            line["id"] = claim_id
        line["predicted_label"] = self.verdict.label
        line["predicted_evidence"] = [[e.sentence.page_id, e.sentence.line] for e in self.evidence]
        return line


def check_claim_text(claim: str) -> str:
    """Clean a typed claim, or raise :class:`ClaimError` saying what is wrong with it."""
    if not isinstance(claim, str):
        raise ClaimError("A claim must be text.")
    cleaned = clean_user_text(claim)
    if not cleaned:
        raise ClaimError("The claim is empty: type a sentence to check, e.g. 'Stanley Kubrick directed Lolita.'")
    if len(cleaned) > MAX_CLAIM_CHARS:
        raise ClaimError(
            f"The claim has {len(cleaned):,} characters; the limit is {MAX_CLAIM_CHARS:,}. "
            "Check one statement at a time."
        )
    if not any(ch.isalnum() for ch in cleaned):
        raise ClaimError("The claim has no words or numbers in it: type a sentence to check.")
    return cleaned


class Checker:
    """Checks claims against one corpus with one verifier.

    Args:
        workspace: the corpus and its indexes.
        verifier: the NLI model.
        retriever: ``"fused"`` (title + dense + lexical; default), ``"bm25"`` (lexical only) or
            ``"tfidf"`` (the FEVER baseline's DrQA-style TF-IDF) for pages and sentences.
        rule: the verifier's NEI decision rule and minimum evidence score (read from its config
            by :meth:`open`; plain argmax and 0.25 by default).
        aggregator: the verifier's learned claim-level verdict (``aggregator.json`` beside it, read by
            :meth:`open`); ``None`` means the rule decides. It was trained on the ``fused`` retriever's
            selection scores, so the baselines' checks, a check that overrides ``nei_threshold`` and
            the oracle mode use the rule.
        joint_verifier: the model that reads the top evidence together with the claim; its
            probabilities are mixed into the aggregator's (``None``: the aggregator alone).
    """

    def __init__(
        self,
        workspace: Workspace,
        verifier: NliModel,
        retriever: str = "fused",
        rule: DecisionRule | None = None,
        aggregator: LearnedAggregator | None = None,
        joint_verifier: NliModel | None = None,
    ):
        if retriever not in RETRIEVERS:
            raise ValueError(f"Unknown retriever {retriever!r}: choose one of {', '.join(RETRIEVERS)}.")
        self.workspace = workspace
        self.settings = workspace.settings
        self.verifier = verifier
        self.retriever = retriever
        self.rule = rule or DecisionRule()
        self.aggregator = aggregator if retriever == "fused" else None
        self.joint_verifier = joint_verifier if self.aggregator is not None else None
        store, dense = workspace.store, workspace.dense
        if retriever == "fused":
            self.documents = FusedDocumentRetriever(store, dense)
            self.selector = DenseSentenceSelector(store, dense, _load_cross_encoder(self.settings))
        elif retriever == "bm25":
            self.documents = Bm25DocumentRetriever(store)
            self.selector = Bm25SentenceSelector(store)
        else:
            from fever_core.retrieval.tfidf import TfidfRetriever

            tfidf = TfidfRetriever.build_or_load(workspace)
            self.documents = tfidf
            self.selector = tfidf

    @classmethod
    def open(
        cls, corpus: str = "embedded", settings: Settings | None = None, retriever: str = "fused", progress: bool = True
    ) -> Checker:
        """A checker for a named corpus (built first if needed) with the configured verifier (and
        joint verifier, loaded when the verifier's aggregator gives it a weight)."""
        settings = settings or Settings.from_env()
        workspace = Workspace.open(corpus, settings, progress=progress)
        verifier = NliModel.load(settings.verifier_model, settings.device)
        aggregator = LearnedAggregator.load(settings.verifier_model)
        joint = None
        if settings.joint_verifier_model and aggregator is not None and aggregator.joint_weight > 0:
            joint = NliModel.load(settings.joint_verifier_model, settings.device)
        return cls(workspace, verifier, retriever, load_decision_rule(settings.verifier_model), aggregator, joint)

    def check(self, claim: str, options: CheckOptions | None = None) -> CheckResult:
        """Check one claim. Raises :class:`ClaimError` for a claim that can't be checked."""
        options = options or CheckOptions()
        settings = self.settings
        pages_k = options.pages_k or settings.pages_k
        sentences_k = options.sentences_k or settings.sentences_k
        use_two_hop = settings.two_hop if options.two_hop is None else options.two_hop
        timings: dict[str, float] = {}
        started = clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = round(timings.get(stage, 0.0) + now - clock, 4)
            clock = now

        claim = check_claim_text(claim)
        analysis = analyse_claim(claim)
        claim_vector = self.workspace.dense.embed([claim])[0] if self.retriever == "fused" else None
        lap("analysis")
        fetched = [self._prepared(self.workspace.prepare(analysis))]
        lap("fetch")
        pages = self.documents.retrieve(analysis, claim_vector, k=max(pages_k, PAGES_SHOWN))
        for rank, page in enumerate(pages):
            page.used = rank < pages_k
        lap("documents")
        ranked = self.selector.select(claim, claim_vector, [p.page_id for p in pages if p.used])
        lap("sentences")
        if use_two_hop and self.retriever == "fused":
            threshold = options.two_hop_threshold if options.two_hop_threshold is not None else settings.two_hop_threshold
            fetched.append(self._prepared(self.workspace.prepare_links(ranked[:sentences_k], threshold)))
            lap("fetch")
            hop2 = second_hop(self.workspace.store, self.workspace.dense, claim, ranked[:sentences_k], threshold)
            ranked = merge_hops(ranked, hop2)
            pages = rank_linked_pages(pages, ranked[:sentences_k], {e.page_id: e.title for e in hop2})
        lap("two_hop")
        evidence, verdict = self._verify(claim, ranked[:sentences_k], options)
        lap("verification")
        timings["total"] = round(time.perf_counter() - started, 4)
        return CheckResult(
            claim, self.workspace.name, analysis, pages, ranked[:SENTENCES_SHOWN], evidence, verdict, timings,
            [warning for report in fetched for warning in report.warnings],
        )

    def _prepared(self, report: FetchReport) -> FetchReport:
        """Tell the page retriever when the (live) corpus gained pages: its title table is read once."""
        if report.grew and isinstance(self.documents, FusedDocumentRetriever):
            self.documents.reload_titles()
        return report

    def verify_evidence(self, claim: str, evidence: list[EvidenceSentence], options: CheckOptions | None = None) -> CheckResult:
        """Verify a claim against given evidence (no retrieval): the "oracle" mode of evaluation."""
        claim = check_claim_text(claim)
        started = time.perf_counter()
        results, verdict = self._verify(claim, evidence, options or CheckOptions(), trust_all=True)
        elapsed = round(time.perf_counter() - started, 4)
        return CheckResult(
            claim, self.workspace.name, ClaimAnalysis(claim), [], evidence, results, verdict,
            {"verification": elapsed, "total": elapsed},
        )

    def _verify(
        self, claim: str, evidence: list[EvidenceSentence], options: CheckOptions, trust_all: bool = False
    ) -> tuple[list[EvidenceResult], Verdict]:
        min_score = self.rule.min_evidence_score if options.min_evidence_score is None else options.min_evidence_score
        threshold = self.rule.nei_threshold if options.nei_threshold is None else options.nei_threshold
        trusted = [trust_all or e.score >= min_score for e in evidence]
        pairs = [(premise_text(e.title, e.text), claim) for e, ok in zip(evidence, trusted) if ok]
        if trust_all and len(pairs) > 1:
            # a gold evidence group is read as one premise, as the verifier was trained on it; its
            # stance is reported on the group's first sentence
            joined = self.verifier.predict([(" ".join(p for p, _ in pairs), claim)])[0]
            stances = [Stance.from_row(joined)] + [None] * (len(evidence) - 1)
            trusted = [True] + [False] * (len(evidence) - 1)
        else:
            probs = iter(self.verifier.predict(pairs) if pairs else [])
            stances = [Stance.from_row(next(probs)) if ok else None for ok in trusted]
        names = [f"{e.title}, sentence {e.line}" for e in evidence]
        results = [EvidenceResult(e, s, ok) for e, s, ok in zip(evidence, stances, trusted)]
        learned = options.verdict != "rule" and options.nei_threshold is None
        if self.aggregator is not None and learned and not trust_all:
            views = [result.view() for result in results]
            joint = None
            if self.joint_verifier is not None and views:
                joint = self.joint_verifier.predict([(joint_premise([v.text for v in views]), claim)])[0]
            verdict = aggregate_learned(self.aggregator, claim, views, names, joint)
        else:
            verdict = aggregate(stances, names, threshold)
        return results, verdict


def _load_cross_encoder(settings: Settings):
    """The configured sentence re-ranker (a sentence-transformers CrossEncoder), or ``None``."""
    if not settings.selector_model:
        return None
    from sentence_transformers import CrossEncoder

    from fever_core.device import select_device
    from fever_core.model_paths import missing_local_model

    local = missing_local_model(settings.selector_model)
    if local is not None:
        raise FileNotFoundError(f"No sentence re-ranker at {local} (no config.json): fix FEVER_SELECTOR_MODEL, "
                                "or set it empty to select sentences without one.")
    try:
        model = CrossEncoder(settings.selector_model, device=select_device(settings.device))
    except OSError as exc:
        raise RuntimeError(
            f"Can't load the sentence re-ranker {settings.selector_model!r} (FEVER_SELECTOR_MODEL): it is not a "
            f"local model directory and is not in the Hugging Face cache, and the hub can't be reached "
            f"({exc.__class__.__name__}). Set FEVER_SELECTOR_MODEL= to select sentences without one."
        ) from exc
    if model.num_labels != 1:
        raise ValueError(
            f"The sentence re-ranker {settings.selector_model!r} has {model.num_labels} outputs; a re-ranker "
            "scores relevance with one (a sentence-transformers CrossEncoder such as an MS MARCO re-ranker)."
        )
    return model


__all__ = ["Checker", "CheckOptions", "CheckResult", "ClaimError", "NEI", "check_claim_text"]
