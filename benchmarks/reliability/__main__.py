"""Run the reliability probes and print one table (probe, what happened, figures); write the same as JSON.

    python -m benchmarks.reliability [--quick] [--corpus embedded] [--out PATH]

Probes 1 and 6 check claims on ``--corpus`` as it is in the data folder (only read); probe 4 damages copies of it
(of a small corpus built in a temporary folder with ``--quick``); probes 2, 3 and 5 work in a temporary folder. The
exit status is 1 when an invariant is broken (an unexpected exception, a lost committed write, a verdict from
non-finite scores, a damaged file answered wrongly, an unbounded wait on Wikipedia, a service that stops answering
under a flood of connections, a command that ends in a traceback). Probe 7 damages copies of the verifier in a
temporary data folder; probe 8 serves the checker on 127.0.0.1 in this process; probe 9 runs commands that must
answer or refuse with a message, in temporary folders, checking claims on ``--corpus`` (only read); probe 10 opens
copies of probe 4's corpus as another install would (the encoder elsewhere, ``dense.json`` from before encoder
identities, read-only) and builds a corpus of ``--corpus``'s pages beside one whose key file is damaged; probe 11
re-runs issue 44's probes (checks private unless shared, HTML in linear time, ``/check-text`` bounded, ClaimReview
safe to embed, a word before a long build), serving the checker on 127.0.0.1; probe 12 hangs up on long work served
there and times the next ``/check``; probe 13 gives ``check-text`` streams without end or over its limit, in child
processes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.reliability import (
    cancelled,
    damaged,
    hostile,
    live_api,
    messages,
    models,
    portable,
    reading,
    rss,
    service_flood,
    surfaces,
    writes,
)
from benchmarks.reliability.common import format_table
from fever_core.common.device import limit_cpu_threads
from fever_core.common.settings import Settings
from fever_core.pipeline import Checker

HERE = Path(__file__).resolve().parent
SIZES = {
    # quick, full
    "hostile_claims": (39, 520),
    "kill_trials": (5, 50),
    "writer_seconds": (5, 30),
    "rss_claims": (60, 1000),
    "rss_early": (20, 100),
    "flood_connections": (1000, 1000),
    "abandoned_clients": (100, 100),
}
WIKIPEDIA_TIMEOUT_S = 3.0
TABLE_ORDER = [
    "hostile",
    "kill_save",
    "two_writers",
    "damaged",
    "live_api",
    "models",
    "rss",
    "service_flood",
    "messages",
    "portable",
    "surfaces",
    "cancelled",
    "reading",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reliability", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and a small corpus for probe 4 (minutes)")
    parser.add_argument("--corpus", default="embedded", help="the corpus of probes 1, 4 and 6 (default embedded)")
    parser.add_argument(
        "--out",
        type=Path,
        help="the JSON report (default report.json, quick-report.json with --quick, beside this file)",
    )
    args = parser.parse_args(argv)
    size = {name: values[0 if args.quick else 1] for name, values in SIZES.items()}
    out = args.out or HERE / ("quick-report.json" if args.quick else "report.json")

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)  # as the app checks claims
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    results: dict[str, Any] = {}

    def probe(name: str, run):
        print(f"running {name}...", file=sys.stderr, flush=True)
        clock = time.perf_counter()
        results[name] = run()
        seconds[name] = round(time.perf_counter() - clock, 1)

    with tempfile.TemporaryDirectory(prefix="fever-reliability-") as tmp:
        work = Path(tmp)
        checker = Checker.open(args.corpus, settings, progress=False)
        probe("hostile", lambda: hostile.run(checker, size["hostile_claims"]))
        probe("rss", lambda: rss.run(checker, size["rss_claims"], size["rss_early"]))  # before other probes' garbage
        probe("kill_save", lambda: writes.kill_mid_save(size["kill_trials"], work))
        probe("two_writers", lambda: writes.two_writers(size["writer_seconds"], work))
        if args.quick:
            source, name = damaged.build_tiny_corpus(settings, work / "tiny"), "reliability-tiny"
        else:
            source, name = checker.workspace.folder, args.corpus
        probe("damaged", lambda: damaged.run(source, name, checker.verification, settings, work / "damaged"))
        probe("live_api", lambda: live_api.run(checker.verification, settings, work / "live", WIKIPEDIA_TIMEOUT_S))
        probe(
            "service_flood",
            lambda: service_flood.run(checker, args.corpus, size["flood_connections"], size["abandoned_clients"]),
        )
        probe(
            "messages",
            lambda: messages.run(
                settings.data_dir, args.corpus, settings.verifier_model, work / "messages", (source, name)
            ),
        )
        probe("models", lambda: models.run(checker.workspace, settings, work / "models"))
        probe(
            "portable",
            lambda: portable.run(
                source, name, checker.verification, settings, work / "portable", checker.workspace.store
            ),
        )
        probe("surfaces", lambda: surfaces.run(checker, args.corpus, work / "surfaces"))
        probe("cancelled", lambda: cancelled.run(checker, args.corpus))
        probe("reading", lambda: reading.run(work / "reading"))

    rows = [row for name in TABLE_ORDER for row in results[name].rows()]
    ok = all(getattr(result, "ok", True) for result in results.values())  # memory growth is reported, not judged
    total = round(time.perf_counter() - started, 1)
    table = format_table(rows)
    print(
        f"Reliability probes, {'quick' if args.quick else 'full'} run on corpus {args.corpus!r}: "
        f"{'all invariants hold' if ok else 'INVARIANTS BROKEN'}; {total} s\n\n{table}"
    )
    report = {
        "quick": args.quick,
        "corpus": args.corpus,
        "ok": ok,
        "seconds": {**seconds, "total": total},
        "sizes": size,
        "table": rows,
        "results": {name: dataclasses.asdict(r) for name, r in results.items()},
    }
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nJSON report: {out}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
