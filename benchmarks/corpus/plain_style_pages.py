"""Write fever-dev's pages in the embedded corpus's style: every sentence without its parenthetical asides.

FEVER's 2017 sentences keep asides ("Stanley Kubrick (July 26, 1928 - March 7, 1999) was ..."); Wikipedia's
lead summaries, the embedded corpus the app opens on, drop them. Checking fever-dev's claims on these pages
shows how the pipeline does on text written the way its default corpus is (issue 4; "Asides" in
benchmarks/recipes/README.md). Line numbers are kept, so gold evidence still scores; a claim whose evidence
was in an aside loses it, the same for every model compared.

    PYTHONPATH=. .venv/bin/python benchmarks/corpus/plain_style_pages.py          # writes data/plain-style/
    .venv/bin/python -m fever_core corpus build fever-dev-plain \
        --source fever:data/plain-style/fever-pages.jsonl --source embedded
"""

from __future__ import annotations

import json
from pathlib import Path

from fever_core.common.settings import SHARED_DATA_DIR
from fever_core.training.augmentation import remove_asides

SOURCE = SHARED_DATA_DIR / "corpus" / "fever-pages.jsonl"
OUT = Path("data/plain-style/fever-pages.jsonl")


def plain_lines(lines: str) -> str:
    """A FEVER ``lines`` field (``"N\\tsentence[\\tanchor\\tpage ...]"`` per line) with asides cut from each sentence."""
    out = []
    for line in lines.split("\n"):
        fields = line.split("\t")
        if len(fields) > 1:
            sentence = fields[1].replace("-LRB-", "(").replace("-RRB-", ")")
            fields[1] = remove_asides(sentence)
        out.append("\t".join(fields))
    return "\n".join(out)


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    changed = total = 0
    with SOURCE.open() as source, OUT.open("w") as out:
        for raw in source:
            page = json.loads(raw)
            lines = plain_lines(page["lines"])
            sentences = [line.split("\t")[1] for line in lines.split("\n") if "\t" in line]
            changed += "-LRB-" in page["lines"]
            total += 1
            out.write(
                json.dumps({"id": page["id"], "text": " ".join(s for s in sentences if s), "lines": lines}) + "\n"
            )
    print(f"{total} pages, {changed} had asides, written to {OUT}")


if __name__ == "__main__":
    main()
