"""Regression: the cheap versions of the reliability probes (``benchmarks/reliability``, issue 20 item 7) on the
fixture corpus and the tiny NLI model, asserting their invariants. The full suite: ``python -m benchmarks.reliability``."""

from dataclasses import replace

from benchmarks.reliability import (
    damaged,
    hostile,
    live_api,
    messages,
    models,
    portable,
    reading,
    service_flood,
    surfaces,
    writes,
)

TIMEOUT_S = 2.0


def test_hostile_claims_get_a_verdict_or_a_clean_refusal(checker):
    result = hostile.run(checker, 2 * len(hostile.KINDS))
    assert result.unexpected == []
    assert result.non_finite == 0
    assert result.refused and result.verdicts
    assert result.by_kind["empty"] == {"refused": 2, "verdicts": 0}
    assert result.by_kind["5,000+ chars"] == {"refused": 2, "verdicts": 0}
    assert result.by_kind["huge numbers"]["verdicts"] == 2  # 1e400 and a thousand digits get a verdict
    assert result.by_kind["many numbers"]["verdicts"] == 2  # its time against plain claims': the probe's, not a test


def test_a_saver_killed_mid_save_loses_no_committed_annotation(tmp_path):
    result = writes.kill_mid_save(3, tmp_path, max_delay_s=0.3)
    assert result.committed > 0
    assert result.lost == 0
    assert result.damaged_opens == 0


def test_two_writers_on_one_database_lose_nothing(tmp_path):
    result = writes.two_writers(2, tmp_path)
    assert min(result.saves) > 0
    assert result.lost == 0
    assert result.other_errors == []
    assert result.integrity == "ok"


def test_damaged_corpus_files_are_noticed_and_never_scored_non_finite(workspace, checker, settings, tmp_path):
    result = damaged.run(
        workspace.folder,
        workspace.name,
        checker.verification,
        settings,
        tmp_path,
        claim="Sherlock Holmes was created by Charles Dickens.",
    )
    intact, *damages = result.outcomes
    assert intact.outcome == "verdict" and intact.label
    assert [o.case for o in damages] == list(damaged.CASES)
    for outcome in damages:
        assert not outcome.non_finite, outcome
        assert outcome.outcome == "error" or outcome.correct, outcome
        if "64 bytes" not in outcome.case:  # a few random bytes may land where nothing reads them
            assert outcome.outcome != "verdict", f"the damage went unnoticed: {outcome}"


def test_a_trickling_wikipedia_is_bounded_and_a_malformed_one_answered(checker, settings, tmp_path):
    result = live_api.run(checker.verification, settings, tmp_path, timeout_s=TIMEOUT_S)
    trickle, *malformed = result.outcomes
    assert trickle.case == live_api.TRICKLE
    assert trickle.label is not None and trickle.warnings
    assert trickle.seconds <= TIMEOUT_S + live_api.MARGIN_S
    for outcome in malformed:  # an answer with a warning, and nothing of the malformed answer kept
        assert outcome.label is not None and "unexpected form" in outcome.warnings[0], outcome
        assert outcome.cached == 0, outcome
    bomb = next(o for o in malformed if o.case == live_api.BOMB)
    assert "once decoded" in bomb.warnings[0] and bomb.peak_mib < 64, bomb  # not the 300 MiB it unpacks to
    assert result.ok


def test_bad_input_and_damaged_files_get_a_message_never_a_traceback(settings, workspace, tiny_nli_model, tmp_path):
    result = messages.run(
        settings.data_dir, workspace.name, str(tiny_nli_model), tmp_path, (workspace.folder, workspace.name)
    )
    assert [o for o in result.outcomes if o.problem] == []
    assert result.tracebacks == 0 and result.lost_rows == 0
    assert sum(o.formula_cells for o in result.outcomes) == 0
    assert len(result.outcomes) >= len(messages.CASES) + 2  # and the lost key file, the killed batch
    cases = {o.case for o in result.outcomes}
    assert "check-batch killed mid-batch (SIGKILL), rerun, killed again" in cases
    root_only = {
        "full disk: check-batch --out",
        "full disk: the same batch with room again",
        "check-batch --out on a read-only folder",
        "corpus build --source fever:F on a read-only data folder",
    }
    assert root_only <= cases or result.skipped, result.skipped


def test_damaged_models_are_refused_and_never_answer_silently(workspace, settings, tmp_path):
    result = models.run(
        workspace,
        replace(settings, joint_verifier_model="", device="cpu"),
        tmp_path,
        claims=("Sherlock Holmes was created by Charles Dickens.", "Jaws is a film."),
    )
    intact, *damages = result.outcomes
    assert intact.outcome == "verdicts" and len(intact.labels) == 2 and not intact.detail
    assert [o.case for o in damages] == [*models.CASES, *models.SHIPPED_CASES]
    assert result.ok and result.silent_wrong == 0 and result.unnoticed == []
    for outcome in damages:
        assert outcome.outcome == "refused, shipped model used", outcome
        if not outcome.case.startswith("active.json"):  # these fall back to the small verifier the intact copy is
            assert outcome.labels == intact.labels, outcome  # (an unreadable choice falls back to the default one)


def test_the_service_answers_under_a_flood_sheds_what_its_timeout_cant_take_and_refuses_bad_bodies(checker):
    result = service_flood.run(checker, "fixture", connections=50, abandoned=10, clients=24)
    assert result.flood.ok and result.goodput is not None and result.goodput.ok, result
    assert result.refused == {case: status for case, (_, _, status) in service_flood.REFUSED_BODIES.items()}
    assert result.ok and len(result.rows()) == 4


def test_a_data_folder_opens_as_it_is_from_another_install_and_damaged_vectors_are_not_shared(
    workspace, checker, settings, tmp_path
):
    result = portable.run(
        workspace.folder,
        workspace.name,
        checker.verification,
        settings,
        tmp_path,
        workspace.store,
        claim="Sherlock Holmes was created by Charles Dickens.",
    )
    intact, *moved, shifted = result.outcomes
    assert intact.label and [o.case for o in moved] == [c for c in portable.MOVED_CASES if c not in result.skipped]
    assert result.ok, [o for o in result.outcomes if o.problem]
    assert moved[0].embedded == 0 and not moved[0].written
    assert "not reused" in shifted.detail and "0 wrong vectors" in shifted.detail


def test_issue_44_s_surfaces_hold(checker, tmp_path):
    result = surfaces.run(checker, "fixture", tmp_path)
    assert result.failures == [], result.failures
    assert result.history["opened"] == 0 and result.history["listed"] == 0 and result.history["shared_opens"]
    assert max(result.html_s.values()) < surfaces.WITHIN_S
    assert {a["status"] for a in result.check_text["texts"].values()} == {413}
    assert result.claimreview["scripts"] == {"download and file": 1, "POST /claimreview": 1}
    assert "Building the embedded corpus for the first time (about" in result.first_build
    print("\n" + "\n".join("  ".join(row) for row in result.rows()))


def test_check_text_refuses_endless_and_lying_streams_within_its_memory_bound(tmp_path):
    result = reading.run(tmp_path)
    assert [r.case for r in result.refusals] == [
        "/dev/zero on stdin",
        "a 200 MB pipe on stdin",
        "a link to /dev/zero",
        "a named pipe of 200 MB",
    ]
    for refusal in result.refusals:
        assert result.refused_in_bounds(refusal), refusal
