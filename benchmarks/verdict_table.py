"""The verdict's table (issue 42): the default verifier end to end on every hand-written yardstick and fever-dev.

    .venv/bin/python -m benchmarks.verdict_table run OUT [--fever-dev-sample 600] [--cache FILE] [--latency 100]
    .venv/bin/python -m benchmarks.verdict_table compare OLD/report.json NEW/report.json
    .venv/bin/python -m benchmarks.verdict_table same OLD NEW

``run`` checks, with the checker as it ships (``Checker.open``), the plain-language yardstick
(``benchmarks/embedded/plain-claims.jsonl``), the three other hand-written sets (``assets/claims/hand-claims.jsonl``,
``benchmarks/embedded/hand-claims-2.jsonl``, ``-3.jsonl``) on the embedded corpus, and a seeded sample of fever-dev
on its corpus (skipped without ``../shared``). Per set: accuracy by gold label for single-page claims, compound and
two-hop claims apart; opposite-label verdicts (SUPPORTS for REFUTES or the reverse); *contradictions*: SUPPORTS or
REFUTES verdicts without a deciding sentence, or with one whose shown reading is another label (issue 42 wants
none); the expected calibration error of the reported probability and how often a verdict said at 0.9 or more is
right; fever-dev's FEVER score; how many verifier calls the checks' verdicts took (issue 49: at most 2). Then ``--latency`` claims of the plain yardstick are checked one at a time: the
verification's seconds per claim, p50 and p95. Predictions go to ``OUT/<set>.predictions.jsonl`` (each line the
verdict as the check reports it), the figures to ``OUT/report.json``.

``--cache FILE`` keeps each model's probabilities per (premise, claim) pair in FILE, so a second run of the same
models (another decision rule, the old code against the new) reads the verifier only for new pairs. Timings with a
warm cache are not latencies: ``--latency`` always reads the models.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.calibration import expected_calibration_error

ROOT = Path(__file__).resolve().parents[1]
EMBEDDED_SETS = {
    "plain": ROOT / "benchmarks" / "embedded" / "plain-claims.jsonl",
    "hand": ROOT / "assets" / "claims" / "hand-claims.jsonl",
    "hand-2": ROOT / "benchmarks" / "embedded" / "hand-claims-2.jsonl",
    "hand-3": ROOT / "benchmarks" / "embedded" / "hand-claims-3.jsonl",
}
FEVER_DEV = ROOT.parent / "shared" / "data" / "claims" / "fever-dev.jsonl"
LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
BATCH = 32


class CachedModel:
    """An NLI model whose probabilities are kept per (premise, hypothesis) in a shared dict."""

    def __init__(self, model, cache: dict):
        self.model, self.cache = model, cache

    def predict(self, pairs, batch_size=None):
        import numpy as np

        key = Path(self.model.name).name  # the model's folder: the same weights in another checkout share pairs
        todo = [pair for pair in dict.fromkeys(pairs) if (key, *pair) not in self.cache]
        for pair, row in zip(todo, self.model.predict(todo) if todo else []):
            self.cache[(key, *pair)] = row
        return np.array([self.cache[(key, *pair)] for pair in pairs], dtype=np.float32).reshape(len(pairs), 3)

    def __getattr__(self, name):
        return getattr(self.model, name)


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _group(claim: dict) -> str:
    kind = claim.get("kind", "single")
    if claim.get("hops") == 2 or kind == "two-hop":
        return "two-hop"
    return "compound" if kind == "compound" else claim["label"]


def _shown_label(item) -> str | None:
    """A sentence's stance as its row shows it: the reading it counted with (a checker from before readings: its
    likeliest label)."""
    reading = getattr(item, "reading", None)
    if reading is not None:
        return reading.label
    return None if item.stance is None else max(LABELS, key=item.stance.of)


def _contradicts(result) -> bool:
    verdict = result.verdict
    if verdict.label == "NOT ENOUGH INFO":
        return False
    if not verdict.deciding_evidence:
        return True
    return any(_shown_label(result.evidence[i]) != verdict.label for i in verdict.deciding_evidence)


def _probability(verdict) -> float:
    """The probability reported (a checker from before calibration: its decider's)."""
    return getattr(verdict, "probability", verdict.probabilities[verdict.label])


def _strict(claim: dict, result) -> bool:
    """FEVER's evidence condition: a NOT ENOUGH INFO claim, or a gold set within the first five sentences."""
    if claim["label"] == "NOT ENOUGH INFO":
        return True
    found = {(e.sentence.page_id, e.sentence.line) for e in result.evidence[:5]}
    return any(all((e[2], e[3]) in found for e in group) for group in claim["evidence"])


def score(claims: list[dict], results: list) -> dict:
    """The set's figures (the module's docstring)."""
    groups: dict[str, Counter] = defaultdict(Counter)
    said, right = [], []
    for claim, result in zip(claims, results):
        label = result.verdict.label
        ok = label == claim["label"]
        for group in (_group(claim), "all"):
            groups[group]["n"] += 1
            groups[group]["right"] += ok
            groups[group]["opposite"] += {label, claim["label"]} == {"SUPPORTS", "REFUTES"}
            groups[group]["fever"] += ok and _strict(claim, result)
            groups[group]["undecided"] += getattr(result.verdict, "undecided", False)
        said.append(_probability(result.verdict))
        right.append(ok)
    out = {
        group: {
            "n": c["n"],
            "accuracy": round(c["right"] / c["n"], 4),
            "opposite": c["opposite"],
            "undecided": c["undecided"],
            "fever_score": round(c["fever"] / c["n"], 4),
        }
        for group, c in groups.items()
    }
    decided = [r for r in results if r.verdict.label != "NOT ENOUGH INFO"]
    sure = [ok for p, ok in zip(said, right) if p >= 0.9]
    out["contradictions"] = sum(_contradicts(r) for r in results)
    out["supports_or_refutes"] = len(decided)
    out["ece"] = round(expected_calibration_error(said, right), 4)
    out["said_0.9_right"] = round(sum(sure) / len(sure), 4) if sure else None
    out["said_0.9_n"] = len(sure)
    out["verifier_calls"] = {
        str(calls): n for calls, n in sorted(Counter(getattr(r.verdict, "verifier_calls", 0) for r in results).items())
    }
    return out


def run(out: Path, sample: int, cache_path: Path | None, latency: int) -> dict:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from fever_core.pipeline import Checker

    cache = pickle.loads(cache_path.read_bytes()) if cache_path and cache_path.exists() else {}
    out.mkdir(parents=True, exist_ok=True)
    sets = {name: (_load(path), "embedded") for name, path in EMBEDDED_SETS.items()}
    if FEVER_DEV.exists() and sample > 0:
        sets["fever-dev"] = (random.Random(1).sample(_load(FEVER_DEV), sample), "fever-dev")
    report: dict = {"sets": {}}
    checkers: dict = {}
    for name, (claims, corpus) in sets.items():
        if corpus not in checkers:
            checkers[corpus] = Checker.open(corpus, progress=False)
            verification = checkers[corpus].verification
            report["verifier"] = verification.verifier.name
            if cache_path:
                verification.verifier = CachedModel(verification.verifier, cache)
                if verification.joint_verifier is not None:
                    verification.joint_verifier = CachedModel(verification.joint_verifier, cache)
        checker = checkers[corpus]
        started = time.perf_counter()
        results = []
        for i in range(0, len(claims), BATCH):
            results += checker.check_many([c["claim"] for c in claims[i : i + BATCH]])
        report["sets"][name] = {**score(claims, results), "seconds": round(time.perf_counter() - started, 1)}
        with (out / f"{name}.predictions.jsonl").open("w", encoding="utf-8") as fh:
            for claim, result in zip(claims, results):
                fh.write(
                    json.dumps(
                        {
                            "id": claim["id"],
                            "label": claim["label"],
                            "claim": claim["claim"],
                            "verdict": result.verdict.to_dict(),
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
        print(name, json.dumps(report["sets"][name]), flush=True)
        if cache_path:
            cache_path.write_bytes(pickle.dumps(cache))
    if latency:
        checker = Checker.open("embedded", progress=False)
        checker.check(sets["plain"][0][0]["claim"])  # warm
        seconds = [checker.check(c["claim"]).timings for c in sets["plain"][0][:latency]]
        verification = sorted(t["verification"] for t in seconds)
        total = sorted(t["total"] for t in seconds)
        report["latency"] = {
            "claims": latency,
            "cpu_threads": __import__("torch").get_num_threads(),
            "verification_p50": round(statistics.median(verification), 3),
            "verification_p95": round(verification[int(0.95 * (len(verification) - 1))], 3),
            "total_p50": round(statistics.median(total), 3),
            "total_p95": round(total[int(0.95 * (len(total) - 1))], 3),
        }
        print("latency", json.dumps(report["latency"]))
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


def compare(old: dict, new: dict) -> str:
    """The two reports side by side, one row a figure, as Markdown."""
    lines = ["| set | figure | old | new |", "|---|---|---|---|"]
    for name, figures in new["sets"].items():
        before = old["sets"].get(name, {})
        for group in (*LABELS, "compound", "two-hop", "all"):
            if group in figures:
                lines.append(
                    f"| {name} | {group} accuracy (n={figures[group]['n']}) | "
                    f"{before.get(group, {}).get('accuracy', '')} | {figures[group]['accuracy']} |"
                )
        if name == "fever-dev":
            lines.append(
                f"| {name} | FEVER score | {before.get('all', {}).get('fever_score', '')} | "
                f"{figures['all']['fever_score']} |"
            )
        for figure in ("contradictions", "ece", "said_0.9_right"):
            lines.append(f"| {name} | {figure} | {before.get(figure, '')} | {figures[figure]} |")
        lines.append(
            f"| {name} | opposite-label verdicts | {before.get('all', {}).get('opposite', '')} | "
            f"{figures['all']['opposite']} |"
        )
        lines.append(
            f"| {name} | verifier calls per verdict (most) | {max(before.get('verifier_calls') or [''])} | "
            f"{max(figures.get('verifier_calls') or [''])} |"
        )
    for key in ("verification_p50", "verification_p95", "total_p50", "total_p95"):
        lines.append(
            f"| latency | {key} (s) | {old.get('latency', {}).get(key, '')} | {new.get('latency', {}).get(key, '')} |"
        )
    return "\n".join(lines)


def same(old: Path, new: Path) -> str:
    """The same-predictions check: for each set both runs predicted, how many claims got the same verdict label, and
    each claim whose label changed (id, claim, old -> new)."""
    lines = []
    for path in sorted(new.glob("*.predictions.jsonl")):
        before_path = old / path.name
        if not before_path.exists():
            continue
        before = {r["id"]: r for r in map(json.loads, before_path.read_text(encoding="utf-8").splitlines())}
        after = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        changed = [
            r for r in after if r["id"] in before and before[r["id"]]["verdict"]["label"] != r["verdict"]["label"]
        ]
        both = sum(r["id"] in before for r in after)
        lines.append(f"{path.name.split('.')[0]}: {both - len(changed)} of {both} the same label")
        lines += [
            f"  {r['id']}: {r['claim']!r}: {before[r['id']]['verdict']['label']} -> {r['verdict']['label']}"
            for r in changed
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.verdict_table", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("out", type=Path)
    p.add_argument("--fever-dev-sample", type=int, default=600, help="fever-dev claims checked (0: fever-dev left out)")
    p.add_argument("--cache", type=Path, default=None)
    p.add_argument("--latency", type=int, default=100, help="plain claims checked one at a time (0: none)")
    for name in ("compare", "same"):
        p = sub.add_parser(name)
        p.add_argument("old", type=Path)
        p.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.out, args.fever_dev_sample, args.cache, args.latency)
    elif args.command == "same":
        print(same(args.old, args.new))
    else:
        print(compare(json.loads(args.old.read_text()), json.loads(args.new.read_text())))


if __name__ == "__main__":
    main()
