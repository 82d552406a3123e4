"""Labelled (premise, hypothesis) pair sets for training the verifier, and NOT ENOUGH INFO pairs.

Three kinds of input become :class:`Pair` lists:

- pair files (``nli/*.jsonl``): ``{"premise", "hypothesis", "label", "source", ["pages"]}`` per line;
- NEI claim files (``{"id", "claim", "label": "NOT ENOUGH INFO"}``, no premise): each claim is paired
  with retrieved, same-subject sentences from a distractor pool (:class:`DistractorIndex`), as a
  FEVER system's retrieval would hand them to the verifier;
- FEVER claims files (``{"id", "label", "claim", "evidence"}``) plus a sentence lookup: gold evidence
  gives SUPPORTS / REFUTES pairs (:func:`fever_claims_to_pairs`, the "retrain from annotations" path).

Premises are formatted exactly as the pipeline formats them at inference: each evidence sentence is
``premise_text(title, fever_to_plain(sentence))`` and several sentences are joined with one space.
Built pair sets are cached as jsonl under ``data/training/`` so re-runs skip the retrieval work.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fever_core.jsonl import read_jsonl, write_jsonl
from fever_core.text import content_words, fever_to_plain, page_id_to_title, premise_text
from fever_core.types import LABELS, NEI

if TYPE_CHECKING:
    import numpy as np

DEFAULT_CACHE_DIR = Path("data") / "training"

SentenceLookup = Callable[[str, int], "tuple[str, str] | None"]
"""``(page_id, line) -> (title, sentence text)``, or ``None`` when the sentence is unknown."""


class PairFileError(ValueError):
    """A pair or claims file is missing or malformed; the message names the file and line."""


@dataclass(frozen=True)
class Pair:
    """One labelled example for the verifier.

    Attributes:
        premise: evidence text as the model sees it (``"Title: sentence"`` joined with spaces).
        hypothesis: the claim, plain text.
        label: one of :data:`~fever_core.verification.nli.LABELS`.
        source: where it came from (``"fever-paper-test"``, ``"fever-nei-retrieved"``, ``"snli-dev"`` ...).
    """

    premise: str
    hypothesis: str
    label: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


# ---------------------------------------------------------------------------------------------
# reading files


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    """Yield ``(line number, object)`` for each non-blank line; bad lines raise :class:`PairFileError`."""
    return read_jsonl(path, error=PairFileError)


def file_kind(path: Path) -> str:
    """``"pairs"``, ``"nei-claims"`` or ``"fever-claims"``, judged from the first record's fields."""
    for number, record in iter_jsonl(path):
        if "premise" in record:
            return "pairs"
        if "evidence" in record and "claim" in record:
            return "fever-claims"
        if "claim" in record:
            return "nei-claims"
        raise PairFileError(
            f"{path}:{number}: can't tell the file's format: expected \"premise\"/\"hypothesis\" (pairs), "
            "\"claim\"+\"evidence\" (FEVER claims) or \"claim\" alone (NEI claims)."
        )
    raise PairFileError(f"{path} is empty.")


def _check_label(path: Path, number: int, label: object) -> str:
    if label not in LABELS:
        raise PairFileError(f"{path}:{number}: label {label!r} is not one of {', '.join(LABELS)}.")
    return label  # type: ignore[return-value]


def pair_premise(premise: str, pages: Sequence[str] | None) -> str:
    """Format a pair file's premise: prefixed with the first evidence page's title when pages are known."""
    text = fever_to_plain(premise)
    if pages:
        return premise_text(page_id_to_title(pages[0]), text)
    return text


def load_pairs(path: Path) -> list[Pair]:
    """Read an ``nli/*.jsonl`` pair file.

    Premises are formatted with :func:`pair_premise`; hypotheses go through ``fever_to_plain``.
    Raises :class:`PairFileError` naming ``file:line`` for a malformed line.
    """
    path = Path(path)
    pairs = []
    for number, record in iter_jsonl(path):
        premise, hypothesis = record.get("premise"), record.get("hypothesis")
        if not isinstance(premise, str) or not isinstance(hypothesis, str) or not premise.strip() or not hypothesis.strip():
            raise PairFileError(f"{path}:{number}: expected non-empty string fields \"premise\" and \"hypothesis\".")
        label = _check_label(path, number, record.get("label"))
        pages = record.get("pages")
        if pages is not None and not (isinstance(pages, list) and all(isinstance(p, str) for p in pages)):
            raise PairFileError(f"{path}:{number}: \"pages\" must be a list of page ids.")
        source = str(record.get("source") or path.stem)
        pairs.append(Pair(pair_premise(premise, pages), fever_to_plain(hypothesis), label, source))
    return pairs


