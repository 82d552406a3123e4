"""Models: improve the verifier with the annotations, compare the new version with the one it came from,
and choose the verifier in use (switching back to the shipped one is one click).

"Improve the verifier" asks for at least :data:`MIN_ANNOTATIONS` annotations, says why, and how long the run will
take (from the rate measured on this kind of machine, :func:`improve_estimate`). It runs
``python -m fever_core train improve`` as a process of its own
(:mod:`fever_core.workbench.jobs`): its progress is read from a status file in the data folder, so it survives a
reload, another tab, or closing the page. Each run makes a new version folder and never overwrites a
model (:mod:`fever_core.common.model_versions`); a version keeps its base's learned verdict.
"""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from fever_core.common import (
    DEFAULT_VERIFIER,
    ModelVersion,
    Settings,
    active_verifier,
    list_versions,
    models_dir,
    use_verifier,
)
from fever_core.corpus import LIVE_CORPUS, list_corpora
from fever_core.verification import adapter_base
from fever_core.workbench import DONE, FAILED, read_status, start_job
from pages.display import corpus_label, footer, plain, verifier_name
from pages.resources import load_annotations, run_settings
from pages.settings_ui import UiSettings, current_settings
from pages.words import count

POLL_SECONDS = 2.0
MIN_ANNOTATIONS = 20
WHY_MIN_ANNOTATIONS = (
    f"Improving needs at least {MIN_ANNOTATIONS} annotations: a quarter of the annotated claims are held out to "
    "compare the new version with the one in use, and with fewer than 20 that is under 5 claims, where a single "
    "claim moves the accuracy by 20 points or more; the rest, under 15 claims, is too little to change the "
    "verifier reliably."
)
# How long improving takes on 2 CPU cores, from measured rates: 44.8 s for 20 annotations and 4 passes from the
# Models page (benchmarks/app/browser-improve.txt), of which fine-tuning is about 0.04 s per annotation per pass (the
# verifier trains at 25-45 pairs/s on two threads, assets/models/verifier/MODEL_CARD.md; an annotation gives about
# 1.5 pairs and three quarters are learned from) and checking the held-out claims before and after about 0.1 s an
# annotation; the rest (loading, the yardsticks before and after) does not depend on the annotations.
IMPROVE_FIXED_S = 40.0
IMPROVE_PER_ANNOTATION_S = 0.1
IMPROVE_PER_ANNOTATION_PASS_S = 0.04
# How much longer improving a verifier that is an adapter on MPNet-base (the default) takes: 119.9 s against 44.8 s
# for the same 20 annotations and 4 passes from the Models page (benchmarks/app/browser-improve.txt, session 17).
# (Comments, not docstrings: Streamlit shows a page's bare strings.)
IMPROVE_ADAPTER_FACTOR = 2.7


def status_file(settings: Settings):
    return models_dir(settings.data_dir) / "improve-job.json"


def switch_to(settings: Settings, path: str | None) -> None:
    """Use a version (None: the shipped verifier) in this session and, for new sessions, in the data folder."""
    use_verifier(settings.data_dir, path)
    st.session_state["verifier_model"] = str(path) if path else DEFAULT_VERIFIER


def comparison(version: ModelVersion) -> pd.DataFrame:
    """A version's comparison with its base: accuracy before and after on each yardstick, three decimals
    ("n/a" where there was nothing to compare on)."""
    frame = pd.DataFrame(version.table, columns=["name", "n", "before", "after"])
    frame["change"] = frame["after"] - frame["before"]
    for column in ("before", "after", "change"):
        frame[column] = [
            ("n/a" if pd.isna(value) else f"{value:+.3f}" if column == "change" else f"{value:.3f}")
            for value in frame[column]
        ]
    return frame.rename(columns={"name": "yardstick", "before": "base", "after": version.name}).set_index("yardstick")


def improve_estimate(annotations: int, passes: int, adapter: bool = False) -> float:
    """Seconds a run on ``annotations`` annotations with ``passes`` passes takes on 2 CPU cores, from the measured
    rates (:data:`IMPROVE_FIXED_S` and the two per-annotation ones, for the small verifier; times
    :data:`IMPROVE_ADAPTER_FACTOR` when the verifier is an ``adapter`` on MPNet-base); more cores are faster."""
    seconds = IMPROVE_FIXED_S + annotations * (IMPROVE_PER_ANNOTATION_S + IMPROVE_PER_ANNOTATION_PASS_S * passes)
    return seconds * (IMPROVE_ADAPTER_FACTOR if adapter else 1.0)


def duration(seconds: float) -> str:
    """Seconds in words, rounded: "about 50 s", "about 3 min"."""
    return f"about {seconds:.0f} s" if seconds < 90 else f"about {seconds / 60:.0f} min"


