"""IVF cells from plain k-means against k-means with unit-length centroids (spherical), SQ8 and exact codes."""

import time

import faiss
import numpy as np

from experiments.compressed_index.large_corpus import load, recall, sample

_, vectors, queries, exact = load()
for factory in ("IVF2048,SQ8", "IVF2048,Flat"):
    for spherical in (False, True):
        index = faiss.index_factory(vectors.shape[1], factory, faiss.METRIC_INNER_PRODUCT)
        ivf = faiss.extract_index_ivf(index)
        ivf.cp.spherical = spherical
        started = time.time()
        index.train(sample(vectors))
        index.add(vectors)
        sizes = np.array([ivf.invlists.list_size(i) for i in range(ivf.nlist)])
        row = []
        for nprobe in (16, 32, 64, 128, 256):
            ivf.nprobe = nprobe
            row.append((nprobe, recall(index.search(queries, 5)[1], exact)))
        print(
            factory,
            "spherical" if spherical else "plain",
            f"build {time.time() - started:.0f}s",
            "largest cell",
            sizes.max(),
            "median",
            int(np.median(sizes)),
            row,
            flush=True,
        )
