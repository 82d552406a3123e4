"""Minimal pairs for the joint verifier: one claim, the same retrieved sentences, with and without its gold evidence.

The joint verifier (:func:`~fever_core.training.joint.write_joint_pairs`) learns from end-to-end
runs, where a SUPPORTS / REFUTES claim nearly always finds its gold evidence and a NOT ENOUGH INFO claim
is a different claim. Nothing there makes it tell *this* claim with its evidence from this claim with
on-topic sentences only, the line between REFUTES and NOT ENOUGH INFO that the verdict misses most. A
minimal pair draws that line, as FEVER systems' NEI sampling from retrieved non-evidence sentences did:

- NOT ENOUGH INFO: the claim's top retrieved sentences once its gold sentences are taken out;
- the claim's label: the same sentences with one gold evidence set put in at a random place.

Both premises have :data:`~fever_core.verification.features.JOINT_EVIDENCE_K` sentences and are built
by :func:`~fever_core.verification.features.joint_premise`, as the pipeline builds them. Claims come
from a pair file with FEVER evidence pages (``nli/fever-paper-test.jsonl``); those whose gold sentences
are not in the corpus (so no end-to-end run could use them) get pairs too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fever_core.common.formats import evidence_sentences, iter_records
from fever_core.common.text import fever_to_plain, page_id_to_title, premise_text
from fever_core.common.types import NEI
from fever_core.training.runs import append_checks
from fever_core.verification.features import JOINT_EVIDENCE_K, joint_premise

if TYPE_CHECKING:
    from fever_core.pipeline import Checker

RETRIEVED_K = 10
"""Sentences kept per retrieval run: enough to fill a premise once the gold ones are taken out."""


@dataclass(frozen=True)
class GoldEvidence:
    """A SUPPORTS / REFUTES claim and its gold evidence.

    Attributes:
        claim: plain text.
        label: :data:`~fever_core.common.types.SUPPORTS` or :data:`~fever_core.common.types.REFUTES`.
        title: page title of the evidence set put into the labelled premise.
        sentences: that set's sentences, plain text, in order.
        all_sentences: every gold sentence of the claim (all its evidence sets), taken out of both premises.
    """

    claim: str
    label: str
    title: str
    sentences: tuple[str, ...]
    all_sentences: frozenset[str]


def gold_evidence(pairs_file: Path) -> list[GoldEvidence]:
    """Claims of a pair file (``premise`` = FEVER-tokenised evidence, split by :func:`evidence_sentences`;
    ``pages``) that have an evidence set on a single page, each claim once, in file order."""
    records: dict[str, list[dict[str, Any]]] = {}
    for _, record in iter_records(Path(pairs_file)):
        if record.get("label") != NEI:
            records.setdefault(fever_to_plain(record["hypothesis"]), []).append(record)
    out = []
    for claim, claim_records in records.items():
        single = [r for r in claim_records if len(r.get("pages") or []) == 1]
        if not single:
            continue
        every = frozenset(s for r in claim_records for s in evidence_sentences(r["premise"]))
        first = single[0]
        out.append(
            GoldEvidence(
                claim,
                first["label"],
                page_id_to_title(first["pages"][0]),
                tuple(evidence_sentences(first["premise"])),
                every,
            )
        )
    return out


def collect_retrieval_runs(
    checker: Checker, claims: Sequence[GoldEvidence], out: Path, k: int = RETRIEVED_K, progress: bool = True
) -> dict[str, list[str]]:
    """Retrieve the top ``k`` evidence premises (``"Title: sentence"``) of each claim, without
    verifying them, and append ``{"claim", "label", "texts"}`` lines to ``out`` (resumable,
    :func:`~fever_core.training.runs.append_checks`). Returns ``{claim: texts}`` for everything in ``out``."""
    from fever_core.pipeline import CheckOptions

    options = CheckOptions(sentences_k=k, min_evidence_score=float("inf"))  # judge nothing: retrieval only
    records = append_checks(
        checker,
        claims,
        out,
        lambda result: {"texts": [e.titled for e in result.evidence]},
        options,
        desc="retrieval runs",
        progress=progress,
    )
    return {r["claim"]: r["texts"] for r in records}


def _is_gold(text: str, gold: frozenset[str]) -> bool:
    return any(text.endswith(": " + sentence) for sentence in gold)


def minimal_pair(
    gold: GoldEvidence, retrieved: Sequence[str], rng: random.Random, k: int = JOINT_EVIDENCE_K
) -> list[dict[str, Any]]:
    """The two pair records (NEI first) for one claim, or none when its evidence set has ``k`` or more
    sentences or retrieval found fewer than ``k`` other sentences."""
    others = [text for text in retrieved if not _is_gold(text, gold.all_sentences)]
    if len(gold.sentences) >= k or len(others) < k:
        return []
    kept = others[: k - len(gold.sentences)]
    at = rng.randint(0, len(kept))
    with_gold = kept[:at] + [premise_text(gold.title, s) for s in gold.sentences] + kept[at:]
    return [
        {"premise": joint_premise(others, k), "hypothesis": gold.claim, "label": NEI, "source": "joint-minimal-nei"},
        {
            "premise": joint_premise(with_gold, k),
            "hypothesis": gold.claim,
            "label": gold.label,
            "source": "joint-minimal",
        },
    ]


def write_minimal_pairs(
    claims: Sequence[GoldEvidence], retrieved: dict[str, list[str]], out: Path, seed: int = 0
) -> int:
    """Write the minimal pairs of ``claims`` (those with a retrieval run) to ``out`` in the ``nli/``
    pair format; the gold evidence's places are drawn with ``seed``. Returns the pairs written."""
    rng = random.Random(seed)
    written = 0
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    with Path(out).open("w", encoding="utf-8") as fh:
        for gold in claims:
            for record in minimal_pair(gold, retrieved.get(gold.claim, []), rng):
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1
    return written
