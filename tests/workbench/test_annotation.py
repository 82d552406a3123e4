import io
import json
import threading

import pytest

from fever_core.common.formats import load_claims
from fever_core.common.sqlite import UnusableDatabase
from fever_core.evaluation.scorer import fever_score
from fever_core.workbench.annotation import AnnotationError, AnnotationStore


@pytest.fixture
def annotations(tmp_path):
    return AnnotationStore(tmp_path / "annotations.sqlite")


def test_save_marks_done_and_survives_reopening(annotations, tmp_path):
    item = annotations.add_claim("Jaws was directed by Steven Spielberg.", 11)
    assert annotations.add_claim("Jaws was directed by Steven Spielberg.", 11) == item
    annotations.save(
        item, "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)], [("Steven_Spielberg", 0), ("Jaws_-LRB-film-RRB-", 1)]], "ann"
    )
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
    assert annotations.undo_last("ann").item.item_id == second
    assert annotations.counts()["annotations"] == 0 and annotations.item(second).status == "pending"
    undone = annotations.undo_last("ann")
    assert undone.item.item_id == first and undone.annotation is None  # a skip: no annotation to give back
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
    predictions = [
        {"predicted_label": "SUPPORTS", "predicted_evidence": [["Jaws_-LRB-film-RRB-", 0]]},
        {"predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []},
    ]
    assert fever_score(predictions, lines).fever_score == 1.0


def test_export_is_real_fever_jsonl_that_the_claims_loader_reads_back(annotations, tmp_path):
    fever = annotations.add_claim("Jaws is a film.", 2)  # a FEVER claim with its own id; item 1
    local = annotations.add_claim("Jaws is a 1975 film.")  # typed: no id of its own; item 2, taken by the first
    unsure = annotations.add_claim("Jaws is loved.")  # item 3
    annotations.save(fever, "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0)], [("Jaws", 0), ("Jaws", 1)]], "ann")
    annotations.save(local, "REFUTES", [[("Jaws_-LRB-film-RRB-", 1)]], "ann")
    annotations.save(unsure, "NOT ENOUGH INFO", [], "ann")
    path = tmp_path / "annotations.jsonl"
    with path.open("w") as out:
        assert annotations.export_fever(out) == 3
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["id"] for line in lines] == [2, 4, 3]  # integers, none twice (2 is the FEVER claim's own)
    assert [line["verifiable"] for line in lines] == ["VERIFIABLE", "VERIFIABLE", "NOT VERIFIABLE"]
    sentences = [sentence for group in lines[0]["evidence"] + lines[1]["evidence"] for sentence in group]
    assert all(
        isinstance(annotation, int) and isinstance(evidence, int) and isinstance(line, int)
        for annotation, evidence, _, line in sentences
    )
    assert [evidence for _, evidence, _, _ in sentences] == [1, 2, 3, 4]
    assert lines[2]["evidence"] == [[[lines[2]["evidence"][0][0][0], None, None, None]]]
    claims = load_claims(path)
    assert [(c.id, c.claim, c.label) for c in claims] == [
        (2, "Jaws is a film.", "SUPPORTS"),
        (4, "Jaws is a 1975 film.", "REFUTES"),
        (3, "Jaws is loved.", "NOT ENOUGH INFO"),
    ]
    assert [[pair[2:] for pair in group] for group in claims[0].evidence] == [
        [["Jaws_-LRB-film-RRB-", 0]],
        [["Jaws", 0], ["Jaws", 1]],
    ]


def test_a_file_that_is_not_a_database_is_refused_naming_it(tmp_path):
    path = tmp_path / "annotations.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UnusableDatabase, match=f"annotations database {path} is damaged.*Move it aside"):
        AnnotationStore(path)
    assert path.read_bytes() == b"this is not a database" * 100


def test_another_programs_database_is_refused_and_left_alone(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(UnusableDatabase, match="not a FEVER Workbench annotations database.*recipes"):
        AnnotationStore(path)
    with sqlite3.connect(path) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["recipes"]


def test_a_workbench_database_is_stamped_and_reopens(tmp_path):
    import sqlite3

    from fever_core.workbench.annotation import APPLICATION_ID

    store = AnnotationStore(tmp_path / "a.sqlite")
    store.add_claim("Paris is in France.")
    with sqlite3.connect(tmp_path / "a.sqlite") as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert AnnotationStore(tmp_path / "a.sqlite").counts()["pending"] == 1


def test_a_claim_someone_annotated_stays_done_whatever_another_annotator_does(annotations):
    item = annotations.add_claim("Munich is the capital of Saxony.")
    annotations.save(item, "REFUTES", [[("Munich", 0)]], "ana")
    annotations.skip(item, "ben")  # ben had the claim open and skips it after ana's save
    assert annotations.item(item).status == "done"
    annotations.undo_last("ben")
    assert annotations.item(item).status == "done"
    annotations.undo_last("ana")
    assert annotations.item(item).status == "pending"


def test_undoing_a_save_gives_back_its_label_and_evidence(tmp_path):
    annotations = AnnotationStore(tmp_path / "annotations.sqlite")
    item = annotations.add_claim("Munich is the capital of Saxony.")
    annotations.save(item, "REFUTES", [[("Munich", 0)], [("Saxony", 1), ("Dresden", 0)]], "ann", ambiguous=True)
    undone = AnnotationStore(tmp_path / "annotations.sqlite").undo_last("ann")  # after a refresh: a new store
    assert undone.item.status == "pending"
    assert (undone.annotation.label, undone.annotation.evidence_sets, undone.annotation.ambiguous) == (
        "REFUTES",
        [[("Munich", 0)], [("Saxony", 1), ("Dresden", 0)]],
        True,
    )
