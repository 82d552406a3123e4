import os
import pickle
import sys

sys.path.insert(0, "/work/runs/exp")
sys.path.insert(0, os.getcwd())
from pathlib import Path

from harness import checker, save_memos, tasks_of

from fever_core.common.nlp import parse
from fever_core.common.text import content_words

c = checker()
v = c.verification


def capital_slot(claim):
    doc = parse(claim)
    root = next(iter(doc.sents)).root
    subj = next((t for t in root.children if t.dep_ == "nsubj"), None)
    attr = next((t for t in root.children if t.dep_ == "attr" and t.lemma_ == "capital"), None)
    if root.lemma_ != "be" or subj is None or attr is None:
        return None
    if not any(t.lower_ == "the" for t in attr.children if t.dep_ == "det"):
        return None
    span = doc[subj.left_edge.i : subj.right_edge.i + 1]
    return span.start_char, span.end_char


def trial(claim, ev):
    slot = capital_slot(claim)
    if not slot:
        return []
    x = claim[slot[0] : slot[1]]
    xw = set(content_words(x))
    out = []
    for i, item in enumerate(ev):
        if item.stance is None or not item.bears_on_claim or "capital" not in item.sentence.text.lower():
            continue
        for ent in parse(item.sentence.text).ents:
            if ent.label_ != "GPE":
                continue
            zw = set(content_words(ent.text))
            if not zw or zw & xw or zw <= set(content_words(claim)):
                continue
            out.append((i, x, ent.text, claim[: slot[0]] + ent.text + claim[slot[1] :]))
    return out


for name in sys.argv[1:]:
    retrieved = pickle.loads(Path(f"/work/runs/exp/{name}.retrieved.pkl").read_bytes())
    outs = v.verify_many(tasks_of(c, retrieved))
    fix = brk = 0
    for (cl, r), (ev, verdict) in zip(retrieved, outs):
        cands = trial(cl["claim"], ev)
        if not cands:
            continue
        rows = v.verifier.predict([(ev[i].premise, rw) for i, x, z, rw in cands])
        best = None
        for (i, x, z, rw), row in zip(cands, rows):
            orig = ev[i].stance.supports
            if os.environ.get("SHOW"):
                print("   ", cl["claim"], "|", z, round(float(row[0]), 2), round(orig, 2), cl["label"])
            if row[0] >= 0.9 and row[0] - orig >= 0.2:
                best = best or (i, x, z, rw, row[0], orig)
        if best:
            new = "REFUTES"
            tag = (
                "FIX"
                if (new == cl["label"] and verdict.label != new)
                else ("BREAK" if verdict.label == cl["label"] and new != cl["label"] else "same")
            )
            fix += tag == "FIX"
            brk += tag == "BREAK"
            print(
                name,
                tag,
                cl["label"],
                verdict.label,
                "->",
                new,
                "|",
                cl["claim"],
                "|",
                best[2],
                round(float(best[4]), 2),
                round(best[5], 2),
            )
    print(name, "fix", fix, "break", brk)
save_memos(c)
