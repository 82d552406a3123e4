"""Improving the verifier with people's annotations: a new model version, compared with its base.

The annotations database (:mod:`fever_core.workbench.annotation`) holds claims with the label and the evidence
sentences people chose on a corpus. :func:`improve_verifier` turns them into verifier pairs as the
pipeline reads them (``"Title: sentence"`` from the corpus the annotations were made on, any corpus,
the embedded one included; a NOT ENOUGH INFO claim is paired with the sentences the checker retrieves
for it, which by the annotator's word do not settle it), holds part of the claims out (by a hash of
the claim), fine-tunes the current verifier on the rest into a new version folder, keeps the base's
learned verdict (``verdict.json``, with its joint verifier weight) and its NOT ENOUGH
INFO rule, and compares base and new model on the held-out annotations and the yardsticks this
machine has (the hand-written claims about the embedded corpus; FeverSymmetric and the generated
embedded pairs where their files are here). Nothing is overwritten: see :mod:`fever_core.common.model_versions`.

Run ``python -m fever_core train improve`` (:mod:`fever_core.cli.train`) or the app's Models page.
"""

from __future__ import annotations

import logging
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from fever_core.common.formats import Claim, Pair, load_claims, load_pairs, write_pairs
from fever_core.common.model_versions import ModelVersion, next_version_dir, write_version
from fever_core.common.settings import HAND_CLAIMS, SHARED_DATA_DIR, Settings
from fever_core.common.types import NEI
from fever_core.corpus.build import STORE_FILE, corpus_dir
from fever_core.evaluation.pairs import evaluate_pairs
from fever_core.pipeline import Checker, ClaimError
from fever_core.training.pairs import fever_claims_to_pairs
from fever_core.training.verdict import in_holdout
from fever_core.training.verifier import train_verifier
from fever_core.training.verifier_config import TrainConfig
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.learned import VERDICT_FILE, verdict_file
from fever_core.verification.model_integrity import record_checksums
from fever_core.workbench.annotation import Annotation, AnnotationStore
from fever_core.workspace import Workspace, open_workspace

log = logging.getLogger(__name__)

PAIR_YARDSTICKS = {  # name -> (file, most pairs read): the pair sets compared on when this machine has them
    "FeverSymmetric dev (pairs)": (SHARED_DATA_DIR / "nli" / "fever-symmetric-dev.jsonl", 708),
    "generated embedded held-out (pairs)": (Path("training") / "embedded-generated" / "heldout.jsonl", 1000),
}
NEI_PREMISES_PER_CLAIM = 2
Progress = Callable[[str, float], None]
"""Called with what the run is doing and how far along that stage is, in [0, 1]."""


@dataclass(frozen=True)
class ImproveConfig:
    """One run of :func:`improve_verifier`.

    Attributes:
        annotations: the annotations database (``annotations.sqlite`` in the data folder).
        corpus: the corpus the annotations were made on (their evidence is read from it).
        base_model: the verifier to fine-tune (a local folder: the shipped one or a version).
        heldout_fraction: share of the annotated claims held out (by a hash of the claim) to compare on.
            Default 0.25.
        epochs: passes over the annotation pairs. Default 4.
        lr: peak learning rate. Default 3e-5.
        batch_size: pairs per step. Default 8.
        seed: the hold-out and the training order.
        include_ambiguous: learn from annotations marked ambiguous too. Default no.
    """

    annotations: Path
    corpus: str
    base_model: str
    heldout_fraction: float = 0.25
    epochs: int = 4
    lr: float = 3e-5
    batch_size: int = 8
    seed: int = 13
    include_ambiguous: bool = False


@dataclass
class ImproveResult:
    """What a run made: the new version (with its comparison table) and the pairs it learned from."""

    version: ModelVersion
    train_pairs: dict[str, int] = field(default_factory=dict)


def split_annotations(
    annotations: Sequence[Annotation], fraction: float, seed: int
) -> tuple[list[Annotation], list[Annotation]]:
    """``(train, heldout)`` by a hash of each claim, so a claim is on one side whatever else is annotated."""
    train: list[Annotation] = []
    heldout: list[Annotation] = []
    for a in annotations:
        (heldout if in_holdout(a.claim, fraction, seed) else train).append(a)
    return train, heldout


