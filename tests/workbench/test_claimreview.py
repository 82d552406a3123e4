"""Checks as schema.org ClaimReview JSON-LD (fever_core/workbench/claimreview.py): the fields, the rating in the app's
words, the evidence's Wikipedia pages, the provenance, and the document expanded offline against the shipped context
to schema.org's IRIs, nothing dropped."""

import hashlib
import json
import shutil
from dataclasses import replace

import pytest

from fever_core import __version__
from fever_core.common.checksums import model_checksum
from fever_core.common.settings import CHECK_SETTINGS, FALLBACK_VERIFIER
from fever_core.common.text import wikipedia_url
from fever_core.common.types import NEI, VERDICT_WORDS
from fever_core.corpus.store import CHECKSUM_KEY
from fever_core.pipeline import CheckOptions
from fever_core.verification.model_integrity import CHECKSUMS_FILE, model_files, record_checksums
from fever_core.workbench import (
    Author,
    ModelRecord,
    checker_provenance,
    claim_review,
    claim_reviews,
    probability_text,
    to_jsonld,
)
from fever_core.workbench.claimreview import RATING_VALUES
from fever_core.workbench.provenance import model_record
from tests.jsonld import SCHEMA, expand, scripts_when_embedded, values

ODD_CLAIM = "<script>alert('x')</script> Jaws & <b>Spielberg</b>: “½” naïve 🦈 \u200d👩\u200d🔬 العربية"


@pytest.fixture(scope="module")
def provenance(checker):
    return checker_provenance(checker, CheckOptions(pages_k=3))


@pytest.fixture(scope="module")
def jaws(checker):
    """A check whose verdict used evidence from two pages (Jaws, and Steven Spielberg reached by its link)."""
    options = CheckOptions(two_hop=True, two_hop_threshold=0.0)
    result = checker.check("Jaws was directed by a man born in Ohio.", options)
    pages = [item.sentence.page_id for item in result.evidence]
    assert {"Jaws_-LRB-film-RRB-", "Steven_Spielberg"} <= set(pages)
    used = sorted(range(len(pages)), key=lambda i: pages[i] != "Steven_Spielberg")  # Spielberg's sentences first
    return replace(result, verdict=replace(result.verdict, used_evidence=used, label_withheld=False))  # shown


@pytest.fixture(scope="module")
def unsettled(checker):
    """A NOT ENOUGH INFO check with no evidence at all (the oracle mode, given none)."""
    result = checker.verify_evidence("Edinburgh has a famous castle.", [])
    assert result.verdict.label == NEI and not result.evidence
    return result


def test_a_check_is_a_claimreview_of_its_claim_rated_in_the_app_s_words(jaws, provenance):
    document = claim_review(jaws, provenance, published=1_700_000_000)
    assert document["@context"] == "https://schema.org" and document["@type"] == "ClaimReview"
    assert document["claimReviewed"] == jaws.claim
    assert document["itemReviewed"] == {"@type": "Claim", "text": jaws.claim}
    label = jaws.verdict.label
    assert document["reviewRating"] == {
        "@type": "Rating",
        "ratingValue": RATING_VALUES[label],
        "bestRating": 3,
        "worstRating": 1,
        "alternateName": VERDICT_WORDS[label],
        "ratingExplanation": jaws.verdict.why or jaws.verdict.reason,
    }
    assert document["author"] == {"@type": "Organization", "name": "FEVER Workbench"}
    assert document["datePublished"] == "2023-11-14"  # 22:13 UTC
    assert "url" not in document
    facts = {node["propertyID"]: node.get("value") for node in document["additionalProperty"]}
    assert facts["feverLabel"] == label and facts["labelWithheld"] is False
    assert facts["probability"] == float(probability_text(jaws.verdict.probability))  # as every page writes it


def test_a_withheld_label_publishes_no_rating_nor_the_label_it_leans_to_and_cites_the_sentences_to_read(
    jaws, provenance
):
    verdict = replace(jaws.verdict, label="REFUTES", calibrated=0.515, label_withheld=True, read_these=[0])
    document = claim_review(replace(jaws, verdict=verdict), provenance, url="https://factcheck.example.org/?claim=x")
    rating = document["reviewRating"]
    assert rating == {"@type": "Rating", "alternateName": "Undecided", "ratingExplanation": rating["ratingExplanation"]}
    assert "right only about 52 times in 100, probability 0.52" in rating["ratingExplanation"]
    assert not any(word in rating["ratingExplanation"].lower() for word in ("refute", "support"))
    assert [c["name"] for c in document["citation"]] == [jaws.evidence[0].sentence.title]
    facts = {node["propertyID"]: node.get("value") for node in document["additionalProperty"]}
    assert (facts["feverLabel"], facts["labelWithheld"], facts["probability"]) == ("REFUTES", True, 0.52)
    expanded, dropped = expand(document)
    assert not dropped and values(expanded[0][SCHEMA + "reviewRating"][0], "alternateName") == ["Undecided"]


