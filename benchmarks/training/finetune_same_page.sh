#!/usr/bin/env bash
# Second stage tried in session 10 (issue 4, not shipped): the shipped verifier's plain-style recipe
# (finetune_plain_style.sh) plus on-topic NOT ENOUGH INFO pairs (--nei-same-page-fraction 0.6: a
# SUPPORTS claim with the evidence of another claim about the same page). The question was whether
# the verdict gets more from stances that tell "refutes" from "on topic, says nothing"
# (README.md, "Session 10"). Same seed and dev split as run.sh. Run from the project root:
#   ./benchmarks/training/finetune_same_page.sh      # log: finetune_same_page.log
set -euo pipefail
exec "$(dirname "$0")/finetune_plain_style.sh" "${1:-data/models/verifier-samepage}" \
  benchmarks/training/finetune_same_page.log --nei-same-page-fraction 0.6
