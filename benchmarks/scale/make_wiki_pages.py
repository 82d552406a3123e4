"""Write a large real corpus from the shared data as a FEVER ``wiki-pages`` folder (``wiki-NNN.jsonl`` files).

This machine has no copy of FEVER's dump, so the scale measurements run on what the shared data holds: FEVER's
evidence pages (``corpus/fever-pages.jsonl``), FM2's pages, the evidence sentences of FEVER's training split and of
FEVER's paper_test, VitaminC's real and synthetic evidence, and the embedded corpus's lead summaries. Evidence with a
page title (``pages``) is gathered into that page, one sentence a line; FEVER's training evidence has no titles, so
each distinct evidence text becomes a page of its own. Pages are written in the order above; a page id met again is
left out (the earlier source wins, as in a corpus build).

    python -m benchmarks.scale.make_wiki_pages OUT_FOLDER [--pages-per-file 50000] [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path

from fever_core.common.jsonl import read_jsonl
from fever_core.common.settings import SHARED_DATA_DIR
from fever_core.common.text import title_to_page_id
from fever_core.corpus.sources.embedded import EmbeddedSummariesSource

SENTENCE_END = re.compile(r"(?<= \.) (?=[A-Z0-9`\"'])")
"""Where FEVER-tokenised evidence joined with spaces may be cut back into sentences."""


def _lines(sentences: list[str]) -> str:
    return "\n".join(f"{number}\t{text}" for number, text in enumerate(sentences))


def _fever_files(shared: Path) -> Iterator[dict]:
    for name in ("fever-pages.jsonl", "fm2-pages.jsonl"):
        for _, record in read_jsonl(shared / "corpus" / name):
            yield {"id": record["id"], "text": record.get("text", ""), "lines": record.get("lines", "")}


def _titled_evidence(shared: Path, names: list[str]) -> Iterator[dict]:
    pages: dict[str, list[str]] = {}
    for name in names:
        for _, record in read_jsonl(shared / "nli" / name):
            titles = record.get("pages") or []
            if len(titles) == 1 and record.get("premise"):
                sentences = pages.setdefault(title_to_page_id(titles[0]), [])
                if record["premise"] not in sentences:
                    sentences.append(record["premise"])
    for page_id, sentences in pages.items():
        yield {"id": page_id, "text": " ".join(sentences), "lines": _lines(sentences)}


def _untitled_evidence(shared: Path) -> Iterator[dict]:
    seen: set[str] = set()
    for _, record in read_jsonl(shared / "nli" / "fever-train.jsonl"):
        premise = record.get("premise", "").strip()
        if premise and premise not in seen:
            seen.add(premise)
            yield {
                "id": f"FEVER_train_evidence_{len(seen):06d}",
                "text": premise,
                "lines": _lines(SENTENCE_END.split(premise)),
            }


def _embedded() -> Iterator[dict]:
    for page in EmbeddedSummariesSource().iter_pages():
        yield {"id": page.page_id, "text": page.text, "lines": _lines([s.text for s in page.sentences])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages-per-file", type=int, default=50_000)
    parser.add_argument("--shared", type=Path, default=SHARED_DATA_DIR, help="the shared data folder")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=False)
    seen: set[str] = set()
    pages = sentences = files = 0
    out = None
    streams = (
        _fever_files(args.shared),
        _titled_evidence(args.shared, ["fever-paper-test.jsonl", "vitaminc-real.jsonl", "vitaminc-synthetic.jsonl"]),
        _untitled_evidence(args.shared),
        _embedded(),
    )
    for stream in streams:
        for record in stream:
            if record["id"] in seen:
                continue
            seen.add(record["id"])
            if pages % args.pages_per_file == 0:
                if out:
                    out.close()
                files += 1
                out = (args.out / f"wiki-{files:03d}.jsonl").open("w", encoding="utf-8")
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            pages += 1
            sentences += sum(1 for row in record["lines"].split("\n") if "\t" in row and row.split("\t")[1].strip())
    if out:
        out.close()
    print(json.dumps({"folder": str(args.out), "files": files, "pages": pages, "sentences": sentences}))


if __name__ == "__main__":
    main()
