"""Recall against exact search as more cells are searched, for claims and for the corpus's own sentences as queries;
how close the 5th and 6th neighbours are. ``python -m experiments.compressed_index.nprobe_sweep [FACTORY]``
(default IVF2048,SQ8; IVF2048,SQfp16 for fp16 codes)."""

import sys
import time

import faiss
import numpy as np

from experiments.compressed_index.large_corpus import load, recall, sample

factory = sys.argv[1] if len(sys.argv) > 1 else "IVF2048,SQ8"
dense, vectors, queries, _ = load()
started = time.time()
scores, exact = dense.index.search(queries, 50)
print("flat ms a query", round((time.time() - started) / len(queries) * 1000, 2))
print(
    f"mean cosine of the 1st {scores[:, 0].mean():.3f}, the 5th {scores[:, 4].mean():.3f}; "
    f"median gap 5th-6th {np.median(scores[:, 4] - scores[:, 5]):.4f}"
)
sentences = vectors[np.random.default_rng(1).choice(len(vectors), 1000, replace=False)]
exact_sentences = dense.index.search(sentences, 5)[1]
index = faiss.index_factory(vectors.shape[1], factory, faiss.METRIC_INNER_PRODUCT)
ivf = faiss.extract_index_ivf(index)
ivf.cp.spherical = True
index.train(sample(vectors))
index.add(vectors)
for nprobe in (64, 256, 512, 1024, 2048):
    ivf.nprobe = nprobe
    started = time.time()
    found = index.search(queries, 50)[1]
    ms = (time.time() - started) / len(queries) * 1000
    in_top50 = round(float(np.mean([len(set(b[:5]) & set(a)) / 5 for a, b in zip(found, exact)])), 4)
    print(
        factory,
        nprobe,
        "claims recall@5",
        recall(found[:, :5], exact),
        "exact top 5 in its top 50",
        in_top50,
        "sentences recall@5",
        recall(index.search(sentences, 5)[1], exact_sentences),
        f"{ms:.2f} ms",
        flush=True,
    )
