"""A text to check, as plain text: pasted, or read from a ``.txt``, ``.md`` or ``.html`` file.

HTML is read in one pass of its own, in time linear in its length (:func:`html_to_text`): only its text is kept, a
block element (a paragraph, a heading, a list item...) as a paragraph of its own; what scripts, styles, templates and
embedded documents hold is dropped, and nothing is ever run. (Python's :class:`html.parser.HTMLParser` takes
quadratic time on some malformed documents under 1 MB, comments or attributes left open by the thousand, and libxml2's
on end tags under deep nesting: minutes; here a 1 MB document of any kind reads in about a second, and one of more
than :data:`MAX_HTML_TAGS` tags, or that takes over :data:`HTML_SECONDS`, is refused.) Markdown is plain text, less
its link, emphasis, heading and quote marks. A file that is not text (a PDF, a Word document, an image) is refused, and
so is a text over :data:`MAX_TEXT_BYTES`; each with a message saying what to do.
"""

from __future__ import annotations

import collections
import functools
import html
import re
import time
from pathlib import Path
from typing import BinaryIO

from fever_core.common.jsonl import decode_utf8
from fever_core.common.text import clean_user_lines

MAX_TEXT_BYTES = 1_000_000
"""The longest text read, in bytes of UTF-8 (1 MB: a long report; a novel is several)."""
TEXT_KINDS = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
"""The kind of text of each file suffix read."""
MAX_HTML_TAGS = 250_000
"""The most tags an HTML document may have (start and end tags, in all; a long article has some thousands)."""
HTML_SECONDS = 5.0
"""The longest an HTML document may take to read, in seconds (a 1 MB document takes well under one)."""
_BUDGET_EVERY = 1024  # tags between two looks at the budget
_BINARY_SNIFF_BYTES = 8192
_SPACES_RE = re.compile(r"\s+")
_SKIPPED_ELEMENTS = frozenset(
    ("script style noscript template head title svg math iframe object embed canvas select textarea button").split()
)
_RAW_TEXT_ELEMENTS = frozenset("script style xmp iframe noembed noframes textarea title plaintext".split())
"""Elements whose text is not HTML: read up to their end tag."""
_MARKUP = re.compile(r"<[A-Za-z/!?]")
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)")
_IN_TAG = re.compile(r"""=[\t\n\f\r ]*(["'])|>""")
_BLOCK_ELEMENTS = frozenset(
    (
        "address article aside blockquote dd details div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 header "
        "hr li main nav ol p pre section summary table tr ul"
    ).split()
)
_MARKDOWN_RULES = [
    (re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),  # a link or an image: its text
    (re.compile(r"^ {0,3}(?:#{1,6}[ \t]+|>[ \t]?)", re.MULTILINE), ""),  # a heading's or a quote's mark
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),  # emphasis
    (re.compile(r"`([^`\n]+)`"), r"\1"),  # code
]


class TextReadError(ValueError):
    """A text can't be read (not a text file, too long, empty...); the message says why and what to do."""


def read_text_file(path: str | Path) -> str:
    """The plain text of a ``.txt``, ``.md`` or ``.html`` file (:func:`text_of_bytes`), refused before it is read
    when it says it is over :data:`MAX_TEXT_BYTES`, and read no further than that limit whatever it says
    (:func:`read_within_limit`).

    Raises:
        TextReadError: it is not such a file, or not text, too long, or holds no text.
        OSError: it can't be read (missing, no permission).
    """
    path = Path(path)
    kind_of(path.name)
    if path.is_file() and (size := path.stat().st_size) > MAX_TEXT_BYTES:
        raise TextReadError(_too_long(path.name, size))
    with path.open("rb") as stream:  # a pipe, a device or a link to one says nothing true of its size
        return text_of_bytes(read_within_limit(stream, path.name), path.name)


def read_within_limit(stream: BinaryIO, name: str, limit: int = MAX_TEXT_BYTES) -> bytes:
    """At most ``limit`` bytes of a stream (a file, stdin, a pipe, a device), read in chunks of 64 KiB; one byte more
    and it is refused, whatever the stream would go on giving (``/dev/zero`` is never read past ``limit`` + 1).

    Raises:
        TextReadError: the stream holds more than ``limit`` bytes.
    """
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise TextReadError(
            f"{name} has more than {limit:,} bytes; a text to check can have {limit:,} (1 MB). "
            "Check it in parts, or only the part you need."
        )
    return b"".join(chunks)


