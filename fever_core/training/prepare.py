"""Training files derived from the shared data: FEVER's training split with page titles, VitaminC split by page.

Two jobs, each writing pair files that :func:`~fever_core.training.pairs.load_pairs` reads as they are:

- **Titles for FEVER's training split.** ``nli/fever-train.jsonl`` has no page titles, while every premise the
  verifier sees at inference starts with one (``"Title: sentence"``), and every other training source has them.
  Trained as they are, the 109k untitled SUPPORTS / REFUTES premises would teach the verifier that a titled
  premise is more likely NOT ENOUGH INFO (retrieved distractors are titled), the very shortcut that made it
  answer NOT ENOUGH INFO to plain claims about the embedded corpus. FEVER claims are written about one page's
  subject, so the claim's grammatical subject (:func:`claim_subject`) is a good guess at the first evidence
  page's title ("Nikolaj Coster-Waldau worked with the Fox Broadcasting Company." -> ``Nikolaj Coster-Waldau``);
  it is written to ``"pages"`` with ``"title_guessed": true``. Claims with no subject to find keep no title.
- **A held-out part of VitaminC by page.** ``nli/vitaminc-real.jsonl`` is split by a stable hash of the page
  title (:func:`~fever_core.training.pairs.page_split`), so no held-out page is ever trained on.

Run ``python -m fever_core train prepare-data`` (about 3 minutes on 2 cores, mostly parsing claims).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from fever_core.common.formats import iter_records
from fever_core.common.jsonl import write_jsonl
from fever_core.common.text import fever_to_plain
from fever_core.training.pairs import page_split

if TYPE_CHECKING:
    from spacy.tokens import Doc

VITAMINC_HELDOUT_PERCENT = 12
"""Share of VitaminC-real pages (by a hash of the title) kept out of training, about one in eight."""
MAX_TITLE_TOKENS = 8
"""A longer subject is more likely a clause than a page title; such claims keep no title."""
_SUBJECTS = ("nsubj", "nsubjpass")
_CUT = {"relcl", "acl", "appos", "punct", "cc", "conj", "advcl", "parataxis"}


def claim_subject(doc: Doc) -> str | None:
    """The claim's subject phrase as a page-title guess, or its first named entity, else ``None``.

    The subject is the root verb's ``nsubj`` with its modifiers ("History of art" in "History of art
    includes ..."), cut before a relative clause, apposition or comma; a pronoun or a subject longer than
    :data:`MAX_TITLE_TOKENS` is no title.
    """
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subject = next((t for t in root.children if t.dep_ in _SUBJECTS), None) if root is not None else None
    if subject is not None and subject.pos_ != "PRON":
        tokens = [subject]
        for child in subject.children:
            if child.dep_ not in _CUT:
                tokens.extend(child.subtree)
        tokens = [t for t in sorted(tokens, key=lambda t: t.i) if t.dep_ not in _CUT or t is subject]
        start, end = tokens[0].i, tokens[-1].i + 1
        while doc[start:end].text.count("(") > doc[start:end].text.count(")") and end < len(doc):
            end += 1  # keep a disambiguator whole: "The Smurfs (film)"
        span = doc[start:end]
        if 0 < len(span) <= MAX_TITLE_TOKENS and any(t.is_alpha for t in span):
            return span.text.strip()
    if doc.ents:
        return doc.ents[0].text.strip()
    return None


def with_guessed_titles(records: Sequence[dict[str, Any]], batch_size: int = 512) -> list[dict[str, Any]]:
    """``records`` (pair-file records without ``"pages"``) with ``"pages": [guess]`` and ``"title_guessed"``
    where :func:`claim_subject` finds a subject in the claim; the others are returned unchanged."""
    from fever_core.common.nlp import load_spacy

    nlp = load_spacy()
    claims = (fever_to_plain(r["hypothesis"]) for r in records)
    docs = tqdm(
        nlp.pipe(claims, batch_size=batch_size),
        total=len(records),
        desc="finding claim subjects",
        unit="claim",
        mininterval=10.0,
    )
    out = []
    for record, doc in zip(records, docs):
        title = None if record.get("pages") else claim_subject(doc)
        out.append({**record, "pages": [title], "title_guessed": True} if title else dict(record))
    return out


def split_by_page(records: Iterable[dict[str, Any]], heldout_percent: int) -> dict[str, list[dict[str, Any]]]:
    """``{"train": [...], "heldout": [...]}``: each record goes where its first page's hash sends it
    (:func:`~fever_core.training.pairs.page_split`); records without pages go to training."""
    out: dict[str, list[dict[str, Any]]] = {"train": [], "heldout": []}
    for record in records:
        pages = record.get("pages") or []
        out[page_split(pages[0], heldout_percent) if pages else "train"].append(record)
    return out


def prepare(shared_nli: Path, out_dir: Path) -> dict[str, dict[str, int]]:
    """Write ``fever-train-titled.jsonl``, ``vitaminc-real-train.jsonl`` and ``vitaminc-real-heldout.jsonl``
    under ``out_dir`` from ``shared_nli`` (the shared ``nli/`` folder); returns pairs per file and label.
    A file already written is kept (delete it to rebuild)."""
    out_dir = Path(out_dir)
    written: dict[str, list[dict[str, Any]]] = {}
    titled = out_dir / "fever-train-titled.jsonl"
    if not titled.is_file():
        records = [r for _, r in iter_records(Path(shared_nli) / "fever-train.jsonl")]
        written[titled.name] = with_guessed_titles(records)
    vitaminc = [out_dir / f"vitaminc-real-{split}.jsonl" for split in ("train", "heldout")]
    if not all(p.is_file() for p in vitaminc):
        parts = split_by_page(
            (r for _, r in iter_records(Path(shared_nli) / "vitaminc-real.jsonl")), VITAMINC_HELDOUT_PERCENT
        )
        for path, split in zip(vitaminc, ("train", "heldout")):
            written[path.name] = parts[split]
    for name, records in written.items():
        write_jsonl(out_dir / name, records)
    counts = {}
    for path in [titled, *vitaminc]:
        labels = Counter(r["label"] for _, r in iter_records(path))
        counts[path.name] = dict(sorted(labels.items()))
        if path == titled:
            counts[path.name]["with a guessed title"] = sum(1 for _, r in iter_records(path) if r.get("title_guessed"))
    return counts
