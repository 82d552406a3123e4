"""How well the workbench picks check-worthy sentences (:mod:`fever_core.text_check.worthiness`): precision and
recall against people's labels, on two sets (``README.md`` beside this file says how each was made).

    python -m benchmarks.check_worthiness [--report benchmarks/check_worthiness/report.json]
    python -m benchmarks.check_worthiness fetch [--from PATH]     # the ClaimBuster sentences, once

``texts/``: 334 sentences of 15 texts written and labelled here. Each sentence is judged alone (its worthiness),
and each text whole (its sentences found in the text, and a labelled sentence counted as picked when a picked
sentence overlaps it). ClaimBuster's 2,000 sentences of US presidential debates (Arslan et al. 2020), labelled by
people as check-worthy factual (CFS), unimportant factual (UFS) or non-factual (NFS): picked against CFS; and, as
the rule here also picks unimportant facts, against CFS + UFS. Its file is not committed: ``fetch`` downloads it.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import re
import shutil
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from fever_core.common import Settings
from fever_core.text_check import find_sentences

HERE = Path(__file__).resolve().parent
TEXTS = HERE / "texts"
CLAIMBUSTER_COMMIT = "658d1f48fa38d7b2cbdd1b46a65bbba67fab1cf5"
CLAIMBUSTER_URL = (
    f"https://raw.githubusercontent.com/utaresearch/claimbuster-spotter/{CLAIMBUSTER_COMMIT}/data/disjoint_2000.json"
)
CLAIMBUSTER_SHA256 = "0074285996bbba58c0abf3c76c9fda5e46bb83da695dfe9dec2f5e7d6d37e47e"
CLAIMBUSTER_LABELS = {-1: "NFS", 0: "UFS", 1: "CFS"}
_SPEAKER = re.compile(r"^(?:[A-Z]+|Q|A):\s+|^\d+/\s+")


def claimbuster_file() -> Path:
    return Settings.from_env().data_dir / "benchmarks" / "check_worthiness" / "claimbuster-disjoint-2000.json"


@dataclass(frozen=True)
class Labelled:
    """A sentence people labelled: its text, whether it is check-worthy, and where it comes from."""

    text: str
    worthy: bool
    source: str


@dataclass
class Scores:
    """Picked sentences against labelled ones."""

    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    true_negatives: int = 0

    def add(self, picked: bool, worthy: bool) -> None:
        if picked and worthy:
            self.true_positives += 1
        elif picked:
            self.false_positives += 1
        elif worthy:
            self.false_negatives += 1
        else:
            self.true_negatives += 1

    def to_dict(self) -> dict:
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {
            "sentences": tp + fp + fn + self.true_negatives,
            "worthy": tp + fn,
            "picked": tp + fp,
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "f1": round(f1, 3),
            "true_positives": tp,
            "false_positives": fp,
            "false_negatives": fn,
            "true_negatives": self.true_negatives,
        }


def read_texts(folder: Path = TEXTS) -> list[tuple[str, str, list[tuple[Labelled, int, int]]]]:
    """Each labelled text: its name, its text as written (paragraphs at blank lines; a transcript's lines one a
    line), and its sentences with their offsets in it (a speaker's name or a thread's number left out)."""
    texts = []
    for path in sorted(folder.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        joiner = "\n" if any(line.startswith("# layout: one line each") for line in lines) else " "
        text, sentences, paragraph_open = "", [], False
        for line in lines:
            if line.startswith("#"):
                continue
            if not line.strip():
                paragraph_open = False
                continue
            label, sentence = line.split(" | ", 1)
            text += joiner if paragraph_open else "\n\n" if text else ""
            content = _SPEAKER.sub("", sentence)
            start = len(text) + len(sentence) - len(content)
            text += sentence
            sentences.append((Labelled(content, label == "1", path.stem), start, len(text)))
            paragraph_open = True
        texts.append((path.stem, text, sentences))
    return texts


def own_set() -> dict:
    """The hand-labelled texts: each sentence judged alone, and each text whole."""
    alone, in_text, by_kind = Scores(), Scores(), collections.defaultdict(Scores)
    split_same, total, missed, extra = 0, 0, collections.Counter(), collections.Counter()
    for name, text, labelled in read_texts():
        found = find_sentences(text)
        spans = {(s.start, s.end) for s in found}
        for item, start, end in labelled:
            judged = find_sentences(item.text)
            picked = any(s.worthy for s in judged)
            alone.add(picked, item.worthy)
            by_kind[name.split("-")[1]].add(picked, item.worthy)
            reason = next((s.reason for s in judged if s.worthy == picked), "")
            if item.worthy and not picked:
                missed[reason] += 1
            elif picked and not item.worthy:
                extra[reason] += 1
            in_text.add(any(s.worthy and s.start < end and start < s.end for s in found), item.worthy)
            split_same += (start, end) in spans
            total += 1
    return {
        "alone": alone.to_dict(),
        "in_text": in_text.to_dict(),
        "by_kind": {kind: scores.to_dict() for kind, scores in sorted(by_kind.items())},
        "sentences_found_as_labelled": round(split_same / total, 3),
        "why_worthy_ones_were_left_out": dict(missed.most_common()),
        "why_others_were_picked": dict(extra.most_common(10)),
    }


def read_claimbuster(path: Path) -> list[tuple[str, int, bool]]:
    """ClaimBuster's sentences with their label (-1 NFS, 0 UFS, 1 CFS) and whether they are of the half looked at
    while the rules were written (an even ``sentence_id``): a sentence listed twice once, and one listed with two
    labels left out."""
    labels: dict[str, set[int]] = collections.defaultdict(set)
    looked_at: dict[str, bool] = {}
    for item in json.loads(path.read_text(encoding="utf-8")):
        text = item["text"].strip()
        labels[text].add(int(item["label"]))
        looked_at[text] = looked_at.get(text, False) or item["sentence_id"] % 2 == 0
    return [(text, next(iter(found)), looked_at[text]) for text, found in labels.items() if len(found) == 1]


def claimbuster_set(path: Path) -> dict:
    """ClaimBuster's sentences, each judged alone: against CFS, and against CFS + UFS."""
    sentences = read_claimbuster(path)
    started = time.perf_counter()
    picked = [any(s.worthy for s in find_sentences(text)) for text, _, _ in sentences]
    seconds = time.perf_counter() - started
    check_worthy, factual, unseen_check_worthy, unseen_factual = Scores(), Scores(), Scores(), Scores()
    share = collections.Counter()
    for (_, label, looked_at), chosen in zip(sentences, picked):
        check_worthy.add(chosen, label == 1)
        factual.add(chosen, label >= 0)
        if not looked_at:
            unseen_check_worthy.add(chosen, label == 1)
            unseen_factual.add(chosen, label >= 0)
        share[CLAIMBUSTER_LABELS[label]] += chosen
    counts = collections.Counter(CLAIMBUSTER_LABELS[label] for _, label, _ in sentences)
    return {
        "source": f"{CLAIMBUSTER_URL} (sha256 {CLAIMBUSTER_SHA256[:12]}…)",
        "labels": dict(counts),
        "against_check_worthy_factual": check_worthy.to_dict(),
        "against_factual": factual.to_dict(),
        "half_never_looked_at": {
            "against_check_worthy_factual": unseen_check_worthy.to_dict(),
            "against_factual": unseen_factual.to_dict(),
        },
        "share_picked_by_label": {label: round(share[label] / counts[label], 3) for label in ("CFS", "UFS", "NFS")},
        "seconds_per_sentence": round(seconds / len(sentences), 4),
    }