def test_an_undecided_verdict_says_no_sentence_settles_it(jaws, provenance):
    verdict = replace(jaws.verdict, label=NEI, undecided=True, label_withheld=True, read_these=[])
    rating = claim_review(replace(jaws, verdict=verdict), provenance)["reviewRating"]
    assert rating["alternateName"] == "Undecided" and "ratingValue" not in rating
    assert rating["ratingExplanation"].startswith("Undecided: no sentence of the evidence read settles the claim")


@pytest.mark.parametrize("withheld", [False, True])
def test_a_claimreview_with_its_permalink_has_every_property_search_engines_require(jaws, provenance, withheld):
    """Google's ClaimReview markup: ``claimReviewed``, ``reviewRating`` with its ``alternateName`` (the textual
    rating) and ``url`` are required; ``author`` with a ``name``, ``datePublished`` and ``itemReviewed`` are
    recommended. A rating on the scale has a number within ``worstRating`` and ``bestRating``."""
    url = "https://factcheck.example.org/?claim=Jaws&corpus=fixture"
    result = replace(jaws, verdict=replace(jaws.verdict, label_withheld=withheld))
    document = claim_review(result, provenance, url=url)
    assert document["@type"] == "ClaimReview" and document["url"] == url
    assert document["claimReviewed"] and document["itemReviewed"]["text"] == document["claimReviewed"]
    rating = document["reviewRating"]
    assert rating["@type"] == "Rating" and rating["alternateName"] and rating["ratingExplanation"]
    if "ratingValue" in rating:
        assert rating["worstRating"] <= rating["ratingValue"] <= rating["bestRating"]
    assert (document["author"]["name"], len(document["datePublished"])) == ("FEVER Workbench", len("2026-01-31"))
    expanded, dropped = expand(document)
    assert not dropped and values(expanded[0], "url") == [url]


def test_the_scale_runs_from_refuted_to_supported_and_names_every_verdict():
    assert [VERDICT_WORDS[label] for label in sorted(RATING_VALUES, key=RATING_VALUES.get)] == [
        "Refuted",
        "Not enough info",
        "Supported",
    ]
    assert sorted(RATING_VALUES.values()) == [1, 2, 3]


def test_the_citations_are_the_wikipedia_pages_of_the_evidence_used_in_its_order_each_once(jaws, provenance):
    document = claim_review(jaws, provenance)
    used = [jaws.evidence[i].sentence for i in jaws.verdict.used_evidence]
    expected = list(dict.fromkeys(wikipedia_url(s.title) for s in used))
    assert [c["url"] for c in document["citation"]] == expected
    assert expected[:2] == [
        "https://en.wikipedia.org/wiki/Steven_Spielberg",
        "https://en.wikipedia.org/wiki/Jaws_%28film%29",
    ]
    assert document["citation"][1] == {"@type": "WebPage", "name": "Jaws (film)", "url": expected[1]}


def test_a_not_enough_info_check_without_evidence_cites_nothing(unsettled, provenance):
    document = claim_review(unsettled, provenance)
    assert "citation" not in document
    assert document["reviewRating"]["alternateName"] == "Not enough info"
    assert document["reviewRating"]["ratingValue"] == 2
    expanded, dropped = expand(document)
    assert not dropped and SCHEMA + "citation" not in expanded[0]


