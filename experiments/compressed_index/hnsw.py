"""HNSW32 with SQ8 codes (efConstruction 80) against exact search, at several efSearch."""

import os
import tempfile
import time

import faiss

from experiments.compressed_index.large_corpus import load, recall

_, vectors, queries, exact = load()
index = faiss.index_factory(vectors.shape[1], "HNSW32,SQ8", faiss.METRIC_INNER_PRODUCT)
index.hnsw.efConstruction = 80
started = time.time()
index.train(vectors[:100_000])
index.add(vectors)
built = time.time() - started
row = []
for ef in (32, 64, 128, 256):
    index.hnsw.efSearch = ef
    started = time.time()
    found = index.search(queries, 5)[1]
    row.append((ef, recall(found, exact), round((time.time() - started) / len(queries) * 1000, 2)))
with tempfile.TemporaryDirectory() as tmp:
    faiss.write_index(index, f"{tmp}/hnsw.faiss")
    size_mb = os.path.getsize(f"{tmp}/hnsw.faiss") / 2**20
print("HNSW32,SQ8", f"build {built:.0f}s", f"{size_mb:.0f} MB", "(efSearch, recall@5, ms)", row)
