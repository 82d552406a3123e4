"""The service's response models, made from the library's records themselves: a record (a dataclass: a verdict, a
check) becomes a pydantic model with its fields, their types and defaults, each described by the record's docstring
(its ``Attributes:`` section), so that a field the library adds is in the OpenAPI document without a line more here.

A model allows no field its record lacks (``additionalProperties: false``), so the test that validates live answers
against ``/openapi.json`` fails on any difference between what a check writes and what the document says.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import operator
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from fever_core.common import Label
from fever_core.common.records import IN_PLACE, json_name

_MODELS: dict[type, type[BaseModel]] = {}
"""The model made for each record, which a record holding it as a field refers to."""
_ENTRY = re.compile(r"    (\w[\w, ]*): (.*)")


class RecordModel(BaseModel):
    """A record as the service writes it: exactly its fields."""

    model_config = ConfigDict(extra="forbid")


def model_of(
    record: type,
    name: str,
    *,
    json_types: dict[str, Any] | None = None,
    doc: str = "",
) -> type[BaseModel]:
    """The response model of ``record`` (a dataclass), named ``name`` in the OpenAPI document.

    Each field is named as the JSON names it (:func:`~fever_core.common.records.json_name`: the field's name, another
    one, none: left out, or its record's fields in its place). A field whose type is a record has that record's model
    (made before, by this function); a field named ``label`` holding text is a FEVER label
    (:data:`~fever_core.common.types.Label`, an enumeration in the document).

    Args:
        json_types: the JSON type of fields the record writes otherwise than as their type (a stance as ``{label: p}``).
        doc: the model's description (default: the first paragraph of the record's docstring).
    """
    definitions = _definitions(record, json_types or {})
    model: type[BaseModel] = create_model(
        name,
        __base__=RecordModel,
        __module__=__name__,
        __doc__=doc or inspect.cleandoc(record.__doc__ or "").partition("\n\n")[0],
        **definitions,
    )
    _MODELS[record] = model
    return model


def _definitions(record: type, json_types: dict[str, Any]) -> dict[str, Any]:
    """Each field's ``(type, Field)`` as :func:`pydantic.create_model` takes them, in the record's order."""
    hints = typing.get_type_hints(record)
    bound = _bindings(record)
    described = _descriptions(record)
    definitions: dict[str, Any] = {}
    for field in dataclasses.fields(record):
        name = json_name(field)
        if name is None:
            continue
        if name == IN_PLACE:
            definitions.update(_definitions(hints[field.name], {}))
            continue
        kind = json_types[field.name] if field.name in json_types else _json_type(field.name, hints[field.name], bound)
        if field.default is not dataclasses.MISSING:
            default: Any = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = ...
        if default is None and type(None) not in typing.get_args(kind):
            default = ...  # unset until the record is filled in (an applied setting): always there in the JSON
        definitions[name] = (kind, Field(default, description=described.get(field.name)))
    return definitions


def _bindings(record: type) -> dict[Any, Any]:
    """What each type variable of the generic records ``record`` extends stands for in it (``Unset`` is ``Never`` in a
    record extending ``PerCheckSettings[Never]``)."""
    bound: dict[Any, Any] = {}
    for klass in record.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = typing.get_origin(base)
            bound.update(zip(getattr(origin, "__parameters__", ()), typing.get_args(base)))
    return bound


def _json_type(name: str, hint: Any, bound: dict[Any, Any]) -> Any:
    """The type ``hint`` of a field named ``name`` as the JSON holds it: records as their models, tuples as lists, type
    variables as what they stand for (``bound``; one standing for ``Never`` leaves a union)."""
    hint = bound.get(hint, hint)
    if name == "label" and hint is str:
        return Label
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _MODELS[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        kinds = [_json_type(name, arg, bound) for arg in args]
        return functools.reduce(operator.or_, [kind for kind in kinds if kind is not typing.Never])
    if origin in (list, tuple):
        return list.__class_getitem__(_json_type(name, args[0], bound))
    if origin is dict:
        return dict.__class_getitem__((args[0], _json_type(name, args[1], bound)))
    return hint


def _descriptions(record: type) -> dict[str, str]:
    """Each field's description, from the ``Attributes:`` sections of the docstrings of ``record`` and the records it
    extends (an entry ``a, b: ...`` describes both), as one line."""
    found: dict[str, str] = {}
    for klass in reversed(record.__mro__):
        names: list[str] = []
        for line in inspect.cleandoc(klass.__doc__ or "").partition("\nAttributes:\n")[2].splitlines():
            entry = _ENTRY.fullmatch(line)
            if entry:
                names = [name.strip() for name in entry.group(1).split(",")]
                found.update(dict.fromkeys(names, entry.group(2)))
            elif line.startswith("        ") and names:
                found.update({name: f"{found[name]} {line.strip()}" for name in names})
            else:
                break
    return found
