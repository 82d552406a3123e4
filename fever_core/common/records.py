"""A record (a dataclass: a verdict, a check) as the JSON a check writes: every field, by its name, read from the
dataclass itself, so that a field added to a record is written without a line more.

A field written under another name, in its record's place, or not at all, says so in its metadata
(``{JSON_NAME: "settings"}``, ``{JSON_NAME: IN_PLACE}``, ``{JSON_NAME: None}``); the service's OpenAPI models read
the same metadata. A value the JSON writes that is computed from the others (a checked sentence's verdict) is a field
too, ``init=False`` and set in ``__post_init__``, so that it has its place in the JSON's order and its description in
the record's docstring.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

JSON_NAME = "json_name"
"""The metadata key of a field the JSON names otherwise than the field (its value: that name), or leaves out (``None``:
a claim's vector, which only this process uses)."""
IN_PLACE = ""
"""The :data:`JSON_NAME` of a field holding a record whose fields the JSON writes in its place (a judged sentence's
sentence: its page, line and words beside its stance)."""


def json_name(field: dataclasses.Field[Any]) -> str | None:
    """The name the JSON gives ``field`` (``None``: the JSON leaves it out; :data:`IN_PLACE`: its fields in its
    record's)."""
    name: str | None = field.metadata.get(JSON_NAME, field.name)
    return name


def record_dict(record: DataclassInstance) -> dict[str, Any]:
    """``record``'s fields as JSON values, in their declared order, each under its :func:`json_name`: a nested record
    as its own ``to_dict`` writes it (else field by field, as here), tuples as lists, an enumeration's member as its
    value."""
    written: dict[str, Any] = {}
    for field in dataclasses.fields(record):
        name = json_name(field)
        if name == IN_PLACE:
            written.update(record_dict(getattr(record, field.name)))
        elif name is not None:
            written[name] = _json_value(getattr(record, field.name))
    return written


def _json_value(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        return to_dict() if callable(to_dict) else record_dict(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return value
