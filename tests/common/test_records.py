"""A record is written as JSON field for field, from its declaration."""

from dataclasses import dataclass, field
from enum import StrEnum

from fever_core.common.records import JSON_NAME, record_dict


class Kind(StrEnum):
    PAGE = "page"


@dataclass(frozen=True)
class Inner:
    name: str
    kinds: tuple[Kind, ...] = ()


@dataclass(frozen=True)
class Outer:
    label: str
    inner: Inner | None = None
    parts: tuple[Inner, ...] = ()
    scores: dict[str, float] = field(default_factory=dict)


def test_every_field_is_written_in_its_order_nested_records_as_objects_tuples_as_lists_enums_as_values():
    record = Outer("SUPPORTS", Inner("a", (Kind.PAGE,)), (Inner("b"),), {"SUPPORTS": 0.9})
    written = record_dict(record)
    assert list(written) == ["label", "inner", "parts", "scores"]
    assert written == {
        "label": "SUPPORTS",
        "inner": {"name": "a", "kinds": ["page"]},
        "parts": [{"name": "b", "kinds": []}],
        "scores": {"SUPPORTS": 0.9},
    }
    assert type(written["inner"]["kinds"][0]) is str


@dataclass
class Written:
    value: float

    def to_dict(self) -> dict[str, float]:
        return {"as_written": self.value}


@dataclass
class Renamed:
    applied: Inner = field(metadata={JSON_NAME: "settings"})
    vector: list[float] = field(default_factory=list, metadata={JSON_NAME: None})
    written: Written | None = None


def test_a_field_is_written_under_its_json_name_or_left_out_and_a_record_with_its_own_to_dict_as_it_writes_itself():
    assert record_dict(Renamed(Inner("a"), [0.1], Written(0.5))) == {
        "settings": {"name": "a", "kinds": []},
        "written": {"as_written": 0.5},
    }
