"""Probe 7: damaged models (issue 26, item 1; issue 38, item 2.1). Each case copies the verifier into a fresh data
folder as a version chosen there (``models/verifier-v1``, with its checksums, named in ``active.json``), damages the
copy or the choice, loads the checker as the app and the CLI do, and checks a few claims. The shipped cases
(:data:`SHIPPED_CASES`) copy a shipped model into a folder taken for ``assets/models`` instead (:func:`shipped_copy`)
and name it as the verifier. A damaged model must be refused (a warning, the shipped model answering in its place) or
stop with a clear error: never a verdict without a warning, never one from non-finite numbers, never NaN in the
JSON."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import struct
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from benchmarks.reliability.common import CURIE_CLAIM, Row, finite_scores
from fever_core.common.model_versions import ACTIVE_FILE, models_dir, use_verifier
from fever_core.common.settings import DEFAULT_VERIFIER, FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER, Settings
from fever_core.pipeline import Checker
from fever_core.verification import model_integrity
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.classifiers import ADAPTER_CONFIG
from fever_core.verification.learned import VERDICT_FILE
from fever_core.verification.model_integrity import CHECKSUMS_FILE, model_files, record_checksums, weight_files
from fever_core.workspace import Workspace

CLAIMS = (CURIE_CLAIM, "Marie Curie never won a Nobel Prize.", "Marie Curie was a famous footballer from Peru.")
ADAPTER_WEIGHTS = "adapter_model.safetensors"
CONFIG = "config.json"


def flip_bytes(path: Path, share: float = 0.05, seed: int = 0) -> None:
    """Random values in ``share`` of a safetensors file's tensor bytes, its header left readable (as bit rot or a
    bad copy leaves a file: it loads, and computes garbage)."""
    data = bytearray(path.read_bytes())
    start = 8 + struct.unpack("<Q", bytes(data[:8]))[0]
    rng = random.Random(seed)
    for i in rng.sample(range(start, len(data)), int(share * (len(data) - start))):
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))


def zero_bytes(path: Path, share: float = 0.5) -> None:
    """Zeros over the first ``share`` of a safetensors file's tensor bytes, its header left readable."""
    data = bytearray(path.read_bytes())
    start = 8 + struct.unpack("<Q", bytes(data[:8]))[0]
    end = start + int(share * (len(data) - start))
    data[start:end] = bytes(end - start)
    path.write_bytes(bytes(data))


def edit_json(path: Path, edit: Callable[[dict], None]) -> None:
    """``path`` read as JSON, changed by ``edit`` in place and written back."""
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def swap_labels(config: Path) -> None:
    """Labels 0 and 1 swapped in a model's ``config.json`` (``id2label`` and ``label2id``): SUPPORTS read as REFUTES."""

    def swap(data: dict) -> None:
        first, second = data["id2label"]["0"], data["id2label"]["1"]
        data["id2label"]["0"], data["id2label"]["1"] = second, first
        data["label2id"][first], data["label2id"][second] = 1, 0

    edit_json(config, swap)


@contextmanager
def shipped_copy(model: str | Path, folder: Path) -> Iterator[Path]:
    """A copy of the shipped ``model`` in ``folder``, taken for the folder of shipped models (``assets/models``)
    while the context lasts, so that it is checked as a shipped model is; yields the copy."""
    copy = shutil.copytree(model, Path(folder) / Path(model).name)
    with mock.patch.object(model_integrity, "BUNDLED_MODELS_DIR", Path(folder)):
        yield copy


def _weights(folder: Path) -> Path:
    """The weights file of a whole model's folder (``model.safetensors``, or packed ones: ``model.int8.safetensors``)."""
    return folder / weight_files(folder)[0]


