"""Reading jsonl (fever_core/common/jsonl.py): every line UTF-8 or an error naming it, lone surrogates dropped where they
enter, JSON nested too deeply an error naming the line."""

import json

import pytest

from fever_core.common.jsonl import JsonlError, decode_utf8, read_jsonl


def test_bytes_that_are_not_utf8_are_an_error_naming_line_and_column(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_bytes(b'{"id": "Oslo"}\n\n{"id": "Caf\xe9"}\n')  # Latin-1, not UTF-8
    with pytest.raises(
        JsonlError, match=r"pages\.jsonl:3: byte 0xe9 at column 12 is not UTF-8\. Save the file as UTF-8"
    ):
        list(read_jsonl(path))
    with pytest.raises(ValueError, match=r"list\.txt:2: byte 0xff at column 3"):
        decode_utf8(b"Oslo is big.\nOs\xfflo\n", "list.txt")


def test_a_lone_surrogate_escape_is_dropped_where_it_enters_and_a_pair_kept(tmp_path):
    path = tmp_path / "claims.jsonl"
    path.write_text('{"claim": "Oslo \\ud800is in Norway.", "tags": ["\\udfff"], "emoji": "\\ud83d\\ude00"}\n')
    [(_number, record)] = list(read_jsonl(path))
    assert record == {"claim": "Oslo is in Norway.", "tags": [""], "emoji": "\U0001f600"}
    assert json.dumps(record, ensure_ascii=False).encode("utf-8")


def test_json_nested_too_deeply_is_an_error_naming_the_line():
    with pytest.raises(JsonlError, match=r"input:2: JSON nested too deeply"):
        list(read_jsonl(['{"id": 1}', "[" * 100_000]))
