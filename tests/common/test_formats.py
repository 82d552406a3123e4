"""FEVER's file formats (fever_core/common/formats.py): claims files and pair files, read and written in one place."""

from collections import Counter

import pytest

from fever_core.common.formats import (
    Claim,
    DataFileError,
    Pair,
    evidence_premise,
    evidence_sentences,
    file_kind,
    load_claims,
    load_pairs,
    read_written_pairs,
    sample_across_labels,
    write_pairs,
)
from fever_core.common.types import NEI
from tests.conftest import CLAIMS, write_jsonl

# --- claims files -----------------------------------------------------------------------------


def test_claims_keep_their_fields_and_give_evidence_sets_without_nei_placeholders(claims_file):
    claims = load_claims(claims_file)
    assert [c.to_fever() for c in claims] == CLAIMS  # what the official scorer reads as gold, unchanged
    assert claims[1].evidence_sets() == ((("Sherlock_Holmes", 0),), (("Arthur_Conan_Doyle", 0),))
    assert claims[2].evidence_sets() == ((("Jaws_-LRB-film-RRB-", 0), ("Steven_Spielberg", 1)),)
    assert claims[3].evidence_sets() == ()  # NOT ENOUGH INFO: [[[5, None, None, None]]]


def test_a_claim_without_an_id_is_numbered_by_its_line_and_may_leave_out_evidence(tmp_path):
    path = write_jsonl(tmp_path / "nei-claims.jsonl", [{"claim": "Paris has a zoo.", "label": NEI}])
    assert load_claims(path) == [Claim(1, "Paris has a zoo.", NEI, [])]


def test_broken_claims_file_names_the_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"claim": "a", "label": "SUPPORTS"}\n{oops\n')
    with pytest.raises(DataFileError, match=r"c\.jsonl:2"):
        load_claims(path)


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"claim": "  ", "label": "SUPPORTS"}', 'non-empty "claim"'),
        ('{"claim": "a", "label": "TRUE"}', "label 'TRUE'"),
        ('{"claim": "a", "label": "SUPPORTS", "evidence": [[["page", 0]]]}', "evidence must be"),
        (
            '{"claim": "a", "label": "SUPPORTS", "evidence": [[[1, 1, "page", 100000000000000000000]]]}',
            "line 100000000000000000000 is out of range",
        ),
        ('{"id": {"n": 1}, "claim": "a", "label": "SUPPORTS"}', "the id {'n': 1} is neither a whole number nor a text"),
        ('{"id": true, "claim": "a", "label": "SUPPORTS"}', "the id True is neither"),
    ],
)
def test_a_malformed_claim_names_file_line_and_fault(tmp_path, line, message):
    path = tmp_path / "claims.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(DataFileError, match=message) as info:
        load_claims(path)
    assert f"{path}:1:" in str(info.value)


def test_a_sample_is_reproducible_and_keeps_file_order(claims_file):
    first = load_claims(claims_file, sample=2, seed=3)
    assert first == load_claims(claims_file, sample=2, seed=3)
    ids = [c.id for c in first]
    assert len(ids) == 2 and ids == sorted(ids)


def test_a_limit_keeps_the_first_claims(claims_file):
    assert [c.id for c in load_claims(claims_file, limit=2)] == [1, 2]


# --- pair files -------------------------------------------------------------------------------


def test_load_pairs_formats_premises(tmp_path):
    path = write_jsonl(
        tmp_path / "p.jsonl",
        [
            {
                "premise": "Soul Food -LRB- 1997 -RRB- is a film .",
                "hypothesis": "Soul Food is a film .",
                "label": "SUPPORTS",
                "source": "fever-paper-test",
                "pages": ["Soul_Food_-LRB-film-RRB-", "Other"],
            },
            {"premise": "A man sleeps .", "hypothesis": "A man is awake .", "label": "REFUTES", "source": "snli-dev"},
        ],
    )
    first, second = load_pairs(path)
    assert first == Pair(
        "Soul Food (film): Soul Food (1997) is a film.", "Soul Food is a film.", "SUPPORTS", "fever-paper-test"
    )
    assert second.premise == "A man sleeps." and second.source == "snli-dev"


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", "not valid JSON"),
        ('{"premise": "a", "hypothesis": "b", "label": "MAYBE"}', "label 'MAYBE'"),
        ('{"premise": "", "hypothesis": "b", "label": "SUPPORTS"}', "premise"),
        ('["a", "b"]', "expected a JSON object"),
        ('{"premise": "a", "hypothesis": "b", "label": "SUPPORTS", "pages": "Paris"}', "list of page ids"),
    ],
)
def test_malformed_pair_line_names_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"premise": "a", "hypothesis": "b", "label": "SUPPORTS"}\n\n' + line + "\n")
    with pytest.raises(DataFileError, match=message) as info:
        load_pairs(path)
    assert f"{path}:3:" in str(info.value)