def test_provenance_names_the_models_the_corpus_with_its_build_checksum_and_size_and_the_settings(checker, provenance):
    store = checker.workspace.store
    assert provenance.workbench_version.startswith(__version__)
    assert provenance.verifier == ModelRecord(
        checker.verification.verifier.name.rsplit("/", 1)[-1],
        "blake2b-128:" + model_checksum(checker.verification.verifier.name),
    )
    assert provenance.joint_verifier is None
    assert (provenance.corpus, provenance.retriever) == ("fixture", "fused")
    assert provenance.corpus_checksum == "sha256:" + store.get_meta(CHECKSUM_KEY)
    stats = store.stats()
    assert (provenance.corpus_pages, provenance.corpus_sentences) == (stats.pages, stats.sentences)
    assert set(provenance.settings) == {s.name for s in CHECK_SETTINGS}
    assert provenance.settings["pages_k"] == 3  # given
    assert provenance.settings["sentences_k"] == checker.settings.sentences_k  # the checker's
    policy = checker.verification.policy
    assert provenance.settings["min_evidence_score"] == policy.min_evidence_score  # the verifier's own, as applied
    assert provenance.settings == checker.applied(CheckOptions(pages_k=3)).check_settings()


def test_a_model_is_named_short_and_by_the_sha256_of_its_checksums_file(tiny_nli_model, tmp_path):
    version = shutil.copytree(tiny_nli_model, tmp_path / "models" / "verifier-v1")
    record_checksums(version, model_files(version))
    recorded = hashlib.sha256((version / CHECKSUMS_FILE).read_bytes()).hexdigest()
    assert model_record(str(version), tmp_path) == ModelRecord("models/verifier-v1", f"sha256:{recorded}")
    shipped = model_record(FALLBACK_VERIFIER, tmp_path)
    assert shipped.name == "assets/models/verifier" and shipped.checksum.startswith("sha256:")
    assert model_record("sentence-transformers/some-model", tmp_path) == ModelRecord(
        "sentence-transformers/some-model", ""
    )


def test_the_document_expands_offline_to_schema_org_iris_keeping_its_provenance(jaws, provenance):
    author = Author("Jane Q. Public", "Person")
    document = claim_review(jaws, provenance, author, published=0, url="https://example.org/checks/1")
    expanded, dropped = expand(document)
    assert dropped == []
    (review,) = expanded
    assert review["@type"] == [SCHEMA + "ClaimReview"]
    assert values(review, "claimReviewed") == [jaws.claim]
    assert values(review, "url") == ["https://example.org/checks/1"]
    assert review[SCHEMA + "datePublished"] == [{"@type": SCHEMA + "Date", "@value": "1970-01-01"}]
    (claim,) = values(review, "itemReviewed")
    assert claim["@type"] == [SCHEMA + "Claim"] and values(claim, "text") == [jaws.claim]
    (rating,) = values(review, "reviewRating")
    assert rating["@type"] == [SCHEMA + "Rating"]
    assert values(rating, "alternateName") == [VERDICT_WORDS[jaws.verdict.label]]
    assert values(rating, "ratingValue") == [RATING_VALUES[jaws.verdict.label]]
    assert (values(rating, "bestRating"), values(rating, "worstRating")) == ([3], [1])
    (person,) = values(review, "author")
    assert person["@type"] == [SCHEMA + "Person"] and values(person, "name") == ["Jane Q. Public"]
    assert [values(page, "url")[0] for page in values(review, "citation")] == [c["url"] for c in document["citation"]]
    facts = {values(node, "propertyID")[0]: values(node, "value") for node in values(review, "additionalProperty")}
    assert facts["verifierChecksum"] == [provenance.verifier.checksum]
    assert facts["corpusChecksum"] == [provenance.corpus_checksum]
    assert facts["corpusSentences"] == [provenance.corpus_sentences]
    assert facts["corpusPages"] == [provenance.corpus_pages]
    assert facts["workbenchVersion"] == [provenance.workbench_version]
    assert facts["pages_k"] == [3] and facts["min_evidence_score"] == [provenance.settings["min_evidence_score"]]
    threshold = provenance.settings["nei_threshold"]  # none for a verifier read by plain argmax: no value
    assert facts["nei_threshold"] == ([] if threshold is None else [threshold])
    assert set(facts) >= {
        "verifierModel",
        "corpus",
        "retriever",
        "feverLabel",
        "probability",
        *(s.name for s in CHECK_SETTINGS),
    }


def test_a_term_the_context_does_not_define_is_dropped_so_the_context_is_the_real_check(jaws, provenance):
    document = claim_review(jaws, provenance)
    document["claimReviewd"] = document.pop("claimReviewed")  # misspelt
    document["reviewRating"]["confidence"] = 0.9  # invented
    expanded, dropped = expand(document)
    assert sorted(dropped) == ["claimReviewd", "confidence"]
    assert SCHEMA + "claimReviewed" not in expanded[0]


