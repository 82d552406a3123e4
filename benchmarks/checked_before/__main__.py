"""Measure "checked before" on the paraphrase pairs and time its lookup; print the figures and write them to a report.

    python -m benchmarks.checked_before [--corpus embedded] [--stored 10000] [--report benchmarks/checked_before/report.txt]

1. Each pair of ``paraphrase-pairs.jsonl`` is embedded with the corpus's encoder (the one its dense index was built
   with: int8 MiniLM for ``embedded`` on a CPU). A pair is predicted "checked before" by
   :func:`~fever_core.workbench.same_claim.same_claim`: the same normalised text, or a cosine of at least the
   threshold with the agreement checks (numbers, names, negation) holding. Precision and recall at each threshold,
   for the cosine alone, each check added alone, and all of them.
2. The threshold is chosen on half of the topics (the pairs of every other base claim): the lowest whose precision
   there is at least ``--precision`` (0.95); the other half's precision and recall at it are the figures to quote.
3. ``--stored`` claims (the first sentence of the corpus's pages) are kept in the history of a new data folder, and a
   lookup of a new claim is timed: the first (every stored claim embedded), one by a new process's lookup (their
   vectors read back from ``claim-vectors.sqlite``), and the next ones (one new check kept between lookups).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from fever_core.common.settings import Settings
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.pipeline import CheckResult
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.verdict import Verdict
from fever_core.workbench.checked_before import EarlierChecks
from fever_core.workbench.claim_vectors import encoder_key
from fever_core.workbench.history import HistoryStore
from fever_core.workbench.same_claim import AGREEMENT_CHECKS, THRESHOLD, same_claim
from fever_core.workspace import open_workspace

HERE = Path(__file__).parent
PAIRS = HERE / "paraphrase-pairs.jsonl"
ROLE_PAIRS = HERE / "role-swap-pairs.jsonl"
"""Pairs whose two parties swap roles ("Spain is larger than France." / "France is larger than Spain."), and
rewordings that put them in the other order and mean the same (passive voice, a converse comparative): written for
the roles check, by a helper who had not read the checks."""
THRESHOLDS = [round(t, 2) for t in np.arange(0.80, 0.981, 0.01)]
VARIANTS = {
    "cosine alone": (),
    **{f"+ {name}": (name,) for name in AGREEMENT_CHECKS},
    "+ numbers + names": ("numbers", "names"),
    "+ all (shipped)": tuple(AGREEMENT_CHECKS),
}


def load_pairs(path: Path = PAIRS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def precision_recall(predicted: list[bool], gold: list[bool]) -> tuple[float, float, int]:
    """Precision and recall of "checked before" (1.0 precision when nothing is predicted), and the false positives."""
    tp = sum(p and g for p, g in zip(predicted, gold))
    fp = sum(p and not g for p, g in zip(predicted, gold))
    return (tp / (tp + fp) if tp + fp else 1.0), tp / max(1, sum(gold)), fp


def predictions(pairs: list[dict], similarities: np.ndarray, threshold: float, checks: tuple[str, ...]) -> list[bool]:
    return [same_claim(p["a"], p["b"], float(s), threshold, checks) for p, s in zip(pairs, similarities)]


def choose_threshold(pairs: list[dict], similarities: np.ndarray, wanted: float) -> float | None:
    """The lowest threshold of :data:`THRESHOLDS` whose precision on ``pairs`` (with every check) is ``wanted`` at
    least; ``None`` when none is."""
    gold = [p["paraphrase"] for p in pairs]
    for threshold in THRESHOLDS:
        if precision_recall(predictions(pairs, similarities, threshold, tuple(AGREEMENT_CHECKS)), gold)[0] >= wanted:
            return threshold
    return None


def measure_pairs(encoder, wanted: float, out: list[str]) -> None:
    pairs = load_pairs()
    texts = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
    vectors = dict(zip(texts, encoder.encode(texts)))
    similarities = np.array([float(vectors[p["a"]] @ vectors[p["b"]]) for p in pairs])
    gold = [p["paraphrase"] for p in pairs]
    kinds = sorted({p["kind"] for p in pairs if not p["paraphrase"]})
    out.append(
        f"{len(pairs)} pairs from {PAIRS.name}: {sum(gold)} paraphrases, {len(pairs) - sum(gold)} same-topic "
        "claims of another fact (" + ", ".join(f"{k} {sum(p['kind'] == k for p in pairs)}" for k in kinds) + ")"
    )
    out.append(f"encoder: {encoder_key(encoder)}")
    out.append("")
    out.append("precision / recall (false positives) on every pair, by threshold:")
    out.append(f"{'threshold':>9}  " + "  ".join(f"{name:>22}" for name in VARIANTS))
    for threshold in THRESHOLDS:
        cells = []
        for checks in VARIANTS.values():
            p, r, fp = precision_recall(predictions(pairs, similarities, threshold, checks), gold)
            cells.append(f"{p:.3f} / {r:.3f} ({fp:>3})")
        out.append(f"{threshold:>9.2f}  " + "  ".join(f"{cell:>22}" for cell in cells))
    bases = list(dict.fromkeys(p["a"] for p in pairs))
    half = {base for i, base in enumerate(bases) if i % 2 == 0}
    choose = [i for i, p in enumerate(pairs) if p["a"] in half]
    held = [i for i, p in enumerate(pairs) if p["a"] not in half]
    chosen = choose_threshold([pairs[i] for i in choose], similarities[choose], wanted)
    out.append("")
    if chosen is None:
        out.append(f"no threshold reaches precision {wanted} on the choosing half")
        return
    out.append(
        f"threshold chosen on half of the topics ({len(choose)} pairs): {chosen:.2f}, the lowest with precision "
        f">= {wanted} there (every check on); the library's THRESHOLD is {THRESHOLD:.2f}"
    )
    for name, rows in (("held-out half", held), ("choosing half", choose), ("every pair", list(range(len(pairs))))):
        sub = [pairs[i] for i in rows]
        p, r, fp = precision_recall(
            predictions(sub, similarities[rows], chosen, tuple(AGREEMENT_CHECKS)), [x["paraphrase"] for x in sub]
        )
        out.append(
            f"  at {chosen:.2f}, {name} ({len(rows)} pairs): precision {p:.3f}, recall {r:.3f}, {fp} false positives"
        )
    shipped = predictions(pairs, similarities, chosen, tuple(AGREEMENT_CHECKS))
    out.append(f"  the negatives that pass at {chosen:.2f}, by kind (every pair):")
    for kind in kinds:
        passing = [p for p, hit in zip(pairs, shipped) if hit and p["kind"] == kind]
        out.append(
            f"    {kind}: {len(passing)} of {sum(p['kind'] == kind for p in pairs)}"
            + "".join(f"\n      {p['a']} | {p['b']}" for p in passing)
        )


def synthetic_check(claim: str, label: str) -> CheckResult:
    """A check result with nothing but a claim and a verdict: what the history keeps of it is all a lookup reads."""
    probabilities = {SUPPORTS: 0.1, REFUTES: 0.1, NEI: 0.1, label: 0.8}
    return CheckResult(claim, "embedded", ClaimAnalysis(claim), [], [], [], Verdict(label, probabilities, "", []))


def time_lookups(workspace, stored: int, out: list[str]) -> None:
    encoder = workspace.dense.encoder
    claims = [
        text
        for (text,) in workspace.store.connection.execute(
            "SELECT text FROM sentences WHERE line = 0 ORDER BY page LIMIT ?", (stored + 20,)
        )
    ]
    kept, new = claims[:stored], claims[stored:]
    with tempfile.TemporaryDirectory() as folder:
        history = HistoryStore(Path(folder) / "history.sqlite")
        started = time.perf_counter()
        for n, claim in enumerate(kept):
            history.add(synthetic_check(claim, (SUPPORTS, REFUTES, NEI)[n % 3]), {}, session=f"s{n % 7}")
        out.append(
            f"lookups with {len(kept):,} claims kept in the history ({time.perf_counter() - started:.1f} s to "
            "keep them):"
        )
        first = EarlierChecks(folder)
        started = time.perf_counter()
        first.find(new[0], encoder)
        out.append(f"  the first lookup (every kept claim embedded): {time.perf_counter() - started:.2f} s")
        started = time.perf_counter()
        EarlierChecks(folder).find(new[1], encoder)
        out.append(f"  a new process's first lookup (vectors read back): {time.perf_counter() - started:.3f} s")
        seconds = []
        for claim in new[2:]:
            started = time.perf_counter()
            first.find(claim, encoder)
            seconds.append(time.perf_counter() - started)
            history.add(synthetic_check(claim, SUPPORTS), {})
        out.append(
            f"  the next {len(seconds)} lookups (a check kept between them): median "
            f"{statistics.median(seconds) * 1000:.0f} ms, slowest {max(seconds) * 1000:.0f} ms"
        )
        again = first.find(kept[5].upper() + "  ", encoder)
        out.append(f"  a kept claim typed again in capitals: found {again[0].exact and again[0].claim == kept[5]}")


def measure_role_swaps(encoder, out: list[str]) -> None:
    """The roles check on :data:`ROLE_PAIRS`, at the library's :data:`THRESHOLD`: every check but roles, then all."""
    pairs = load_pairs(ROLE_PAIRS)
    texts = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
    vectors = dict(zip(texts, encoder.encode(texts)))
    similarities = np.array([float(vectors[p["a"]] @ vectors[p["b"]]) for p in pairs])
    gold = [p["paraphrase"] for p in pairs]
    out.append(
        f"{len(pairs)} pairs from {ROLE_PAIRS.name}: {sum(gold)} rewordings in the other order, "
        f"{len(pairs) - sum(gold)} with the roles swapped; at THRESHOLD {THRESHOLD:.2f}:"
    )
    without = tuple(name for name in AGREEMENT_CHECKS if name != "roles")
    for name, checks in (
        ("cosine alone", ()),
        ("every check but roles", without),
        ("every check (shipped)", tuple(AGREEMENT_CHECKS)),
    ):
        predicted = predictions(pairs, similarities, THRESHOLD, checks)
        p, r, fp = precision_recall(predicted, gold)
        out.append(f"  {name}: precision {p:.3f}, recall {r:.3f}, {fp} false positives")
    predicted = predictions(pairs, similarities, THRESHOLD, tuple(AGREEMENT_CHECKS))
    out.append(
        "  still taken for the same claim (swapped roles):"
        + "".join(f"\n    {p['a']} | {p['b']}" for p, hit in zip(pairs, predicted) if hit and not p["paraphrase"])
    )
    out.append(
        "  missed (rewordings):"
        + "".join(
            f"\n    {p['a']} | {p['b']} ({s:.3f})"
            for p, hit, s in zip(pairs, predicted, similarities)
            if not hit and p["paraphrase"]
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="embedded", help="the corpus whose encoder embeds the claims")
    parser.add_argument("--precision", type=float, default=0.95, help="the precision the threshold must reach")
    parser.add_argument("--stored", type=int, default=10_000, help="claims kept for the timing (0: no timing)")
    parser.add_argument("--report", default=str(HERE / "report.txt"), help="write the figures here too")
    args = parser.parse_args(argv)
    workspace = open_workspace(args.corpus, Settings.from_env(), progress=False)
    out = [f"python -m benchmarks.checked_before --corpus {args.corpus} --stored {args.stored}", ""]
    measure_pairs(workspace.dense.encoder, args.precision, out)
    out.append("")
    measure_role_swaps(workspace.dense.encoder, out)
    if args.stored:
        out.append("")
        time_lookups(workspace, args.stored, out)
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    Path(args.report).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
