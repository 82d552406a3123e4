"""Claims generated from the embedded corpus's sentences: cores, mutations, same-page NEI, page split."""

import json
import random
import re

from fever_core.common.formats import load_pairs
from fever_core.common.nlp import load_spacy
from fever_core.training.distractors import PoolSentence
from fever_core.training.generated_claims import (
    CoreClaim,
    Substitutes,
    chain_after_link,
    core_claim,
    generate_pairs,
    link_index,
    mutate,
    write_generated,
)
from fever_core.training.pairs import page_split

KUBRICK = "Stanley Kubrick was an American filmmaker and photographer."


def test_the_core_claim_drops_coordinations_clauses_and_asides_and_names_a_pronoun_subject():
    nlp = load_spacy()
    kubrick = core_claim(nlp(KUBRICK), "Stanley Kubrick")
    assert kubrick.text == "Stanley Kubrick was an American filmmaker."
    assert ("American", "NORP") in kubrick.entities
    assert {"american", "filmmaker"} <= kubrick.complement_words and "photographer" not in kubrick.complement_words

    born = core_claim(nlp("He was born in Honolulu, Hawaii."), "Barack Obama")
    assert born.text == "Barack Obama was born in Honolulu."
    aardvark = core_claim(
        nlp("The aardvark is a medium-sized, burrowing, nocturnal mammal native to Africa."), "Aardvark"
    )
    assert aardvark.text.startswith("The aardvark is a medium-sized")
    assert core_claim(nlp("Rain."), "Rain") is None


def test_a_mutation_swaps_one_entity_or_year_for_one_the_premise_does_not_hold_and_never_a_noun():
    claim = CoreClaim(
        "Stanley Kubrick was an American filmmaker.",
        frozenset({"american", "filmmaker"}),
        (("American", "NORP"),),
    )
    substitutes = Substitutes({"NORP": ["American", "Japanese"]})
    refuted = {mutate(claim, KUBRICK, substitutes, random.Random(seed)) for seed in range(10)}
    assert refuted == {"Stanley Kubrick was a Japanese filmmaker."}, "the entity swapped, its article fixed"

    nouns_only = CoreClaim("Kubrick was an American filmmaker.", frozenset({"filmmaker"}), ())
    assert mutate(nouns_only, KUBRICK, substitutes, random.Random(0)) is None, "a swapped head noun reads as nonsense"
    year = CoreClaim("Jaws was released in 1975.", frozenset({"1975"}), (("1975", "DATE"),))
    changed = mutate(year, "Jaws was released in 1975.", Substitutes({}), random.Random(0))
    assert changed != year.text and re.fullmatch(r"Jaws was released in \d{4}\.", changed)
    both = "Jaws was released in 1975 and again in 1979."
    years = {mutate(year, both, Substitutes({}), random.Random(seed)) for seed in range(200)}
    assert "Jaws was released in 1979." not in years, "never a year the premise holds"
    assert mutate(CoreClaim("It rains.", frozenset({"rains"}), ()), "It rains.", substitutes, random.Random(0)) is None


def test_generated_pairs_load_as_a_pair_file_with_the_title_prefixed(tmp_path):
    pool = [
        PoolSentence("Stanley Kubrick", KUBRICK),
        PoolSentence("Stanley Kubrick", "He was born in Manhattan, New York City."),
        PoolSentence("Stanley Kubrick", "His films are noted for their technical perfectionism."),
        PoolSentence("Akira Kurosawa", "Akira Kurosawa was a Japanese filmmaker and painter."),
        PoolSentence("Akira Kurosawa", "He directed thirty films in a career spanning 57 years."),
    ]
    records = generate_pairs(pool, seed=0)
    by_label = {
        label: [r for r in records if r["label"] == label] for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    }
    assert all(by_label.values()), "every label is generated"
    supports = {r["hypothesis"] for r in by_label["SUPPORTS"]}
    assert "Stanley Kubrick was an American filmmaker." in supports
    assert "Stanley Kubrick was born in Manhattan." in supports
    for nei in by_label["NOT ENOUGH INFO"]:
        assert nei["premise"] not in {
            r["premise"] for r in by_label["SUPPORTS"] if r["hypothesis"] == nei["hypothesis"]
        }

    counts = write_generated(records, tmp_path)
    assert sum(counts.values()) == len(records)
    rows = [
        json.loads(line)
        for name in ("train", "heldout")
        for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()
    ]
    assert len(rows) == len(records) and all("split" not in row for row in rows)
    pairs = [p for name in ("train", "heldout") for p in load_pairs(tmp_path / f"{name}.jsonl")]
    assert any(p.premise == f"Stanley Kubrick: {KUBRICK}" for p in pairs)


