import io
import json
import threading

import pytest

from fever_core.annotation import AnnotationError, AnnotationStore
from fever_core.evaluation.scorer import fever_score


@pytest.fixture
def annotations(tmp_path):
    return AnnotationStore(tmp_path / "annotations.sqlite")


def test_save_marks_done_and_survives_reopening(annotations, tmp_path):
    item = annotations.add_claim("Jaws was directed by Steven Spielberg.", 11)
    assert annotations.add_claim("Jaws was directed by Steven Spielberg.", 11) == item
    annotations.save(item, "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)], [("Steven_Spielberg", 0), ("Jaws_-LRB-film-RRB-", 1)]], "ann")
    reopened = AnnotationStore(tmp_path / "annotations.sqlite")  # a crash or refresh: a new connection
    assert reopened.counts() == {"pending": 0, "done": 1, "skipped": 0, "total": 1, "annotations": 1}
    [saved] = reopened.annotations()
    assert saved.evidence_sets[1] == [("Steven_Spielberg", 0), ("Jaws_-LRB-film-RRB-", 1)]


def test_bad_annotations_are_refused_with_a_reason(annotations):
    item = annotations.add_claim("A claim.")
    with pytest.raises(AnnotationError, match="evidence set"):
        annotations.save(item, "SUPPORTS", [], "ann")
    with pytest.raises(AnnotationError, match="Label must be"):
        annotations.save(item, "MAYBE", [], "ann")
    with pytest.raises(AnnotationError, match="no queued claim"):
        annotations.save(999, "NOT ENOUGH INFO", [], "ann")
    assert annotations.counts()["annotations"] == 0


def test_skip_and_undo(annotations):
    first = annotations.add_claim("First claim.")
    second = annotations.add_claim("Second claim.")
    annotations.skip(first, "ann")
    assert annotations.next_pending().item_id == second
    annotations.save(second, "NOT ENOUGH INFO", [], "ann")
    assert annotations.undo_last("ann").item_id == second
    assert annotations.counts()["annotations"] == 0 and annotations.item(second).status == "pending"
    assert annotations.undo_last("ann").item_id == first
    assert annotations.item(first).status == "pending"
    assert annotations.undo_last("ann") is None
    assert annotations.undo_last("someone else") is None


def test_queue_from_a_claims_file(annotations):
    text = "\n".join(json.dumps({"id": i, "claim": f"Claim {i}.", "label": "SUPPORTS"}) for i in range(3)) + "\n"
    assert annotations.add_claims_file(io.StringIO(text)) == 3
    assert annotations.counts()["pending"] == 3
    with pytest.raises(AnnotationError, match="Line 2|:2"):
        annotations.add_claims_file(io.StringIO('{"claim": "ok"}\n{"id": 5}\n'))
    assert annotations.counts()["pending"] == 3


def test_two_annotators_at_once_lose_nothing(annotations):
    items = [annotations.add_claim(f"Claim number {i}.") for i in range(40)]

    def work(name, mine):
        for item in mine:
            annotations.save(item, "NOT ENOUGH INFO", [], name)

    threads = [threading.Thread(target=work, args=(f"a{n}", items[n::2])) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert annotations.counts()["annotations"] == 40 and annotations.counts()["done"] == 40


def test_export_is_fever_format_the_scorer_reads(annotations):
    s = annotations.add_claim("Jaws is a film.", 1)
    n = annotations.add_claim("Jaws is loved.", 2)
    amb = annotations.add_claim("Jaws is scary.", 3)
    annotations.save(s, "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)]], "ann")
    annotations.save(n, "NOT ENOUGH INFO", [], "ann")
    annotations.save(amb, "REFUTES", [[("Jaws_-LRB-film-RRB-", 1)]], "ann", ambiguous=True)
    out = io.StringIO()
    assert annotations.export_fever(out) == 2
    lines = [json.loads(l) for l in out.getvalue().splitlines()]
    assert lines[0]["evidence"][0][0][2:] == ["Jaws_-LRB-film-RRB-", 0]
    assert lines[1]["evidence"] == [[[lines[1]["evidence"][0][0][0], None, None, None]]]
    predictions = [{"predicted_label": "SUPPORTS", "predicted_evidence": [["Jaws_-LRB-film-RRB-", 0]]},
                   {"predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []}]
    assert fever_score(predictions, lines).fever_score == 1.0