@dataclass(frozen=True)
class Claim:
    """A claim from a FEVER-format file. ``evidence`` holds evidence sets of ``(page_id, line)``."""

    id: int | str
    claim: str
    label: str
    evidence: tuple[tuple[tuple[str, int], ...], ...] = ()


def load_claims(path: Path) -> list[Claim]:
    """Read a FEVER claims file or an NEI claims file (``{"id", "claim", "label"}``, no evidence)."""
    path = Path(path)
    claims = []
    for number, record in iter_jsonl(path):
        text = record.get("claim")
        if not isinstance(text, str) or not text.strip():
            raise PairFileError(f"{path}:{number}: expected a non-empty string field \"claim\".")
        label = _check_label(path, number, record.get("label", NEI))
        sets = []
        for evidence_set in record.get("evidence") or []:
            try:
                items = tuple((str(page), int(line)) for _, _, page, line in evidence_set if page is not None)
            except (TypeError, ValueError):
                raise PairFileError(
                    f"{path}:{number}: evidence must be a list of sets of [annotation_id, evidence_id, page, line]."
                ) from None
            if items:
                sets.append(items)
        claims.append(Claim(record.get("id", number), fever_to_plain(text), label, tuple(sets)))
    return claims


def write_pairs(path: Path, pairs: Iterable[Pair]) -> None:
    """Write pairs as jsonl (atomically: a partial file never replaces a good one)."""
    write_jsonl(path, (pair.to_dict() for pair in pairs))


def read_cached_pairs(path: Path) -> list[Pair]:
    """Read pairs written by :func:`write_pairs` (already formatted; no re-formatting)."""
    return [Pair(r["premise"], r["hypothesis"], r["label"], r["source"]) for _, r in iter_jsonl(path)]


# ---------------------------------------------------------------------------------------------
# FEVER claims + sentence lookup -> pairs


def evidence_premise(sentences: Sequence[tuple[str, str]]) -> str:
    """Join ``(title, sentence)`` evidence as the pipeline does: ``"Title: sentence"`` with single spaces."""
    return " ".join(premise_text(title, fever_to_plain(text)) for title, text in sentences)


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
        if claim.label == NEI:
            if distractors is not None:
                sentences = list(distractors(claim))
                if sentences:
                    pairs.append(Pair(evidence_premise(sentences), claim.claim, NEI, source))
            continue
        seen = set()
        for evidence_set in claim.evidence:
            found = [lookup(page, line) for page, line in dict.fromkeys(evidence_set)]
            if any(item is None for item in found):
                continue
            premise = evidence_premise(found)  # type: ignore[arg-type]
            if premise in seen:
                continue
            seen.add(premise)
            pairs.append(Pair(premise, claim.claim, claim.label, source))
            if not all_sets:
                break
    return pairs


def fever_pages_lookup(path: Path) -> SentenceLookup:
    """A sentence lookup over a FEVER ``wiki-pages`` jsonl file (loaded into memory)."""
    from fever_core.corpus.sources.fever_jsonl import parse_lines_field

    table: dict[tuple[str, int], tuple[str, str]] = {}
    for number, record in iter_jsonl(Path(path)):
        page_id = record.get("id")
        if not isinstance(page_id, str):
            raise PairFileError(f"{path}:{number}: expected a FEVER page with a string \"id\".")
        title = page_id_to_title(page_id)
        for sentence in parse_lines_field(page_id, record.get("lines") or ""):
            table[(page_id, sentence.line)] = (title, sentence.text)
    return lambda page_id, line: table.get((page_id, line))


# ---------------------------------------------------------------------------------------------
# distractor sentences for NOT ENOUGH INFO pairs

def _content_words(text: str) -> set[str]:
    return set(content_words(text))


_ASIDE_RE = re.compile(r"\s*\(([^()]*)\)(?!:)")
"""A parenthetical aside, ``" (born 5 May 1950)"``; not a title's disambiguator (``"Paris (film):"``)."""


def without_asides(premise: str, claim: str) -> str | None:
    """``premise`` with its parenthetical asides removed, the way Wikipedia's lead summaries (the
    embedded corpus) write lead sentences; ``None`` when it has none, or when the claim shares a content
    word with one (``"born in 1950"`` may rest on ``"(born 5 May 1950)"``, so its label could change).

    FEVER's 2017 sentences keep their asides and the summaries don't; a verifier that sees asides only in
    SUPPORTS / REFUTES premises learns that a lead sentence without them says nothing about the claim.
    """
    asides = _ASIDE_RE.findall(premise)
    if not asides or _content_words(" ".join(asides)) & _content_words(claim):
        return None
    return remove_asides(premise)


