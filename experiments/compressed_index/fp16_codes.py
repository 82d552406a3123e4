import json, time, numpy as np, faiss
"""Run from the project root with PYTHONPATH=. ; reads the large corpus built by benchmarks/scale/run.sh in /work/runs/scale (edit DATA)."""
from fever_core.common.settings import Settings
from fever_core.workspace import open_workspace
s = Settings.from_env(data_dir="/work/runs/scale")
ws = open_workspace("large", s, progress=False)
X = ws.dense.index.reconstruct_n(0, ws.dense.index.ntotal)
claims = [json.loads(l)["claim"] for l in open("../shared/data/claims/fever-dev.jsonl")][:1000]
Q = ws.dense.embed(claims)
t = time.time(); D, exact = ws.dense.index.search(Q, 50); print("flat ms/query", (time.time()-t)/len(Q)*1000)
print("mean cosine top1 %.3f top5 %.3f gap 5th-6th %.4f" % (D[:,0].mean(), D[:,4].mean(), np.median(D[:,4]-D[:,5])))
sents = X[np.random.default_rng(1).choice(len(X), 1000, replace=False)]
_, exact_s = ws.dense.index.search(sents, 5)
rng = np.random.default_rng(0); sample = X[np.sort(rng.choice(len(X), 81920, replace=False))]
idx = faiss.index_factory(384, "IVF2048,SQfp16", faiss.METRIC_INNER_PRODUCT)
ivf = faiss.extract_index_ivf(idx); ivf.cp.spherical = True
idx.train(sample); idx.add(X)
for nprobe in (256, 512, 1024):
    ivf.nprobe = nprobe
    t = time.time(); _, found = idx.search(Q, 5); ms = (time.time()-t)/len(Q)*1000
    _, found50 = idx.search(Q, 50)
    _, fs = idx.search(sents, 5)
    r = np.mean([len(set(a) & set(b[:5])) / 5 for a, b in zip(found, exact)])
    r50 = np.mean([len(set(b[:5]) & set(a)) / 5 for a, b in zip(found50, exact)])
    rs = np.mean([len(set(a) & set(b)) / 5 for a, b in zip(fs, exact_s)])
    print(nprobe, "claims recall@5 %.4f, flat top5 within ivf top50 %.4f, sentence-queries recall@5 %.4f, %.2f ms" % (r, r50, rs, ms), flush=True)