def improve_form(settings: Settings, ui: UiSettings, versions: list[ModelVersion], running: bool) -> None:
    """Start a run on the annotations, from the verifier in use, on the corpus they were made on: once there
    are :data:`MIN_ANNOTATIONS`, saying how long it will take."""
    st.subheader("Improve the verifier")
    in_use = ui.verifier_model
    counts = load_annotations(settings).counts()
    enough = counts["annotations"] >= MIN_ANNOTATIONS
    st.caption(
        f"{count(counts['annotations'], 'annotation')} saved (Annotate). A quarter of the annotated claims are "
        "held out to compare the new version with the one in use; the rest are learned from. "
        "The new version keeps the learned verdict of the one it starts from."
    )
    if not enough:
        st.info(
            f"{WHY_MIN_ANNOTATIONS} Annotate {count(MIN_ANNOTATIONS - counts['annotations'], 'more claim')} first.",
            icon=":material/edit_note:",
        )
    corpora = [name for name in list_corpora(settings.data_dir) if name != LIVE_CORPUS]
    with st.form("improve"):
        corpus = st.selectbox(
            "Corpus the annotations were made on",
            corpora,
            format_func=corpus_label,
            index=corpora.index(ui.corpus) if ui.corpus in corpora else 0,
        )
        epochs = st.slider(
            "Passes over the annotations",
            1,
            10,
            4,
            help="More passes learn the annotations more closely, and take longer.",
        )
        adapter = adapter_base(in_use) is not None
        st.caption(
            f"Takes {duration(improve_estimate(counts['annotations'], epochs, adapter))} on 2 CPU cores with "
            f"{count(counts['annotations'], 'annotation')} and {count(epochs, 'pass', 'passes')} (measured rate; the app stays usable "
            "meanwhile, and the run goes on if you leave the page)."
        )
        started = st.form_submit_button("Improve the verifier", type="primary", disabled=running or not enough)
    st.caption(
        f"Starts from: {plain(verifier_name(in_use, versions))}. The same from the command line: "
        "`python -m fever_core train improve --corpus NAME`."
    )
    if started:
        try:
            start_job(
                [
                    "--data-dir",
                    str(settings.data_dir),
                    "train",
                    "improve",
                    "--corpus",
                    corpus,
                    "--base",
                    in_use,
                    "--epochs",
                    str(epochs),
                ],
                status_file(settings),
            )
        except RuntimeError as exc:
            st.error(plain(str(exc)))
        st.rerun()


@st.fragment(run_every=POLL_SECONDS)
def job_progress(settings: Settings) -> None:
    """The running job's stage and progress, redrawn every :data:`POLL_SECONDS`; the page is drawn again
    when it ends."""
    status = read_status(status_file(settings))
    if status is None or status.finished:
        st.rerun()
    elapsed = time.time() - status.started_at
    done = min(max(status.progress, 0.0), 1.0)
    left = f" · {duration(elapsed / done * (1 - done))} left" if done >= 0.1 else ""
    st.progress(done, text=f"{status.stage} · {elapsed:.0f} s{left}")


def last_job(settings: Settings) -> None:
    """How the last run ended (once it has)."""
    status = read_status(status_file(settings))
    if status is None:
        return
    if status.state == FAILED:
        st.error(plain(f"The last run failed: {status.message}"))
    elif status.state == DONE:
        st.success(
            plain(
                f"The last run made {status.result.get('version', 'a version')} in "
                f"{status.result.get('wall_s', 0):.0f} s: compare it below before using it."
            )
        )


def versions_list(settings: Settings, in_use: str, versions: list[ModelVersion]) -> None:
    """Each version, newest first: what it came from, its comparison table, and a button to use it."""
    st.subheader("Versions")
    if not versions:
        st.info("No versions yet: improve the verifier with some annotations.")
    for version in reversed(versions):
        with st.container(border=True, key=f"version-{version.name}"):
            using = str(version.path.resolve()) == in_use or str(version.path) == in_use
            st.markdown(f"**{version.name}**" + (" · in use" if using else ""))
            st.caption(
                plain(
                    f"From {verifier_name(version.base, versions)}, on "
                    f"{count(version.annotations.get('train', 0), 'annotation')} "
                    f"({version.annotations.get('heldout', 0)} held out), made "
                    f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(version.created_at))} in "
                    f"{version.wall_s:.0f} s."
                )
            )
            st.table(comparison(version))
            if version.annotations.get("heldout", 0) < 50:
                st.caption(
                    "With fewer than 50 held-out claims, a change of one claim moves their accuracy a lot: "
                    "read it as a hint, and the yardsticks as the check that nothing broke."
                )
            if not using:
                st.button(
                    "Use this version",
                    key=f"use-{version.name}",
                    on_click=switch_to,
                    args=(settings, str(version.path.resolve())),
                )


settings = run_settings()
ui = current_settings(settings)
versions = list_versions(settings.data_dir)
st.title("Models")
in_use = ui.verifier_model
st.markdown(f"Verifier in use: **{plain(verifier_name(in_use, versions))}**")
if in_use != DEFAULT_VERIFIER:
    st.button("Switch back to the shipped verifier", on_click=switch_to, args=(settings, None))
if active_verifier(settings.data_dir) is None and in_use != DEFAULT_VERIFIER:
    st.caption("New sessions start with the shipped verifier (or FEVER_VERIFIER_MODEL).")
status = read_status(status_file(settings))
running = status is not None and not status.finished
improve_form(settings, ui, versions, running)
if running:
    job_progress(settings)
else:
    last_job(settings)
versions_list(settings, in_use, versions)
footer()
