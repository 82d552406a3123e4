"""What a text names (fever_core/common/names.py): titles without their disambiguation, a claim's names."""

from fever_core.common.names import base_title, claim_names, mentions_a_name, names_page


def test_a_title_loses_its_trailing_disambiguation_only():
    assert base_title("Soul Food (film)") == "Soul Food"
    assert base_title("Mercury (planet) ") == "Mercury"
    assert base_title("Paris") == "Paris" and base_title("(film)") == "(film)"
    assert base_title("Love (Is) All") == "Love (Is) All"


def test_claim_names_are_its_capitalised_words_else_its_content_words():
    assert claim_names("ABBA was a pop group formed in Norway.") == ["ABBA", "Norway"]
    assert claim_names("The Great Wall of China is in Japan.") == ["Great Wall", "China", "Japan"]
    assert claim_names("Leonardo da Vinci painted the Mona Lisa.") == ["Leonardo", "Vinci", "Mona Lisa"]
    assert claim_names("cats are mammals") == ["cats", "mammals"]


def test_an_article_alone_is_no_name_of_what_a_claim_is_about_in_any_language():
    assert claim_names("La tour Eiffel se trouve à Berlin.") == ["Eiffel", "Berlin"]
    assert claim_names("Les musées du Louvre sont à Paris.") == ["Louvre", "Paris"]
    assert claim_names("El museo del Prado está en Madrid.") == ["Prado", "Madrid"]
    assert claim_names("Il fiume Po attraversa Torino.") == ["Po", "Torino"]
    assert claim_names("The Eiffel Tower is in Paris.") == ["Eiffel Tower", "Paris"]
    # in a name an article stays
    assert claim_names("Los Angeles is in California.") == ["Los Angeles", "California"]
    assert claim_names("Le Louvre est à Paris.") == ["Le Louvre", "Paris"]
    assert claim_names("UN troops served in Cyprus.") == ["UN", "Cyprus"]  # an acronym, not Spanish's "un"
    assert claim_names("Die Hard is a film. Le Mans hosts a race.") == ["Die Hard", "Le Mans"]


def test_a_text_mentions_a_name_by_any_of_its_words_whatever_their_case():
    names = ["ABBA", "Norway"]
    assert mentions_a_name(names, "ABBA: ABBA were a Swedish pop group formed in Stockholm in 1972.")
    assert mentions_a_name(names, "the norway debate")
    assert not mentions_a_name(names, "Alibaba Group: Alibaba Group Holding Limited was founded in Hangzhou.")
    assert mentions_a_name([], "anything")


def test_a_claim_names_a_page_by_its_base_title_as_whole_words():
    assert names_page("Soul Food is a film.", "Soul Food (film)")
    assert names_page("soul food is a film.", "Soul Food (film)")
    assert not names_page("Soul Foodies is a film.", "Soul Food (film)")