def test_html_and_odd_unicode_in_the_claim_are_kept_as_text(checker, provenance):
    result = checker.check(ODD_CLAIM)
    document = claim_review(result, provenance)
    assert document["claimReviewed"] == result.claim and "<script>" in result.claim and "🦈" in result.claim
    text = to_jsonld(document)
    assert "\\u003cscript\\u003ealert('x')\\u003c/script\\u003e" in text and "🦈" in text  # safe in a page's <script>
    assert not {"<", ">", "&"} & set(text) and "\\u0026 \\u003cb\\u003eSpielberg" in text
    assert json.loads(text) == document
    text.encode("utf-8")
    expanded, dropped = expand(json.loads(text))
    assert not dropped and values(expanded[0], "claimReviewed") == [result.claim]


def test_a_batch_is_one_document_with_a_claimreview_each_in_its_graph(jaws, unsettled, provenance):
    document = claim_reviews([jaws, unsettled], provenance, Author("Fact Desk"), published=0)
    assert document["@context"] == "https://schema.org"
    assert [node["claimReviewed"] for node in document["@graph"]] == [jaws.claim, unsettled.claim]
    assert all("@context" not in node and node["author"]["name"] == "Fact Desk" for node in document["@graph"])
    expanded, dropped = expand(document)
    assert not dropped
    assert sorted(values(node, "claimReviewed")[0] for node in expanded) == sorted([jaws.claim, unsettled.claim])


def test_a_batch_s_claimreviews_each_have_their_own_url_when_given(jaws, unsettled, provenance):
    urls = ["https://factcheck.example.org/?claim=Jaws", None]
    graph = claim_reviews([jaws, unsettled], provenance, urls=urls)["@graph"]
    assert graph[0]["url"] == urls[0] and "url" not in graph[1]
    expanded, dropped = expand({"@context": "https://schema.org", "@graph": graph})
    assert not dropped and [values(node, "url") for node in expanded if values(node, "url")] == [[urls[0]]]
    with pytest.raises(ValueError, match="1 urls for 2 ClaimReviews"):
        claim_reviews([jaws, unsettled], provenance, urls=urls[:1])
    with pytest.raises(ValueError, match="whole web address"):
        claim_reviews([jaws], provenance, urls=["./?claim=Jaws"])


@pytest.mark.parametrize(
    "name, kind, message",
    [("  ", "Organization", "name is empty"), ("x" * 201, "Person", "at most 200"), ("Desk", "Robot", "not 'Robot'")],
)
def test_an_author_that_can_t_be_one_is_refused_saying_why(name, kind, message):
    with pytest.raises(ValueError, match=message):
        Author(name, kind)


def test_an_author_s_name_is_kept_on_one_line():
    assert Author("  Fact \n Desk ").name == "Fact Desk"


def test_a_url_that_is_not_a_whole_web_address_is_refused(jaws, provenance):
    with pytest.raises(ValueError, match="whole web address"):
        claim_review(jaws, provenance, url="./?claim=x")


# --- issue 44, item 4: exports safe to embed -----------------------------------------------------------------------

BREAKOUT = "Jaws is a film.</script><script>alert(1)</script><!--"


def test_an_export_pasted_into_a_page_s_script_is_one_script_whatever_its_claims_hold(checker, provenance):
    result = checker.check(BREAKOUT)
    author = Author("Desk </script> & <b>")
    for document in (
        claim_review(result, provenance, author, url="https://example.org/c?a=1&b"),
        claim_reviews([result, result], provenance),
    ):
        (script,) = scripts_when_embedded(to_jsonld(document))
        assert json.loads(script) == document  # the whole export, read back as it was


@pytest.mark.parametrize(
    "url",
    [
        'https://example.org/"><script>alert(1)</script>',
        "https://example.org/<b>",
        "https://example.org/a b",
        "https://example.org/\n",
        "https://example.org/'x'",
        "https://",
        "javascript:alert(1)",
        "https://example.org/" + "x" * 2000,
    ],
)
def test_a_url_with_a_quote_an_angle_bracket_or_a_space_is_refused_saying_how_to_write_it(jaws, provenance, url):
    with pytest.raises(ValueError, match=r"whole web address .*without quotes, angle brackets, spaces"):
        claim_review(jaws, provenance, url=url)
    assert claim_review(jaws, provenance, url="https://example.org/checks/jaws?x=%22%3C#top")["url"].endswith("#top")