def remove_asides(text: str) -> str:
    """``text`` without its parenthetical asides (see :func:`without_asides`), spaces before ``,.;`` closed."""
    return re.sub(r"\s+([,.;])", r"\1", _ASIDE_RE.sub("", text))


def plain_style_pairs(pairs: Sequence[Pair], fraction: float, rng: random.Random) -> list[Pair]:
    """Copies of a random ``fraction`` of ``pairs`` with their premises' asides removed
    (:func:`without_asides`; pairs it leaves alone are skipped), same label, source ``<source>-plain-style``."""
    picked = rng.sample(list(pairs), int(len(pairs) * fraction))
    out = []
    for pair in picked:
        premise = without_asides(pair.premise, pair.hypothesis)
        if premise is not None:
            out.append(Pair(premise, pair.hypothesis, pair.label, f"{pair.source}-plain-style"))
    return out


@dataclass(frozen=True)
class PoolSentence:
    """A candidate distractor: page title and plain sentence text."""

    title: str
    text: str


def load_embedded_pool(cache_dir: Path = DEFAULT_CACHE_DIR) -> list[PoolSentence]:
    """Every sentence of the embedded Wikipedia summaries, cached as ``pool-embedded.jsonl`` (~30 s uncached)."""
    cache = Path(cache_dir) / "pool-embedded.jsonl"
    if cache.is_file():
        return [PoolSentence(r["title"], r["text"]) for _, r in iter_jsonl(cache)]
    from fever_core.corpus.sources.embedded import EmbeddedSummariesSource

    pool = [
        PoolSentence(page.title, s.text)
        for page in EmbeddedSummariesSource().iter_pages()
        for s in page.sentences
        if len(s.text.split()) >= 4
    ]
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".jsonl.partial")
    with tmp.open("w", encoding="utf-8") as fh:
        for item in pool:
            fh.write(json.dumps(asdict(item), ensure_ascii=False) + "\n")
    tmp.replace(cache)
    return pool


class DistractorIndex:
    """TF-IDF nearest sentences over ``"title: sentence"`` strings: same-subject, non-evidence text.

    Ranking by TF-IDF cosine to the claim favours sentences of the claim's subject page (its title words
    match), which is what document retrieval would hand the verifier for a claim it can't settle.
    """

    def __init__(self, pool: Sequence[PoolSentence]):
        from sklearn.feature_extraction.text import TfidfVectorizer

        if not pool:
            raise ValueError("The distractor pool is empty.")
        self.pool = list(pool)
        self._vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english", ngram_range=(1, 1), min_df=1)
        self._matrix = self._vectorizer.fit_transform(premise_text(p.title, p.text) for p in self.pool)

    def nearest(self, queries: Sequence[str], k: int = 10, batch_size: int = 1024) -> list[list[int]]:
        """Indices into :attr:`pool` of the ``k`` most similar sentences for each query, best first."""
        import numpy as np

        out: list[list[int]] = []
        for start in range(0, len(queries), batch_size):
            q = self._vectorizer.transform(queries[start:start + batch_size])
            scores = (q @ self._matrix.T).toarray()
            k_eff = min(k, scores.shape[1])
            top = np.argpartition(-scores, k_eff - 1, axis=1)[:, :k_eff]
            for row, cand in zip(scores, top):
                ranked = cand[np.argsort(-row[cand])]
                out.append([int(i) for i in ranked if row[i] > 0])
        return out


def _stems(words: set[str]) -> set[str]:
    """Words cut to their first four letters: a crude stem that lets "stars" meet "starred"."""
    return {w[:4] for w in words}


def _overlaps(candidate: PoolSentence, evidence_words: set[str], max_overlap: float) -> bool:
    words = _content_words(candidate.text)
    return not words or len(words & evidence_words) / len(words) > max_overlap


