"""The bundled models on a CUDA device, timed and compared with the CPU: the check that fits the lent GPU machine.

    .venv/bin/python -m benchmarks.gpu.models_only prepare PREDICTIONS [--claims F] [--corpus embedded] [--out F]
    python3 -m benchmarks.gpu.models_only run [--inputs F] [--report OUT.json]      # on the GPU machine

The lent machine has PyTorch and transformers but none of the project's other packages (FAISS, spaCy) and no
network, and at most 64 MiB travel to it, so :mod:`benchmarks.gpu.smoke` (the whole pipeline) can't run there.
``prepare`` runs here, on the CPU: from an ``evaluate`` predictions file it writes, for each claim, the pairs the
verifier reads (each predicted evidence sentence as ``"Title: sentence"``, with the claim), the joint verifier's pair
(the top five joined), and the corpus's first 2,048 sentences, together with this machine's CPU probabilities of both
models for every pair (default ``.gpu-smoke/inputs.json``, which git ignores). ``run`` loads the shipped MiniLM
verifier and joint verifier (packed int8, read back as floats) on the CPU in fp32 and on CUDA in fp16 (what
:class:`~fever_core.verification.nli.NliModel` does there), reads every claim's pairs in one batch on each, and
reports the seconds, pairs per second, and how often the CUDA labels agree with the CPU's (there, and as prepared
here), and on CUDA the seconds with the pairs read shortest first (as the pipeline reads many claims) in batches of
:data:`BATCH_SIZES`; then the MiniLM-L6 body (the corpus encoder's architecture: 6 layers, 384 dimensions), mean-pooled over the
2,048 sentences, on both. The MPNet verifier's base (438 MB) does not travel, so the default verifier's CUDA path is
not part of this check.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fever_core.common.jsonl import write_json

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / ".gpu-smoke" / "inputs.json"
CLAIMS = ROOT / "benchmarks" / "embedded" / "plain-claims.jsonl"
MODELS = {
    "verifier": ROOT / "assets" / "models" / "verifier",
    "joint-verifier": ROOT / "assets" / "models" / "joint-verifier",
}
SENTENCES = 2048
BATCH_SIZES = (32, 128, 512)
"""Model batch sizes timed on the accelerator, the pairs read shortest first (32: NliModel's default)."""


def prepare(predictions: Path, claims: Path, corpus: str, out: Path) -> dict:
    """Write the inputs of :func:`run` (the module's docstring) and return them."""
    from fever_core.common.settings import Settings
    from fever_core.common.text import premise_text
    from fever_core.corpus.store import CorpusStore
    from fever_core.verification.features import joint_premise
    from fever_core.verification.nli import NliModel

    store = CorpusStore.open(Settings.from_env().data_dir / "corpora" / corpus / "store.sqlite")
    text = {
        json.loads(line)["id"]: json.loads(line)["claim"] for line in claims.read_text(encoding="utf-8").splitlines()
    }
    items = []
    for line in predictions.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        premises = []
        for page_id, number in row["predicted_evidence"]:
            sentence = store.sentence(page_id, number)
            if sentence is not None:
                premises.append(premise_text(store.title_of(page_id) or page_id, sentence.text))
        if row["id"] in text and premises:
            items.append({"claim": text[row["id"]], "premises": premises, "joint_premise": joint_premise(premises)})
    sentences = [hit.sentence.text for hit in store.sentences_by_ids(list(range(1, SENTENCES + 1)))]
    inputs = {"claims": items, "sentences": sentences, "cpu": {}}
    for name, folder in MODELS.items():
        model = NliModel.load(str(folder), "cpu")
        inputs["cpu"][name] = model.predict(_pairs(inputs, name)).round(6).tolist()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(inputs) + "\n", encoding="utf-8")
    return inputs


def _pairs(inputs: dict, model: str) -> list[tuple[str, str]]:
    """Every claim's pairs for ``model``: each premise with the claim (the verifier), or the joined top five."""
    if model == "joint-verifier":
        return [(item["joint_premise"], item["claim"]) for item in inputs["claims"]]
    return [(premise, item["claim"]) for item in inputs["claims"] for premise in item["premises"]]


def _timed(run, device: str):
    """``run()``'s value and its seconds, the CUDA queue drained before the clock stops."""
    import torch

    started = time.perf_counter()
    value = run()
    if device == "cuda":
        torch.cuda.synchronize()
    return value, round(time.perf_counter() - started, 3)


def _mean_pooled(body, tokenizer, sentences: list[str], device: str, batch_size: int = 128):
    """Mean-pooled sentence vectors from ``body`` (as the corpus encoder pools), on ``device``."""
    import torch

    vectors = []
    with torch.inference_mode():
        for start in range(0, len(sentences), batch_size):
            enc = tokenizer(
                sentences[start : start + batch_size],
                truncation=True,
                max_length=256,
                padding=True,
                return_tensors="pt",
            ).to(device)
            hidden = body(**enc).last_hidden_state.float()
            mask = enc["attention_mask"].unsqueeze(-1).float()
            vectors.append(((hidden * mask).sum(1) / mask.sum(1)).cpu())
    return torch.cat(vectors)


