"""Training sets for the verifier: labelled pairs from several files, completed with NOT ENOUGH INFO pairs.

Three kinds of input become :class:`~fever_core.common.formats.Pair` lists (:func:`build_training_pairs`):

- pair files (``nli/*.jsonl``), read as they are (:func:`~fever_core.common.formats.load_pairs`);
- NEI claim files (``{"id", "claim", "label"}``, the label NOT ENOUGH INFO, no premise): each claim is paired
  with retrieved, same-subject sentences (:mod:`fever_core.training.distractors`), as a FEVER system's
  retrieval would hand them to the verifier;
- FEVER claims files plus a sentence lookup: gold evidence gives SUPPORTS / REFUTES pairs
  (:func:`fever_claims_to_pairs`, the "retrain from annotations" path).

Premises are formatted exactly as the pipeline formats them at inference: each evidence sentence is
``premise_text(title, fever_to_plain(sentence))`` and several sentences are joined with one space.
Built pair sets are cached as jsonl in the cache folder given, so re-runs skip the retrieval work.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fever_core.common.formats import (
    Claim,
    DataFileError,
    Pair,
    evidence_premise,
    file_kind,
    iter_records,
    load_claims,
    load_pairs,
    read_written_pairs,
    write_pairs,
)
from fever_core.common.text import fever_to_plain, page_id_to_title
from fever_core.common.types import LABELS, NEI
from fever_core.training.augmentation import plain_style_pairs
from fever_core.training.distractors import (
    DistractorIndex,
    PoolSentence,
    evidence_pool,
    load_embedded_pool,
    nei_pairs,
    same_page_nei_pairs,
)
from fever_core.training.reserved import names_reserved, reserved_titles

if TYPE_CHECKING:
    import numpy as np

SentenceLookup = Callable[[str, int], "tuple[str, str] | None"]
"""``(page_id, line) -> (title, sentence text)``, or ``None`` when the sentence is unknown."""


# ---------------------------------------------------------------------------------------------
# FEVER claims + sentence lookup -> pairs


def fever_claims_to_pairs(
    claims: Sequence[Claim],
    lookup: SentenceLookup,
    distractors: Callable[[Claim], Sequence[tuple[str, str]]] | None = None,
    source: str = "fever-claims",
    all_sets: bool = False,
) -> list[Pair]:
    """Turn annotated FEVER claims into verifier pairs.

    Args:
        claims: from :func:`load_claims`.
        lookup: ``(page_id, line) -> (title, text) | None``; evidence sets with an unknown sentence are skipped.
        distractors: for NOT ENOUGH INFO claims, ``claim -> [(title, text), ...]`` non-evidence sentences
            to pair them with; ``None`` skips NEI claims.
        source: the pairs' ``source``.
        all_sets: one pair per complete evidence set instead of only the first complete set.

    Returns:
        SUPPORTS / REFUTES pairs from gold evidence, NEI pairs from distractors; claims whose evidence
        can't be looked up produce nothing.
    """
    pairs = []
    for claim in claims:
        if claim.label is None:
            continue  # an unlabelled claim (of a claim list) teaches nothing
        if claim.label == NEI:
            if distractors is not None:
                sentences = list(distractors(claim))
                if sentences:
                    pairs.append(Pair(evidence_premise(sentences), fever_to_plain(claim.claim), NEI, source))
            continue
        seen = set()
        for evidence_set in claim.evidence_sets():
            found = [lookup(page, line) for page, line in dict.fromkeys(evidence_set)]
            known = [item for item in found if item is not None]
            if len(known) < len(found):
                continue
            premise = evidence_premise(known)
            if premise in seen:
                continue
            seen.add(premise)
            pairs.append(Pair(premise, fever_to_plain(claim.claim), claim.label, source))
            if not all_sets:
                break
    return pairs


def fever_pages_lookup(path: Path) -> SentenceLookup:
    """A sentence lookup over a FEVER ``wiki-pages`` jsonl file (loaded into memory)."""
    from fever_core.corpus.sources.fever_jsonl import parse_lines_field

    table: dict[tuple[str, int], tuple[str, str]] = {}
    for number, record in iter_records(Path(path)):
        page_id = record.get("id")
        if not isinstance(page_id, str):
            raise DataFileError(f'{path}:{number}: expected a FEVER page with a string "id".')
        title = page_id_to_title(page_id)
        for sentence in parse_lines_field(page_id, record.get("lines") or ""):
            table[(page_id, sentence.line)] = (title, sentence.text)
    return lambda page_id, line: table.get((page_id, line))


# ---------------------------------------------------------------------------------------------
# a training set from several files, cached


@dataclass(frozen=True)
class DataSpec:
    """One input file and how many pairs to keep from it (``None`` = all).

    Written ``PATH`` or ``PATH:N`` on the command line.
    """

    path: Path
    max_pairs: int | None = None

    @classmethod
    def parse(cls, text: str, default_max: int | None = None) -> DataSpec:
        head, sep, tail = text.rpartition(":")
        if sep and tail.isdecimal():
            return cls(Path(head), int(tail))
        return cls(Path(text), default_max)


def balanced_subsample(pairs: Sequence[Pair], max_pairs: int | None, seed: int = 0) -> list[Pair]:
    """Up to ``max_pairs`` pairs, drawn round-robin over labels so classes stay as balanced as possible."""
    if max_pairs is None or len(pairs) <= max_pairs:
        return list(pairs)
    rng = random.Random(seed)
    by_label: dict[str, list[Pair]] = defaultdict(list)
    for pair in pairs:
        by_label[pair.label].append(pair)
    for group in by_label.values():
        rng.shuffle(group)
    out: list[Pair] = []
    queues = [by_label[label] for label in LABELS if by_label.get(label)]
    position = 0
    while len(out) < max_pairs:
        progressed = False
        for queue in queues:
            if position < len(queue) and len(out) < max_pairs:
                out.append(queue[position])
                progressed = True
        if not progressed:
            break
        position += 1
    rng.shuffle(out)
    return out


def _fingerprint(specs: Sequence[DataSpec], **params: object) -> str:
    h = hashlib.sha1()
    for spec in specs:
        stat = spec.path.stat()
        h.update(f"{spec.path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{spec.max_pairs}\n".encode())
    h.update(json.dumps(params, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def build_training_pairs(
    specs: Sequence[DataSpec],
    cache_dir: Path,
    seed: int = 0,
    nei_from_evidence_fraction: float = 0.5,
    nei_same_page_fraction: float = 0.0,
    nei_claims_pool_evidence: bool = False,
    plain_style_fraction: float = 0.0,
    corpus: Path | None = None,
    pool: Sequence[PoolSentence] | None = None,
) -> list[Pair]:
    """Load, complete with NEI pairs, subsample and cache a training set.

    Args:
        specs: input files. Pair files are read as they are; NEI claim files get retrieved distractors;
            FEVER claims files need ``corpus`` (a FEVER ``wiki-pages`` jsonl) to look up gold evidence.
        cache_dir: where the built set is cached (``pairs-<fingerprint>.jsonl``) along with the pool.
        seed: for subsampling and distractor counts.
        nei_from_evidence_fraction: for pair files with ``pages`` (FEVER evidence), this fraction of their
            claims is also paired with a similar, non-evidence pool sentence as NOT ENOUGH INFO
            (source ``<file source>-nei-mismatch``); that is what retrieval hands the verifier when it misses.
        nei_same_page_fraction: for the same files, this fraction of claims is also paired with the
            evidence of another claim about the same page, as NOT ENOUGH INFO (see :func:`same_page_nei_pairs`).
        nei_claims_pool_evidence: NEI claim files and the ``nei_from_evidence_fraction`` pairs draw their
            distractors from the embedded summaries **and** the evidence sentences of the pair files in
            ``specs`` (:func:`evidence_pool`), so NOT ENOUGH INFO premises are written like the SUPPORTS /
            REFUTES ones (FEVER text, VitaminC) and style says nothing about the label.
        plain_style_fraction: this fraction of each pair file's (subsampled) pairs is also added with the
            parenthetical asides removed from its premise (:func:`plain_style_pairs`), so that asides
            are no cue to the label.
        corpus: FEVER pages for FEVER claims files.
        pool: distractor sentences; default the embedded Wikipedia summaries (:func:`load_embedded_pool`).

    Returns:
        The pairs, each input file capped at its ``max_pairs`` (generated NEI pairs count separately,
        under their own source, capped at the same number), shuffled; none from a reserved page
        (:mod:`~fever_core.training.reserved`: its ``pages`` or its premise's titles).
    """
    reserved = reserved_titles()
    key = _fingerprint(
        specs,
        seed=seed,
        nei=nei_from_evidence_fraction,
        corpus=str(corpus),
        v=5,
        reserved=sorted(reserved),
        **({"same_page": nei_same_page_fraction} if nei_same_page_fraction else {}),
        **({"claims_pool": "evidence"} if nei_claims_pool_evidence else {}),
        **({"plain_style": plain_style_fraction} if plain_style_fraction else {}),
    )
    cache = Path(cache_dir) / f"pairs-{key}.jsonl"
    if cache.is_file() and pool is None:
        return read_written_pairs(cache)

    rng = random.Random(seed)
    indexes: dict[str, DistractorIndex] = {}

    def distractor_index(with_evidence: bool = False) -> DistractorIndex:
        key = "evidence" if with_evidence else "plain"
        if key not in indexes:
            base = list(pool if pool is not None else load_embedded_pool(cache_dir))
            if with_evidence:
                base += evidence_pool(
                    record for spec in specs if file_kind(spec.path) == "pairs" for _, record in iter_records(spec.path)
                )
            indexes[key] = DistractorIndex(base)
        return indexes[key]

    out: list[Pair] = []
    for spec in specs:
        kind = file_kind(spec.path)
        if kind == "pairs":
            raw = [
                (record, pair)
                for (_, record), pair in zip(iter_records(spec.path), load_pairs(spec.path))
                if not names_reserved(pair.premise, record.get("pages") or (), reserved)
            ]
            pairs = balanced_subsample([pair for _, pair in raw], spec.max_pairs, rng.randrange(1 << 30))
            out.extend(pairs)
            if plain_style_fraction > 0:
                out.extend(plain_style_pairs(pairs, plain_style_fraction, rng))
            with_pages = [(record, pair) for record, pair in raw if record.get("pages")]
            if with_pages and nei_from_evidence_fraction > 0:
                picked = rng.sample(with_pages, int(len(with_pages) * nei_from_evidence_fraction))
                if spec.max_pairs is not None:
                    picked = picked[: spec.max_pairs]
                source = f"{picked[0][1].source}-nei-mismatch" if picked else ""
                out.extend(
                    nei_pairs(
                        [pair.hypothesis for _, pair in picked],
                        distractor_index(with_evidence=nei_claims_pool_evidence),
                        source,
                        evidence=[fever_to_plain(record["premise"]) for record, _ in picked],
                        seed=rng.randrange(1 << 30),
                    )
                )
            if with_pages and nei_same_page_fraction > 0:
                records = [record for record, _ in with_pages]
                source = f"{with_pages[0][1].source}-nei-same-page"
                out.extend(same_page_nei_pairs(records, nei_same_page_fraction, rng, source))
        elif kind == "nei-claims":
            claims = [c for c in load_claims(spec.path) if c.label == NEI]
            rng.shuffle(claims)
            claims = claims[: spec.max_pairs] if spec.max_pairs is not None else claims
            source = f"{spec.path.stem.removesuffix('-claims')}-retrieved"
            index = distractor_index(with_evidence=nei_claims_pool_evidence)
            out.extend(nei_pairs([fever_to_plain(c.claim) for c in claims], index, source, seed=rng.randrange(1 << 30)))
        else:
            if corpus is None:
                raise DataFileError(
                    f"{spec.path} holds FEVER claims with evidence: give the FEVER pages file that holds "
                    "their evidence sentences (--corpus PATH)."
                )
            claims = load_claims(spec.path)
            lookup = fever_pages_lookup(corpus)
            sr = fever_claims_to_pairs(claims, lookup, source=spec.path.stem)
            out.extend(balanced_subsample(sr, spec.max_pairs, rng.randrange(1 << 30)))
            nei_claims = [fever_to_plain(c.claim) for c in claims if c.label == NEI]
            if nei_claims:
                out.extend(nei_pairs(nei_claims[: spec.max_pairs], distractor_index(), f"{spec.path.stem}-retrieved"))
    out = [pair for pair in out if not names_reserved(pair.premise, (), reserved)]
    rng.shuffle(out)
    if pool is None:
        write_pairs(cache, out)
    return out


def split_dev(pairs: Sequence[Pair], fraction: float, seed: int = 0) -> tuple[list[Pair], list[Pair]]:
    """Split into (train, dev) by claim: every pair of one hypothesis lands on the same side.

    Deterministic for a given ``seed``; ``fraction`` in [0, 1) is the dev share of hypotheses.
    """
    train: list[Pair] = []
    dev: list[Pair] = []
    for pair in pairs:
        (dev if in_dev_split(pair.hypothesis, fraction, seed) else train).append(pair)
    return train, dev


def page_split(title: str, heldout_percent: int) -> str:
    """``"heldout"`` for about ``heldout_percent`` % of pages (a stable hash of the title), else ``"train"``."""
    digest = int(hashlib.sha1(title.encode("utf-8")).hexdigest()[:8], 16)
    return "heldout" if digest % 100 < heldout_percent else "train"


def in_dev_split(hypothesis: str, fraction: float, seed: int = 0) -> bool:
    """Whether :func:`split_dev` puts the pairs of this hypothesis (claim) on the dev side."""
    digest = hashlib.sha1(f"{seed}|{hypothesis}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < fraction


def label_ids(pairs: Sequence[Pair]) -> np.ndarray:
    """Gold labels as indices into :data:`LABELS`."""
    import numpy as np

    return np.array([LABELS.index(p.label) for p in pairs], dtype=np.int64)