def nei_pairs(
    claims: Sequence[str],
    index: DistractorIndex,
    source: str,
    evidence: Sequence[str] | None = None,
    max_sentences: int = 2,
    max_overlap: float = 0.5,
    max_claim_coverage: float = 0.5,
    seed: int = 0,
) -> list[Pair]:
    """NOT ENOUGH INFO pairs: each claim with 1..``max_sentences`` retrieved non-evidence sentences.

    Args:
        claims: claim texts (plain).
        index: the distractor pool.
        source: the pairs' ``source``.
        evidence: for claims that do have evidence (SUPPORTS / REFUTES claims), their gold premise text;
            candidates sharing more than ``max_overlap`` of their content words with it are skipped, so
            a restatement of the evidence is never labelled NEI.
        max_sentences: premises hold a random 1..max_sentences of the nearest acceptable sentences, so the
            model can't use premise length as a cue.
        max_overlap: fraction in [0, 1], see ``evidence``.
        max_claim_coverage: a candidate holding this share or more of the claim's content words that are not
            in the candidate's page title (compared by their first four letters, so "stars" meets "starred")
            is skipped: it may well settle the claim, and FEVER's NOT ENOUGH INFO claims are often settled by
            sentences written after 2017 or about another page ("Steve Coogan starred in a movie." against
            "It stars Steve Coogan as Raymond.").
        seed: for the number of sentences drawn.

    Returns:
        One pair per claim that has at least one acceptable candidate.
    """
    rng = random.Random(seed)
    nearest = index.nearest(list(claims), k=20 + max_sentences)
    pairs = []
    for i, (claim, cands) in enumerate(zip(claims, nearest)):
        claim_stems = _stems(_content_words(claim))
        banned = _content_words(evidence[i]) if evidence is not None else set()
        chosen = []
        for j in cands:
            cand = index.pool[j]
            if evidence is not None and _overlaps(cand, banned, max_overlap):
                continue
            focus = claim_stems - _stems(_content_words(cand.title))
            if not focus or len(focus & _stems(_content_words(cand.text))) / len(focus) >= max_claim_coverage:
                continue
            chosen.append((cand.title, cand.text))
            if len(chosen) == max_sentences:
                break
        if chosen:
            n = rng.randint(1, len(chosen))
            pairs.append(Pair(evidence_premise(chosen[:n]), claim, NEI, source))
    return pairs


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
        if sep and tail.isdigit():
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


_SENTENCE_BREAK = re.compile(r"(?<= \.) +")


def evidence_sentences(premise: str) -> list[str]:
    """The sentences of a pair file's premise, plain text. The premise is FEVER-tokenised evidence
    sentences, each ending with a spaced full stop, joined with a space (``"A b . C d ."``)."""
    return [fever_to_plain(s).strip() for s in _SENTENCE_BREAK.split(premise) if s.strip()]


def evidence_pool(records: Iterable[dict]) -> list[PoolSentence]:
    """Sentences of single-page FEVER evidence in pair-file records, titled with their page.

    Distractors from here are written the way FEVER's 2017 pages are (the text a FEVER corpus hands
    the verifier), about the pages FEVER claims are about, so an unverifiable claim finds on-topic
    sentences in the same style as the SUPPORTS / REFUTES premises, not only modern summaries.
    """
    seen: set[tuple[str, str]] = set()
    pool = []
    for record in records:
        pages = record.get("pages") or []
        if len(pages) != 1:
            continue
        title = page_id_to_title(pages[0])
        for text in evidence_sentences(record["premise"]):
            if len(text.split()) >= 4 and (title, text) not in seen:
                seen.add((title, text))
                pool.append(PoolSentence(title, text))
    return pool


def same_page_nei_pairs(records: Sequence[dict], fraction: float, rng: random.Random, source: str) -> list[Pair]:
    """NOT ENOUGH INFO pairs from a claim and the evidence of *another* claim about the same page.

    This is what retrieval hands the verifier for an unverifiable claim about a known subject: true,
    on-topic sentences that say nothing about the claim. FEVER writes several claims (and mutations of
    them) from one sentence, so another claim's evidence often *does* bear on this one; a pair is left
    out when the two evidence texts share a sentence, or when the other evidence contains more than a
    third of the claim's content words that are not in the page title.

    Args:
        records: pair-file records with ``premise``, ``hypothesis`` and ``pages`` (FEVER evidence).
        fraction: share of the SUPPORTS records that get such a pair (when their page has another
            claim). REFUTES claims are not used: they are mostly mutations that other sentences about
            the same page contradict, which would make the NEI label wrong.
    """
    by_page: dict[str, list[dict]] = {}
    for record in records:
        if record.get("pages"):
            by_page.setdefault(record["pages"][0], []).append(record)
    out = []
    supported = [r for r in records if r.get("label") == "SUPPORTS"]
    for record in rng.sample(supported, int(len(supported) * fraction)):
        pages = record.get("pages") or []
        own = set(evidence_sentences(record["premise"]))
        others = [
            other for other in by_page.get(pages[0] if pages else "", [])
            if other["hypothesis"] != record["hypothesis"] and not own & set(evidence_sentences(other["premise"]))
        ]
        title_words = _content_words(page_id_to_title(pages[0])) if pages else set()
        claim_words = _content_words(record["hypothesis"]) - title_words
        others = [
            other for other in others
            if len(claim_words & _content_words(fever_to_plain(other["premise"]))) <= len(claim_words) / 3
        ]
        if others and claim_words:
            other = rng.choice(others)
            out.append(Pair(pair_premise(other["premise"], other["pages"]), record["hypothesis"], NEI, source))
    return out


