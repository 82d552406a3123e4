"""The per-check settings are declared once (fever_core.common.check_settings.PerCheckSettings); the library's defaults
and validation, CheckOptions and AppliedSettings, the CLI's options and the service's request and response schemas are
made from that declaration, so they agree by construction. (The sidebar's sliders: tests/app/test_pages.py.)"""

from __future__ import annotations

import dataclasses
import typing

import pytest

from fever_core.cli import build_parser
from fever_core.common.settings import CHECK_SETTING, CHECK_SETTINGS, Settings
from fever_core.pipeline import AppliedSettings, CheckOptions
from fever_core.service.schemas import CheckOptionsBody, CheckResponse

NUMBERS = [s for s in CHECK_SETTINGS if s.limits is not None]


def test_check_options_has_one_field_per_declared_setting_and_settings_their_defaults():
    assert [f.name for f in dataclasses.fields(CheckOptions)] == [s.name for s in CHECK_SETTINGS]
    settings = Settings()
    # the workbench's own defaults of four of them (FEVER_PAGES_K...) are fields of Settings, named and typed as
    # declared: the one thing those fields repeat
    types = typing.get_type_hints(Settings)
    held = [s for s in CHECK_SETTINGS if hasattr(settings, s.name)]
    assert [s.name for s in held] == ["pages_k", "sentences_k", "two_hop", "two_hop_threshold"]
    for setting in held:
        assert getattr(settings, setting.name) == setting.default and types[setting.name] is setting.type


def test_the_applied_settings_are_the_declared_settings_filled_in_and_the_answer_s_schema_says_each():
    names = [s.name for s in CHECK_SETTINGS]
    assert [f.name for f in dataclasses.fields(AppliedSettings)][: len(names)] == names
    schema = CheckResponse.model_json_schema()["$defs"]["AppliedSettingsOut"]
    assert list(schema["properties"]) == [f.name for f in dataclasses.fields(AppliedSettings)]
    assert set(schema["required"]) == set(schema["properties"]) - {"nei_threshold"}  # None: read by plain argmax
    assert schema["properties"]["verdict"]["enum"] == list(CHECK_SETTING["verdict"].choices)
    for setting in CHECK_SETTINGS:
        if setting.limits is not None:
            kind = (
                schema["properties"][setting.name].get("type") or schema["properties"][setting.name]["anyOf"][0]["type"]
            )
            assert kind == {int: "integer", float: "number"}[setting.type]


@pytest.mark.parametrize("setting", CHECK_SETTINGS, ids=lambda s: s.name)
def test_the_api_schema_has_the_declared_type_limits_and_help(setting):
    field = CheckOptionsBody.model_json_schema()["properties"][setting.name]
    schema = field["anyOf"][0]
    assert field["description"] == setting.describe()
    assert (schema.get("minimum"), schema.get("maximum")) == (setting.limits or (None, None))
    assert tuple(schema.get("enum", ())) == setting.choices
    assert schema["type"] == {int: "integer", float: "number", bool: "boolean", str: "string"}[setting.type]


def _parse(*options: str):
    return build_parser().parse_args(["check", "a claim", *options])


@pytest.mark.parametrize("command", ["check", "check-batch", "evaluate"])
def test_every_checking_command_takes_every_setting(command):
    options = build_parser()._subparsers._group_actions[0].choices[command]._option_string_actions
    assert {
        "--pages-k",
        "--sentences-k",
        "--two-hop",
        "--no-two-hop",
        "--two-hop-threshold",
        "--min-evidence-score",
        "--nei-threshold",
        "--verdict",
    } <= set(options)


@pytest.mark.parametrize("setting", NUMBERS, ids=lambda s: s.name)
def test_the_cli_takes_a_setting_within_its_declared_limits_and_refuses_it_outside(setting, capsys):
    option = "--" + setting.name.replace("_", "-")
    low, high = setting.limits
    assert getattr(_parse(option, str(low)), setting.name) == low
    assert getattr(_parse(option, str(high)), setting.name) == high
    for outside in (low - setting.step, high + setting.step, "nan"):
        with pytest.raises(SystemExit):
            _parse(option, str(outside))
        assert setting.name in capsys.readouterr().err or "nan" == outside


def test_the_cli_s_other_settings_and_what_a_check_gets_when_none_is_given():
    assert _parse("--no-two-hop").two_hop is False and _parse("--two-hop").two_hop is True
    assert _parse("--verdict", "rule").verdict == "rule"
    with pytest.raises(SystemExit):
        _parse("--verdict", "vote")
    from fever_core.cli.common import check_options_from

    assert check_options_from(_parse()) == CheckOptions()
    assert check_options_from(_parse("--sentences-k", "3", "--no-two-hop")) == CheckOptions(
        sentences_k=3, two_hop=False
    )


@pytest.mark.parametrize("setting", NUMBERS, ids=lambda s: s.name)
def test_the_api_and_the_environment_refuse_what_the_declaration_refuses(setting):
    low, high = setting.limits
    assert getattr(CheckOptionsBody(**{setting.name: high}).to_options(), setting.name) == high
    with pytest.raises(ValueError):
        CheckOptionsBody(**{setting.name: high + setting.step})
    if hasattr(Settings, setting.name):
        variable = f"FEVER_{setting.name.upper()}"
        assert getattr(Settings.from_env({variable: str(low)}), setting.name) == low
        with pytest.raises(ValueError, match=variable):
            Settings.from_env({variable: str(low - setting.step)})


def test_the_public_url_is_unset_by_default_read_from_the_environment_and_refused_when_not_an_address():
    assert Settings.from_env({}).public_url == ""
    assert Settings.from_env({"FEVER_PUBLIC_URL": "https://factcheck.example.org/desk/"}).public_url == (
        "https://factcheck.example.org/desk/"
    )
    for wrong in ("factcheck.example.org", "javascript:alert(1)", "https://", "https://example.org/a b"):
        with pytest.raises(ValueError, match="FEVER_PUBLIC_URL"):
            Settings.from_env({"FEVER_PUBLIC_URL": wrong})
