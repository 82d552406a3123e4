"""A text to check read from a paste or a file: HTML through a real parser (scripts never in the text), binary
files and texts over the limit refused with a message saying what to do."""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import threading
import time
from html.parser import HTMLParser

import pytest

from fever_core.text_check import (
    MAX_TEXT_BYTES,
    TextReadError,
    html_to_text,
    input_text,
    markdown_to_text,
    plain_text,
    read_text_file,
    text_of_bytes,
)

PAGE = """<!doctype html><html><head><title>Tab title</title><script>var secret = "SCRIPT-1";</script>
<style>p { color: red } /* STYLE-1 */</style></head>
<body><h1>Floods &amp; rain</h1>
<p>The <b>River Severn</b> burst its banks on Tuesday.<br>More rain fell on <i>Wednesday</i>.</p>
<noscript><p>NOSCRIPT-1</p></noscript><template><p>TEMPLATE-1</p></template>
<p onclick="alert('HANDLER-1')">Shrewsbury opened two rest centres.</p>
<script>document.write("<p>SCRIPT-2</p>"); if (a < b && c > d) {}</script>
<ul><li>One item</li><li>Another item</li></ul><!-- COMMENT-1 -->
<p>A literal &lt;script&gt;alert(1)&lt;/script&gt; in the text stays text.</p>
<script>never closed SCRIPT-3 <p>SCRIPT-4</p>"""


def test_html_keeps_the_text_a_paragraph_a_block_and_drops_scripts_styles_and_comments():
    text = plain_text(html_to_text(PAGE))
    assert text.split("\n\n") == [
        "Floods & rain",
        "The River Severn burst its banks on Tuesday.\nMore rain fell on Wednesday.",
        "Shrewsbury opened two rest centres.",
        "One item",
        "Another item",
        "A literal <script>alert(1)</script> in the text stays text.",
    ]
    for hidden in ("SCRIPT-", "STYLE-", "NOSCRIPT-", "TEMPLATE-", "HANDLER-", "COMMENT-", "Tab title", "secret"):
        assert hidden not in text


def test_an_html_file_is_read_as_its_text(tmp_path):
    path = tmp_path / "article.html"
    path.write_bytes(b"\xef\xbb\xbf" + PAGE.encode("utf-8"))  # a byte-order mark is allowed
    text = read_text_file(path)
    assert text.startswith("Floods & rain\n\nThe River Severn") and "SCRIPT" not in text


def test_markdown_loses_its_marks_but_not_its_words():
    markdown = (
        "# Title\n\nSome **bold** and _emphasis_ with [a link](https://x.org) and `code`, snake_case_name.\n> Quoted."
    )
    assert markdown_to_text(markdown) == (
        "Title\n\nSome bold and emphasis with a link and code, snake_case_name.\nQuoted."
    )


