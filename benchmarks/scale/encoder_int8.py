"""Does the int8 encoder find what the fp32 one finds? Dense retrieval recall on a corpus's real claims, both ways.

The fp32 encoder's vectors are the corpus's own index; the int8 encoder (the ONNX export quantised dynamically,
weights int8) embeds every sentence of the corpus again (chunks saved under ``--work``, so a killed run resumes).
For each labelled claim with evidence, both encoders embed the claim and search their own vectors: document recall
(a gold page among the pages of the top sentences) at 1, 5 and 10 pages, sentence recall at 5 (a gold sentence in
the top 5), the claims each finds that the other misses (a change within noise has about as many each way), and
how much of fp32's top 5 int8 finds. Also the encoders' speed on 1,024 of the corpus's sentences.

    python -m benchmarks.scale.encoder_int8 fever-dev ../shared/data/claims/fever-dev.jsonl --report OUT.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from fever_core.common.settings import Settings
from fever_core.common.text import premise_text
from fever_core.retrieval.encoder import load_encoder
from fever_core.workspace import open_workspace

CHUNK = 4096


def _gold(claims_path: Path) -> list[tuple[str, set[str], set[tuple[str, int]]]]:
    """(claim, gold pages, gold sentences) of the claims with evidence sentences."""
    out = []
    for line in claims_path.read_text().splitlines():
        row = json.loads(line)
        pairs = {
            (e[2], e[3]) for group in row.get("evidence") or [] for e in group if e[2] is not None and e[3] is not None
        }
        if pairs:
            out.append((row["claim"], {p for p, _ in pairs}, pairs))
    return out


def _int8_vectors(workspace, encoder, work: Path) -> np.ndarray:
    """Every sentence of the corpus embedded by ``encoder``, in the rows of the corpus's dense index."""
    work.mkdir(parents=True, exist_ok=True)
    store = workspace.store
    parts = []
    with tqdm(total=store.stats().sentences, desc="int8 embedding", unit="sent") as bar:
        for number, rows in enumerate(store.iter_sentence_texts(batch_size=CHUNK)):
            path = work / f"chunk_{number:05d}.npy"
            if not path.is_file():
                np.save(path, encoder.encode([premise_text(t, x) for _, t, x in rows]))
            parts.append(np.load(path))
            bar.update(len(rows))
    vectors = np.concatenate(parts)
    if len(vectors) != len(workspace.dense.sentence_ids):
        raise SystemExit("The store and its dense index differ in size: rebuild the corpus first.")
    return vectors


def _hits(queries: np.ndarray, vectors: np.ndarray, where: list[tuple[str, int]], gold) -> tuple[dict, np.ndarray]:
    """For each recall, whether each claim is found (a boolean array); and the top 50 rows of each claim."""
    import faiss

    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    _, rows = index.search(queries, 50)
    hits = {
        name: np.zeros(len(gold), dtype=bool)
        for name in ("doc_recall_at_1", "doc_recall_at_5", "doc_recall_at_10", "sentence_recall_at_5")
    }
    for i, ((_, pages, sentences), found) in enumerate(zip(gold, rows)):
        ranked_pages = list(dict.fromkeys(where[r][0] for r in found))
        for k in (1, 5, 10):
            hits[f"doc_recall_at_{k}"][i] = bool(pages & set(ranked_pages[:k]))
        hits["sentence_recall_at_5"][i] = bool(sentences & {where[r] for r in found[:5]})
    return hits, rows


def _rate(encoder, texts: list[str]) -> float:
    encoder.encode(texts[:64])
    started = time.perf_counter()
    encoder.encode(texts)
    return round(len(texts) / (time.perf_counter() - started), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("claims", type=Path)
    parser.add_argument("--work", type=Path, default=Path("/tmp/fever-int8"))
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    settings = Settings.from_env()
    workspace = open_workspace(args.corpus, settings)
    fp32 = workspace.dense.encoder
    int8 = load_encoder(settings.encoder_model, "cpu", precision="int8")
    vectors = _int8_vectors(workspace, int8, args.work / args.corpus)
    where = [
        (hit.sentence.page_id, hit.sentence.line)
        for hit in workspace.store.sentences_by_ids([int(sid) for sid in workspace.dense.sentence_ids])
    ]
    gold = _gold(args.claims)
    claims = [c for c, _, _ in gold]
    base = workspace.dense.index.reconstruct_n(0, workspace.dense.index.ntotal)
    fp32_hits, fp32_rows = _hits(fp32.encode(claims), base, where, gold)
    int8_hits, int8_rows = _hits(int8.encode(claims), vectors, where, gold)
    cosines = np.sum(base * vectors, axis=1)
    sample = [premise_text(t, x) for _, t, x in next(workspace.store.iter_sentence_texts(batch_size=1024))]
    report = {
        "corpus": args.corpus,
        "claims": str(args.claims),
        "claims_with_evidence": len(gold),
        "fp32": {name: round(float(hit.mean()), 4) for name, hit in fp32_hits.items()},
        "int8": {name: round(float(hit.mean()), 4) for name, hit in int8_hits.items()},
        "claims_int8_finds_and_fp32_misses": {
            name: int((int8_hits[name] & ~fp32_hits[name]).sum()) for name in fp32_hits
        },
        "claims_fp32_finds_and_int8_misses": {
            name: int((fp32_hits[name] & ~int8_hits[name]).sum()) for name in fp32_hits
        },
        "int8_top5_overlap_with_fp32": round(
            float(np.mean([len(set(a[:5]) & set(b[:5])) / 5 for a, b in zip(fp32_rows, int8_rows)])), 4
        ),
        "sentence_cosine_int8_fp32": {
            "min": round(float(cosines.min()), 4),
            "p1": round(float(np.percentile(cosines, 1)), 4),
            "median": round(float(np.median(cosines)), 4),
        },
        "sentences_per_s": {"fp32": _rate(fp32, sample), "int8": _rate(int8, sample)},
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.report:
        args.report.write_text(text + "\n")


if __name__ == "__main__":
    main()
