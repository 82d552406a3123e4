"""The shipped MPNet verifier's ONNX export in int8 forms (issue 49, item 1), against the fp32 export: the share of
FEVER-Symmetric pairs whose argmax label changes, the mean change of a probability, and the seconds of one run over 8
pairs of 60 tokens on one thread (the best of 5, taken in turn with the others).

    PYTHONPATH=. .venv/bin/python -m experiments.onnx_verifier.int8_forms OUT_DIR [--pairs 600] [--layers]

Forms: ``dynamic`` (ONNX Runtime's ``quantize_dynamic``: int8 weights per channel, each activation tensor quantised
on the fly with one scale), ``dynamic-attention`` (the same on the attention projections only, the feed-forward blocks
in fp32), ``blocks8-32`` / ``blocks8-128`` (``MatMulNBits``: 8-bit weights with a scale per block of 32 / 128 inputs,
activations quantised by blocks, accuracy level 4). ``--layers`` adds each layer's feed-forward matrices quantised
alone (the dynamic form), to see where the changes come from.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from fever_core.common.onnx_exports import ONNX_FILE
from fever_core.common.settings import DEFAULT_VERIFIER, SHARED_DATA_DIR
from fever_core.verification.onnx_export import verifier_export

SYMMETRIC = SHARED_DATA_DIR / "nli" / "fever-symmetric-dev.jsonl"


def _session(path: Path, threads: int):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _probabilities(session, tokenizer, pairs, batch=32) -> np.ndarray:
    rows = []
    for start in range(0, len(pairs), batch):
        part = pairs[start : start + batch]
        tokens = tokenizer(
            [p for p, _ in part],
            [h for _, h in part],
            truncation=True,
            max_length=256,
            padding=True,
            return_tensors="np",
        )
        logits = session.run(None, {n: tokens[n].astype(np.int64) for n in ("input_ids", "attention_mask")})[0]
        shifted = np.exp(logits - logits.max(1, keepdims=True))
        rows.append(shifted / shifted.sum(1, keepdims=True))
    return np.concatenate(rows)


def _forms(fp32: Path, out: Path, layers: bool) -> dict[str, Path]:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    graph = onnx.load(fp32 / ONNX_FILE)
    weights = {i.name for i in graph.graph.initializer}
    matrices = [n.name for n in graph.graph.node if n.op_type == "MatMul" and n.input[1] in weights]
    feed_forward = [n for n in matrices if "attention" not in n]
    chosen = {"dynamic": matrices, "dynamic-attention": [n for n in matrices if n not in feed_forward]}
    if layers:
        for layer in range(12):
            chosen[f"dynamic-layer{layer}-ffn"] = [n for n in feed_forward if f"layer.{layer}/" in n]
    forms = {}
    logging.disable(logging.WARNING)
    for name, include in chosen.items():
        forms[name] = out / f"{name}.onnx"
        quantize_dynamic(
            fp32 / ONNX_FILE,
            forms[name],
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
            extra_options={"MatMulConstBOnly": True},
            nodes_to_exclude=[n for n in matrices if n not in include],
        )
    for block in (32, 128):
        forms[f"blocks8-{block}"] = out / f"blocks8-{block}.onnx"
        quantiser = MatMulNBitsQuantizer(
            onnx.load(fp32 / ONNX_FILE),
            bits=8,
            block_size=block,
            is_symmetric=True,
            accuracy_level=4,
            op_types_to_quantize=("MatMul",),
        )
        quantiser.process()
        quantiser.model.save_model_to_file(str(forms[f"blocks8-{block}"]), False)
    return forms


def main() -> None:
    from transformers import AutoTokenizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pairs", type=int, default=600)
    parser.add_argument("--layers", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fp32 = verifier_export(DEFAULT_VERIFIER, args.out / "exports")
    tokenizer = AutoTokenizer.from_pretrained(str(fp32))
    rows = [json.loads(line) for line in SYMMETRIC.read_text(encoding="utf-8").splitlines()[: args.pairs]]
    pairs = sorted(((r["premise"], r["hypothesis"]) for r in rows), key=lambda p: len(p[0]) + len(p[1]))
    forms = {"fp32": fp32 / ONNX_FILE, **_forms(fp32, args.out, args.layers)}
    reference = _probabilities(_session(forms["fp32"], 2), tokenizer, pairs)
    rng = np.random.default_rng(0)
    ids = rng.integers(1000, 20000, size=(8, 60)).astype(np.int64)
    timed = {name: _session(path, 1) for name, path in forms.items() if "layer" not in name}
    seconds = {name: [] for name in timed}
    for _ in range(5):
        for name, session in timed.items():
            started = time.perf_counter()
            session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})
            seconds[name].append(time.perf_counter() - started)
    report = {}
    for name, path in forms.items():
        probabilities = _probabilities(_session(path, 2), tokenizer, pairs)
        report[name] = {
            "label_changed_share": round(float((probabilities.argmax(1) != reference.argmax(1)).mean()), 4),
            "mean_abs_change": round(float(np.abs(probabilities - reference).mean()), 4),
            "size_mb": round(path.stat().st_size / 1e6),
            "one_thread_8x60_s": round(min(seconds[name]), 3) if name in seconds else None,
        }
        print(name, report[name], flush=True)
    (args.out / "int8-forms.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