def _truncate(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def _no_checksums_then_flipped(version: Path) -> None:
    (version / CHECKSUMS_FILE).unlink()
    flip_bytes(_weights(version))


def _no_checksums_then_config_not_json(version: Path) -> None:
    (version / CHECKSUMS_FILE).unlink()
    (version / CONFIG).write_text("{garbage")


def _no_checksums_then_half_zeroed(folder: Path) -> None:
    (folder / CHECKSUMS_FILE).unlink()
    zero_bytes(folder / ADAPTER_WEIGHTS)


def _choice_of_a_folder_gone(version: Path) -> None:
    (version.parent / ACTIVE_FILE).write_text(json.dumps({"verifier": str(version.with_name("verifier-v2"))}))


CASES: dict[str, Callable[[Path], None]] = {
    "weights: 5% of their bytes changed": lambda version: flip_bytes(_weights(version)),
    "weights: cut to half": lambda version: _truncate(_weights(version)),
    "config.json: labels 0 and 1 swapped": lambda version: swap_labels(version / CONFIG),
    "tokenizer.json: no lower-casing": lambda version: edit_json(
        version / "tokenizer.json", lambda data: data["normalizer"].update(lowercase=False)
    ),
    "verdict.json deleted": lambda version: (version / VERDICT_FILE).unlink(),
    "verdict.json: not JSON": lambda version: (version / VERDICT_FILE).write_text("{garbage"),
    "no checksums.json, 5% of the weights' bytes changed": _no_checksums_then_flipped,
    "no checksums.json, config.json not JSON": _no_checksums_then_config_not_json,
    "active.json: not JSON": lambda version: (version.parent / ACTIVE_FILE).write_text("{garbage"),
    "active.json: a folder that is gone": _choice_of_a_folder_gone,
}
"""Each case's name and how it damages the chosen version's folder (``version``; ``active.json`` is beside it)."""
SHIPPED_CASES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "shipped verifier-mpnet: config.json labels 0 and 1 swapped": (
        DEFAULT_VERIFIER,
        lambda folder: swap_labels(folder / CONFIG),
    ),
    "shipped verifier-mpnet: adapter_config.json lora_alpha 0": (
        DEFAULT_VERIFIER,
        lambda folder: edit_json(folder / ADAPTER_CONFIG, lambda data: data.update(lora_alpha=0)),
    ),
    "shipped verifier-mpnet: no checksums.json, half the adapter's bytes zeroed": (
        DEFAULT_VERIFIER,
        _no_checksums_then_half_zeroed,
    ),
    "shipped verifier: a special_tokens_map.json added": (
        FALLBACK_VERIFIER,
        lambda folder: (folder / "special_tokens_map.json").write_text('{"unk_token": "[SEP]"}'),
    ),
}
"""Each case's name, the shipped model copied (as the verifier in use) and how its copy (``folder``) is damaged.
verifier-mpnet's copies are refused before its base is read, so these cases never assemble it."""
JOINT_CASE = "joint verifier: 5% of its bytes changed"


@dataclass
class ModelOutcome:
    """What loading the checker over one damaged copy and checking :data:`CLAIMS` gave.

    Attributes:
        case: the damage (``"intact"`` for the undamaged copy the others are compared with).
        outcome: ``"refused, shipped model used"`` (a warning on every check), ``"verdicts"`` (no warning) or
            ``"error"`` (the checker did not load: the message).
        detail: the first warning, or the error.
        seconds: wall-clock seconds to load the checker and check the claims.
        labels: the verdict of each claim (none after an error).
        silent_wrong: claims answered without a warning and not as the intact copy answers them.
        non_finite: claims whose result holds a non-finite number (must never be).
        nan_json: claims whose JSON could not be written without NaN (must never be).
    """

    case: str
    outcome: str
    detail: str
    seconds: float
    labels: list[str]
    silent_wrong: int
    non_finite: int
    nan_json: int


@dataclass
class ModelsResult:
    """Probe 7: the intact copy, then one outcome per case."""

    claims: list[str]
    outcomes: list[ModelOutcome]

    @property
    def silent_wrong(self) -> int:
        return sum(o.silent_wrong for o in self.outcomes)

    @property
    def unnoticed(self) -> list[str]:
        """The damages that gave verdicts without a warning (right or wrong: the damage went unnoticed)."""
        return [o.case for o in self.outcomes if o.case != "intact" and o.outcome == "verdicts"]

    @property
    def ok(self) -> bool:
        return not self.unnoticed and not any(o.silent_wrong or o.non_finite or o.nan_json for o in self.outcomes)

    def rows(self) -> list[Row]:
        rows = []
        for o in self.outcomes:
            counts = (
                (int(o.case in self.unnoticed), "UNNOTICED"),
                (o.silent_wrong, "SILENT WRONG"),
                (o.non_finite, "NON-FINITE"),
                (o.nan_json, "NaN IN JSON"),
            )
            bad = "; ".join(f"{n} {what}" for n, what in counts if n)
            answer = f"{len(o.labels)} verdicts" if o.labels else o.detail[:90]
            figures = f"{o.seconds:.1f} s, {answer}" + (f"; {bad}" if bad else "")
            rows.append((f"7 models: {o.case}", o.outcome, figures))
        return rows


