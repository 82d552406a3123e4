"""Claims generated from the embedded corpus's own sentences: SUPPORTS, REFUTES and NOT ENOUGH INFO pairs.

The embedded corpus (Wikipedia's lead summaries) is the one the app opens on, yet no labelled claim was ever
written against it: its sentences reach the verifier's training only as NOT ENOUGH INFO distractors. So the
verifier learned that a summary sentence about a claim's subject says nothing about the claim ("Stanley
Kubrick was a Japanese painter." against "Stanley Kubrick was an American filmmaker and photographer.":
NOT ENOUGH INFO 0.99). Following claim generation for zero-shot fact checking (Pan et al. 2021) and FEVER's
own mutations (Thorne et al. 2018), each summary sentence gives up to three pairs, premises formatted
``"Title: sentence"`` as the pipeline formats evidence:

- SUPPORTS: the sentence cut down to its core, "subject verb complement" (:func:`core_claim`): relative
  clauses, appositions, coordinations and asides dropped, a pronoun subject replaced by the page title;
- REFUTES: that claim with one fact swapped (:func:`mutate`): a named entity or year for another of the same kind
  (no longer the complement's head noun for another page's: a blind audit of 30 such pairs found half of them
  nonsense, "A sock is a chapel of clothing.", issue 52);
- NOT ENOUGH INFO: the core claim against another sentence of the same page that shares none of the
  complement's content words (the page is on topic; the fact is not there);
- subject swapped (:func:`swap_subject`): the core claim with its subject, a named entity, replaced by another of
  the same kind, against the original sentence. Labelled by FEVER's annotation rules (issue 52): REFUTES where the
  complement is a relation with one value (:attr:`CoreClaim.one_valued`: "Bergen is the capital of Norway." against
  "Oslo: Oslo is the capital of Norway.": a country has one capital), else NOT ENOUGH INFO ("Bergen is a city in
  Norway." against "Oslo is a city in Norway."): a sentence about another entity of the same kind is no support.

A share of every kind is also written as a two-hop chain (:func:`chain_after_link`): the same premise read after
a sentence of another page that names its page ("Norway: Its capital and largest city is Oslo. Oslo: Oslo is
...."), the form in which the pipeline reads second-hop evidence
(:func:`~fever_core.verification.evidence.chain_premise`). A verifier that never saw chains read them as
NOT ENOUGH INFO whatever they held (issue 25: "Oslo is the capital of Sweden." against the Norway → Oslo chain).

Pages are split by a hash of their title, so a held-out file never shares a page with the training file.
Run ``python -m fever_core train generate-claims --out DIR`` (about 4 minutes on 2 cores, mostly parsing).

One module (over 400 lines) because it is one job, a sentence's pairs of every kind: the core claim each kind is
made from, its mutations and its chains share the parse and the substitutes.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from fever_core.common.formats import Pair, write_pairs
from fever_core.common.names import base_title
from fever_core.common.text import premise_text
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.training.distractors import PoolSentence
from fever_core.training.pairs import page_split

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

SUBSTITUTABLE = (
    "GPE",
    "NORP",
    "PERSON",
    "ORG",
    "LOC",
    "LANGUAGE",
    "DATE",
    "CARDINAL",
    "ORDINAL",
    "EVENT",
    "WORK_OF_ART",
)
"""Entity kinds a REFUTES mutation may swap for another of the same kind."""

SUBJECT_KINDS = ("PERSON", "GPE", "ORG", "LOC", "NORP", "EVENT", "WORK_OF_ART", "FAC", "PRODUCT")
"""Entity kinds a claim's subject may be swapped within for a subject-swap NOT ENOUGH INFO pair."""
_PRUNED = {"relcl", "acl", "appos", "conj", "cc", "punct", "advcl", "parataxis", "dep", "meta"}
_COMPLEMENTS = ("attr", "acomp", "dobj", "oprd", "prep", "agent")
_PRONOUNS = {"he", "she", "it", "they"}
_YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})$")
HELDOUT_PERCENT = 10
"""Share of pages (by a hash of the title) whose pairs go to ``heldout.jsonl``."""
CHAIN_FRACTION = 0.3
"""Share of generated pairs also written as a two-hop chain (:func:`chain_after_link`)."""
MAX_CLAIM_TOKENS = 24
"""Longer cores read like the sentence itself, not like a claim someone checks; they are skipped."""


