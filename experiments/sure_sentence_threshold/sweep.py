import pickle
import sys
from collections import Counter, defaultdict

sys.path.insert(0, "/work/main")
from fever_core.common.text import premise_text
from fever_core.verification.features import joint_premise

L = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
import os
from pathlib import Path

base = pickle.loads(Path(os.environ.get("ROWS", "/work/runs/exp/rows-wt-base.pkl")).read_bytes())
joint = pickle.loads(Path("/work/runs/exp/nli-cache.joint.pkl").read_bytes())


def jrow(claim, ev):
    prem = joint_premise([premise_text(e["title"], e["text"]) for e in ev])
    return joint.get((prem, claim))


def group(kind, gold):
    return kind if kind in ("two-hop", "compound") else gold


def strict(claim, ev):
    if claim["label"] == "NOT ENOUGH INFO":
        return True
    got = {(e["page_id"], e["line"]) for e in ev[:5]}
    return any(all((x[2], x[3]) in got for x in s) for s in claim["evidence"])


NAMES = ("plain", "hand", "hand2", "hand3") + (("fdev",) if "fdev" in base else ())


def evaluate(variant, names=NAMES):
    out = {}
    for name in names:
        by = defaultdict(Counter)
        for kind, gold, pred, v, claim, ev in base[name]:
            if claim.get("hops") == 2:
                kind = "two-hop"
            p = variant(pred, v, claim, ev)
            for g in (group(kind, gold), "all"):
                by[g]["n"] += 1
                by[g]["ok"] += p == gold
                by[g]["opp"] += {p, gold} == {"SUPPORTS", "REFUTES"}
                by[g]["fever"] += p == gold and strict(claim, ev)
        out[name] = {g: (round(c["ok"] / c["n"], 3), c["opp"], round(c["fever"] / c["n"], 3)) for g, c in by.items()}
    return out


def argmax(st):
    return max(L, key=lambda l: st[l])


def v_base(pred, v, claim, ev):
    return pred


def v_ground(J=None):
    def f(pred, v, claim, ev):
        if pred == "NOT ENOUGH INFO":
            return pred
        if v["deciding_evidence"]:
            return pred
        if J is not None:
            j = jrow(claim["claim"], ev)
            if j is not None and L[int(j.argmax())] == pred and j.max() >= J:
                return pred
        return "NOT ENOUGH INFO"

    return f


def v_sure(t, J=None, hop1_only=False):
    g = v_ground(J)

    def f(pred, v, claim, ev):
        p = g(pred, v, claim, ev)
        if p != "NOT ENOUGH INFO":
            return p
        found = {}
        for e in ev:
            st = e["stance"]
            if st is None or not e["bears_on_claim"]:
                continue
            if hop1_only and e["hop"] != 1:
                continue
            a = argmax(st)
            if a != "NOT ENOUGH INFO" and st[a] >= t:
                found.setdefault(a, st[a])
        if len(found) == 1:
            return next(iter(found))
        return p

    return f


def show(tag, res):
    cols = []
    for name, r in res.items():
        if name == "fdev":
            cols.append(
                f"fdev: acc {r['all'][0]:.3f} fever {r['all'][2]:.3f} S {r['SUPPORTS'][0]:.2f} R {r['REFUTES'][0]:.2f} N {r['NOT ENOUGH INFO'][0]:.2f}"
            )
            continue
        cols.append(
            f"{name}: all {r['all'][0]:.3f} S {r.get('SUPPORTS', (0,))[0]:.2f} R {r.get('REFUTES', (0,))[0]:.2f} N {r.get('NOT ENOUGH INFO', (0,))[0]:.2f} C {r.get('compound', (0,))[0]:.2f} 2h {r.get('two-hop', (0,))[0]:.2f} opp {r['all'][1]}"
        )
    print(f"{tag:22s} | " + " | ".join(cols))


show("base", evaluate(v_base))
show("ground", evaluate(v_ground()))
for J in (0.5, 0.7, 0.8, 0.9):
    show(f"ground+joint{J}", evaluate(v_ground(J)))
for t in (0.5, 0.6, 0.7, 0.8, 0.9):
    show(f"sure{t}+joint0.7", evaluate(v_sure(t, 0.7)))
    show(f"sure{t}+joint0.7 hop1", evaluate(v_sure(t, 0.7, True)))