def as_claim(annotation: Annotation) -> Claim:
    evidence = [
        [[annotation.annotation_id, None, page, line] for page, line in group] for group in annotation.evidence_sets
    ]
    return Claim(annotation.claim_id, annotation.claim, annotation.label, evidence)


def annotation_pairs(annotations: Sequence[Annotation], checker: Checker) -> list[Pair]:
    """Verifier pairs from annotations, premises formatted as at inference: each SUPPORTS / REFUTES evidence
    set read from the checker's corpus; each NOT ENOUGH INFO claim with the top sentences the checker retrieves
    for it (up to :data:`NEI_PREMISES_PER_CLAIM`)."""
    store = checker.workspace.store

    def lookup(page_id: str, line: int) -> tuple[str, str] | None:
        page = store.page(page_id)
        if page is None:
            return None
        sentence = next((s for s in page.sentences if s.line == line), None)
        return (page.title, sentence.text) if sentence else None

    decided = [as_claim(a) for a in annotations if a.label != NEI]
    pairs = fever_claims_to_pairs(decided, lookup, source="annotations", all_sets=True)
    undecided = [a.claim for a in annotations if a.label == NEI]
    for claim, outcome in zip(undecided, checker.check_many(undecided) if undecided else []):
        if isinstance(outcome, ClaimError):
            continue
        for evidence in outcome.evidence[:NEI_PREMISES_PER_CLAIM]:
            pairs.append(Pair(evidence.premise, claim, NEI, "annotations-nei"))
    return pairs


def claim_accuracy(checker: Checker, claims: Sequence[tuple[str, str | None]]) -> float | None:
    """Label accuracy of the checker's verdicts on ``(claim, gold label)``; None without claims."""
    if not claims:
        return None
    outcomes = checker.check_many([text for text, _ in claims])
    right = sum(not isinstance(o, ClaimError) and o.verdict.label == gold for o, (_, gold) in zip(outcomes, claims))
    return right / len(claims)


@dataclass
class _Yardsticks:
    """What a model is compared on, read once: held-out annotations, hand claims, pair sets."""

    heldout: list[tuple[str, str]]
    hand_claims: list[tuple[str, str | None]]
    pair_sets: dict[str, list[Pair]]

    @classmethod
    def read(cls, heldout: Sequence[Annotation], data_dir: Path, seed: int) -> _Yardsticks:
        hand = [(c.claim, c.label) for c in load_claims(HAND_CLAIMS)] if HAND_CLAIMS.is_file() else []
        pair_sets = {}
        for name, (path, most) in PAIR_YARDSTICKS.items():
            path = path if path.is_absolute() else data_dir / path
            if path.is_file():
                pairs = load_pairs(path)
                pair_sets[name] = random.Random(seed).sample(pairs, min(most, len(pairs)))
        return cls([(a.claim, a.label) for a in heldout], hand, pair_sets)

    def scores(self, checker: Checker, embedded: Checker | None) -> dict[str, tuple[int, float | None]]:
        """Each yardstick's size and accuracy: claims checked end to end, pairs by the checker's verifier with the
        NOT ENOUGH INFO rule it ships with."""
        rows = {"held-out annotations (claims)": (len(self.heldout), claim_accuracy(checker, self.heldout))}
        if embedded is not None and self.hand_claims:
            rows["hand claims on the embedded corpus"] = (
                len(self.hand_claims),
                claim_accuracy(embedded, self.hand_claims),
            )
        verification = checker.verification
        for name, pairs in self.pair_sets.items():
            report = evaluate_pairs(verification.verifier, pairs, nei_threshold=verification.policy.nei_threshold)
            rows[name] = (len(pairs), report.accuracy)
        return rows