def run(inputs: dict, accelerator: str = "cuda") -> dict:
    """Time and compare the models on the CPU and on ``accelerator`` (the module's docstring; ``"cpu"``: a dry run of
    the script); returns the report, whose ``cuda_`` keys are the accelerator's."""
    import numpy as np
    import torch
    import transformers

    from fever_core.verification.nli import NliModel

    report: dict = {
        "device": torch.cuda.get_device_name(0) if accelerator == "cuda" else "cpu (dry run)",
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "claims": len(inputs["claims"]),
        "models": {},
    }
    for name, folder in MODELS.items():
        pairs = _pairs(inputs, name)
        row: dict = {"pairs": len(pairs)}
        probabilities = {}
        for side, device in (("cpu", "cpu"), ("cuda", accelerator)):
            model = NliModel.load(str(folder), device)
            row[f"{side}_dtype"] = str(next(model.model.parameters()).dtype)
            model.predict(pairs[:32])  # warm: kernels chosen, memory taken
            probabilities[side], seconds = _timed(lambda m=model, p=pairs: m.predict(p), device)
            row[f"{side}_s"] = seconds
            row[f"{side}_pairs_per_s"] = round(len(pairs) / max(seconds, 1e-9), 1)
            if side == "cuda":  # the pipeline's order for many claims (shortest first), by model batch size
                ordered = sorted(pairs, key=lambda pair: len(pair[0]) + len(pair[1]))
                row["cuda_by_length_s"] = {
                    size: _timed(lambda m=model, o=ordered, s=size: m.predict(o, batch_size=s), device)[1]
                    for size in BATCH_SIZES
                }
        prepared = np.asarray(inputs["cpu"][name], dtype=np.float32)
        for other, theirs in (("cpu_here", probabilities["cpu"]), ("prepared_cpu", prepared)):
            row[f"cuda_labels_agree_with_{other}"] = round(
                float((probabilities["cuda"].argmax(1) == theirs.argmax(1)).mean()), 4
            )
            row[f"cuda_mean_abs_diff_{other}"] = round(float(np.abs(probabilities["cuda"] - theirs).mean()), 5)
        row["cpu_here_labels_agree_with_prepared_cpu"] = round(
            float((probabilities["cpu"].argmax(1) == prepared.argmax(1)).mean()), 4
        )
        report["models"][name] = row
    body_row: dict = {"sentences": len(inputs["sentences"])}
    vectors = {}
    for side, device in (("cpu", "cpu"), ("cuda", accelerator)):
        model = NliModel.load(str(MODELS["verifier"]), device)
        body = model.model.base_model
        _mean_pooled(body, model.tokenizer, inputs["sentences"][:64], device)
        vectors[side], body_row[f"{side}_s"] = _timed(
            lambda b=body, m=model, d=device: _mean_pooled(b, m.tokenizer, inputs["sentences"], d), device
        )
        body_row[f"{side}_sentences_per_s"] = round(len(inputs["sentences"]) / max(body_row[f"{side}_s"], 1e-9), 1)
    cosine = torch.nn.functional.cosine_similarity(vectors["cpu"], vectors["cuda"], dim=1)
    body_row["cuda_vs_cpu_min_cosine"] = round(float(cosine.min()), 5)
    report["minilm_body_mean_pooled"] = body_row
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gpu.models_only", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("prepare", help="here, on the CPU: the pairs and this machine's probabilities")
    p.add_argument("predictions", type=Path, help="an `evaluate --predictions` file of the claims")
    p.add_argument("--claims", type=Path, default=CLAIMS, help=f"the claims it predicted (default {CLAIMS.name})")
    p.add_argument("--corpus", default="embedded")
    p.add_argument("--out", type=Path, default=INPUTS)
    p = commands.add_parser("run", help="on a CUDA machine: the models timed and compared")
    p.add_argument("--inputs", type=Path, default=INPUTS)
    p.add_argument("--report", type=Path, default=None)
    p.add_argument("--allow-cpu", action="store_true", help="without a CUDA device, a dry run on the CPU")
    args = parser.parse_args(argv)
    if args.command == "prepare":
        inputs = prepare(args.predictions, args.claims, args.corpus, args.out)
        print(
            f"{args.out}: {len(inputs['claims'])} claims, {len(_pairs(inputs, 'verifier'))} verifier pairs, "
            f"{len(inputs['sentences'])} sentences"
        )
        return 0
    import torch

    cuda = torch.cuda.is_available()
    if not cuda and not args.allow_cpu:
        print(
            "No CUDA device here: run this on a GPU machine (benchmarks/gpu/smoke.sh), or with --allow-cpu for a "
            "dry run.",
            file=sys.stderr,
        )
        return 2
    report = run(json.loads(args.inputs.read_text(encoding="utf-8")), "cuda" if cuda else "cpu")
    print(json.dumps(report, indent=1))
    if args.report is not None:
        write_json(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
