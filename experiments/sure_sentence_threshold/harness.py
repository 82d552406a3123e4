"""Experiment harness (outside the tree): retrieval cached once per claims file, NLI predictions memoised on disk,
so decision logic can be re-run in seconds.

    python /work/runs/exp/harness.py retrieve NAME CLAIMS.jsonl [--sample N]
    python /work/runs/exp/harness.py score NAME [NAME ...]
"""

from __future__ import annotations

import json
import os
import pickle
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.getcwd())
HERE = Path("/work/runs/exp")
CACHE = HERE / "nli-cache.pkl"


class Memo:
    def __init__(self, model, tag):
        self.model, self.tag = model, tag
        self.cache = {}
        path = CACHE.with_suffix(f".{tag}.pkl")
        if path.exists():
            self.cache = pickle.loads(path.read_bytes())
        self.path = path
        self.name = model.name
        self.misses = 0

    def predict(self, pairs, batch_size=None):
        import numpy as np

        todo = [p for p in dict.fromkeys(pairs) if p not in self.cache]
        if todo:
            self.misses += len(todo)
            rows = self.model.predict(todo)
            for p, r in zip(todo, rows):
                self.cache[p] = r
        return np.array([self.cache[p] for p in pairs], dtype=np.float32).reshape(len(pairs), 3)

    def save(self):
        tmp = self.path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(self.cache))
        tmp.replace(self.path)

    def __getattr__(self, item):
        return getattr(self.model, item)


def checker(corpus="embedded"):
    from fever_core.pipeline import Checker

    c = Checker.open(corpus)
    v = c.verification
    if os.environ.get("SURE"):
        from dataclasses import replace

        v.policy = replace(v.policy, learned=replace(v.policy.learned, sure_sentence_min=float(os.environ["SURE"])))
        print("sure", v.policy.sure_sentence_min)
    v.verifier = Memo(v.verifier, "verifier")
    if v.joint_verifier is not None:
        v.joint_verifier = Memo(v.joint_verifier, "joint")
    return c


def save_memos(c):
    v = c.verification
    for m in (v.verifier, v.joint_verifier):
        if isinstance(m, Memo):
            m.save()


def retrieve(name, path, sample=None, corpus="embedded"):
    from fever_core.pipeline import CheckOptions

    claims = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if sample:
        claims = random.Random(1).sample(claims, min(sample, len(claims)))
    c = checker(corpus)
    out = []
    t = time.time()
    for i, claim in enumerate(claims):
        r = c._retrieve(claim["claim"], CheckOptions())
        out.append((claim, r))
        if i % 50 == 0:
            print(i, round(time.time() - t, 1), flush=True)
    (HERE / f"{name}.retrieved.pkl").write_bytes(pickle.dumps(out))


def tasks_of(c, retrieved):
    from fever_core.verification.claim_verifier import VerificationTask

    return [VerificationTask(r.analysis, r.evidence, "learned", c.retriever) for _, r in retrieved]


def score(c, name, verbose=False):
    retrieved = pickle.loads((HERE / f"{name}.retrieved.pkl").read_bytes())
    t = time.time()
    outcomes = c.verification.verify_many(tasks_of(c, retrieved))
    secs = time.time() - t
    rows = []
    nodecider = 0
    for (claim, r), (evidence, verdict) in zip(retrieved, outcomes):
        gold, pred = claim["label"], verdict.label
        kind = claim.get("kind", "single")
        if claim.get("hops") == 2:
            kind = "two-hop"
        rows.append((kind, gold, pred, verdict, claim, evidence))
        if pred != "NOT ENOUGH INFO" and not verdict.deciding_evidence:
            nodecider += 1
    by = defaultdict(Counter)
    for kind, gold, pred, *_ in rows:
        for group in (kind if kind in ("two-hop", "compound") else gold, "all"):
            by[group]["n"] += 1
            by[group]["right"] += gold == pred
            by[group]["opp"] += {gold, pred} == {"SUPPORTS", "REFUTES"}
    print(f"== {name}: {len(rows)} claims, verify {secs:.1f}s, S/R without decider {nodecider}")
    for g in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO", "compound", "two-hop", "all"):
        if by[g]["n"]:
            print(f"  {g:16s} n={by[g]['n']:4d} acc={by[g]['right'] / by[g]['n']:.3f} opp={by[g]['opp']}")
    return rows


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "retrieve":
        sample = int(sys.argv[sys.argv.index("--sample") + 1]) if "--sample" in sys.argv else None
        corpus = sys.argv[sys.argv.index("--corpus") + 1] if "--corpus" in sys.argv else "embedded"
        retrieve(sys.argv[2], sys.argv[3], sample, corpus)
    elif cmd == "score":
        c = checker()
        for name in sys.argv[2:]:
            score(c, name)
        save_memos(c)
