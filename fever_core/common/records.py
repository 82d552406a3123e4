"""A record (a dataclass: a verdict, a check's settings) as the JSON a check writes: every field, by its name, read
from the dataclass itself, so that a field added to a record is written without a line more."""

from __future__ import annotations

import dataclasses
import enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def record_dict(record: DataclassInstance) -> dict[str, Any]:
    """``record``'s fields as JSON values, in their declared order: nested records as objects
    (:func:`dataclasses.asdict`), tuples as lists, an enumeration's member as its value."""
    return {name: _json_value(value) for name, value in dataclasses.asdict(record).items()}


def _json_value(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return value
