from fever_core.common.names import base_title
from fever_core.common.types import Link, Page, Sentence
from fever_core.corpus.linking import TitleLinker


def test_base_title_drops_disambiguation():
    assert base_title("Soul Food (film)") == "Soul Food"
    assert base_title("Paris") == "Paris"
    assert base_title("(film)") == "(film)"


def test_longest_match_wins_and_no_self_links():
    linker = TitleLinker(
        [
            ("New_York", "New York"),
            ("New_York_City", "New York City"),
            ("York", "York"),
            ("Soul_Food_-LRB-film-RRB-", "Soul Food (film)"),
            ("Paris", "Paris"),
        ]
    )
    [links] = linker.link_texts(["New York City is far from Paris; Soul Food is a film."], own_page_id="Paris")
    assert links == [Link("New York City", "New_York_City"), Link("Soul Food", "Soul_Food_-LRB-film-RRB-")]


def test_ambiguous_base_names_are_not_linked():
    linker = TitleLinker(
        [("Mercury_-LRB-planet-RRB-", "Mercury (planet)"), ("Mercury_-LRB-element-RRB-", "Mercury (element)")]
    )
    assert linker.link_texts(["Mercury is small."]) == [[]]


def test_pages_with_own_links_keep_them():
    linker = TitleLinker([("Paris", "Paris")])
    own = Page("X", "X", [Sentence("X", 0, "Paris.", [Link("P", "Somewhere")])])
    assert linker.link_page(own).sentences[0].links == [Link("P", "Somewhere")]
    bare = Page("Y", "Y", [Sentence("Y", 0, "Paris is big.")])
    assert linker.link_page(bare).sentences[0].links == [Link("Paris", "Paris")]