def test_a_pair_without_a_source_takes_the_file_name(tmp_path):
    path = write_jsonl(tmp_path / "snli-dev.jsonl", [{"premise": "a .", "hypothesis": "b", "label": NEI}])
    assert load_pairs(path)[0].source == "snli-dev"


def test_written_pairs_read_back_as_written(tmp_path):
    # no formatting on the way back: load_pairs would turn this premise's -LRB- into "("
    pairs = [
        Pair("Soul Food (film): It is a -LRB- film .", "Soul Food is a film.", "SUPPORTS", "t"),
        Pair("A man sleeps.", "A man is awake.", "REFUTES", "u"),
    ]
    path = tmp_path / "out" / "pairs.jsonl"
    write_pairs(path, pairs)
    assert read_written_pairs(path) == pairs


@pytest.mark.parametrize(
    "first_record, kind",
    [
        ({"premise": "a", "hypothesis": "b", "label": "SUPPORTS"}, "pairs"),
        ({"id": 1, "claim": "a", "label": "SUPPORTS", "evidence": []}, "fever-claims"),
        ({"id": 1, "claim": "a", "label": NEI}, "nei-claims"),
    ],
)
def test_a_files_kind_is_told_by_its_first_record(tmp_path, first_record, kind):
    assert file_kind(write_jsonl(tmp_path / "f.jsonl", [first_record])) == kind


def test_a_file_of_unknown_kind_or_empty_is_refused(tmp_path):
    with pytest.raises(DataFileError, match="can't tell the file's format"):
        file_kind(write_jsonl(tmp_path / "odd.jsonl", [{"text": "a"}]))
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(DataFileError, match="empty"):
        file_kind(tmp_path / "empty.jsonl")


def test_evidence_premises_are_joined_as_the_pipeline_joins_them_and_split_back():
    assert (
        evidence_premise([("Paris", "Paris is in France ."), ("France", "France -LRB- officially -RRB- is big .")])
        == "Paris: Paris is in France. France: France (officially) is big."
    )
    assert evidence_sentences("Paris is in France . It -LRB- the city -RRB- is big .") == [
        "Paris is in France.",
        "It (the city) is big.",
    ]


# --- claim lists (read_claim_list, load_claim_list: what a batch check reads) -------------------
# (imported here: this section was added to the file by the batch-check work, issue 19)

from fever_core.common.claim_lists import claim_list_kind, load_claim_list, read_claim_list


def test_a_text_claim_list_is_one_unlabelled_claim_a_line_numbered_by_line():
    claims = read_claim_list("Paris is in France.\n\n  Berlin is the capital of Germany. \n", "speech.txt")
    assert claims == [
        Claim(1, "Paris is in France.", None, []),
        Claim(3, "Berlin is the capital of Germany.", None, []),
    ]


def test_a_csv_claim_list_has_a_claim_column_and_optional_label_and_id():
    text = 'ID,Claim,Label\n7,"Paris, the capital, is in France.",supports\n8,Rome is in Spain.,\n'
    assert read_claim_list(text, "claims.csv") == [
        Claim("7", "Paris, the capital, is in France.", "SUPPORTS", []),
        Claim("8", "Rome is in Spain.", None, []),
    ]
    assert read_claim_list("claim\nRome is in Italy.\n", "claims.csv") == [Claim(2, "Rome is in Italy.", None, [])]


def test_a_jsonl_claim_list_reads_fever_claims_with_or_without_labels(claims_file):
    labelled = read_claim_list(claims_file.read_text(), "claims.jsonl")
    assert labelled == load_claims(claims_file)  # a FEVER claims file reads as load_claims reads it
    unlabelled = read_claim_list(
        '{"claim": "Paris is in France."}\n{"id": "x", "claim": "Rome is in Italy."}\n', "claims.jsonl"
    )
    assert unlabelled == [Claim(1, "Paris is in France.", None, []), Claim("x", "Rome is in Italy.", None, [])]