def chosen_version(data_dir: Path, source: str | Path) -> Path:
    """A copy of the verifier ``source`` as version 1 of ``data_dir``, with checksums as training writes them,
    chosen in ``active.json``."""
    version = models_dir(data_dir) / "verifier-v1"
    shutil.copytree(source, version)
    record_checksums(version, model_files(version), fresh=True)
    use_verifier(data_dir, version)
    return version


def _settings(template: Settings, data_dir: Path, joint: str) -> Settings:
    """The settings as the app and the CLI read them for ``data_dir`` (its choice of verifier), the rest
    ``template``'s."""
    environ = {k: v for k, v in os.environ.items() if k not in ("FEVER_VERIFIER_MODEL", "FEVER_DATA_DIR")}
    chosen = Settings.from_env(environ, data_dir=data_dir)
    return dataclasses.replace(
        template, data_dir=data_dir, verifier_model=chosen.verifier_model, joint_verifier_model=joint
    )


def _load_and_check(
    workspace: Workspace, settings: Settings, claims: list[str], expected: list[str] | None
) -> tuple[str, str, list[str], int, int, int]:
    """Load the checker for ``settings`` over ``workspace`` and check ``claims``: outcome, detail, labels, silent
    wrong answers, non-finite results, JSON with NaN."""
    try:
        checker = Checker(workspace, ClaimVerifier.load(settings))
        results = checker.check_many(claims)
    except Exception as exc:  # noqa: BLE001 - a clear error is one of the outcomes the probe reports
        return "error", f"{type(exc).__name__}: {exc}", [], 0, 0, 0
    labels, silent_wrong, non_finite, nan_json = [], 0, 0, 0
    for i, result in enumerate(results):
        labels.append(result.verdict.label)
        non_finite += not finite_scores(result)
        try:
            result.to_json()
        except ValueError:
            nan_json += 1
        if not result.warnings and expected is not None and result.verdict.label != expected[i]:
            silent_wrong += 1
    warned = [r.warnings[0] for r in results if r.warnings]
    outcome = "refused, shipped model used" if len(warned) == len(results) else "verdicts"
    return outcome, warned[0] if warned else "", labels, silent_wrong, non_finite, nan_json


def run(
    workspace: Workspace,
    template: Settings,
    workdir: Path,
    claims: tuple[str, ...] = CLAIMS,
    source: str = FALLBACK_VERIFIER,
) -> ModelsResult:
    """For the intact copy and each case of :data:`CASES` (and :data:`JOINT_CASE` when ``template`` has a joint
    verifier), a fresh data folder under ``workdir`` with a copy of ``source`` chosen in it, damaged; for each case of
    :data:`SHIPPED_CASES`, a damaged copy of a shipped model taken for one and named as the verifier. Then the checker
    is loaded over ``workspace`` and ``claims`` checked. ``source`` and the shipped models themselves are only read."""
    outcomes: list[ModelOutcome] = []
    expected = None

    def load_and_check(case: str, settings: Settings) -> None:
        nonlocal expected
        started = time.perf_counter()
        outcome, detail, labels, silent, non_finite, nan_json = _load_and_check(
            workspace, settings, list(claims), expected
        )
        if case == "intact":
            expected = labels
        outcomes.append(
            ModelOutcome(
                case, outcome, detail, round(time.perf_counter() - started, 2), labels, silent, non_finite, nan_json
            )
        )

    cases: dict[str, Callable[[Path], None]] = {"intact": lambda version: None, **CASES}
    if template.joint_verifier_model:
        cases[JOINT_CASE] = lambda version: flip_bytes(_weights(version.with_name("joint-copy")))
    for number, (case, damage) in enumerate(cases.items()):
        data_dir = Path(workdir) / f"case-{number}"
        version = chosen_version(data_dir, source)
        joint = template.joint_verifier_model
        if case == JOINT_CASE:
            joint = str(shutil.copytree(SHIPPED_JOINT_VERIFIER, version.with_name("joint-copy")))
            record_checksums(joint, model_files(joint), fresh=True)
        damage(version)
        load_and_check(case, _settings(template, data_dir, joint))
    for number, (case, (model, damage)) in enumerate(SHIPPED_CASES.items(), start=len(cases)):
        folder = Path(workdir) / f"case-{number}"
        with shipped_copy(model, folder / "shipped") as copy:
            damage(copy)
            load_and_check(case, dataclasses.replace(template, data_dir=folder / "data", verifier_model=str(copy)))
    return ModelsResult(list(claims), outcomes)