def fetch(source: str | None) -> Path:
    """ClaimBuster's sentences into the data folder: downloaded from GitHub at a fixed commit, or copied from
    ``source`` (a clone's ``data/disjoint_2000.json``), and checked against their checksum."""
    target = claimbuster_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    if source:
        shutil.copyfile(source, partial)
    else:
        with urllib.request.urlopen(CLAIMBUSTER_URL, timeout=60) as answer, partial.open("wb") as out:
            shutil.copyfileobj(answer, out)
    digest = hashlib.sha256(partial.read_bytes()).hexdigest()
    if digest != CLAIMBUSTER_SHA256:
        partial.unlink()
        raise SystemExit(f"The file's sha256 is {digest}, not {CLAIMBUSTER_SHA256}: not the file measured here.")
    partial.replace(target)
    return target


def line(name: str, scores: dict) -> str:
    return (
        f"{name:<46} precision {scores['precision']:.3f}  recall {scores['recall']:.3f}  F1 {scores['f1']:.3f}  "
        f"({scores['sentences']:,} sentences, {scores['worthy']:,} worthy, {scores['picked']:,} picked)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.check_worthiness", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", choices=["run", "fetch"], default="run")
    parser.add_argument("--from", dest="source", help="fetch: copy this file instead of downloading it")
    parser.add_argument("--report", help="write the figures here (JSON)")
    args = parser.parse_args(argv)
    if args.command == "fetch":
        print(f"ClaimBuster's sentences are in {fetch(args.source)}")
        return 0
    report = {"hand_labelled": own_set()}
    own = report["hand_labelled"]
    print(line("hand-labelled, each sentence alone", own["alone"]))
    print(line("hand-labelled, in their texts", own["in_text"]))
    for kind, scores in own["by_kind"].items():
        print(line(f"  {kind}", scores))
    print(f"sentences found exactly as labelled: {own['sentences_found_as_labelled']:.3f}")
    path = claimbuster_file()
    if path.is_file():
        report["claimbuster"] = claimbuster_set(path)
        cb = report["claimbuster"]
        print(line("ClaimBuster, against check-worthy (CFS)", cb["against_check_worthy_factual"]))
        print(line("ClaimBuster, against factual (CFS + UFS)", cb["against_factual"]))
        unseen = cb["half_never_looked_at"]
        print(line("  its half never looked at, against CFS", unseen["against_check_worthy_factual"]))
        print(line("  its half never looked at, against CFS + UFS", unseen["against_factual"]))
        print(
            "ClaimBuster, share picked by label: "
            + ", ".join(f"{k} {v:.3f}" for k, v in cb["share_picked_by_label"].items())
        )
    else:
        print(
            f"ClaimBuster: not measured ({path} is missing: `python -m benchmarks.check_worthiness fetch`)",
            file=sys.stderr,
        )
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
