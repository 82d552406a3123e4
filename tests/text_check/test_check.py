"""A text checked on the fixture corpus with the tiny verifier: the check-worthy sentences through the batch runner,
each with the verdict ``check`` gives it alone, with progress, and a summary."""

from __future__ import annotations

import dataclasses
import json
import re
import threading

from fever_core.common import LABELS
from fever_core.pipeline import MAX_CLAIM_CHARS, CheckOptions
from fever_core.text_check import check_text, find_sentences

NEWS = """Films and their makers

Jaws is a 1975 thriller film directed by Steven Spielberg. I think it is wonderful. Spielberg was born in Cincinnati.
Who could forget the shark? Soul Food was released by Fox 2000 Pictures in 1997."""


def test_the_check_worthy_sentences_are_checked_as_check_checks_them_one_by_one(checker):
    progress = []
    options = CheckOptions(two_hop=False)
    checked = check_text(checker, NEWS, options, on_sentence=lambda item, done, total: progress.append((done, total)))
    worthy = [s.text for s in find_sentences(NEWS) if s.worthy]
    assert worthy == [
        "Jaws is a 1975 thriller film directed by Steven Spielberg.",
        "Spielberg was born in Cincinnati.",
        "Soul Food was released by Fox 2000 Pictures in 1997.",
    ]
    assert [item.sentence.text for item in checked.checked] == worthy
    assert progress == [(1, 3), (2, 3), (3, 3)]
    for item in checked.checked:
        alone = checker.check(item.sentence.text, options)
        assert item.result.verdict == alone.verdict
        assert [e.sentence.text for e in item.result.evidence] == [e.sentence.text for e in alone.evidence]
    assert [item.chosen for item in checked.sentences] == [False, True, False, True, False, True]
    assert checked.summary().startswith("3 sentences checked: ")
    assert sum(checked.counts().values()) == 3 and list(checked.counts()) == list(LABELS)


def test_chosen_sentences_are_checked_instead_and_a_too_long_one_says_why(checker):
    text = NEWS + "\n\nThe film " + "really " * (MAX_CLAIM_CHARS // 7) + "is long."
    checked = check_text(checker, text, chosen=[2, 6])
    assert [item.sentence.index for item in checked.sentences if item.chosen] == [2, 6]
    assert checked.sentences[2].result is not None and checked.sentences[2].sentence.text == "I think it is wonderful."
    assert checked.sentences[6].result is None and "the limit is 1,000" in checked.sentences[6].error
    assert checked.summary().endswith("; 1 can't be checked")


def test_a_stopped_check_keeps_what_it_checked(checker):
    stop = threading.Event()
    checked = check_text(checker, NEWS, on_sentence=lambda *_: stop.set(), stop=stop)
    assert len(checked.checked) == 1 and [item.chosen for item in checked.sentences].count(True) == 3


def test_a_text_check_serialises_every_sentence_with_its_offsets_and_check(checker):
    data = json.loads(json.dumps(check_text(checker, NEWS).to_dict()))
    assert data["summary"]["checked"] == 3 and data["text"] == NEWS
    first, second = data["sentences"][:2]
    assert first == {
        "index": 0,
        "text": "Films and their makers",
        "start": 0,
        "end": 22,
        "worthy": False,
        "reason": first["reason"],
        "checked_as": None,
        "checked": False,
        "verdict": None,
        "probability": None,
        "error": None,
        "result": None,
    }
    assert NEWS[second["start"] : second["end"]] == second["text"] and second["worthy"] and second["checked"]
    assert second["verdict"] == second["result"]["verdict"]["label"]
    assert second["probability"] == round(second["result"]["verdict"]["probabilities"][second["verdict"]], 4)


def test_the_summary_counts_a_verdict_too_unsure_to_show_apart_when_asked(checker):
    checked = check_text(checker, NEWS)
    for index, item in enumerate(checked.sentences):  # the first checked sentence's label withheld, no other's
        if item.result is not None:
            verdict = dataclasses.replace(item.result.verdict, label_withheld=index == 1)
            checked.sentences[index] = dataclasses.replace(
                item, result=dataclasses.replace(item.result, verdict=verdict)
            )
    by_label = checked.summary()
    assert "Undecided" not in by_label and sum(map(int, re.findall(r"(\d+) ", by_label.split(": ")[1]))) == 3
    shown = checked.summary(str.lower, "Undecided")
    assert shown.endswith(", 1 Undecided") and sum(map(int, re.findall(r"(\d+) ", shown.split(": ")[1]))) == 3
