"""The bottom layer: the FEVER vocabulary and the basics every other layer uses.

:mod:`~fever_core.common.types` (labels, stances, pages, sentences, links), :mod:`~fever_core.common.text` (FEVER's
text conventions), :mod:`~fever_core.common.names` (page titles without their disambiguation, a claim's names),
:mod:`~fever_core.common.settings` (paths, model ids, sizes), :mod:`~fever_core.common.formats`
(claims and pair files), :mod:`~fever_core.common.jsonl` (jsonl and JSON files), :mod:`~fever_core.common.sqlite`
(connections and the workbench's own databases), :mod:`~fever_core.common.device` (CPU or GPU, threads),
:mod:`~fever_core.common.nlp` (the spaCy pipeline), :mod:`~fever_core.common.model_paths` and
:mod:`~fever_core.common.checksums` (model folders and files checked when read again), and
:mod:`~fever_core.common.model_versions` (the verifier versions made here and the one in use, which the settings
read). Nothing here imports another layer; torch and spaCy are imported only when a function needs them.
"""

from __future__ import annotations

from fever_core.common.check_settings import (
    CHECK_SETTING,
    CHECK_SETTINGS,
    CheckSetting,
    PerCheckSettings,
    VerdictChoice,
)
from fever_core.common.checksums import file_checksum, model_checksum
from fever_core.common.claim_lists import claim_list_kind, load_claim_list, read_claim_list
from fever_core.common.device import cpu_supports_bf16, limit_cpu_threads, select_device
from fever_core.common.formats import (
    Claim,
    DataFileError,
    Pair,
    evidence_premise,
    evidence_sentences,
    file_kind,
    iter_records,
    line_number,
    load_claims,
    load_pairs,
    pair_premise,
    sample_across_labels,
    write_pairs,
)
from fever_core.common.jsonl import JsonlError, decode_utf8, read_jsonl, write_json, write_jsonl
from fever_core.common.model_paths import missing_local_model
from fever_core.common.model_versions import (
    ModelVersion,
    active_choice_problem,
    active_verifier,
    list_versions,
    models_dir,
    next_version_dir,
    use_verifier,
    write_version,
)
from fever_core.common.names import base_title, claim_names, mentions_a_name, names_page
from fever_core.common.nlp import load_spacy, split_sentences
from fever_core.common.settings import (
    BUNDLED_MODELS_DIR,
    DEFAULT_VERIFIER,
    FALLBACK_VERIFIER,
    HAND_CLAIMS,
    PROJECT_ROOT,
    SHARED_DATA_DIR,
    SHIPPED_JOINT_VERIFIER,
    Settings,
)
from fever_core.common.sqlite import DatabaseKind, ThreadConnections, UnusableDatabase, WorkbenchDatabase, move_aside
from fever_core.common.text import (
    clean_json_text,
    clean_user_lines,
    clean_user_text,
    content_words,
    fever_to_plain,
    normalise_title_key,
    page_id_to_title,
    premise_text,
    probably_not_english,
    title_to_page_id,
    wikipedia_url,
)
from fever_core.common.types import (
    LABELS,
    NEI,
    REFUTES,
    SUPPORTS,
    UNDECIDED_WORD,
    VERDICT_WORDS,
    Label,
    Link,
    Page,
    Sentence,
    Stance,
)

__all__ = [
    "BUNDLED_MODELS_DIR",
    "CHECK_SETTING",
    "CHECK_SETTINGS",
    "DEFAULT_VERIFIER",
    "FALLBACK_VERIFIER",
    "HAND_CLAIMS",
    "LABELS",
    "NEI",
    "PROJECT_ROOT",
    "REFUTES",
    "SHARED_DATA_DIR",
    "SHIPPED_JOINT_VERIFIER",
    "SUPPORTS",
    "UNDECIDED_WORD",
    "VERDICT_WORDS",
    "CheckSetting",
    "Claim",
    "DataFileError",
    "DatabaseKind",
    "JsonlError",
    "Label",
    "Link",
    "ModelVersion",
    "Page",
    "Pair",
    "PerCheckSettings",
    "Sentence",
    "Settings",
    "Stance",
    "ThreadConnections",
    "UnusableDatabase",
    "VerdictChoice",
    "WorkbenchDatabase",
    "active_choice_problem",
    "active_verifier",
    "base_title",
    "claim_list_kind",
    "claim_names",
    "clean_json_text",
    "clean_user_lines",
    "clean_user_text",
    "content_words",
    "cpu_supports_bf16",
    "decode_utf8",
    "evidence_premise",
    "evidence_sentences",
    "fever_to_plain",
    "file_checksum",
    "file_kind",
    "iter_records",
    "limit_cpu_threads",
    "line_number",
    "list_versions",
    "load_claim_list",
    "load_claims",
    "load_pairs",
    "load_spacy",
    "mentions_a_name",
    "missing_local_model",
    "model_checksum",
    "models_dir",
    "move_aside",
    "names_page",
    "next_version_dir",
    "normalise_title_key",
    "page_id_to_title",
    "pair_premise",
    "premise_text",
    "probably_not_english",
    "read_claim_list",
    "read_jsonl",
    "sample_across_labels",
    "select_device",
    "split_sentences",
    "title_to_page_id",
    "use_verifier",
    "wikipedia_url",
    "write_json",
    "write_jsonl",
    "write_pairs",
    "write_version",
]
