"""FEVER's file formats: claims files and (premise, hypothesis) pair files, read and written in one place.

- A **claims file** holds one claim a line as FEVER writes it and the official scorer reads it:
  ``{"id", "claim", "label", "evidence": [[[annotation_id, evidence_id, page, line], ...], ...]}``;
  an NOT ENOUGH INFO claims file may leave ``evidence`` out.
- A **claim list** is what a batch check reads (:mod:`~fever_core.common.claim_lists`).
- A **pair file** (``nli/*.jsonl``) holds one labelled verifier example a line:
  ``{"premise", "hypothesis", "label", "source", ["pages"]}``.

Premises are formatted here as the pipeline formats evidence at inference (``"Title: sentence"``, FEVER
tokens turned back into plain text), so training and inference read the same text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.jsonl import read_jsonl, write_jsonl
from fever_core.common.text import fever_to_plain, page_id_to_title, premise_text
from fever_core.common.types import LABELS


class DataFileError(ValueError):
    """A claims or pair file is missing or malformed; the message names the file and line."""


MAX_LINE = 2**63 - 1
"""The largest line number (a sentence's index in its page) that a corpus store holds: SQLite's largest integer."""


def line_number(value: str | int) -> int:
    """``value`` as a line number, or a ValueError saying it is not one (not a whole number, or beyond
    :data:`MAX_LINE` either way)."""
    number = int(value)
    if not -MAX_LINE <= number <= MAX_LINE:
        raise ValueError(f"line {number} is out of range (at most {MAX_LINE:,})")
    return number


def iter_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-blank line; bad lines raise :class:`DataFileError`."""
    return read_jsonl(path, error=DataFileError)


def checked_label(path: Path, number: int, label: object) -> str:
    """``label`` when it is one of :data:`~fever_core.common.types.LABELS`, else :class:`DataFileError` naming
    ``path:number``."""
    if label not in LABELS:
        raise DataFileError(f"{path}:{number}: label {label!r} is not one of {', '.join(LABELS)}.")
    return label


# ---------------------------------------------------------------------------------------------
# claims files


@dataclass(frozen=True)
class Claim:
    """A claim from a FEVER claims file.

    Attributes:
        id: FEVER's claim id (the line number when the file has none).
        claim: the claim text as written in the file.
        label: one of :data:`~fever_core.common.types.LABELS`; ``None`` for an unlabelled claim (of a claim list).
        evidence: FEVER's ``evidence`` field as in the file: sets of ``[annotation_id, evidence_id, page, line]``.
    """

    id: int | str
    claim: str
    label: str | None
    evidence: list[Any] = field(default_factory=list[Any])

    def evidence_sets(self) -> tuple[tuple[tuple[str, int], ...], ...]:
        """The evidence sets as ``(page_id, line)`` pairs; items without a page (NEI) and empty sets left out.

        Raises:
            TypeError, ValueError: the evidence is not sets of ``[annotation_id, evidence_id, page, line]``, or a
                line is not a line number (:func:`line_number`).
        """
        sets = []
        for evidence_set in self.evidence:
            items = tuple((str(page), line_number(line)) for _, _, page, line in evidence_set if page is not None)
            if items:
                sets.append(items)
        return tuple(sets)

    def to_fever(self) -> dict[str, Any]:
        """The claim as a FEVER record (what the official scorer reads as gold)."""
        return {"id": self.id, "claim": self.claim, "label": self.label, "evidence": self.evidence}


def load_claims(path: str | Path, limit: int | None = None, sample: int | None = None, seed: int = 0) -> list[Claim]:
    """Read a FEVER claims file (or an NOT ENOUGH INFO claims file, whose claims have no evidence).

    Args:
        limit: keep only the first ``limit`` claims (files are often sorted by label: see ``sample``).
        sample: keep a random sample of this many claims, in file order (reproducible with ``seed``).

    Raises:
        DataFileError: naming ``file:line`` for a claim without text or label, or with malformed evidence.
    """
    path = Path(path)
    claims = []
    for number, record in iter_records(path):
        text = record.get("claim")
        if not isinstance(text, str) or not text.strip():
            raise DataFileError(f'{path}:{number}: a claim needs a non-empty "claim" and a "label" (FEVER format).')
        claims.append(
            checked_evidence(
                str(path),
                number,
                Claim(
                    claim_id_of(str(path), number, record.get("id")),
                    text,
                    checked_label(path, number, record.get("label")),
                    record.get("evidence") or [],
                ),
            )
        )
        if limit is not None and len(claims) >= limit:
            break
    if sample is not None and sample < len(claims):
        keep = sorted(random.Random(seed).sample(range(len(claims)), sample))
        claims = [claims[i] for i in keep]
    return claims


def sample_across_labels(claims: Sequence[Claim], size: int, seed: int = 0) -> list[Claim]:
    """A reproducible sample of ``size`` claims, as even across the labels as they allow, in file order.

    Each label (and the unlabelled claims, as one more group) gets an equal share of ``size``; a label with
    fewer claims than its share gives them all, and the rest is shared among the others. Within a label the
    claims are drawn at random with ``seed``. All the claims when ``size`` is 0 or at least their number.
    """
    if not size or size >= len(claims):
        return list(claims)
    groups: dict[str | None, list[int]] = {}
    for index, claim in enumerate(claims):
        groups.setdefault(claim.label, []).append(index)
    order = sorted(groups, key=lambda label: LABELS.index(label) if label in LABELS else len(LABELS))
    quota = dict.fromkeys(order, 0)
    left = size
    while left:
        open_groups = [label for label in order if quota[label] < len(groups[label])]
        share, extra = divmod(left, len(open_groups))
        for number, label in enumerate(open_groups):
            quota[label] += min(share + (number < extra), len(groups[label]) - quota[label])
        left = size - sum(quota.values())
    rng = random.Random(seed)
    kept = sorted(index for label in order for index in rng.sample(groups[label], quota[label]))
    return [claims[index] for index in kept]


def claim_id_of(name: str, number: int, claim_id: object) -> int | str:
    """A claim's id: ``claim_id`` when it is a whole number or a text, the line ``number`` when there is none (absent,
    ``null`` or ""), else :class:`DataFileError` naming ``name:number``."""
    if claim_id is None or claim_id == "":
        return number
    if isinstance(claim_id, str) or (isinstance(claim_id, int) and not isinstance(claim_id, bool)):
        return claim_id
    raise DataFileError(
        f"{name}:{number}: the id {claim_id!r} is neither a whole number nor a text: give the claim "
        "one that is (or none: its line number is then its id)."
    )


def checked_evidence(name: str, number: int, claim: Claim) -> Claim:
    """``claim`` if its evidence reads (:meth:`Claim.evidence_sets`), else :class:`DataFileError` naming ``name:number``."""
    try:
        claim.evidence_sets()
    except (TypeError, ValueError) as exc:
        raise DataFileError(
            f"{name}:{number}: evidence must be a list of sets of [annotation_id, evidence_id, page, line] ({exc})."
        ) from None
    return claim


# ---------------------------------------------------------------------------------------------
# pair files


@dataclass(frozen=True)
class Pair:
    """One labelled example for the verifier.

    Attributes:
        premise: evidence text as the model sees it (``"Title: sentence"`` joined with spaces).
        hypothesis: the claim, plain text.
        label: one of :data:`~fever_core.common.types.LABELS`.
        source: where it came from (``"fever-paper-test"``, ``"fever-nei-retrieved"``, ``"snli-dev"`` ...).
    """

    premise: str
    hypothesis: str
    label: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def file_kind(path: Path) -> str:
    """``"pairs"``, ``"nei-claims"`` or ``"fever-claims"``, judged from the first record's fields."""
    for number, record in iter_records(path):
        if "premise" in record:
            return "pairs"
        if "evidence" in record and "claim" in record:
            return "fever-claims"
        if "claim" in record:
            return "nei-claims"
        raise DataFileError(
            f'{path}:{number}: can\'t tell the file\'s format: expected "premise"/"hypothesis" (pairs), '
            '"claim"+"evidence" (FEVER claims) or "claim" alone (NEI claims).'
        )
    raise DataFileError(f"{path} is empty.")


def pair_premise(premise: str, pages: Sequence[str] | None) -> str:
    """Format a pair file's premise: prefixed with the first evidence page's title when pages are known."""
    text = fever_to_plain(premise)
    if pages:
        return premise_text(page_id_to_title(pages[0]), text)
    return text


def evidence_premise(sentences: Sequence[tuple[str, str]]) -> str:
    """Join ``(title, sentence)`` evidence as the pipeline does: ``"Title: sentence"`` with single spaces."""
    return " ".join(premise_text(title, fever_to_plain(text)) for title, text in sentences)


_SENTENCE_BREAK = re.compile(r"(?<= \.) +")


def evidence_sentences(premise: str) -> list[str]:
    """The sentences of a pair file's premise, plain text. The premise is FEVER-tokenised evidence
    sentences, each ending with a spaced full stop, joined with a space (``"A b . C d ."``)."""
    return [fever_to_plain(s).strip() for s in _SENTENCE_BREAK.split(premise) if s.strip()]


def load_pairs(path: Path) -> list[Pair]:
    """Read an ``nli/*.jsonl`` pair file.

    Premises are formatted with :func:`pair_premise`; hypotheses go through ``fever_to_plain``.
    Raises :class:`DataFileError` naming ``file:line`` for a malformed line.
    """
    path = Path(path)
    pairs = []
    for number, record in iter_records(path):
        premise, hypothesis = record.get("premise"), record.get("hypothesis")
        if (
            not isinstance(premise, str)
            or not isinstance(hypothesis, str)
            or not premise.strip()
            or not hypothesis.strip()
        ):
            raise DataFileError(f'{path}:{number}: expected non-empty string fields "premise" and "hypothesis".')
        label = checked_label(path, number, record.get("label"))
        pages = record.get("pages")
        if pages is not None and not (isinstance(pages, list) and all(isinstance(p, str) for p in pages)):
            raise DataFileError(f'{path}:{number}: "pages" must be a list of page ids.')
        source = str(record.get("source") or path.stem)
        pairs.append(Pair(pair_premise(premise, pages), fever_to_plain(hypothesis), label, source))
    return pairs


def write_pairs(path: Path, pairs: Iterable[Pair]) -> None:
    """Write pairs as jsonl (atomically: a partial file never replaces a good one)."""
    write_jsonl(path, (pair.to_dict() for pair in pairs))


def read_written_pairs(path: Path) -> list[Pair]:
    """Read pairs written by :func:`write_pairs` (already formatted; no re-formatting)."""
    return [Pair(r["premise"], r["hypothesis"], r["label"], r["source"]) for _, r in iter_records(path)]


__all__ = [
    "MAX_LINE",
    "Claim",
    "DataFileError",
    "Pair",
    "checked_evidence",
    "checked_label",
    "claim_id_of",
    "evidence_premise",
    "evidence_sentences",
    "file_kind",
    "iter_records",
    "line_number",
    "load_claims",
    "load_pairs",
    "pair_premise",
    "read_written_pairs",
    "write_pairs",
]