@dataclass(frozen=True)
class CoreClaim:
    """A sentence's "subject verb complement" core, the SUPPORTS claim it yields.

    Attributes:
        text: the claim, plain text ending in a full stop.
        complement_words: lower-cased content words of the complement (what the claim asserts).
        entities: ``(text, label)`` of spaCy entities inside the complement, in order.
        subject: ``(text, label)`` when the claim's subject is one whole named entity of a
            :data:`SUBJECT_KINDS` kind (what :func:`swap_subject` swaps), else ``None``.
        one_valued: the complement is a definite description only one subject can meet (:func:`one_valued`:
            "the capital of Norway", "the largest city", "the 44th president", "the only ..."), so a claim
            that gives it to another subject is refuted.
    """

    text: str
    complement_words: frozenset[str]
    entities: tuple[tuple[str, str], ...]
    subject: tuple[str, str] | None = None
    one_valued: bool = False


ONE_HOLDER_NOUNS = frozenset(
    (
        "capital seat headquarters director author founder creator composer architect inventor designer birthplace "
        "successor predecessor"
    ).split()
)
"""Head nouns that, with "the", name a role one subject holds ("the capital of Norway", "the director of Jaws")."""
_UNIQUE_MODIFIERS = frozenset({"only", "first", "last", "sole", "principal", "primary", "chief"})


def one_valued(complement: Token) -> bool:
    """Whether a complement is a definite description that one subject at most can meet (FEVER's rule for
    relations with one value): a superlative, an ordinal, "only", "first", "principal" and the like, or "the" with a
    one-holder role noun (:data:`ONE_HOLDER_NOUNS`, also as a modifier: "the capital city of Morocco"). "a city in
    Norway" or "an American actor" are not."""
    if complement.dep_ != "attr" or complement.pos_ not in ("NOUN", "PROPN"):
        return False
    modifiers = list(complement.children)
    if not any(m.dep_ == "det" and m.lower_ == "the" for m in modifiers) and not any(
        m.dep_ == "poss" for m in modifiers
    ):
        return False
    if any(m.tag_ in ("JJS", "RBS") or m.ent_type_ == "ORDINAL" or m.lower_ in _UNIQUE_MODIFIERS for m in modifiers):
        return True
    return any(word.lemma_.lower() in ONE_HOLDER_NOUNS for word in [complement, *modifiers])


def _kept_subtree(token: Token) -> list[Token]:
    kept = [token]
    for child in token.children:
        if child.dep_ not in _PRUNED or _in_word_hyphen(child):
            kept.extend(_kept_subtree(child))
    return kept


def core_claim(doc: Doc, title: str) -> CoreClaim | None:
    """The core of a parsed sentence as a claim, or ``None`` when it has no plain subject-verb-complement.

    ``"Stanley Kubrick was an American filmmaker and photographer."`` -> ``"Stanley Kubrick was an American
    filmmaker."``; ``"He was born in Honolulu, Hawaii."`` on page ``Barack Obama`` -> ``"Barack Obama was born
    in Honolulu."``.
    """
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return None
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    complement = next((c for c in root.children if c.dep_ in _COMPLEMENTS), None)
    if subject is None or complement is None or subject.i > root.i or complement.i < root.i:
        return None
    verb_group = [c for c in root.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < complement.i]
    subject_tokens = _kept_subtree(subject)
    complement_tokens = sorted(_kept_subtree(complement), key=lambda t: t.i)
    tokens = sorted(verb_group + [root], key=lambda t: t.i)
    if len(subject_tokens) + len(tokens) + len(complement_tokens) > MAX_CLAIM_TOKENS:
        return None
    subject_entity = None
    if subject.lower_ in _PRONOUNS and len(subject_tokens) == 1:
        subject_text = title
    else:
        subject_text = _join(sorted(subject_tokens, key=lambda t: t.i))
        subject_entity = next(
            ((e.text, e.label_) for e in doc.ents if e.label_ in SUBJECT_KINDS and e.text == subject_text), None
        )
    words = frozenset(t.lower_ for t in complement_tokens if t.is_alpha and not t.is_stop) | frozenset(
        t.text for t in complement_tokens if t.like_num
    )
    if not words:
        return None
    span = {t.i for t in complement_tokens}
    entities = tuple(
        (e.text, e.label_)
        for e in doc.ents
        if e.label_ in SUBSTITUTABLE and all(i in span for i in range(e.start, e.end))
    )
    text = f"{subject_text} {_join(tokens)} {_join(complement_tokens)}".strip()
    text = text[0].upper() + text[1:] + "."
    return CoreClaim(text, words, entities, subject_entity, one_valued(complement))


def _in_word_hyphen(token: Token) -> bool:
    """A hyphen inside a word ("medium-sized"): punctuation that a claim must keep."""
    return token.text in ("-", "–") and not token.whitespace_ and token.i > 0 and not token.nbor(-1).whitespace_