def build_training_pairs(
    specs: Sequence[DataSpec],
    seed: int = 0,
    nei_from_evidence_fraction: float = 0.5,
    nei_same_page_fraction: float = 0.0,
    nei_claims_pool_evidence: bool = False,
    plain_style_fraction: float = 0.0,
    corpus: Path | None = None,
    cache_dir: Path = DEFAULT_CACHE_DIR,
    pool: Sequence[PoolSentence] | None = None,
) -> list[Pair]:
    """Load, complete with NEI pairs, subsample and cache a training set.

    Args:
        specs: input files. Pair files are read as they are; NEI claim files get retrieved distractors;
            FEVER claims files need ``corpus`` (a FEVER ``wiki-pages`` jsonl) to look up gold evidence.
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
        cache_dir: where the built set is cached (``pairs-<fingerprint>.jsonl``) along with the pool.
        pool: distractor sentences; default the embedded Wikipedia summaries (:func:`load_embedded_pool`).

    Returns:
        The pairs, each input file capped at its ``max_pairs`` (generated NEI pairs count separately,
        under their own source, capped at the same number), shuffled.
    """
    key = _fingerprint(specs, seed=seed, nei=nei_from_evidence_fraction, corpus=str(corpus), v=4,
                       **({"same_page": nei_same_page_fraction} if nei_same_page_fraction else {}),
                       **({"claims_pool": "evidence"} if nei_claims_pool_evidence else {}),
                       **({"plain_style": plain_style_fraction} if plain_style_fraction else {}))
    cache = Path(cache_dir) / f"pairs-{key}.jsonl"
    if cache.is_file() and pool is None:
        return read_cached_pairs(cache)

    rng = random.Random(seed)
    indexes: dict[str, DistractorIndex] = {}

    def distractor_index(with_evidence: bool = False) -> DistractorIndex:
        key = "evidence" if with_evidence else "plain"
        if key not in indexes:
            base = list(pool if pool is not None else load_embedded_pool(cache_dir))
            if with_evidence:
                base += evidence_pool(
                    record for spec in specs if file_kind(spec.path) == "pairs" for _, record in iter_jsonl(spec.path)
                )
            indexes[key] = DistractorIndex(base)
        return indexes[key]

    out: list[Pair] = []
    for spec in specs:
        kind = file_kind(spec.path)
        if kind == "pairs":
            raw = [(record, pair) for (_, record), pair in zip(iter_jsonl(spec.path), load_pairs(spec.path))]
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
            out.extend(nei_pairs([c.claim for c in claims], index, source, seed=rng.randrange(1 << 30)))
        else:
            if corpus is None:
                raise PairFileError(
                    f"{spec.path} holds FEVER claims with evidence: give the FEVER pages file that holds "
                    "their evidence sentences (--corpus PATH)."
                )
            claims = load_claims(spec.path)
            lookup = fever_pages_lookup(corpus)
            sr = fever_claims_to_pairs(claims, lookup, source=spec.path.stem)
            out.extend(balanced_subsample(sr, spec.max_pairs, rng.randrange(1 << 30)))
            nei_claims = [c.claim for c in claims if c.label == NEI]
            if nei_claims:
                out.extend(nei_pairs(nei_claims[: spec.max_pairs], distractor_index(), f"{spec.path.stem}-retrieved"))
    rng.shuffle(out)
    if pool is None:
        write_pairs(cache, out)
    return out


def split_dev(pairs: Sequence[Pair], fraction: float, seed: int = 0) -> tuple[list[Pair], list[Pair]]:
    """Split into (train, dev) by claim: every pair of one hypothesis lands on the same side.

    Deterministic for a given ``seed``; ``fraction`` in [0, 1) is the dev share of hypotheses.
    """
    train, dev = [], []
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
