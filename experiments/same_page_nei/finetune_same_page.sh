#!/usr/bin/env bash
# Second stage tried in session 10 (issue 4, not shipped): the shipped verifier's plain-style recipe
# (benchmarks/recipes/3_verifier_plain_style.sh), from the shipped verifier, plus on-topic NOT ENOUGH INFO
# pairs (--nei-same-page-fraction 0.6: a SUPPORTS claim with the evidence of another claim about the same
# page). The question was whether the verdict gets more from stances that tell "refutes" from "on topic,
# says nothing" (README.md). Same seed and dev split as the recipe. Run from the project root:
#   ./experiments/same_page_nei/finetune_same_page.sh [OUT]     # log: finetune_same_page.log
set -euo pipefail
exec benchmarks/recipes/3_verifier_plain_style.sh assets/models/verifier "${1:-data/models/verifier-samepage}" \
  experiments/same_page_nei/finetune_same_page.log --nei-same-page-fraction 0.6
