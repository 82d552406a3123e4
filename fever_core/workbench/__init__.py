"""Workbench features above the checker: what people do with it, kept between sessions.

:mod:`~fever_core.workbench.history` (the checks made, per browser session), :mod:`~fever_core.workbench.annotation`
(a queue of claims, the evidence and labels people give them, export as FEVER jsonl),
:mod:`~fever_core.workbench.checked_before` (the earlier checks of a claim or of a paraphrase of it, in the history
and the annotations; :mod:`~fever_core.workbench.same_claim` says which claim is the same,
:mod:`~fever_core.workbench.claim_vectors` keeps the vectors it compares), :mod:`~fever_core.workbench.jobs` (long commands run as processes whose progress any page can
read), :mod:`~fever_core.workbench.search` (a corpus searched by title, words or meaning, for people browsing it) and
:mod:`~fever_core.workbench.claimreview` (checks exported as schema.org ClaimReview JSON-LD, with their provenance:
what a check was made with, :mod:`~fever_core.workbench.provenance`);
:mod:`~fever_core.workbench.shown` says how a verdict is shown to people wherever it is (its word, "Undecided" for a
withheld label, and its one probability, rounded in one place).
The pages and the CLI use them; the checker does not.
"""

from __future__ import annotations

from fever_core.workbench.annotation import Annotation, AnnotationError, AnnotationStore, QueueItem, Undone
from fever_core.workbench.checked_before import ANNOTATION, HISTORY, EarlierCheck, EarlierChecks, ago
from fever_core.workbench.claimreview import (
    AUTHOR_KINDS,
    JSONLD_MEDIA_TYPE,
    MAX_URL_CHARS,
    URL_PATTERN,
    Author,
    claim_review,
    claim_reviews,
    review_url,
    to_jsonld,
)
from fever_core.workbench.history import HistoryEntry, HistoryStore
from fever_core.workbench.jobs import DONE, FAILED, RUNNING, JobStatus, log_path, read_status, start_job, write_status
from fever_core.workbench.provenance import ModelRecord, Provenance, checker_provenance
from fever_core.workbench.same_claim import same_claim
from fever_core.workbench.search import SEARCH_MODES, CorpusHit, search_corpus
from fever_core.workbench.shown import probability_text, times_in_100, verdict_shown

__all__ = [
    "ANNOTATION",
    "AUTHOR_KINDS",
    "DONE",
    "FAILED",
    "HISTORY",
    "JSONLD_MEDIA_TYPE",
    "MAX_URL_CHARS",
    "RUNNING",
    "SEARCH_MODES",
    "URL_PATTERN",
    "Annotation",
    "AnnotationError",
    "AnnotationStore",
    "Author",
    "CorpusHit",
    "EarlierCheck",
    "EarlierChecks",
    "HistoryEntry",
    "HistoryStore",
    "JobStatus",
    "ModelRecord",
    "Provenance",
    "QueueItem",
    "Undone",
    "ago",
    "checker_provenance",
    "claim_review",
    "claim_reviews",
    "log_path",
    "probability_text",
    "read_status",
    "review_url",
    "same_claim",
    "search_corpus",
    "start_job",
    "times_in_100",
    "to_jsonld",
    "verdict_shown",
    "write_status",
]
