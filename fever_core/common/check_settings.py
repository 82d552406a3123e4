"""The per-check settings, declared once: a knob a person may turn for one check (pages, evidence sentences, two-hop,
the verdict's thresholds), each a field of :class:`PerCheckSettings` with its type, default, limits, unit and help.

The library's defaults and validation, a check's options (:class:`~fever_core.pipeline.CheckOptions`) and the
settings it took effect with (:class:`~fever_core.pipeline.AppliedSettings`), the CLI's options, the service's
request and response schemas and the app's sidebar are all made from it (:data:`CHECK_SETTINGS` lists them).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Generic, Literal, TypeVar, get_args, get_origin, get_type_hints


@dataclass(frozen=True)
class CheckSetting:
    """One per-check setting: a knob a person may turn for one check (a sidebar widget, a CLI option, a field of
    the service's ``options``, a field of :class:`~fever_core.pipeline.CheckOptions`).

    Attributes:
        name: the field's name everywhere (``CheckOptions``, the API, the permalink, ``FEVER_<NAME>``).
        type: ``int``, ``float``, ``bool`` or ``str``.
        default: the value a check uses when nothing sets it; ``None`` = the verifier's own value (its verdict
            policy, read from the files beside the model: :class:`~fever_core.verification.policy.VerdictPolicy`).
        minimum: the smallest value allowed (numbers only; ``None`` otherwise).
        maximum: the largest value allowed (numbers only).
        unit: what the number counts or measures, e.g. "pages", "cosine", "probability".
        help: one sentence for people: the CLI's help, the API's description, the sidebar's tooltip.
        label: the sidebar's short name for it.
        step: the sidebar slider's step (numbers only).
        choices: the values allowed (text settings only).
    """

    name: str
    type: type
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    unit: str = ""
    help: str = ""
    label: str = ""
    step: float | None = None
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        """The help with the unit and the allowed values, e.g. "pages kept by ... (pages, 1 to 50)"."""
        if self.limits is not None:
            return f"{self.help} ({self.unit}, {self.limits[0]} to {self.limits[1]})"
        return f"{self.help} ({' or '.join(self.choices)})" if self.choices else self.help

    @property
    def limits(self) -> tuple[Any, Any] | None:
        """``(minimum, maximum)`` of a number setting, as its type (``None`` for the others)."""
        return None if self.minimum is None else (self.type(self.minimum), self.type(self.maximum))

    def check(self, value: Any, where: str = "") -> Any:
        """``value`` if the setting may take it, else a ``ValueError`` naming the setting, its allowed values and
        ``where`` it came from."""
        place = f"{where}: " if where else ""
        if self.type is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{place}{self.name} must be true or false, not {value!r}.")
            return value
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{place}{self.name} must be one of {', '.join(self.choices)}, not {value!r}.")
            return value
        if self.limits is not None:
            low, high = self.limits
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(
                    f"{place}{self.name} must be a number from {low} to {high} ({self.unit}), not {value!r}."
                )
            if self.type is int and value != int(value):
                raise ValueError(f"{place}{self.name} must be a whole number of {self.unit}, not {value!r}.")
            return self.type(value)
        return value


VerdictChoice = Literal["learned", "rule"]
"""The values of the ``verdict`` check setting, as a type: which decider a check asks for (the service's OpenAPI
document lists them)."""

Unset = TypeVar("Unset")
"""What a per-check setting holds before it takes effect: ``None`` in :class:`~fever_core.pipeline.CheckOptions` (use
the settings), ``Never`` in :class:`~fever_core.pipeline.AppliedSettings` (every setting filled in)."""
_DECLARED = "check_setting"
_UNSET: Any = None
"""A per-check setting's value before it takes effect (``None``), of any type to the type checker: a field's type is
what a record holds once it is filled in (``int | Unset``), which ``CheckOptions`` widens to ``None``."""


def _declared(
    default: Any,
    minimum: float | None = None,
    maximum: float | None = None,
    unit: str = "",
    help: str = "",
    label: str = "",
    step: float | None = None,
) -> dict[str, Any]:
    """The metadata of a field of :class:`PerCheckSettings`: its declaration, a :class:`CheckSetting` but for the name
    and the type, which are the field's."""
    declared = {"default": default, "minimum": minimum, "maximum": maximum, "unit": unit, "help": help}
    return {_DECLARED: {**declared, "label": label, "step": step}}


