"""Reading jsonl files (one JSON object a line) and UTF-8 text with errors that name the file and the line;
writing jsonl and JSON files atomically."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fever_core.common.text import clean_json_text


class JsonlError(ValueError):
    """A jsonl file is missing or has a line that is not a JSON object; the message says where."""


def decode_utf8(data: bytes, name: str, first_line: int = 1, error: type[ValueError] = JsonlError) -> str:
    """``data`` decoded as UTF-8, or ``error`` naming ``name``, the line (``first_line`` is the number of the
    line ``data`` starts on) and the column of the first byte that is not UTF-8; never a silent replacement."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        column = exc.start - data.rfind(b"\n", 0, exc.start)
        raise error(
            f"{name}:{line}: byte 0x{data[exc.start]:02x} at column {column} is not UTF-8. Save the file as "
            "UTF-8 (or fix that line)."
        ) from None


def read_jsonl(
    source: str | Path | Iterable[str | bytes], name: str | None = None, error: type[ValueError] = JsonlError
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-blank line, streaming (the file is never loaded whole).

    Every line must be UTF-8. A line whose JSON escapes spell lone surrogates (``"\\ud800"``) has them dropped
    (:func:`~fever_core.common.text.clean_json_text`): this is where jsonl text enters the workbench.

    Args:
        source: a path, or an iterable of text or byte lines (an open file, an upload).
        name: what to call the source in messages (default: the path).
        error: the exception class to raise (a ``ValueError`` subclass), so callers keep their own.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise error(f"{path} does not exist. Check the path (the shared data lives in ../shared/data/).")
        with path.open("rb") as lines:
            yield from read_jsonl(lines, name or str(path), error)
        return
    name = name or "input"
    for number, raw in enumerate(source, start=1):
        text = decode_utf8(raw, name, number, error) if isinstance(raw, bytes) else raw
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise error(f"{name}:{number}: not valid JSON ({exc.msg}). Fix or remove that line.") from None
        except RecursionError:
            raise error(f"{name}:{number}: JSON nested too deeply to read. Fix or remove that line.") from None
        if not isinstance(record, dict):
            raise error(f"{name}:{number}: expected a JSON object, got {type(record).__name__}.")
        if "\\ud" in text or "\\uD" in text:  # a surrogate's escape: cheap to look for, rare in real files
            record = clean_json_text(record)
        yield number, record


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write ``records`` as jsonl, atomically: a ``.partial`` file replaces ``path`` only once complete."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".partial")
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    tmp.replace(path)


def write_json(path: str | Path, data: dict[str, Any]) -> None:
    """Write ``data`` as indented JSON, atomically (a reader, or a crash, sees the old file or the new one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".partial")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
