"""Per rule of the claim generators, how often a blind labeller agrees with the label the rule gives (issue 52).

    .venv/bin/python benchmarks/recipes/generator-audit/agreement.py

``sample.jsonl``: 30 pairs a rule (seeded) from run 4's generated and contrast claims, with the rule and its label;
``blind-labels.jsonl``: the labels of a helper who saw only premise and claim (and the labelling rules), with
``UNCLEAR`` for a claim too garbled to judge.
"""

import json
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).parent


def main() -> None:
    sample = [json.loads(line) for line in (HERE / "sample.jsonl").read_text(encoding="utf-8").splitlines()]
    blind = {r["item"]: r["label"] for r in map(json.loads, (HERE / "blind-labels.jsonl").read_text().splitlines())}
    by_rule: dict[str, Counter] = defaultdict(Counter)
    for row in sample:
        label = blind[row["item"]]
        outcome = (
            "agree" if label == row["label"] else "unclear" if label == "UNCLEAR" else f"{row['label']} -> {label}"
        )
        by_rule[row["rule"]][outcome] += 1
    print(f"{'rule':38} {'n':>3} {'agree':>6} {'unclear':>8}  disagreements")
    for rule, counts in sorted(by_rule.items()):
        n = sum(counts.values())
        rest = {k: v for k, v in counts.items() if k not in ("agree", "unclear")}
        print(f"{rule:38} {n:3} {counts['agree'] / n:6.2f} {counts['unclear']:8}  {rest}")


if __name__ == "__main__":
    main()