def read_text_stream(stream: BinaryIO, name: str = "The text on stdin") -> str:
    """Plain UTF-8 text from a stream (stdin, a pipe), read no further than :data:`MAX_TEXT_BYTES`
    (:func:`read_within_limit`), as :func:`plain_text` cleans it.

    Raises:
        TextReadError: over the limit, not UTF-8, or no words in it.
    """
    data = read_within_limit(stream, name)
    return plain_text(decode_utf8(data.removeprefix(b"\xef\xbb\xbf"), name, error=TextReadError), name)


def kind_of(name: str) -> str:
    """The kind of text (``text``, ``markdown``, ``html``) a file of this name holds, by its suffix
    (:data:`TEXT_KINDS`); a :class:`TextReadError` for another suffix."""
    kind = TEXT_KINDS.get(Path(name).suffix.lower())
    if kind is None:
        raise TextReadError(
            f"Can't read {name}: give a text file (.txt), Markdown (.md) or a web page (.html). "
            "For a PDF or a Word document, copy its text and paste it."
        )
    return kind


def text_of_bytes(data: bytes, name: str) -> str:
    """The plain text of a file's bytes (an upload), read as its name's suffix says (:func:`kind_of`): UTF-8 text
    (a byte-order mark is allowed), HTML as its text (:func:`html_to_text`), Markdown without its marks.

    Raises:
        TextReadError: not a text file (bytes no text has, or not UTF-8), over :data:`MAX_TEXT_BYTES`, or no text.
    """
    kind = kind_of(name)
    if len(data) > MAX_TEXT_BYTES:
        raise TextReadError(_too_long(name, len(data)))
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise TextReadError(
            f"{name} is not a text file (it holds bytes no text has, as a PDF, a Word document or "
            "an image does): copy its text and paste it, or save it as .txt."
        )
    text = decode_utf8(data.removeprefix(b"\xef\xbb\xbf"), name, error=TextReadError)
    if kind == "html":
        text = html_to_text(text)
    elif kind == "markdown":
        text = markdown_to_text(text)
    return plain_text(text, name)


def plain_text(text: str, name: str = "The text") -> str:
    """Pasted text, or a file's text, as the plain text whose sentences are checked (their offsets point into it):
    cleaned line by line (:func:`~fever_core.common.text.clean_user_lines`).

    Raises:
        TextReadError: over :data:`MAX_TEXT_BYTES` in UTF-8, or no words in it (``name`` says which text).
    """
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_TEXT_BYTES:
        raise TextReadError(_too_long(name, size))
    cleaned = clean_user_lines(text)
    if not any(ch.isalnum() for ch in cleaned):
        raise TextReadError(f"{name} is empty: paste an article, a speech or a transcript to check its sentences.")
    return cleaned


def _too_long(name: str, size: int) -> str:
    return (
        f"{name} has {size:,} bytes; a text to check can have {MAX_TEXT_BYTES:,} (1 MB). Check it in parts, "
        "or only the part you need."
    )


