"""The small verifier's verdict fit as `train verdict` fits it, but without weighing the labels equally.

    PYTHONPATH=. .venv/bin/python experiments/unbalanced_small_verdict/refit.py RUNS VERIFIER_COPY

RUNS: the `verdict-runs-fever-dev-<fingerprint>-chains.jsonl` that `train verdict` kept (README.md); VERIFIER_COPY: a
copy of the small verifier's folder, whose `verdict.json` is replaced (never `assets/models/`).
"""

import json
import sys
from pathlib import Path

from fever_core.common.settings import SHIPPED_JOINT_VERIFIER
from fever_core.training.verdict import fit_learned_verdict
from fever_core.verification.nli import NliModel

runs_file, folder = Path(sys.argv[1]), Path(sys.argv[2])
runs = [json.loads(line) for line in runs_file.read_text(encoding="utf-8").splitlines()]
nei = json.loads((folder / "config.json").read_text()).get("nei_threshold")
learned = fit_learned_verdict(
    runs, nei, seed=0, joint_model=NliModel.load(SHIPPED_JOINT_VERIFIER, "cpu"), balanced=False
)
learned.report.update({"corpus": "fever-dev", "joint_model": SHIPPED_JOINT_VERIFIER, "balanced": False})
learned.save(folder)
print(json.dumps({k: v for k, v in learned.report.items() if "accuracy" in k or k in ("C", "n_claims")}, indent=1))