@pytest.mark.parametrize(
    "name, text, kind",
    [
        ("a.TXT", '{"claim": "a"}', "txt"),
        ("a.json", "x", "jsonl"),
        ("pasted", '  {"claim": "a"}\n', "jsonl"),
        ("pasted", "id, Claim ,label\n1,a,\n", "csv"),
        ("pasted", "Paris is in France, says the minister.\n", "txt"),
    ],
)
def test_a_claim_lists_kind_comes_from_its_suffix_else_from_its_first_line(name, text, kind):
    assert claim_list_kind(name, text) == kind


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("a.csv", "text,label\nParis,SUPPORTS\n", 'needs a "claim" column'),
        ("a.csv", "claim,label\n,SUPPORTS\n", r"a\.csv:2: the claim is empty"),
        ("a.csv", "claim,label\nParis is big.,TRUE\n", r"a\.csv:2: label 'TRUE'"),
        ("a.jsonl", '{"claim": "a"}\n{"claim": "b", "evidence": [[["page", 0]]]}\n', r"a\.jsonl:2: evidence must be"),
        ("a.txt", "\n \n", "has no claims"),
        ("a.jsonl", '{"claim": "a"}\n{"id": {"n": 1}, "claim": "b"}\n', r"a\.jsonl:2: the id \{'n': 1\} is neither"),
        ("a.jsonl", '{"id": [1], "claim": "a"}\n', r"a\.jsonl:1: the id \[1\] is neither a whole number nor a text"),
    ],
)
def test_a_malformed_claim_list_names_its_line_and_fault(name, text, message):
    with pytest.raises(DataFileError, match=message):
        read_claim_list(text, name)


def test_load_claim_list_reads_a_file_and_refuses_a_missing_one(tmp_path):
    path = tmp_path / "claims.csv"
    path.write_text("\ufeffclaim,label\nParis is in France.,NOT ENOUGH INFO\n", encoding="utf-8")
    assert load_claim_list(path) == [Claim(2, "Paris is in France.", NEI, [])]
    with pytest.raises(DataFileError, match="does not exist"):
        load_claim_list(tmp_path / "missing.txt")


def test_a_claim_list_that_is_not_utf8_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "claims.txt"
    path.write_bytes("Paris is in France.\nZürich is in Switzerland.\n".encode("latin-1"))
    with pytest.raises(DataFileError, match=r"claims\.txt:2: byte 0xfc at column 2 is not UTF-8"):
        load_claim_list(path)


def test_a_claim_list_longer_than_its_limit_is_refused_as_its_first_claim_over_is_read(monkeypatch):
    from fever_core.common import claim_lists

    assert len(read_claim_list("a\nb\nc\n", "a.txt", max_claims=3)) == 3
    read: list[int] = []
    real = claim_lists._listed_claim
    monkeypatch.setattr(
        claim_lists, "_listed_claim", lambda name, number, *args: (read.append(number), real(name, number, *args))[1]
    )
    with pytest.raises(
        DataFileError,
        match=r"a\.txt has more than 3 claims, the most a list may hold .*"
        r"\(check-batch --max-claims N; 0 for none\)",
    ):
        read_claim_list("a\nb\nc\nd\ne\nf\n", "a.txt", max_claims=3)
    assert read == [1, 2, 3, 4]  # the rest was never read
    assert len(read_claim_list("a\n" * 7, "a.txt", max_claims=0)) == 7  # 0: no limit


def test_a_sample_across_labels_is_even_reproducible_and_in_file_order():
    # sorted by label, as the hand-written claims are: the first 9 would all be SUPPORTS
    claims = (
        [Claim(n, f"s{n}", "SUPPORTS") for n in range(30)]
        + [Claim(100 + n, f"r{n}", "REFUTES") for n in range(20)]
        + [Claim(200 + n, f"n{n}", "NOT ENOUGH INFO") for n in range(2)]
    )
    sample = sample_across_labels(claims, 9, seed=0)
    assert Counter(c.label for c in sample) == {"SUPPORTS": 4, "REFUTES": 3, "NOT ENOUGH INFO": 2}  # NEI has 2
    assert [c.id for c in sample] == sorted(c.id for c in sample)  # file order
    assert sample == sample_across_labels(claims, 9, seed=0) and sample != sample_across_labels(claims, 9, seed=1)
    assert sample_across_labels(claims, 0) == claims and sample_across_labels(claims, 99) == claims
    unlabelled = [Claim(n, f"u{n}", None) for n in range(5)]
    mixed = sample_across_labels(claims + unlabelled, 8)
    assert Counter(c.label for c in mixed) == {"SUPPORTS": 2, "REFUTES": 2, "NOT ENOUGH INFO": 2, None: 2}
