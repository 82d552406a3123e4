"""A text to check read from a paste or a file: HTML through a real parser (scripts never in the text), binary
files and texts over the limit refused with a message saying what to do."""

from __future__ import annotations

import pytest

from fever_core.text_check import (
    MAX_TEXT_BYTES,
    TextReadError,
    html_to_text,
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
        "Floods & rain", "The River Severn burst its banks on Tuesday.\nMore rain fell on Wednesday.",
        "Shrewsbury opened two rest centres.", "One item", "Another item",
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
    markdown = ("# Title\n\nSome **bold** and _emphasis_ with [a link](https://x.org) and `code`, snake_case_name.\n"
                "> Quoted.")
    assert markdown_to_text(markdown) == ("Title\n\nSome bold and emphasis with a link and code, snake_case_name.\n"
                                          "Quoted.")


@pytest.mark.parametrize("name, data", [
    ("report.txt", b"%PDF-1.7\n\x00\x01\x02binary"),
    ("photo.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
])
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
