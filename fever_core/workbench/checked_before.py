"""Checked before: the earlier checks of a claim, or of a paraphrase of it, in a data folder's history (a session's
own checks and those shared, or every check) and annotations, so that a claim checked last week is not checked again as
if new.

An earlier claim is the same claim when (:func:`same_claim`):

- its normalised text is the claim's (:func:`normalised_claim`: letter case, spacing, Unicode NFC and the punctuation
  at the end set aside): an exact match; or
- the corpus's encoder (the bi-encoder of its dense index, :mod:`fever_core.retrieval.encoder`) puts the two at a
  cosine of at least :data:`THRESHOLD`, *and* they agree on what a bi-encoder barely sees (:data:`AGREEMENT_CHECKS`):
  the same numbers, dates and ordinals ("45th" is not "44th": :mod:`fever_core.verification.numbers`), no name
  swapped for another ("South India" is not "North India"), the same negation, and the same roles for the same two
  parties ("Spain is larger than France." is not "France is larger than Spain.": :func:`roles_agree`).

The threshold and the checks were measured on hand-written paraphrases and same-topic claims that differ in one
fact (``benchmarks/checked_before/``): a wrong "checked before" misleads, so the threshold is set for a precision
of 0.95 at least, and a paraphrase that rewords much is missed.

The vectors of earlier claims are kept in ``claim-vectors.sqlite`` in the data folder, by encoder and text: a claim is
embedded once (when it is first looked up, or first met in the history), and a lookup reads only the checks and
annotations made since the last one. A history or annotations database that can't be read is left out of the lookup
(:attr:`EarlierChecks.problems` says why; nothing is written to it); a vectors file that can't be used is worked
around, the vectors then kept in memory.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.nlp import parse
from fever_core.common.sqlite import DatabaseKind, UnusableDatabase, WorkbenchDatabase, move_aside
from fever_core.common.text import STOP_WORDS, WORD_RE
from fever_core.retrieval.encoder import encode
from fever_core.workbench.annotation import AnnotationStore
from fever_core.workbench.history import HistoryStore

if TYPE_CHECKING:
    from fever_core.retrieval.encoder import SentenceEncoder

log = logging.getLogger(__name__)

THRESHOLD = 0.91
"""The cosine (of the corpus's encoder, in [-1, 1]) from which an earlier claim that agrees on numbers, names and
negation counts as the same claim. Measured: ``python -m benchmarks.checked_before`` (``report.txt``)."""
LIMIT = 3
"""The most earlier checks a lookup gives."""
HISTORY = "history"
ANNOTATION = "annotation"
VECTORS_FILE = "claim-vectors.sqlite"
"""Where the vectors of earlier claims are kept, in the data folder."""
_VECTORS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_vectors (
    encoder TEXT NOT NULL,
    text_key TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (encoder, text_key)
) WITHOUT ROWID;
"""
CLAIM_VECTORS = DatabaseKind("claim vectors", 0x46455643, frozenset({"claim_vectors"}), _VECTORS_SCHEMA)  # "FEVC"
_NEGATIONS = frozenset("not no never nor neither none nobody nothing cannot".split())
_NOT_SUFFIX = re.compile(r"n['’]t\b")
_READ_CHUNK = 500  # texts per SELECT ... IN (...): below SQLite's limit on variables


@dataclass(frozen=True)
class EarlierCheck:
    """An earlier check of a claim, or of a paraphrase of it.

    Attributes:
        claim: the earlier claim, as it was checked (or annotated).
        verdict: its FEVER label: the check's verdict, or the label an annotator gave it.
        checked_at: when, in seconds since the epoch (for an annotation, when it was saved).
        source: :data:`HISTORY` (a check kept in the history) or :data:`ANNOTATION`.
        entry_id: what opens it: the history entry's key (Verify's ``?history=KEY``), or the annotated claim's queue
            item's number (Annotate's ``?item=ID``).
        similarity: the two claims' cosine under the corpus's encoder, in [-1, 1].
        exact: whether the two are the same text once normalised (:func:`normalised_claim`).
    """

    claim: str
    verdict: str
    checked_at: float
    source: str
    entry_id: str
    similarity: float
    exact: bool


def normalised_claim(text: str) -> str:
    """A claim's text as exact matching compares it: Unicode NFC, letter case folded, spaces folded, and the
    punctuation (and spaces) at its end left out. ``"  The Nile is LONG!! "`` -> ``"the nile is long"``."""
    text = " ".join(unicodedata.normalize("NFC", text).casefold().split())
    end = len(text)
    while end and (text[end - 1].isspace() or unicodedata.category(text[end - 1]).startswith("P")):
        end -= 1
    return text[:end]


@lru_cache(maxsize=4096)
def _numbers(text: str) -> tuple:
    """The numbers ``text`` states as a claim does (:func:`~fever_core.verification.numbers.number_mentions`), each as
    the interval it asserts, sorted: "more than 7,000 km" and "over 7,000 kilometres" give the same."""
    from fever_core.verification.numbers import number_mentions

    return tuple(sorted((m.kind, m.low, m.high, m.low_open, m.high_open, m.unit) for m in number_mentions(text)))


def numbers_agree(claim: str, other: str) -> bool:
    """Whether two claims state the same numbers, dates and ordinals ("45th" and "forty-fifth" do; "45th" and "44th",
    or "in 1997" and nothing, do not)."""
    return _numbers(claim) == _numbers(other)


def _names(text: str) -> set[str]:
    """The lower-cased words of ``text`` written with a capital (but function words such as a first "The")."""
    return {w.lower() for w in WORD_RE.findall(text) if w[:1].isupper() and w.lower() not in STOP_WORDS}


def _has_word(word: str, words: set[str]) -> bool:
    """Whether ``words`` hold ``word``, or the same word with up to three letters more or less at its end (plurals,
    possessives: "Rotaviruses" and "rotavirus"), for words of four letters or more."""
    return word in words or (len(word) >= 4 and any(
        len(w) >= 4 and abs(len(w) - len(word)) <= 3 and (w.startswith(word) or word.startswith(w)) for w in words))


def names_agree(claim: str, other: str) -> bool:
    """Whether no name of one claim was swapped for another in the other: false when *each* claim has a capitalised
    word the other lacks ("Polish is a West Slavic language." against "... an East Slavic language."). A name only one
    of them has ("Putin" against "Vladimir Putin") is not a swap."""
    claim_words = {w.lower() for w in WORD_RE.findall(claim)}
    other_words = {w.lower() for w in WORD_RE.findall(other)}
    return not (any(not _has_word(n, other_words) for n in _names(claim))
                and any(not _has_word(n, claim_words) for n in _names(other)))


def _negations(text: str) -> int:
    lowered = text.lower()
    return sum(w in _NEGATIONS for w in WORD_RE.findall(lowered)) + len(_NOT_SUFFIX.findall(lowered))


def negation_agrees(claim: str, other: str) -> bool:
    """Whether both claims are negated, or neither ("Amber is not fossilized tree resin." is not "Amber is fossilized
    tree resin."): the parity of their negation words (not, no, never, n't ...)."""
    return _negations(claim) % 2 == _negations(other) % 2


_SECOND_PARTIES = ("dative", "dobj", "nsubjpass")
"""Dependencies of the claim's second party, first found first ("taught *Helen Keller* reading": the dative)."""
_NAME_PARTS = ("compound", "amod", "flat", "nummod", "poss")
"""Words that belong to a party's name ("*white blood* cells", "*Umayyad* Caliphate")."""
_LINKS = frozenset({"than", "of", "into", "to", "on", "from"})
"""Prepositions whose object is the claim's second party when it has no object ("larger *than* Y", "the capital *of*
Y", "flows *into* Y", "feed *on* Y", "evolved *from* Y"); not "with", "in", "at", "by" ("ended *with* the treaty")."""


def _party(token) -> str:
    """A party as lemmas: its head word with the words of its name, lower case ("red blood cell")."""
    return " ".join(t.lemma_.lower() for t in token.subtree
                    if t.i == token.i or (t.head.i == token.i and t.dep_ in _NAME_PARTS))


def _roles(text: str) -> tuple[str, str, str] | None:
    """The claim's relation and its two parties, in the order the relation reads them: ``("defeat", "wellington",
    "napoleon")`` for "Wellington defeated Napoleon." and for "Napoleon was defeated by Wellington."; for "X is larger
    than Y" the relation is the comparative with its "more"/"less" ("more populous"); a preposition's object is the
    second party when there is no object (:data:`_LINKS`). ``None`` when the parse shows no subject and second
    party."""
    root = next(iter(parse(text).sents)).root
    relation = next((c for c in root.children if c.dep_ in ("acomp", "attr")), None) if root.lemma_ == "be" else root
    if relation is None:
        return None
    first = second = None
    for child in root.children:
        if child.dep_ == "nsubj":
            first = child
        elif child.dep_ == "agent":
            first = next((c for c in child.children if c.dep_ == "pobj"), first)
    second = next((c for dep in _SECOND_PARTIES for c in root.children if c.dep_ == dep), None)
    for prep in (c for c in relation.children if c.dep_ == "prep" and c.lower_ in _LINKS):
        second = second or next((c for c in prep.children if c.dep_ == "pobj"), None)
    if first is None or second is None:
        return None
    degree = " ".join(c.lower_ for c in relation.children if c.dep_ == "advmod" and c.lower_ in ("more", "less", "most",
                                                                                                  "least"))
    return f"{degree} {relation.lemma_.lower()}".strip(), _party(first), _party(second)


def roles_agree(claim: str, other: str) -> bool:
    """Whether the two claims give their parties the same roles: false when both read the same relation with the
    parties swapped ("Spain is larger than France." is not "France is larger than Spain."; "Napoleon was defeated by
    Wellington." is "Wellington defeated Napoleon."). Claims whose relations differ ("larger" against "smaller") or
    whose parties the parse can't find are not judged."""
    ours, theirs = _roles(claim), _roles(other)
    if ours is None or theirs is None or ours[0] != theirs[0] or ours[1] == ours[2]:
        return True
    return not (ours[1] == theirs[2] and ours[2] == theirs[1])


AGREEMENT_CHECKS: dict[str, Callable[[str, str], bool]] = {
    "numbers": numbers_agree, "names": names_agree, "negation": negation_agrees, "roles": roles_agree}
"""What two claims close in meaning must also agree on to be the same claim, by name (the benchmark measures each)."""


def same_claim(claim: str, other: str, similarity: float, threshold: float = THRESHOLD,
               checks: Iterable[str] = tuple(AGREEMENT_CHECKS)) -> bool:
    """Whether ``other`` is ``claim`` checked before: the same normalised text, or a cosine ``similarity`` of at least
    ``threshold`` with every one of ``checks`` (names of :data:`AGREEMENT_CHECKS`; default all) agreeing."""
    if normalised_claim(claim) == normalised_claim(other):
        return True
    return similarity >= threshold and all(AGREEMENT_CHECKS[name](claim, other) for name in checks)


def ago(then: float, now: float | None = None) -> str:
    """How long ago ``then`` (seconds since the epoch) was, in words: "just now", "5 minutes ago", "3 hours ago",
    "2 days ago", and from 30 days on its date ("on 2025-01-31", local time)."""
    seconds = max(0.0, (time.time() if now is None else now) - then)
    if seconds >= 30 * 86400:
        return "on " + time.strftime("%Y-%m-%d", time.localtime(then))
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= length:
            number = int(seconds // length)
            return f"{number} {unit}{'' if number == 1 else 's'} ago"
    return "just now"


def encoder_key(encoder: SentenceEncoder) -> str:
    """What the vectors of an encoder are kept under: its identity (name and checksum) and precision."""
    return f"{encoder.identity.name}@{encoder.identity.checksum}/{encoder.precision}"


def _text_key(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class ClaimVectors:
    """The vectors of claims, by encoder and text: in memory, and in the SQLite file ``path`` so that another process
    (the command line, the app after a restart) does not embed them again.

    A file that can't be used (damaged, another program's, read-only, on a full disk) is worked around: a damaged or
    foreign one is moved aside (kept, renamed) and a new one started; otherwise vectors stay in memory only.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._memory: dict[tuple[str, str], np.ndarray] = {}
        self._db: WorkbenchDatabase | None = None
        self._opened = False

    def _database(self) -> WorkbenchDatabase | None:
        """The file, opened on first use (a lookup with nothing to compare makes none)."""
        if not self._opened:
            self._db, self._opened = self._open(), True
        return self._db

    def _open(self) -> WorkbenchDatabase | None:
        try:
            return WorkbenchDatabase(self.path, CLAIM_VECTORS)
        except UnusableDatabase as exc:
            if not exc.movable:
                log.warning("%s The vectors of earlier claims are kept in memory only.", exc)
                return None
            moved = move_aside(self.path)
            log.warning("%s It was moved to %s; a new one starts.", exc, moved.name)
            try:
                return WorkbenchDatabase(self.path, CLAIM_VECTORS)
            except UnusableDatabase as again:
                log.warning("%s The vectors of earlier claims are kept in memory only.", again)
                return None

    def vectors(self, encoder: SentenceEncoder, texts: list[str]) -> np.ndarray:
        """The normalised vectors of ``texts`` under ``encoder``, shape ``(len(texts), dimension)``: kept ones read,
        the others embedded (once each) and kept."""
        key = encoder_key(encoder)
        missing = [t for t in dict.fromkeys(texts) if (key, t) not in self._memory]
        if missing:
            known = self._read(key, missing, encoder.dimension())
            fresh = [t for t in missing if t not in known]
            if fresh:
                embedded = encode(encoder, fresh)
                known.update(zip(fresh, embedded))
                self._write(key, fresh, embedded)
            self._memory.update({(key, t): v for t, v in known.items()})
        if not texts:
            return np.zeros((0, encoder.dimension()), dtype=np.float32)
        return np.stack([self._memory[(key, t)] for t in texts])

    def _read(self, key: str, texts: list[str], dimension: int) -> dict[str, np.ndarray]:
        """The kept vectors of ``texts`` (a row of the wrong length, what damage looks like, is not one)."""
        database = self._database()
        if database is None:
            return {}
        by_key = {_text_key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        keys = list(by_key)
        try:
            with database.transaction() as conn:
                for start in range(0, len(keys), _READ_CHUNK):
                    chunk = keys[start:start + _READ_CHUNK]
                    rows = conn.execute(f"SELECT text_key, vector FROM claim_vectors WHERE encoder = ? AND text_key "
                                        f"IN ({', '.join('?' * len(chunk))})", (key, *chunk)).fetchall()
                    found.update({by_key[k]: np.frombuffer(blob, dtype=np.float32) for k, blob in rows
                                  if len(blob) == 4 * dimension})
        except UnusableDatabase as exc:
            log.warning("%s The vectors of earlier claims are embedded again.", exc)
            return {}
        return found

    def _write(self, key: str, texts: list[str], vectors: np.ndarray) -> None:
        database = self._database()
        if database is None or database.read_only:
            return
        try:
            with database.transaction() as conn:
                conn.executemany("INSERT OR REPLACE INTO claim_vectors (encoder, text_key, vector) VALUES (?, ?, ?)",
                                 [(key, _text_key(t), np.asarray(v, dtype=np.float32).tobytes())
                                  for t, v in zip(texts, vectors)])
        except UnusableDatabase as exc:
            log.warning("%s The vectors of earlier claims are kept in memory only.", exc)


@dataclass(frozen=True)
class _Earlier:
    """A claim checked or annotated before, as a lookup keeps it; ``row`` is its id in its own table, ``session`` the
    session that made it (``None`` for an annotation, which every session sees)."""

    row: int
    entry_id: str
    claim: str
    normalised: str
    verdict: str
    checked_at: float
    session: str | None = None


@dataclass
class _Source:
    """The claims of one database (the history or the annotations), read a few at a time: the new ones since the last
    read, and all again when some were deleted (a cleared history, an undone annotation) or the file was replaced (moved
    aside). A file that is not there has none; one that can't be read has none, and :attr:`problem` says why."""

    kind: str
    path: Path
    opener: Callable[[Path], HistoryStore | AnnotationStore]
    read: Callable[[HistoryStore | AnnotationStore, int], list[_Earlier]]
    count: Callable[[HistoryStore | AnnotationStore], int]
    store: HistoryStore | AnnotationStore | None = None
    file_id: tuple[int, int] | None = None
    entries: list[_Earlier] = field(default_factory=list)
    problem: str = ""

    def refresh(self) -> None:
        self.problem = ""
        try:
            stat = self.path.stat()
        except OSError:
            self.store, self.entries = None, []
            return
        try:
            if self.store is None or self.file_id != (stat.st_dev, stat.st_ino):
                self.store, self.file_id, self.entries = self.opener(self.path), (stat.st_dev, stat.st_ino), []
            entries = self.entries + self.read(self.store, self.entries[-1].row if self.entries else 0)
            if self.count(self.store) != len(entries):
                entries = self.read(self.store, 0)
            self.entries = entries
        except UnusableDatabase as exc:
            self.store, self.entries, self.problem = None, [], str(exc)


def _history_entries(store: HistoryStore, after: int) -> list[_Earlier]:
    return [_Earlier(e.entry_id, e.key, e.claim, normalised_claim(e.claim), e.verdict, e.checked_at, e.session)
            for e in store.since(after)]


def _annotation_entries(store: AnnotationStore, after: int) -> list[_Earlier]:
    return [_Earlier(a.annotation_id, str(a.item_id), a.claim, normalised_claim(a.claim), a.label, a.created_at)
            for a in store.annotations(after)]


class EarlierChecks:
    """Looks up the earlier checks of a claim in the data folder ``data_dir``: its history (``history.sqlite``: a
    session's own checks and the shared ones, or every check) and its annotations (``annotations.sqlite``, everyone's).
    One object serves every thread.

    Args:
        data_dir: the data folder.
        threshold: the cosine from which a claim that agrees on numbers, names and negation is the same claim
            (default :data:`THRESHOLD`, measured).
        limit: the most earlier checks a lookup gives (default :data:`LIMIT`).
    """

    def __init__(self, data_dir: str | Path, threshold: float = THRESHOLD, limit: int = LIMIT):
        data_dir = Path(data_dir)
        self.threshold = threshold
        self.limit = limit
        self._sources = [
            _Source(HISTORY, data_dir / "history.sqlite", HistoryStore, _history_entries, lambda s: s.count()),
            _Source(ANNOTATION, data_dir / "annotations.sqlite", AnnotationStore, _annotation_entries,
                    lambda s: s.counts()["annotations"]),
        ]
        self._vectors = ClaimVectors(data_dir / VECTORS_FILE)
        self._lock = threading.Lock()

    def _shared_keys(self) -> set[str]:
        """The keys of the history's shared checks, read afresh (a check is shared, or stops being, after it was
        read); none when the history can't be read."""
        store = self._sources[0].store
        try:
            return store.shared_keys() if store is not None else set()
        except UnusableDatabase:
            return set()

    @property
    def problems(self) -> list[str]:
        """Why a database was left out of the last lookup (it can't be read: damaged, another program's...), one
        message each, naming the file and what to do; none when both were read (or are not there yet)."""
        return [source.problem for source in self._sources if source.problem]

    def find(self, claim: str, encoder: SentenceEncoder, session: str | None = None) -> list[EarlierCheck]:
        """The earlier checks of ``claim`` or of a paraphrase of it (:func:`same_claim`) that ``session`` may see: the
        newest of each source and text, exact matches first (newest first), then by similarity; at most
        :attr:`limit`. Call it before the check of ``claim`` is kept in the history, or it finds that check too.

        Args:
            claim: the claim as checked.
            encoder: the encoder of the corpus the claim is checked on (its dense index's).
            session: whose checks of the history count: that session's own and the shared ones (another session's
                unshared claims are private to it); ``None`` (default): every check, as the command line and a shared
                history see them.
        """
        with self._lock:
            for source in self._sources:
                source.refresh()
            shared = self._shared_keys() if session is not None else set()
            newest: dict[tuple[str, str], _Earlier] = {}
            for source in self._sources:
                for entry in source.entries:  # oldest first: the newest of each text stays
                    # (a read-only history of an earlier version has no keys: none of its checks can be opened)
                    seen = session is None or entry.session in (None, session) or entry.entry_id in shared
                    if seen and entry.entry_id:
                        newest[(source.kind, entry.normalised)] = entry
            if not newest:
                return []
            kinds, entries = zip(*((kind, entry) for (kind, _), entry in newest.items()))
            query = self._vectors.vectors(encoder, [claim])[0]
            similarities = self._vectors.vectors(encoder, [e.claim for e in entries]) @ query
        wanted = normalised_claim(claim)
        exact = {i for i, e in enumerate(entries) if e.normalised == wanted}
        near = [i for i in np.argsort(-similarities, kind="stable")
                if similarities[i] >= self.threshold and entries[i].normalised != wanted]
        found = sorted(exact, key=lambda i: -entries[i].checked_at)
        for i in near:
            if len(found) >= self.limit:
                break
            if same_claim(claim, entries[i].claim, float(similarities[i]), self.threshold):
                found.append(i)
        return [EarlierCheck(entries[i].claim, entries[i].verdict, entries[i].checked_at, kinds[i], entries[i].entry_id,
                             float(similarities[i]), i in exact) for i in found[:self.limit]]