def _join(tokens: Sequence[Token]) -> str:
    """Tokens (in sentence order) back to text: their own spacing between neighbours, one space across a gap."""
    parts = []
    for token, following in zip(tokens, list(tokens[1:]) + [None]):
        parts.append(token.text)
        if following is not None:
            parts.append(token.whitespace_ if following.i == token.i + 1 else " ")
    return "".join(parts)


@dataclass
class Substitutes:
    """What a mutation may put in: entity texts by kind, all from the corpus."""

    entities: dict[str, list[str]]

    @classmethod
    def collect(cls, claims: Iterable[CoreClaim]) -> Substitutes:
        entities: dict[str, set[str]] = defaultdict(set)
        for claim in claims:
            for text, label in claim.entities + ((claim.subject,) if claim.subject else ()):
                entities[label].add(text)
        return cls({k: sorted(v) for k, v in entities.items()})


def _swap(text: str, old: str, new: str) -> str:
    """``text`` with the last whole-word ``old`` replaced by ``new``, fixing a preceding "a"/"an"."""
    matches = list(re.finditer(rf"(?<!\w){re.escape(old)}(?!\w)", text))
    if not matches:
        return text
    match = matches[-1]
    before, after = text[: match.start()], text[match.end() :]
    article = re.search(r"\b(a|an|A|An) $", before)
    if article:
        wanted = "an" if new[:1].lower() in "aeiou" else "a"
        if article.group(1)[0].isupper():
            wanted = wanted.capitalize()
        before = before[: article.start()] + wanted + " "
    return before + new + after


def mutate(claim: CoreClaim, premise: str, substitutes: Substitutes, rng: random.Random) -> str | None:
    """A REFUTES version of ``claim``: one entity or year swapped for one the premise doesn't hold.

    Returns ``None`` when nothing in the complement can be swapped.
    """
    lowered = premise.lower()
    options: list[tuple[str, str]] = []
    for text, label in claim.entities:
        if _YEAR.match(text):
            year = str(int(text) + rng.choice([-1, 1]) * rng.randint(2, 40))
            if year not in premise:
                options.append((text, year))
            continue
        pool = substitutes.entities.get(label, [])
        for _ in range(5):
            new = rng.choice(pool) if pool else ""
            if new and new.lower() not in lowered and new.lower() != text.lower():
                options.append((text, new))
                break
    rng.shuffle(options)
    for old, new in options:
        mutated = _swap(claim.text, old, new)
        if mutated != claim.text:
            return mutated
    return None


def swap_subject(claim: CoreClaim, premise: str, substitutes: Substitutes, rng: random.Random) -> str | None:
    """``claim`` about another entity of its subject's kind that ``premise`` does not mention, or ``None``
    when the subject is no named entity or no such entity is found."""
    if claim.subject is None or not claim.text.startswith(claim.subject[0]):
        return None
    old, label = claim.subject
    pool = substitutes.entities.get(label, [])
    lowered = premise.lower()
    for _ in range(5):
        new = rng.choice(pool) if pool else ""
        if new and new.lower() not in lowered and not set(new.lower().split()) & set(old.lower().split()):
            return new + claim.text[len(old) :]
    return None


MAX_NAME_WORDS = 5
"""Titles longer than this many tokens (words and punctuation) are not looked for in other pages' sentences."""


def link_index(by_page: dict[str, list[str]]) -> dict[str, list[tuple[str, str]]]:
    """For each page title, the ``(page, sentence)`` pairs of other pages whose sentence names it (whole
    words, case kept): the sentences a first hop could reach it from. Titles under 4 characters are skipped."""

    def tokens(text: str) -> list[str]:
        return re.findall(r"\w+|[^\w\s]", text)

    names: dict[str, list[str]] = defaultdict(list)
    for title in by_page:
        title_tokens = tokens(base_title(title))
        if len("".join(title_tokens)) >= 4 and len(title_tokens) <= MAX_NAME_WORDS:
            names[" ".join(title_tokens)].append(title)
    index: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for page, sentences in by_page.items():
        for sentence in sentences:
            words = tokens(sentence)
            found = {
                " ".join(words[i : i + n]) for n in range(1, MAX_NAME_WORDS + 1) for i in range(len(words) - n + 1)
            } & names.keys()
            for name in found:
                for title in names[name]:
                    if title != page:
                        index[title].append((page, sentence))
    return index