class _TextOfHtml:
    """Collects an HTML document's text from its tags and text, in order: a paragraph break around each block element,
    a line break for ``<br>``, a space between table cells; the inside of :data:`_SKIPPED_ELEMENTS` dropped (for those
    left open, the rest of the document). Each tag costs the same however deep the document nests: the skipped
    elements open are counted by name, and an end tag closes back to its element only when one is open."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._skipping: list[str] = []
        self._open: collections.Counter[str] = collections.Counter()

    def start(self, tag: str, closed: bool) -> None:
        if tag in _SKIPPED_ELEMENTS and not closed:
            self._skipping.append(tag)
            self._open[tag] += 1
        elif not self._skipping:
            self._break(tag)

    def end(self, tag: str) -> None:
        if not self._skipping:
            self._break(tag)
        elif self._open[tag]:
            while (closed := self._skipping.pop()) != tag:  # each element is closed once: linear in all
                self._open[closed] -= 1
            self._open[tag] -= 1

    def data(self, data: str) -> None:
        if not self._skipping and data:
            self.parts.append(_SPACES_RE.sub(" ", html.unescape(data)))

    def _break(self, tag: str) -> None:
        if tag in _BLOCK_ELEMENTS:
            self.parts.append("\n\n")
        elif tag == "br":
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")


def html_to_text(document: str, max_tags: int = MAX_HTML_TAGS, max_seconds: float = HTML_SECONDS) -> str:
    """The text of an HTML document or fragment (entities decoded), a paragraph a block element; scripts, styles
    and the like are dropped, never run.

    The document is read in one pass, in time linear in its length whatever it holds (see the module's docstring):
    each ``<`` starts a tag, a comment, a declaration or is text; what is left open at the end (a comment, a tag, a
    script) is dropped with the rest, as a browser drops it; a ``<`` before anything else is text.

    Args:
        document: the HTML.
        max_tags: the most tags read (default :data:`MAX_HTML_TAGS`).
        max_seconds: the longest reading, in seconds (default :data:`HTML_SECONDS`).

    Raises:
        TextReadError: the document has more tags than ``max_tags``, or takes longer than ``max_seconds``.
    """
    text = _TextOfHtml()
    deadline = time.monotonic() + max_seconds
    tags, at, size = 0, 0, len(document)
    while (markup := _MARKUP.search(document, at)) is not None:  # (a "<" before anything else is text)
        lt = markup.start()
        text.data(document[at:lt])
        tag = _TAG_NAME.match(document, lt)
        if tag is None:
            if document.startswith("<!--", lt):
                end = document.find("-->", lt + 4)
                at = size if end < 0 else end + 3  # a comment left open runs to the end
            else:
                end = document.find(">", lt + 2)  # a declaration, or what a browser takes for a comment
                at = size if end < 0 else end + 1
            continue
        end = _tag_end(document, tag.end())
        if end < 0:
            at = size  # a tag left open at the end: dropped
            break
        tags += 1
        if tags % _BUDGET_EVERY == 0 and (tags > max_tags or time.monotonic() > deadline):
            raise TextReadError(_too_much_html(tags, max_tags, max_seconds))
        name = tag.group(2).lower()
        at = end
        if tag.group(1):
            text.end(name)
            continue
        text.start(name, document[end - 2] == "/")
        if name in _RAW_TEXT_ELEMENTS:  # its text is not HTML: up to its end tag, or the end
            close = _raw_text_end(name).search(document, at)
            text.data(document[at : close.start() if close else size])
            at = close.start() if close else size
    text.data(document[at:])
    if tags > max_tags:
        raise TextReadError(_too_much_html(tags, max_tags, max_seconds))
    return "".join(text.parts)


@functools.cache
def _raw_text_end(name: str) -> re.Pattern[str]:
    """What ends the text of raw-text element ``name``: its end tag, in any letter case."""
    return re.compile(f"</{name}[\\t\\n\\f\\r />]", re.IGNORECASE)


def _tag_end(document: str, at: int) -> int:
    """Where the tag whose name ends at ``at`` ends (just past its ``>``; a ``>`` inside a quoted attribute value is
    not its end), or -1 when it is left open at the end of the document."""
    while True:
        found = _IN_TAG.search(document, at)
        if found is None:
            return -1
        if found.group(1) is None:
            return found.end()
        at = document.find(found.group(1), found.end())
        if at < 0:
            return -1
        at += 1


def _too_much_html(tags: int, max_tags: int, max_seconds: float) -> str:
    return (
        f"This web page is more markup than text (over {min(tags, max_tags):,} tags, or over {max_seconds:g} s to "
        "read): save it as text (.txt) or copy its text and paste it."
    )


def markdown_to_text(markdown: str) -> str:
    """Markdown as plain text: links and images as their text, without emphasis, code, heading and quote marks
    (lists and the rest as written)."""
    for pattern, replacement in _MARKDOWN_RULES:
        markdown = pattern.sub(replacement, markdown)
    return markdown