@pytest.mark.parametrize(
    "name, data",
    [
        ("report.txt", b"%PDF-1.7\n\x00\x01\x02binary"),
        ("photo.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
    ],
)
def test_a_binary_file_is_refused_with_what_to_do(name, data):
    with pytest.raises(TextReadError, match=f"{name} is not a text file .*copy its text and paste it"):
        text_of_bytes(data, name)


def test_text_that_is_not_utf8_is_refused_naming_the_line():
    with pytest.raises(TextReadError, match=r"notes.txt:2: byte 0xe9 at column 4 is not UTF-8"):
        text_of_bytes("First line.\nCaf\u00e9 society.".encode("latin-1"), "notes.txt")


def test_a_file_of_another_kind_is_refused_before_it_is_read(tmp_path):
    with pytest.raises(TextReadError, match=r"Can't read speech.docx: give a text file \(.txt\), Markdown"):
        read_text_file(tmp_path / "speech.docx")  # it does not exist: refused by its name


def test_empty_text_is_refused():
    for empty in ("", "   \n\n\t ", "<p> </p>"):
        with pytest.raises(TextReadError, match="is empty: paste an article"):
            plain_text(html_to_text(empty))


def test_a_text_of_1_mb_is_read_and_one_byte_more_refused(tmp_path):
    sentence = "Marie Curie won two Nobel Prizes, in 1903 and 1911.\n\n"
    text = (sentence * (MAX_TEXT_BYTES // len(sentence) + 1))[:MAX_TEXT_BYTES]
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    assert read_text_file(path) == text.strip()
    path.write_text(text + "x", encoding="utf-8")
    with pytest.raises(TextReadError, match=r"long.txt has 1,000,001 bytes; a text to check can have 1,000,000"):
        read_text_file(path)
    with pytest.raises(TextReadError, match=r"The text has 1,000,002 bytes"):
        plain_text(text + "é")  # counted in UTF-8 bytes, not characters


def test_pasted_text_keeps_its_paragraphs_and_loses_control_characters():
    assert plain_text("  Title \r\n\r\n\r\nOne\x00 line.\rNext\u202e line.  \n\n\n") == "Title\n\nOne line.\nNext line."


# --- issue 44, item 2: HTML read in linear time, within a budget ---------------------------------------------------


class ReferenceText(HTMLParser):
    """The reading of an HTML document before issue 44, through Python's own parser: right on well-formed documents,
    quadratic on some others. What the linear reading must agree with."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skipping = [], []

    def handle_starttag(self, tag, attrs):
        if tag in input_text._SKIPPED_ELEMENTS:
            self.skipping.append(tag)
        elif not self.skipping:
            self.block(tag)

    def handle_startendtag(self, tag, attrs):
        if not self.skipping:
            self.block(tag)

    def handle_endtag(self, tag):
        if self.skipping:
            if tag in self.skipping:
                del self.skipping[len(self.skipping) - 1 - self.skipping[::-1].index(tag) :]
        else:
            self.block(tag)

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(re.sub(r"\s+", " ", data))

    def block(self, tag):
        self.parts.append(
            "\n\n" if tag in input_text._BLOCK_ELEMENTS else "\n" if tag == "br" else " " if tag in ("td", "th") else ""
        )


def reference_text(document: str) -> str:
    parser = ReferenceText()
    parser.feed(document)
    parser.close()
    return "".join(parser.parts)


def random_document(rng: random.Random, depth: int = 0) -> str:
    """A well-formed HTML fragment: text with entities and a literal "<", blocks, inline and skipped elements, void
    and self-closed tags, attributes quoted either way (a ">" in one), comments, scripts and styles."""
    parts = []
    for _ in range(rng.randint(1, 5)):
        kind = rng.choice(["text", "text", "element", "void", "comment", "script"] if depth < 4 else ["text", "void"])
        if kind == "text":
            parts.append(
                rng.choice(
                    [
                        "Paris",
                        "is in",
                        " France &amp; Spain ",
                        "a &lt; b",
                        "caf&eacute;",
                        "1 < 2",
                        "\n  spaced   out\t",
                        "&#x263A; ok",
                        "R&D",
                    ]
                )
            )
        elif kind == "element":
            tag = rng.choice(["p", "div", "li", "b", "i", "span", "td", "h2", "svg", "noscript", "button", "TABLE"])
            attrs = rng.choice(["", ' class="x"', " title='a > b'", ' data-x="1" hidden', " onclick=\"f('<p>')\""])
            parts.append(f"<{tag}{attrs}>{random_document(rng, depth + 1)}</{tag}>")
        elif kind == "void":
            parts.append(rng.choice(["<br>", "<br/>", "<hr>", "<img src='x.png' alt=\"<b>\">", "<svg/>", "<input>"]))
        elif kind == "comment":
            parts.append("<!-- a comment with <p>tags</p> -->")
        else:
            parts.append(
                rng.choice(
                    [
                        "<script>if (a < b && c > d) { x = '</p>'; }</script>",
                        "<style>p > b { color: red }</style>",
                        "<title>Tab</title>",
                    ]
                )
            )
    return "".join(parts)


def test_html_reads_as_python_s_own_parser_read_it_on_well_formed_documents():
    rng = random.Random(44)
    for _ in range(500):
        document = random_document(rng)
        assert html_to_text(document) == reference_text(document), document
    assert html_to_text(PAGE) == reference_text(PAGE)


HOSTILE_HTML = {
    "<svg> x 40,000, then </p> x 130,000 (720 KB)": "<svg>" * 40_000 + "</p>" * 130_000,
    "<svg> nested, 990 KB": "<svg>" * 198_000,
    "<svg> nested and closed, 990 KB": "<svg>" * 90_000 + "</svg>" * 90_000,
    "comments left open": "<!--" * 247_000,
    "tags left open": "<a" * 495_000,
    "attribute values left open": "<p a='" * 165_000,
    "marked sections": "<![" * 330_000,
    "a stray <": "< " * 495_000,
    "end tags of nothing": "</p>" * 247_000,
}


@pytest.mark.parametrize("name", HOSTILE_HTML)
def test_html_under_1_mb_reads_in_linear_time_whatever_it_holds(name):
    document = HOSTILE_HTML[name]
    assert len(document.encode()) < MAX_TEXT_BYTES
    started = time.perf_counter()
    with contextlib.suppress(TextReadError):  # no text in most of them: "is empty"
        text_of_bytes(document.encode(), "page.html")
    # read in one pass, about 0.5 s here idle; a reading that went back over the text (quadratic) would take minutes.
    # The bound leaves room for a machine busy with other tests: it catches the blow-up, not a slow second.
    assert time.perf_counter() - started < 20.0


def test_html_over_its_tag_or_time_budget_is_refused_with_what_to_do():
    document = "<p>Paris is in France.</p>" * 2_000
    assert html_to_text(document).count("Paris") == 2_000
    with pytest.raises(TextReadError, match=r"more markup than text \(over 1,000 tags.*save it as text \(.txt\)"):
        html_to_text(document, max_tags=1_000)
    with pytest.raises(TextReadError, match=r"over 0 s to read"):
        html_to_text(document, max_seconds=0.0)


def test_a_stream_is_read_no_further_than_the_limit_plus_one_byte_whatever_it_would_give():
    class Endless:
        given = 0

        def read(self, size):
            self.given += size
            return b"a" * size

    endless = Endless()
    with pytest.raises(TextReadError, match="more than 1,000 bytes"):
        input_text.read_within_limit(endless, "The text on stdin", limit=1000)
    assert endless.given == 1001
    assert input_text.read_within_limit(io.BytesIO(b"Oslo is in Norway."), "x") == b"Oslo is in Norway."


def test_a_link_to_a_device_or_a_pipe_is_refused_at_the_limit_not_read_whole(tmp_path):
    link = tmp_path / "zeros.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(TextReadError, match="more than 1,000,000 bytes"):
        read_text_file(link)
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)

    def write() -> None:
        with contextlib.suppress(OSError):  # the reader stops at the limit and closes its end: a broken pipe
            fifo.write_bytes(b"x" * (MAX_TEXT_BYTES + 10))

    writer = threading.Thread(target=write)
    writer.start()
    with pytest.raises(TextReadError, match="more than"):
        read_text_file(fifo)
    writer.join(timeout=30)
    assert not writer.is_alive()


def test_text_on_stdin_is_read_within_the_limit_and_as_utf8():
    assert (
        input_text.read_text_stream(io.BytesIO(b"Oslo is the capital of Norway.")) == "Oslo is the capital of Norway."
    )
    with pytest.raises(TextReadError, match="not UTF-8"):
        input_text.read_text_stream(io.BytesIO(b"Oslo \xff is here."))
