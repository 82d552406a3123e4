import json, time, numpy as np, faiss
"""Run from the project root with PYTHONPATH=. ; reads the large corpus built by benchmarks/scale/run.sh in /work/runs/scale (edit DATA)."""
from fever_core.common.settings import Settings
from fever_core.workspace import open_workspace
s = Settings.from_env(data_dir="/work/runs/scale")
ws = open_workspace("large", s, progress=False)
X = ws.dense.index.reconstruct_n(0, ws.dense.index.ntotal)
claims = [json.loads(l)["claim"] for l in open("../shared/data/claims/fever-dev.jsonl")][:1000]
Q = ws.dense.embed(claims)
_, exact = ws.dense.index.search(Q, 5)
for factory in ("HNSW32,SQ8",):
    idx = faiss.index_factory(384, factory, faiss.METRIC_INNER_PRODUCT)
    idx.hnsw.efConstruction = 80
    t = time.time(); idx.train(X[:100000]); idx.add(X); bt = time.time() - t
    row = []
    for ef in (32, 64, 128, 256):
        idx.hnsw.efSearch = ef
        t = time.time(); _, found = idx.search(Q, 5); ms = (time.time() - t) / len(Q) * 1000
        row.append((ef, round(float(np.mean([len(set(a) & set(b)) / 5 for a, b in zip(found, exact)])), 4), round(ms, 2)))
    faiss.write_index(idx, "/tmp/h.faiss"); import os
    print(factory, f"build {bt:.0f}s", f"{os.path.getsize('/tmp/h.faiss')/2**20:.0f} MB", row, flush=True)
