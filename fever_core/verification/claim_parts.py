"""A claim split into the facts it states, from spaCy's dependency parse: each part is checked on its own.

"The Eiffel Tower is in Paris and was built between 1887 and 1889." states two facts; a verifier reading it whole
against one sentence at a time finds neither sentence says all of it and answers NOT ENOUGH INFO. :func:`claim_parts`
splits, on the parse of the claim (:func:`~fever_core.common.nlp.parse`):

- **coordinated predicates** of the main verb: "X is in Paris and was built in 1889" -> "X is in Paris.",
  "X was built in 1889.";
- an **appositive** of the subject: "Ada Lovelace, the daughter of Lord Byron, wrote the first algorithm." ->
  "Ada Lovelace wrote the first algorithm.", "Ada Lovelace was the daughter of Lord Byron.";
- a **non-restrictive relative clause** of the subject or of the object (after a comma): "Botticelli painted The
  Birth of Venus, which hangs in Florence." -> "Botticelli painted The Birth of Venus.", "The Birth of Venus hangs
  in Florence."

A claim with one fact (no such structure) has no parts; so has one whose split leaves a part without a verb.
Coordinated subjects or objects ("Simon and Garfunkel", "an Oscar and an Emmy") are not split: one sentence states
them together, and splitting them would cut names in two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fever_core.common.nlp import parse

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

MAX_PARTS = 3
"""A claim is split into at most this many parts (a longer list is read whole)."""
_RELATIVE_WORDS = {"who", "which", "whose", "whom", "that"}
_SUBJECTS = {"nsubj", "nsubjpass"}
_VERBS = {"VERB", "AUX"}


def claim_parts(claim: str) -> list[str]:
    """The facts ``claim`` states, each as a sentence of its own, in the claim's order; ``[]`` when it states one
    (or its parse gives no clean split). Each part ends with a full stop."""
    doc = parse(claim)
    sentences = list(doc.sents)
    if len(sentences) != 1:
        return []
    root = sentences[0].root
    subject = next((t for t in root.children if t.dep_ in _SUBJECTS), None)
    if subject is None:
        return []
    parts: list[str] = []
    removed: set[int] = set()
    objects = [t for t in root.children if t.dep_ in {"dobj", "pobj", "attr"}]
    for extra in _additions(subject, appositives=True) + [a for t in objects for a in _additions(t, False)]:
        head, kind, tokens = extra
        words = _span_text(doc, tokens - {i for i in tokens if doc[i].lower_ in _RELATIVE_WORDS and kind == "relcl"})
        head_text = _span_text(doc, _subtree(head) - _subtree_of_additions(head))
        if kind == "appos":
            parts.append(f"{head_text} {_copula(root)} {words}")
        elif doc[min(tokens)].lower_ in _RELATIVE_WORDS:
            parts.append(f"{head_text} {words}")
        else:
            continue
        removed |= tokens | _commas_around(doc, tokens)
    subject_text = _span_text(doc, _subtree(subject) - removed)
    predicates = [
        t
        for t in root.children
        if t.dep_ == "conj" and t.pos_ in _VERBS and not any(c.dep_ in _SUBJECTS for c in t.children)
    ]
    if predicates and not any(t.dep_ not in {"cc", "conj", "punct", *_SUBJECTS} for t in root.children):
        return []  # "X wrote and directed Y": the verbs share their object
    main = _subtree(root) - removed
    for predicate in predicates:
        tokens = _subtree(predicate)
        main -= tokens
        main -= {
            t.i
            for t in root.children
            if t.dep_ in {"cc", "punct"} and t.i < predicate.i and t.i > min(tokens, default=0) - 3
        }
        parts.append(f"{subject_text} {_auxiliary(root, predicate)}{_span_text(doc, tokens)}")
    if not parts:
        return []
    main_text = _span_text(doc, main)
    parts.insert(0, main_text)
    parts = [_sentence(part) for part in parts]
    if len(parts) > MAX_PARTS or not all(_has_verb(part) for part in parts):
        return []
    return parts


def _additions(head: Token, appositives: bool = True) -> list[tuple[Token, str, set[int]]]:
    """The relative clauses (and with ``appositives``, the appositives) set off by a comma that add a fact about
    ``head`` ("Gregory the Great" and "the novel Animal Farm" are names, not added facts)."""
    out = []
    for child in head.children:
        after_comma = child.left_edge.i > 0 and child.doc[child.left_edge.i - 1].text == ","
        if after_comma and (child.dep_ == "relcl" or (appositives and child.dep_ == "appos")):
            out.append((head, child.dep_, _subtree(child)))
    return out


def _subtree_of_additions(head: Token) -> set[int]:
    return set().union(*[tokens | _commas_around(head.doc, tokens) for _, _, tokens in _additions(head)])


def _subtree(token: Token) -> set[int]:
    return {t.i for t in token.subtree}


def _commas_around(doc: Doc, tokens: set[int]) -> set[int]:
    """The commas just before and after a span of tokens."""
    if not tokens:
        return set()
    around = {min(tokens) - 1, max(tokens) + 1}
    return {i for i in around if 0 <= i < len(doc) and doc[i].text == ","}


def _span_text(doc: Doc, tokens: set[int]) -> str:
    """The words of ``tokens`` in order, with the claim's own spacing, without a closing full stop."""
    kept = sorted(i for i in tokens if not (doc[i].is_punct and doc[i].text in ".!?" and i == len(doc) - 1))
    text = ""
    for previous, i in zip([None, *kept], kept):
        if previous is not None and (doc[previous].whitespace_ or i != previous + 1):
            text += " "
        text += doc[i].text
    return text.strip().rstrip(",;: ")


def _auxiliary(root: Token, predicate: Token) -> str:
    """The main verb's auxiliary that a coordinated participle shares ("was started ... and completed by" ->
    "was "), with its space; "" when the predicate needs none."""
    if predicate.tag_ != "VBN" or any(t.dep_ in {"aux", "auxpass"} for t in predicate.children):
        return ""
    shared = [t for t in root.children if t.dep_ in {"aux", "auxpass"}]
    return "".join(t.text + " " for t in shared)


def _copula(root: Token) -> str:
    """ "was" for a claim told in the past, else "is"."""
    tags = {root.tag_} | {t.tag_ for t in root.children if t.dep_ in {"aux", "auxpass"}}
    return "was" if tags & {"VBD"} else "is"


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _has_verb(part: str) -> bool:
    return any(t.pos_ in _VERBS for t in parse(part))
