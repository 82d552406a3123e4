"""Improving the verifier with annotations: pairs read as the pipeline reads evidence, a new version that
keeps its base's learned verdict and rule, a comparison table, and a base left as it was."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest
from safetensors.numpy import load_file

from fever_core.common.model_versions import list_versions
from fever_core.common.settings import BUNDLED_MODELS_DIR
from fever_core.common.text import premise_text
from fever_core.common.types import NEI
from fever_core.training.improve import ImproveConfig, annotation_pairs, improve_verifier, split_annotations
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.learned import VERDICT_FILE
from fever_core.verification.model_integrity import model_files
from fever_core.workbench.annotation import AnnotationStore

ANNOTATED = [  # (claim, label, evidence sets) on the fixture corpus
    ("Fox 2000 Pictures released the film Soul Food.", "SUPPORTS", [[("Soul_Food_-LRB-film-RRB-", 0)]]),
    ("Sherlock Holmes was created by Charles Dickens.", "REFUTES", [[("Sherlock_Holmes", 0)]]),
    ("Jaws was directed by a man born in Ohio.", "SUPPORTS", [[("Jaws_-LRB-film-RRB-", 0), ("Steven_Spielberg", 1)]]),
    ("Edinburgh has a famous castle.", NEI, []),
    ("Edinburgh is the capital of Scotland.", "SUPPORTS", [[("Edinburgh", 0)]]),
    ("Steven Spielberg was born in Texas.", "REFUTES", [[("Steven_Spielberg", 1)]]),
    ("Soul Food aired on HBO.", "REFUTES", [[("Soul_Food_-LRB-TV_series-RRB-", 0)]]),
    ("Arthur Conan Doyle was born in Edinburgh.", "SUPPORTS", [[("Arthur_Conan_Doyle", 1)]]),
    ("Telemundo has a large audience.", NEI, []),
]


def annotate(path, rows=ANNOTATED) -> AnnotationStore:
    store = AnnotationStore(path)
    for claim, label, sets in rows:
        store.save(store.add_claim(claim), label, sets, "tester")
    return store


def test_annotation_pairs_read_evidence_as_the_pipeline_does(tmp_path, checker):
    annotations = annotate(tmp_path / "a.sqlite").annotations()
    pairs = annotation_pairs(annotations, checker)
    store = checker.workspace.store
    spielberg, jaws = store.page("Steven_Spielberg"), store.page("Jaws_-LRB-film-RRB-")
    expected = " ".join(
        [premise_text(jaws.title, jaws.sentences[0].text), premise_text(spielberg.title, spielberg.sentences[1].text)]
    )
    by_claim = {p.hypothesis: p for p in pairs}
    assert by_claim["Jaws was directed by a man born in Ohio."].premise == expected
    assert by_claim["Sherlock Holmes was created by Charles Dickens."].label == "REFUTES"
    retrieved = {e.premise for e in checker.check("Edinburgh has a famous castle.").evidence}
    nei = [p for p in pairs if p.hypothesis == "Edinburgh has a famous castle."]
    assert nei and all(p.label == NEI and p.premise in retrieved for p in nei)
    assert len([p for p in pairs if p.label != NEI]) == 7


def test_improve_makes_a_new_version_that_keeps_the_learned_verdict(tmp_path, settings, workspace, tiny_nli_model):
    base = shutil.copytree(tiny_nli_model, tmp_path / "base")
    shutil.copy2(BUNDLED_MODELS_DIR / "verifier" / VERDICT_FILE, base / VERDICT_FILE)
    config_json = json.loads((base / "config.json").read_text())
    (base / "config.json").write_text(json.dumps({**config_json, "nei_threshold": 0.61}))
    base_files = {p.name: p.read_bytes() for p in base.iterdir()}
    db = tmp_path / "a.sqlite"
    annotate(db)
    quiet = replace(settings, joint_verifier_model="")
    stages = []
    config = ImproveConfig(db, "fixture", str(base), heldout_fraction=0.25, epochs=2, lr=1e-3)
    result = improve_verifier(config, quiet, lambda stage, done: stages.append((stage, done)))

    version = result.version
    assert version.path.parent == settings.data_dir / "models" and version.name.startswith("verifier-v")
    assert version in list_versions(settings.data_dir)
    train, heldout = split_annotations(AnnotationStore(db).annotations(), 0.25, 13)
    assert version.annotations == {"train": len(train), "heldout": len(heldout)} and train and heldout
    assert (version.path / VERDICT_FILE).read_bytes() == base_files[VERDICT_FILE]
    listed = set(json.loads((version.path / "checksums.json").read_text())["sha256"])
    assert {"model.safetensors", "config.json", VERDICT_FILE} <= listed == set(model_files(version.path))
    assert json.loads((version.path / "config.json").read_text())["nei_threshold"] == 0.61
    verifier = ClaimVerifier.load(replace(quiet, verifier_model=str(version.path)))
    assert verifier.policy.learned is not None and verifier.policy.nei_threshold == 0.61
    new, old = load_file(version.path / "model.safetensors"), load_file(base / "model.safetensors")
    assert any((new[name].astype("float32") != old[name].astype("float32")).any() for name in old)
    assert {p.name: p.read_bytes() for p in base.iterdir()} == base_files  # the base is never written to
    rows = {row["name"]: row for row in version.table}
    assert rows["held-out annotations (claims)"]["n"] == len(heldout)
    assert all(
        0.0 <= row[side] <= 1.0 for row in version.table for side in ("before", "after") if row[side] is not None
    )
    assert next(s for s, _ in stages) == "reading the annotations" and stages[-1] == ("done", 1.0)
    assert [d for _, d in stages] == sorted(d for _, d in stages)


def test_improve_without_annotations_says_what_to_do(tmp_path, settings, workspace, tiny_nli_model):
    AnnotationStore(tmp_path / "empty.sqlite")
    with pytest.raises(ValueError, match="annotate more claims"):
        improve_verifier(ImproveConfig(tmp_path / "empty.sqlite", "fixture", str(tiny_nli_model)), settings)
    before = list_versions(settings.data_dir)
    with pytest.raises(ValueError, match="not a local verifier folder"):
        improve_verifier(ImproveConfig(tmp_path / "empty.sqlite", "fixture", "some/hub-id"), settings)
    assert list_versions(settings.data_dir) == before
