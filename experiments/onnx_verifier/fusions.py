"""ONNX Runtime's transformer graph fusions on the verifier's fp32 export: speed and labels against the plain export.

    PYTHONPATH=. .venv/bin/python -m experiments.onnx_verifier.fusions data/verifiers/verifier-mpnet-*/model.onnx OUT_DIR

The first 400 FEVER-Symmetric pairs in calls of 8, each call timed on both graphs in turn (2 threads).
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnxruntime.transformers import optimizer
from transformers import AutoTokenizer

PAIRS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "nli" / "fever-symmetric-dev.jsonl"


def main(export: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    fused = optimizer.optimize_model(str(export), model_type="bert", num_heads=12, hidden_size=768, opt_level=1)
    print("fused operators:", {k: v for k, v in fused.get_fused_operator_statistics().items() if v})
    fused.save_model_to_file(str(out / "fused.onnx"))
    tokenizer = AutoTokenizer.from_pretrained(str(export.parent))
    rows = [json.loads(line) for line in PAIRS.open()][:400]
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 2, 1
    sessions = {
        name: ort.InferenceSession(str(path), options)
        for name, path in (("plain", export), ("fused", out / "fused.onnx"))
    }
    inputs = [i.name for i in sessions["plain"].get_inputs()]
    seconds: dict[str, list[float]] = {name: [] for name in sessions}
    changed = 0
    for start in range(0, len(rows), 8):
        batch = rows[start : start + 8]
        encoded = tokenizer(
            [r["premise"] for r in batch],
            [r["hypothesis"] for r in batch],
            truncation=True,
            max_length=256,
            padding=True,
            return_tensors="np",
        )
        logits = {}
        for name, session in sessions.items():
            began = time.perf_counter()
            logits[name] = session.run(None, {n: encoded[n].astype(np.int64) for n in inputs})[0]
            seconds[name].append(time.perf_counter() - began)
        changed += int((logits["plain"].argmax(1) != logits["fused"].argmax(1)).sum())
    for name, values in seconds.items():
        print(f"{name}: median {np.median(values):.3f} s per call of 8 pairs")
    print(f"labels changed: {changed} of {len(rows)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
