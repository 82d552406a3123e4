import json

import pytest

from fever_core.common.text import title_to_page_id
from fever_core.common.types import Link
from fever_core.corpus.sources import CorpusSourceError, source_from_spec
from fever_core.corpus.sources.embedded import EmbeddedSummariesSource
from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource, parse_lines_field

from ..conftest import shared_file


def test_lines_field_keeps_indices_links_and_plain_text():
    sentences = parse_lines_field(
        "X", "0\tA -LRB- b -RRB- .\tAnchor one\tSoul Food (film)\n1\t\n2\t`` Quoted '' text .\ta\tSome_Page"
    )
    assert [(s.line, s.text) for s in sentences] == [(0, "A (b)."), (2, '"Quoted" text.')]
    assert sentences[0].links == [Link("Anchor one", "Soul_Food_-LRB-film-RRB-")]
    assert sentences[1].links == [Link("a", "Some_Page")]


def test_fever_jsonl_pages_stream_with_exact_ids(pages_file):
    pages = {p.page_id: p for p in FeverJsonlSource(pages_file).iter_pages()}
    soul = pages["Soul_Food_-LRB-film-RRB-"]
    assert soul.title == "Soul Food (film)"
    assert [s.line for s in soul.sentences] == [0, 2]
    assert '"Babyface"' in soul.sentences[0].text
    assert pages["Telemundo"].sentences[0].text.startswith("Telemundo is")


@pytest.mark.parametrize("bad", ["{not json", json.dumps({"text": "no id"}), json.dumps(["a list"])])
def test_malformed_line_names_file_and_line(tmp_path, bad):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"id": "Ok", "lines": "0\tFine ."}) + "\n\n" + bad + "\n")
    with pytest.raises(CorpusSourceError, match=r"bad\.jsonl:3"):
        list(FeverJsonlSource(path).iter_pages())


def test_missing_file_and_unknown_spec_are_clear(tmp_path):
    with pytest.raises(CorpusSourceError, match="does not exist"):
        list(FeverJsonlSource(tmp_path / "nope.jsonl").iter_titles())
    with pytest.raises(CorpusSourceError, match="Unknown corpus source"):
        source_from_spec("gopher://x")


def test_embedded_summaries_are_found_and_split():
    source = EmbeddedSummariesSource()
    titles = list(source.iter_titles())
    assert len(titles) == 10033
    assert ("2001-COLON-_A_Space_Odyssey", "2001: A Space Odyssey") in titles
    page = next(p for p in source.iter_pages(batch_size=16) if p.title == "2001: A Space Odyssey")
    # the splitter must not cut the title's colon into a sentence of its own
    assert page.sentences[0].text.startswith("2001: A Space Odyssey is a 1968")
    assert len(page.sentences) >= 2


def test_shared_fever_pages_round_trip():
    path = shared_file("corpus", "fever-pages.jsonl")
    source = FeverJsonlSource(path)
    with_links = 0
    for record, page in zip((json.loads(l) for l in path.open()), source.iter_pages()):
        assert page.page_id == record["id"]
        assert title_to_page_id(page.title) == record["id"]
        for sentence in page.sentences:
            assert "-LRB-" not in sentence.text and "``" not in sentence.text
        raw_lines = [row.split("\t") for row in record["lines"].split("\n")]
        expected = [int(r[0]) for r in raw_lines if len(r) > 1 and r[1].strip()]
        assert [s.line for s in page.sentences] == expected
        with_links += any(s.links for s in page.sentences)
    assert with_links >= 100
