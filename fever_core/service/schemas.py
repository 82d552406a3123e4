"""The service's request and response bodies: what the OpenAPI document at ``/openapi.json`` describes.

``/check`` answers with :meth:`fever_core.pipeline.CheckResult.to_dict` (the JSON of ``check --json``) and
``/check-text`` with :meth:`fever_core.text_check.TextCheck.to_dict` (each check-worthy sentence with what ``/check``
answers for it); the models here describe them for the docs and for clients. ``/predict`` speaks the FEVER 2.0
builders' format (the shared task's fever-api): ``{"instances": [{"id", "claim"}, ...]}`` (or a list of claims,
numbered from 0) in, and ``{"result": "success", "data": {"predictions": [...]}}`` out, each prediction with
``predicted_label`` and ``predicted_evidence`` as ``[page, line]`` pairs, as the FEVER scorer reads them. Errors, on
every endpoint, are ``{"result": "error", "data": {"code", "message"}}`` (fever-api's error shape, with a code to
switch on). ``/claimreview`` takes ``/check``'s body with the review's author (and the page's address), and answers
with a schema.org ClaimReview in JSON-LD, whose shape schema.org describes.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from fever_core.common import CHECK_SETTINGS, CheckSetting, Label
from fever_core.pipeline import MAX_CLAIM_CHARS, AppliedSettings, CheckOptions, CheckResult
from fever_core.retrieval import ClaimAnalysis, EvidenceSentence, HopLink, PageCandidate
from fever_core.service.config import ServiceConfig, published_limits
from fever_core.service.record_models import model_of
from fever_core.text_check import MAX_TEXT_BYTES, CheckedSentence, TextCheck
from fever_core.verification import JudgedSentence, Reading, Verdict
from fever_core.verification.decision import ClaimPart
from fever_core.verification.number_check import NumberCheck
from fever_core.workbench import AUTHOR_KINDS, MAX_URL_CHARS, URL_PATTERN

CLAIM_HELP = (
    f"The claim to check: one statement, at most {MAX_CLAIM_CHARS:,} characters once control characters "
    "are removed, with at least one letter or digit."
)


# Requests are validated strictly: a value of the wrong JSON type is refused, not coerced (false is not 0).


class _CheckOptionsBase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    def to_options(self) -> CheckOptions:
        return CheckOptions(**self.model_dump())


def _option_field(setting: CheckSetting) -> tuple[Any, Any]:
    """The request field of a per-check setting: its type, limits and help from the declaration."""
    kind: Any = Literal[setting.choices] if setting.choices else setting.type
    constraints: dict[str, Any] = {"ge": setting.minimum, "le": setting.maximum} if setting.limits else {}
    if setting.type is float:
        constraints["allow_inf_nan"] = False
    return kind | None, Field(None, description=setting.describe(), **constraints)


if TYPE_CHECKING:  # the type checker sees the base; pydantic, at run time, the model made from the settings
    CheckOptionsBody = _CheckOptionsBase
else:
    _OPTION_FIELDS: dict[str, Any] = {setting.name: _option_field(setting) for setting in CHECK_SETTINGS}
    CheckOptionsBody = create_model(
        "CheckOptionsBody",
        __base__=_CheckOptionsBase,
        __module__=__name__,
        __doc__="Per-check knobs (``fever_core.pipeline.CheckOptions``, declared in "
        "``fever_core.common.settings.CHECK_SETTINGS``); a field left out uses the server's settings.",
        **_OPTION_FIELDS,
    )


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    claim: str = Field(description=CLAIM_HELP, examples=["Stanley Kubrick directed 2001: A Space Odyssey."])
    corpus: str | None = Field(
        None, description="one of the corpora this server serves (GET /corpora); default: the first"
    )
    options: CheckOptionsBody | None = None


class ClaimReviewRequest(CheckRequest):
    """A check to answer as a schema.org ClaimReview (``fever_core.workbench.claimreview``): ``/check``'s body, and who
    publishes the review."""

    author: str | None = Field(
        None, description="the review's author, a name (default: FEVER Workbench)", examples=["Fact Desk"]
    )
    # a Literal of workbench's kinds, made at run time (the type checker reads no variable in a Literal)
    author_type: Literal[AUTHOR_KINDS] = Field(  # type: ignore[valid-type]
        "Organization", description="what the author is"
    )
    url: str | None = Field(
        None,
        pattern=URL_PATTERN,
        max_length=MAX_URL_CHARS,
        description="the web address of the page that shows the check, if there is one: "
        "http(s)://, without quotes, angle brackets, spaces or backslashes (escape them: %22, %3C)",
    )


class CheckTextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(
        description=f"the text whose check-worthy sentences are checked: an article, a speech, a "
        f"transcript (plain text; at most {MAX_TEXT_BYTES:,} bytes)",
        examples=["Marie Curie won two Nobel Prizes. I think she was brilliant."],
    )
    corpus: str | None = Field(
        None, description="one of the corpora this server serves (GET /corpora); default: the first"
    )
    options: CheckOptionsBody | None = None


class PredictInstance(BaseModel):
    """A claim as FEVER's files and fever-api write it; other fields (a gold label, evidence) are kept and echoed
    back in ``request_instance``."""

    model_config = ConfigDict(extra="allow", strict=True)

    id: int | str = Field(description="the claim's id, echoed in its prediction")
    claim: str = Field(description=CLAIM_HELP)


class PredictRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    instances: list[PredictInstance | str] = Field(
        description="the claims: objects with an id, or plain claims (their ids are their positions, from 0); at "
        "most the server's instance limit per request (GET /corpora says it)"
    )
    corpus: str | None = Field(None, description="one of the corpora this server serves; default: the first")
    options: CheckOptionsBody | None = None

    @model_validator(mode="after")
    def _ids_unique(self) -> PredictRequest:
        """Refuse two instances with one id (a plain claim's id is its position): their predictions could not be
        told apart."""
        seen: dict[object, int] = {}
        for position, instance in enumerate(self.instances):
            claim_id = instance.id if isinstance(instance, PredictInstance) else position
            key = (type(claim_id).__name__, claim_id)
            if key in seen:
                raise ValueError(
                    f"instances {seen[key]} and {position} have the same id {claim_id!r}: give each "
                    "instance an id of its own (a plain claim's id is its position, from 0)"
                )
            seen[key] = position
        return self


# ---------------------------------------------------------------------------------------------
# responses


class ErrorDetail(BaseModel):
    code: str = Field(
        description="what went wrong, for programs: invalid_request, bad_claim, bad_text, "
        "nothing_to_check, too_many_instances, too_many_sentences, "
        "corpus_not_served, body_too_large, unsupported_encoding, unauthorized, overloaded, timeout, "
        "loading, not_found, method_not_allowed, header_timeout, body_timeout, invalid_http, "
        "client_closed_request, internal_error"
    )
    message: str = Field(description="what went wrong and what to do, for people")


class ErrorResponse(BaseModel):
    result: Literal["error"] = "error"
    data: ErrorDetail


def error_body(code: str, message: str) -> bytes:
    """An error as every answer of the service carries it: :class:`ErrorResponse` as UTF-8 JSON."""
    return ErrorResponse(data=ErrorDetail(code=code, message=message)).model_dump_json().encode()


# Each check's answer is a record of the library, written by its own ``to_dict``: its model is made from the record
# (:mod:`~fever_core.service.record_models`), each record's before those that hold it.

model_of(PageCandidate, "PageOut")
model_of(HopLink, "HopLinkOut")
model_of(EvidenceSentence, "SentenceOut")
model_of(Reading, "ReadingOut")
model_of(JudgedSentence, "EvidenceOut", json_types={"stance": dict[str, float] | None})
model_of(ClaimPart, "ClaimPartOut")
model_of(NumberCheck, "NumberCheckOut")
model_of(Verdict, "VerdictOut")
model_of(ClaimAnalysis, "AnalysisOut")
model_of(AppliedSettings, "AppliedSettingsOut")
CheckResponse = model_of(
    CheckResult,
    "CheckResponse",
    doc="The JSON of ``python -m fever_core check --json`` (``fever_core.pipeline.CheckResult.to_dict``).",
)
model_of(CheckedSentence, "TextSentenceOut")
CheckTextResponse = model_of(
    TextCheck,
    "CheckTextResponse",
    doc="The JSON of ``/check-text`` (``fever_core.text_check.TextCheck.to_dict``): each sentence of the text, and "
    "the check of each one chosen.",
)


class Prediction(BaseModel):
    id: int | str
    predicted_label: Label
    predicted_evidence: list[tuple[str, int]] = Field(description="[page, line] pairs, best first")
    request_instance: dict[str, Any] = Field(description="the instance as sent (plain claims get their position as id)")
    error: str | None = Field(
        None,
        description="why the claim could not be checked (it is then predicted NOT "
        "ENOUGH INFO with no evidence, as `evaluate` counts it)",
    )


class Predictions(BaseModel):
    predictions: list[Prediction]


class PredictResponse(BaseModel):
    result: Literal["success"] = "success"
    data: Predictions


class CorpusOut(BaseModel):
    name: str
    served: bool = Field(description="this server checks claims against it")
    pages: int | None = Field(None, description="pages in the corpus (served corpora only)")
    sentences: int | None = None


class _LimitsBase(BaseModel):
    max_claim_chars: int = Field(description="characters a claim may have, once control characters are removed")


if TYPE_CHECKING:  # the type checker sees the base; pydantic, at run time, the model made from the service's config
    LimitsOut = _LimitsBase
else:
    _CONFIG_TYPES = typing.get_type_hints(ServiceConfig)
    LimitsOut = create_model(
        "LimitsOut",
        __base__=_LimitsBase,
        __module__=__name__,
        __doc__="The server's limits: the claim's length, and those of its ``ServiceConfig`` it publishes, each "
        "described by its help in ``serve --help``.",
        **{f.name: (_CONFIG_TYPES[f.name], Field(description=f.metadata["help"])) for f in published_limits()},
    )


class CorporaResponse(BaseModel):
    default: str = Field(description="the corpus a request without one is checked against")
    corpora: list[CorpusOut]
    limits: LimitsOut


ServiceStatus = Literal["loading", "ready", "failed"]
"""Where the service stands: loading its models and indexes, ready to check claims, or failed to load them."""


class HealthResponse(BaseModel):
    status: ServiceStatus
    corpora: list[str]
    message: str = ""
