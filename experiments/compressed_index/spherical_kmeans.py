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
rng = np.random.default_rng(0); sample = X[np.sort(rng.choice(len(X), 81920, replace=False))]
for factory in ("IVF2048,SQ8", "IVF2048,Flat"):
    for spherical in (False, True):
        idx = faiss.index_factory(384, factory, faiss.METRIC_INNER_PRODUCT)
        ivf = faiss.extract_index_ivf(idx)
        ivf.cp.spherical = spherical
        t = time.time(); idx.train(sample); idx.add(X); bt = time.time() - t
        sizes = np.array([ivf.invlists.list_size(i) for i in range(ivf.nlist)])
        row = []
        for nprobe in (16, 32, 64, 128, 256):
            ivf.nprobe = nprobe
            _, found = idx.search(Q, 5)
            row.append((nprobe, round(float(np.mean([len(set(a) & set(b)) / 5 for a, b in zip(found, exact)])), 4)))
        print(factory, "spherical" if spherical else "plain", f"build {bt:.0f}s", "largest cell", sizes.max(), "p50", int(np.median(sizes)), row, flush=True)