def test_the_page_split_is_stable_and_about_the_asked_share():
    titles = [f"Page {i}" for i in range(2000)]
    held = [t for t in titles if page_split(t, 10) == "heldout"]
    assert 140 < len(held) < 260
    assert held == [t for t in titles if page_split(t, 10) == "heldout"]


def test_a_chained_pair_reads_its_premise_after_a_sentence_that_names_its_page_and_an_nei_chain_never_settles():
    by_page = {
        "Oslo": ["Oslo is the capital and most populous city of Norway."],
        "Norway": ["Its capital and largest city is Oslo.", "Norway has a total area of 385,207 km2."],
        "Bergen": ["Bergen is a city in Vestland county, Norway, and Oslo's rival."],
        "Mercury (planet)": ["Mercury is the smallest planet."],
        "Venus": ["Venus is the second planet from the Sun, after Mercury."],
    }
    links = link_index(by_page)
    assert set(links["Oslo"]) == {
        ("Norway", "Its capital and largest city is Oslo."),
        ("Bergen", "Bergen is a city in Vestland county, Norway, and Oslo's rival."),
    }
    assert links["Mercury (planet)"] == [("Venus", "Venus is the second planet from the Sun, after Mercury.")]
    assert "Norway" not in {page for page, _ in links["Norway"]}, "a page never links to itself"

    refutes = {
        "premise": "Oslo: Oslo is the capital and most populous city of Norway.",
        "hypothesis": "Oslo is the capital of Sweden.",
        "label": "REFUTES",
        "source": "embedded-generated-refutes",
    }
    chained = chain_after_link(refutes, "Oslo", {"capital", "sweden"}, links, random.Random(0))
    assert chained["label"] == "REFUTES" and chained["source"] == "embedded-generated-refutes-chain"
    assert chained["premise"].endswith(" " + refutes["premise"]) and chained["premise"].split(":")[0] in {
        "Norway",
        "Bergen",
    }

    nei = {**refutes, "hypothesis": "Oslo is the largest city of Norway.", "label": "NOT ENOUGH INFO", "source": "x"}
    assert chain_after_link(nei, "Oslo", {"largest", "norway"}, links, random.Random(0)) is None, (
        "every linking sentence holds a claim word: no chain"
    )
    premises = {chain_after_link(nei, "Oslo", {"norway"}, links, random.Random(seed))["premise"] for seed in range(20)}
    assert premises == {"Norway: Its capital and largest city is Oslo. " + refutes["premise"]}, (
        "Bergen's sentence names Norway, a word of the claim"
    )
    assert chain_after_link(nei, "Venus", {"planet"}, links, random.Random(0)) is None, "no page names Venus"


def test_a_subject_swap_refutes_a_relation_with_one_value_and_leaves_one_with_many_not_enough_info():
    nlp = load_spacy()
    assert core_claim(nlp("Oslo is the capital of Norway."), "Oslo").one_valued
    assert core_claim(nlp("Jaws is the third film directed by Steven Spielberg."), "Jaws").one_valued
    assert core_claim(nlp("Mount Everest is the highest mountain on Earth."), "Mount Everest").one_valued
    assert core_claim(nlp("Rabat is the capital city of Morocco."), "Rabat").one_valued
    assert not core_claim(nlp("Oslo is a city in Norway."), "Oslo").one_valued
    assert not core_claim(nlp("Tom Hanks is an American actor."), "Tom Hanks").one_valued

    pool = [
        PoolSentence("Oslo", "Oslo is the capital of Norway, with about 700,000 people."),
        PoolSentence("Oslo", "The city has a population of about 700,000 people."),
        PoolSentence("Bergen", "Bergen is a city in Norway, on its west coast."),
        PoolSentence("Bergen", "It lies on the west coast of the country."),
        PoolSentence("Stockholm", "Stockholm is the capital of Sweden, with about a million people."),
        PoolSentence("Stockholm", "The city is spread across fourteen islands."),
    ]
    swaps = [
        r
        for r in generate_pairs(pool, seed=0, chain_fraction=0)
        if r["source"].startswith("embedded-generated-subject-swap")
    ]
    assert swaps, "the pool's subjects are places of one kind"
    for record in swaps:
        one_value = "is the capital of" in record["hypothesis"]
        assert record["label"] == ("REFUTES" if one_value else "NOT ENOUGH INFO"), record
        assert record["source"].endswith("-one-valued") == one_value