@dataclass(frozen=True)
class PerCheckSettings(Generic[Unset]):
    """Every per-check setting, one field each, declared once: its type (``| Unset``: how a record holds it before it
    takes effect; unset, ``None``, until a check or the settings fill it in) and, in its metadata, its default, limits,
    unit, help and the sidebar's label and step (:data:`CHECK_SETTINGS` reads them). The options a check is given (:class:`~fever_core.pipeline.CheckOptions`) and
    the settings it took effect with (:class:`~fever_core.pipeline.AppliedSettings`) are this record.

    Attributes:
        pages_k: pages kept by document retrieval (pages).
        sentences_k: evidence sentences passed to the verifier (sentences).
        two_hop: follow the links of first-hop evidence.
        two_hop_threshold: minimum first-hop selection score whose links are followed (cosine).
        min_evidence_score: minimum selection score for evidence to count in the verdict (cosine).
        nei_threshold: P(NOT ENOUGH INFO) from which one sentence's stance is not decisive (probability); ``None``
            once applied: the verifier reads stances by plain argmax (a hub model).
        number_check: compare the claim's numbers, dates and ordinals with the evidence's.
        verdict: the decider asked for: ``learned`` or ``rule``.
    """

    pages_k: int | Unset = field(
        default=_UNSET,
        metadata=_declared(
            5, 1, 50, "pages", "pages kept by document retrieval; sentences are selected from these", "Pages", 1
        ),
    )
    sentences_k: int | Unset = field(
        default=_UNSET,
        metadata=_declared(
            5,
            1,
            30,
            "sentences",
            "evidence sentences passed to the verifier; the FEVER score counts the first five",
            "Evidence sentences",
            1,
        ),
    )
    two_hop: bool | Unset = field(
        default=_UNSET,
        metadata=_declared(
            True,
            unit="on/off",
            help="follow the hyperlinks of first-hop evidence to pages it names",
            label="Follow links (two-hop evidence)",
        ),
    )
    two_hop_threshold: float | Unset = field(
        default=_UNSET,
        metadata=_declared(
            0.5,
            -1.0,
            1.0,
            "cosine",
            "minimum first-hop selection score (a cosine similarity) for a sentence's links to be followed",
            "Two-hop: minimum first-hop score",
            0.05,
        ),
    )
    min_evidence_score: float | Unset = field(
        default=_UNSET,
        metadata=_declared(
            None,
            -1.0,
            1.0,
            "cosine",
            "minimum selection score (a cosine "
            "similarity) for evidence to count in the verdict: evidence below is shown but not used "
            "(default: the verifier's rule)",
            "Minimum evidence score",
            0.05,
        ),
    )
    nei_threshold: float | None | Unset = field(
        default=_UNSET,
        metadata=_declared(
            None,
            0.0,
            1.0,
            "probability",
            "P(NOT ENOUGH INFO) from which one "
            "sentence's stance is not decisive, as the best-sentence rule (verdict: rule) reads it (default: the "
            "verifier's rule)",
            "NOT ENOUGH INFO threshold",
            0.01,
        ),
    )
    number_check: bool | Unset = field(
        default=_UNSET,
        metadata=_declared(
            True,
            unit="on/off",
            help="compare the numbers, dates and ordinals of the "
            "claim with those of the evidence: a sentence that states the claim with another number refutes "
            'it, one whose number fits the claim\'s ("more than 7,000" and 7,088) supports it',
            label="Check numbers, dates and ordinals",
        ),
    )
    verdict: VerdictChoice | Unset = field(
        default=_UNSET,
        metadata=_declared(
            "learned",
            help="learned: the verifier's learned verdict over all "
            "evidence (when it has one, and the retriever is fused); rule: the best trustworthy sentence "
            "decides",
            label="Verdict",
        ),
    )


def _check_settings() -> tuple[CheckSetting, ...]:
    """Each field of :class:`PerCheckSettings` as a :class:`CheckSetting`: its name, its type (``int``, ``float``,
    ``bool``, or ``str`` with the choices its ``Literal`` names) and its declaration."""
    hints = get_type_hints(PerCheckSettings)
    declared = []
    for setting in fields(PerCheckSettings):
        kind = next(arg for arg in get_args(hints[setting.name]) if arg not in (Unset, type(None)))
        choices = get_args(kind) if get_origin(kind) is Literal else ()
        declared.append(
            CheckSetting(setting.name, str if choices else kind, choices=choices, **setting.metadata[_DECLARED])
        )
    return tuple(declared)


CHECK_SETTINGS = _check_settings()
"""Every per-check setting, in the order the sidebar and ``--help`` show them (:class:`PerCheckSettings`'
fields)."""

CHECK_SETTING = {setting.name: setting for setting in CHECK_SETTINGS}
""":data:`CHECK_SETTINGS` by name."""
