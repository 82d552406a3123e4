"""Annotate's draft: the annotation being made for a queued claim (its evidence sets' ticks, its label), kept outside
the widgets, so a sentence shown twice (on its page and in another page's links) is one tick and a draft survives what
Streamlit does to widgets, and kept with the annotator's name and the claim in the page's address
(:func:`write_address`, :func:`read_address`), so a refresh loses nothing. The page is :mod:`pages.annotate`.
"""

from __future__ import annotations

import json
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import streamlit as st

from fever_core.common import LABELS

if TYPE_CHECKING:
    from fever_core.workbench import Annotation, QueueItem

# An evidence sentence: its (page_id, line).
Evidence = tuple[str, int]


@dataclass
class Draft:
    """The annotation being made for one queued claim, kept after it is saved so undo brings it back.

    Attributes:
        sets: evidence sets of ``(page_id, line)``.
        current: the index of the evidence set that ticks go into.
        label: the label chosen; ``None`` until the annotator chooses one.
        ambiguous: marked ambiguous (left out of the export).
        extra_pages: pages added by search, beside the candidates.
    """

    sets: list[set[Evidence]] = field(default_factory=lambda: [set()])
    current: int = 0
    label: str | None = None
    ambiguous: bool = False
    extra_pages: list[str] = field(default_factory=list)

    def tick(self, group: int, evidence: Evidence, ticked: bool) -> None:
        (self.sets[group].add if ticked else self.sets[group].discard)(evidence)

    def new_set(self) -> None:
        self.sets.append(set())
        self.current = len(self.sets) - 1

    def to_address(self) -> str:
        """The draft as one query-parameter value (compact JSON)."""
        return json.dumps(
            {
                "sets": [sorted(group) for group in self.sets],
                "current": self.current,
                "label": self.label,
                "ambiguous": self.ambiguous,
                "pages": self.extra_pages,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_annotation(cls, annotation: Annotation, extra_pages: list[str]) -> Draft:
        """The draft an annotation was saved from (brought back by undo)."""
        sets = [set(map(tuple, group)) for group in annotation.evidence_sets] or [set()]
        return cls(sets, 0, annotation.label, annotation.ambiguous, list(extra_pages))

    @classmethod
    def from_address(cls, text: str) -> Draft:
        """The draft written by :meth:`to_address`; raises ValueError, KeyError or TypeError when it is not one."""
        data = json.loads(text)
        sets = [{(str(page), int(line)) for page, line in group} for group in data["sets"]] or [set()]
        label = data["label"] if data["label"] in LABELS else None
        return cls(
            sets,
            min(int(data["current"]), len(sets) - 1),
            label,
            bool(data["ambiguous"]),
            [str(page) for page in data["pages"]],
        )


def drafts() -> dict[int, Draft]:
    """This session's drafts, by queue item."""
    return st.session_state.setdefault("drafts", {})


def read_address() -> None:
    """Once a session (a refresh, a shared address): the annotator, the claim and its unsaved draft
    from the page's address."""
    if st.session_state.get("address_read"):
        return
    st.session_state["address_read"] = True
    params = st.query_params
    if "annotator" in params:
        st.session_state["annotator"] = params["annotator"]
    if params.get("item", "").isdigit():
        st.session_state["item_id"] = int(params["item"])
        with suppress(ValueError, KeyError, TypeError):
            drafts()[int(params["item"])] = Draft.from_address(params.get("draft", ""))


def write_address(annotator: str, item: QueueItem | None) -> None:
    """Keep the annotator, the claim and its draft in the page's address (see :func:`read_address`)."""
    params = {"annotator": annotator} if annotator else {}
    if item is not None:
        params.update(item=str(item.item_id), draft=drafts()[item.item_id].to_address())
    st.query_params.from_dict(params)
