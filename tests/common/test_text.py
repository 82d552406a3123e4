import json

from fever_core.common.text import (
    clean_json_text,
    clean_user_lines,
    clean_user_text,
    fever_to_plain,
    normalise_title_key,
    page_id_to_title,
    probably_not_english,
    title_to_page_id,
)


def test_page_ids_round_trip():
    for page_id in ["Soul_Food_-LRB-film-RRB-", "2001-COLON-_A_Space_Odyssey", "Men_-LSB-x-RSB-", "AC/DC", "Beyoncé"]:
        assert title_to_page_id(page_id_to_title(page_id)) == page_id
    assert page_id_to_title("Soul_Food_-LRB-film-RRB-") == "Soul Food (film)"
    assert title_to_page_id("2001: A Space Odyssey") == "2001-COLON-_A_Space_Odyssey"


def test_fever_tokens_become_plain_text():
    assert (
        fever_to_plain("Soul Food -LRB- 1997 -RRB- is a film by `` Tillman '' .")
        == 'Soul Food (1997) is a film by "Tillman".'
    )
    assert fever_to_plain("the Men 's Singles , won 6 -- 3 .") == "the Men's Singles, won 6 – 3."
    assert fever_to_plain("It is n't -LSB- sic -RSB- done ; ok") == "It isn't [sic] done; ok"
    assert fever_to_plain("Plain text, untouched.") == "Plain text, untouched."


def test_clean_user_text_drops_controls_and_folds_space():
    assert clean_user_text("  Cafe\u0301\x00 is\n\n open  ") == "Café is open"
    assert clean_user_text("\u202eevil") == "evil"


def test_title_keys_fold_case_accents_and_punctuation():
    assert normalise_title_key("Beyoncé's  Tour!") == "beyonce s tour"


def test_clean_user_text_keeps_the_joiners_words_and_emoji_need():
    scientist = "\U0001f469\u200d\U0001f52c"  # woman + ZWJ + microscope: one emoji
    persian = "می\u200cخواهم"  # "I want": the non-joiner is part of the spelling
    assert (
        clean_user_text(f"{scientist} {persian}\u200b\u202e") == f"{scientist} {persian}"
    )  # other format characters go


def test_text_that_is_not_typed_loses_only_its_lone_surrogates():
    page = "Oslo\ud800 is\n\tthe capital\u200b\udfff of Norway."
    assert clean_user_text(page, typed=False) == "Oslo is\n\tthe capital\u200b of Norway."
    assert clean_user_text("Oslo \ud800is in Norway.") == "Oslo is in Norway."  # typed: the surrogate is a control
    answer = {"query\udc00": {"search": [{"title": "\ud83dOslo", "size": 3, "ok": None}]}}
    cleaned = clean_json_text(answer)
    assert cleaned == {"query": {"search": [{"title": "Oslo", "size": 3, "ok": None}]}}
    assert json.dumps(cleaned, ensure_ascii=False).encode("utf-8")  # writable at last


def test_a_claim_in_another_language_is_told_from_an_english_one():
    for other in [
        "Paris est la capitale de la France.",
        "Berlin ist die Hauptstadt von Deutschland und liegt an der Spree.",
        "Madrid es la capital de España.",
        "Roma è la capitale d'Italia e una città antica.",
        "Москва — столица России.",
        "东京是日本的首都。",
        "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
        # short ones, where a capitalised first word is one of the few function words
        "La tour Eiffel se trouve à Paris.",
        "Le Louvre est un musée.",
        "Der Eiffelturm steht in Paris.",
        "Goethe war ein Dichter.",
        "Die Zugspitze ist der höchste Berg.",
        "La torre Eiffel está en París.",
        "El Prado es un museo.",
        "Lisboa fica em Portugal.",
    ]:
        assert probably_not_english(other), other
    for english in [
        "Charles de Gaulle was a French general.",
        "Leonardo da Vinci painted the Mona Lisa.",
        "Marie Curie won two Nobel Prizes.",
        "Björk was born in Reykjavík.",
        "ABBA formed in Norway",
        "El Niño is a climate pattern.",
        "🙂",
        "La La Land won six Academy Awards.",
        # English with foreign names, the first word one of them
        "La Paz is the capital of Bolivia.",
        "Le Mans hosts a famous car race.",
        "Die Hard is a 1988 film.",
        "Der Spiegel is a German magazine.",
        "Los Angeles is in California.",
        "The Tour de France ends in Paris.",
        "Jean-Paul Sartre wrote La Nausée.",
        "Real Madrid plays at the Santiago Bernabéu.",
        "Bal du moulin de la Galette was painted by Renoir.",
        "Un Chien Andalou is a 1929 film.",
        "The war lasted six years.",
    ]:
        assert not probably_not_english(english), english


def test_clean_user_lines_keeps_lines_and_one_blank_line_between_paragraphs():
    assert (
        clean_user_lines("  Title \r\n\r\n\r\n\r\nOne\x00  line.\rNext\tline.\n\n\n")
        == "Title\n\nOne line.\nNext line."
    )
    assert clean_user_lines("\n\n \n") == ""