def _checkers(
    workspace: Workspace, embedded: Workspace | None, settings: Settings, model: str
) -> tuple[Checker, Checker | None]:
    """A checker on the annotations' corpus and one on the embedded corpus (the same when that is it)."""
    verifier = ClaimVerifier.load(replace(settings, verifier_model=model))
    checker = Checker(workspace, verifier)
    if embedded is None:
        return checker, None
    return checker, checker if embedded is workspace else Checker(embedded, verifier)


def improve_verifier(config: ImproveConfig, settings: Settings, progress: Progress | None = None) -> ImproveResult:
    """Fine-tune ``config.base_model`` on the annotations into a new version folder and compare the two.

    Raises:
        ValueError: when there is no annotation to learn from (none saved, or all held out or ambiguous),
            or the base model is not a local folder.
    """
    started = time.time()
    say = progress or (lambda stage, done: None)
    if not (Path(config.base_model) / "config.json").is_file():
        raise ValueError(f"{config.base_model} is not a local verifier folder: improve one on this machine.")
    say("reading the annotations", 0.0)
    annotations = [
        a for a in AnnotationStore(config.annotations).annotations() if config.include_ambiguous or not a.ambiguous
    ]
    train, heldout = split_annotations(annotations, config.heldout_fraction, config.seed)
    if not train:
        raise ValueError(
            f"No annotations to learn from in {config.annotations} ({len(annotations)} usable, "
            f"{len(heldout)} of them held out to compare on): annotate more claims first."
        )
    workspace = open_workspace(config.corpus, settings, progress=False)
    embedded = None  # the hand claims are compared on the embedded corpus when it is built here (never built for it)
    if config.corpus == "embedded":
        embedded = workspace
    elif (corpus_dir(settings.data_dir, "embedded") / STORE_FILE).is_file():
        embedded = open_workspace("embedded", settings, progress=False)
    yardsticks = _Yardsticks.read(heldout, settings.data_dir, config.seed)

    say("checking with the current verifier", 0.1)
    before_checker, before_embedded = _checkers(workspace, embedded, settings, config.base_model)
    pairs = annotation_pairs(train, before_checker)
    if not pairs:
        raise ValueError(
            "None of the annotations' evidence is in the corpus "
            f"{config.corpus!r}: choose the corpus they were made on."
        )
    before = yardsticks.scores(before_checker, before_embedded)

    out = next_version_dir(settings.data_dir)
    out.mkdir(parents=True)
    pairs_file = out / "annotation-pairs.jsonl"
    write_pairs(pairs_file, pairs)
    say("fine-tuning", 0.3)
    trained = train_verifier(
        TrainConfig(
            data=[str(pairs_file)],
            out=out,
            init=config.base_model,
            epochs=config.epochs,
            batch_size=config.batch_size,
            lr=config.lr,
            seed=config.seed,
            dev_fraction=0.0,
            nei_from_evidence_fraction=0.0,
            checkpoint_every=10_000,
            cache_dir=out / "cache",
            threads=2,
        ),
        on_step=lambda step, total: say("fine-tuning", 0.3 + 0.4 * step / total),
    )
    shutil.rmtree(out / "cache", ignore_errors=True)
    base_verdict = verdict_file(config.base_model)
    if base_verdict is not None:
        shutil.copy2(base_verdict, out / VERDICT_FILE)
        record_checksums(out, [VERDICT_FILE])  # beside the weights' (train_verifier): the verdict needs it

    say("checking with the new verifier", 0.7)
    after_checker, after_embedded = _checkers(workspace, embedded, settings, str(out))
    after = yardsticks.scores(after_checker, after_embedded)
    table = [
        {"name": name, "n": n, "before": before[name][1], "after": after[name][1]} for name, (n, _) in before.items()
    ]
    version = ModelVersion(
        out.name,
        out,
        str(config.base_model),
        started,
        {"train": len(train), "heldout": len(heldout)},
        table,
        round(time.time() - started, 1),
    )
    write_version(version)
    say("done", 1.0)
    log.info("%s: %d annotations learned from, %d held out, %.0f s", out, len(train), len(heldout), version.wall_s)
    return ImproveResult(version, trained.train_pairs)
