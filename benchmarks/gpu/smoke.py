"""The CUDA path end to end, timed: the encoder, the verifier in fp16, a batch of claims (issue 35, item 7).

    .venv/bin/python -m benchmarks.gpu.smoke [--claims 64] [--allow-cpu] [--report OUT.json]

On a machine with a CUDA device (``benchmarks/gpu/smoke.sh`` on the lent GPU machine): loads the default checker on
the embedded corpus with ``device=cuda`` (the corpus is built first if need be, its encoder fp32 on a GPU), then
prints and writes the seconds of each part: the encoder on 2,048 corpus sentences, the verifier on 256 (premise,
claim) pairs, and ``Checker.check_many`` on the first ``--claims`` claims of the plain-language yardstick, with each
stage's share. Without a CUDA device it says so and exits 2; ``--allow-cpu`` runs the same on the CPU (a dry run of
the script, not a GPU figure).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fever_core.common.jsonl import write_json

CLAIMS = Path(__file__).resolve().parents[1] / "embedded" / "plain-claims.jsonl"


def _seconds(run) -> float:
    started = time.perf_counter()
    run()
    return round(time.perf_counter() - started, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gpu.smoke", description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=64, help="claims checked in one batch (default 64)")
    parser.add_argument("--allow-cpu", action="store_true", help="run on the CPU when there is no CUDA device")
    parser.add_argument("--report", type=Path, default=None)
    args = parser.parse_args(argv)

    import torch

    from fever_core.common.settings import Settings
    from fever_core.pipeline import Checker

    cuda = torch.cuda.is_available()
    if not cuda and not args.allow_cpu:
        print(
            "No CUDA device here: this script checks the CUDA path. Run it on a GPU machine "
            "(benchmarks/gpu/smoke.sh), or with --allow-cpu for a dry run on the CPU.",
            file=sys.stderr,
        )
        return 2
    device = "cuda" if cuda else "cpu"
    report: dict = {"device": torch.cuda.get_device_name(0) if cuda else "cpu", "torch": torch.__version__}
    settings = Settings.from_env(device=device)
    report["open_s"] = _seconds(lambda: report.setdefault("checker", Checker.open("embedded", settings)))
    checker = report.pop("checker")
    claims = [json.loads(line)["claim"] for line in CLAIMS.read_text(encoding="utf-8").splitlines()][: args.claims]
    sentences = [hit.sentence.text for hit in checker.workspace.store.sentences_by_ids(list(range(1, 2049)))]
    report["encoder_2048_sentences_s"] = _seconds(lambda: checker.workspace.dense.embed(sentences))
    pairs = [(sentences[i], claims[i % len(claims)]) for i in range(256)]
    verifier = checker.verification.verifier
    verifier.predict(pairs[:8])  # the first call loads lazily
    report["verifier_256_pairs_s"] = _seconds(lambda: verifier.predict(pairs))
    report["verifier_dtype"] = str(next(verifier.model.parameters()).dtype)
    results: list = []
    report["check_many_s"] = _seconds(lambda: results.extend(checker.check_many(claims)))
    report["claims"] = len(claims)
    report["per_claim_s"] = round(report["check_many_s"] / max(len(claims), 1), 4)
    report["verdicts"] = {
        label: sum(getattr(r, "verdict", None) is not None and r.verdict.label == label for r in results)
        for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    }
    for key, value in report.items():
        print(f"{key:26} {value}")
    if args.report is not None:
        write_json(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