def chain_after_link(
    record: dict[str, Any],
    title: str,
    claim_words: Iterable[str],
    links: dict[str, list[tuple[str, str]]],
    rng: random.Random,
) -> dict[str, Any] | None:
    """``record`` (a pair about page ``title``) with its premise read after a sentence of another page that
    names ``title``, as the pipeline chains second-hop evidence, or ``None`` when no page names it.

    A NOT ENOUGH INFO pair only takes a linking sentence without any of ``claim_words`` (the claim's content
    words), so the chain does not settle the claim; SUPPORTS and REFUTES pairs keep their label because the
    chain still holds the sentence that decides and a true sentence cannot support a false claim.
    """
    candidates = links.get(title, [])
    if record["label"] == NEI:
        words = [w for w in claim_words if w.lower() not in base_title(title).lower()]
        candidates = [
            (page, s)
            for page, s in candidates
            if not any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", s.lower()) for w in words)
        ]
    if not candidates:
        return None
    page, sentence = rng.choice(candidates)
    return {
        **record,
        "premise": f"{premise_text(page, sentence)} {record['premise']}",
        "source": record["source"] + "-chain",
    }


def generate_pairs(
    pool: Sequence[PoolSentence],
    sentences_per_page: int = 3,
    seed: int = 0,
    batch_size: int = 256,
    chain_fraction: float = CHAIN_FRACTION,
) -> list[dict[str, Any]]:
    """Generated pairs (nli pair-file records plus ``"split"``) from the first ``sentences_per_page``
    sentences of each page of ``pool``, and a ``chain_fraction`` share of them again as two-hop chains
    (:func:`chain_after_link`, source ``...-chain``).

    Premises are title-prefixed already and the records carry no ``"pages"``: they are the evidence
    themselves, so training adds no retrieved NOT ENOUGH INFO pairs for them (``--nei-from-evidence-fraction``
    reads only FEVER pair files with pages).
    """
    from fever_core.common.nlp import load_spacy

    rng = random.Random(seed)
    by_page: dict[str, list[str]] = defaultdict(list)
    for item in pool:
        if "\n" not in item.text:
            by_page[item.title].append(item.text)
    chosen = [(title, text) for title, texts in by_page.items() for text in texts[:sentences_per_page]]
    nlp = load_spacy()
    cores: list[tuple[str, str, CoreClaim]] = []
    docs = tqdm(
        nlp.pipe((text for _, text in chosen), batch_size=batch_size),
        total=len(chosen),
        desc="parsing sentences",
        unit="sent",
    )
    for (title, text), doc in zip(chosen, docs):
        claim = core_claim(doc, title)
        if claim is not None and claim.text.rstrip(".") != text.rstrip("."):
            cores.append((title, text, claim))
    substitutes = Substitutes.collect(claim for _, _, claim in cores)
    records = []
    claim_words: list[frozenset[str]] = []  # per record: its claim's content words (for chain_after_link)
    for title, text, claim in cores:
        own = [_record(title, text, claim.text, SUPPORTS)]
        refuted = mutate(claim, text, substitutes, rng)
        if refuted:
            own.append(_record(title, text, refuted, REFUTES))
        others = [
            s
            for s in by_page[title]
            if s != text
            and not any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", s.lower()) for w in claim.complement_words)
        ]
        if others:
            own.append(_record(title, rng.choice(others), claim.text, NEI))
        swapped = swap_subject(claim, text, substitutes, rng)
        if swapped:
            own.append(
                _record(
                    title,
                    text,
                    swapped,
                    *((REFUTES, "subject-swap-one-valued") if claim.one_valued else (NEI, "subject-swap")),
                )
            )
        records.extend(own)
        claim_words.extend([claim.complement_words] * len(own))
    if chain_fraction > 0:
        chain_rng = random.Random(seed + 1)  # its own stream: the unchained pairs stay as they were
        links = link_index(by_page)
        for record, words in list(zip(records, claim_words)):
            if chain_rng.random() < chain_fraction:
                chained = chain_after_link(record, record["title"], words, links, chain_rng)
                if chained is not None:
                    records.append(chained)
    return records


def _record(title: str, sentence: str, claim: str, label: str, kind: str = "") -> dict[str, Any]:
    return {
        "premise": premise_text(title, sentence),
        "hypothesis": claim,
        "label": label,
        "source": f"embedded-generated-{kind or ('nei' if label == NEI else label.lower())}",
        "split": page_split(title, HELDOUT_PERCENT),
        "title": title,
    }


def write_generated(records: Sequence[dict[str, Any]], out_dir: Path) -> dict[str, int]:
    """Write ``train.jsonl`` and ``heldout.jsonl`` under ``out_dir`` (:func:`write_pairs`: atomically);
    returns pairs per file and label."""
    for split in ("train", "heldout"):
        write_pairs(
            out_dir / f"{split}.jsonl",
            (Pair(r["premise"], r["hypothesis"], r["label"], r["source"]) for r in records if r["split"] == split),
        )
    return dict(sorted(Counter(f"{r['split']} {r['label']}" for r in records).items()))
