"""A text to check, as plain text: pasted, or read from a ``.txt``, ``.md`` or ``.html`` file.

HTML is read with Python's own HTML parser (:class:`html.parser.HTMLParser`): only its text is kept, a block
element (a paragraph, a heading, a list item...) as a paragraph of its own; what scripts, styles, templates and
embedded documents hold is dropped, and nothing is ever run. Markdown is plain text, less its link, emphasis,
heading and quote marks. A file that is not text (a PDF, a Word document, an image) is refused, and so is a text
over :data:`MAX_TEXT_BYTES`; each with a message saying what to do.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from fever_core.common.jsonl import decode_utf8
from fever_core.common.text import clean_user_lines

MAX_TEXT_BYTES = 1_000_000
"""The longest text read, in bytes of UTF-8 (1 MB: a long report; a novel is several)."""
TEXT_KINDS = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".html": "html",
              ".htm": "html"}
"""The kind of text of each file suffix read."""
_BINARY_SNIFF_BYTES = 8192
_SPACES_RE = re.compile(r"\s+")
_SKIPPED_ELEMENTS = frozenset({"script", "style", "noscript", "template", "head", "title", "svg", "math", "iframe",
                               "object", "embed", "canvas", "select", "textarea", "button"})
_BLOCK_ELEMENTS = frozenset({
    "address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
    "section", "summary", "table", "tr", "ul",
})
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
    when it is over :data:`MAX_TEXT_BYTES`.

    Raises:
        TextReadError: it is not such a file, or not text, too long, or holds no text.
        OSError: it can't be read (missing, no permission).
    """
    path = Path(path)
    kind_of(path.name)
    size = path.stat().st_size
    if size > MAX_TEXT_BYTES:
        raise TextReadError(_too_long(path.name, size))
    return text_of_bytes(path.read_bytes(), path.name)


def kind_of(name: str) -> str:
    """The kind of text (``text``, ``markdown``, ``html``) a file of this name holds, by its suffix
    (:data:`TEXT_KINDS`); a :class:`TextReadError` for another suffix."""
    kind = TEXT_KINDS.get(Path(name).suffix.lower())
    if kind is None:
        raise TextReadError(f"Can't read {name}: give a text file (.txt), Markdown (.md) or a web page (.html). "
                            "For a PDF or a Word document, copy its text and paste it.")
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
        raise TextReadError(f"{name} is not a text file (it holds bytes no text has, as a PDF, a Word document or "
                            "an image does): copy its text and paste it, or save it as .txt.")
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
    return (f"{name} has {size:,} bytes; a text to check can have {MAX_TEXT_BYTES:,} (1 MB). Check it in parts, "
            "or only the part you need.")


class _TextOfHtml(HTMLParser):
    """Collects an HTML document's text: a paragraph break around each block element, a line break for ``<br>``,
    a space between table cells; the inside of :data:`_SKIPPED_ELEMENTS` dropped (for those left open, the rest of
    the document)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIPPED_ELEMENTS:
            self._skipping.append(tag)
        elif not self._skipping:
            self._break(tag)

    def handle_startendtag(self, tag: str, attrs) -> None:
        if not self._skipping:
            self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skipping:
            if tag in self._skipping:
                del self._skipping[len(self._skipping) - 1 - self._skipping[::-1].index(tag):]
        else:
            self._break(tag)

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(_SPACES_RE.sub(" ", data))

    def _break(self, tag: str) -> None:
        if tag in _BLOCK_ELEMENTS:
            self.parts.append("\n\n")
        elif tag == "br":
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")


def html_to_text(html: str) -> str:
    """The text of an HTML document or fragment (entities decoded), a paragraph a block element; scripts, styles
    and the like are dropped, never run."""
    parser = _TextOfHtml()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def markdown_to_text(markdown: str) -> str:
    """Markdown as plain text: links and images as their text, without emphasis, code, heading and quote marks
    (lists and the rest as written)."""
    for pattern, replacement in _MARKDOWN_RULES:
        markdown = pattern.sub(replacement, markdown)
    return markdown
