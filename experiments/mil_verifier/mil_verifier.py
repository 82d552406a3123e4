"""A claim-level verifier trained as multiple-instance learning (issue 4, session 7; not shipped)

The joint verifier (``assets/models/joint-verifier``) reads the top five sentences as one premise and
has trouble finding the sentence that decides. This script tries the other way FEVER systems learn
from claim labels (GEAR, KGAT): score each of the top ``K`` sentences alone with the claim and pool.
The pooling is fixed, so the model stays a plain 3-way sequence classifier:

    d_i = (z_i[SUPPORTS] - z_i[NEI], z_i[REFUTES] - z_i[NEI])      # sentence i's log-odds vs NEI
    claim logits = (logsumexp_i d_i[0], logsumexp_i d_i[1], 0)

A claim is NOT ENOUGH INFO unless some sentence settles it; the loss is cross-entropy on the claim's
label, so the gradient goes to the sentence that decides. Fine-tuned from the shipped verifier on the
same 6,464 training claims of the 8,052 end-to-end runs as the joint verifier (its 1,588 held-out
claims kept out): 1 epoch, batch 8 claims (up to 40 pairs), lr 2e-5, max_length 128, seed 13.

Then scored like ``verdict_features.py``: alone and mixed with the regression (5-fold
cross-validated on the 1,588 held-out claims, weight chosen there), and on the 1,194 fever-dev
claims as a diagnostic (nothing chosen on them).

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/mil_verifier/mil_verifier.py   # log: mil_verifier.log

About 21 minutes of training on the 2-core CPU, then 3 minutes of scoring. Resumes nothing: the
model in ``data/models/mil-verifier`` is reused when present (delete it to retrain).
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from experiments.verdict_features.verdict_features import (
    RUNS,
    SHIPPED_RUNS,
    VERIFIER,
    base_features,
    cached,
    cross_validated_regression,
    dev_runs,
    joint,
    labels_of,
    per_sentence,
)
from fever_core.common.types import LABELS
from fever_core.training.aggregator import HOLDOUT, choose_joint_weight, in_holdout
from fever_core.verification.aggregator import EvidenceView, claim_features, mix

K, BATCH_CLAIMS, LR, MAX_LENGTH, SEED = 5, 8, 2e-5, 128, 13
OUT = Path("data/models/mil-verifier")


def pooled_logits(z, counts):
    """Claim logits ``(n, 3)`` from the per-sentence logits ``z`` (``(sum(counts), 3)``, claims in order)."""
    import torch

    out, start = [], 0
    for count in counts:
        sentences = z[start : start + count]
        start += count
        log_odds = sentences[:, :2] - sentences[:, 2:3]
        out.append(torch.cat([torch.logsumexp(log_odds, 0), sentences.new_zeros(1)]))
    return torch.stack(out)


def train(runs: list[dict]) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    claims = [r for r in runs if not in_holdout(r["claim"], HOLDOUT, 0) and r["evidence"]]
    print(f"{len(claims)} training claims", flush=True)
    tokenizer = AutoTokenizer.from_pretrained(VERIFIER)
    model = AutoModelForSequenceClassification.from_pretrained(VERIFIER, dtype=torch.float32).float()
    steps = math.ceil(len(claims) / BATCH_CLAIMS)
    no_decay = ("bias", "LayerNorm.weight")
    optimizer = torch.optim.AdamW(
        [
            {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)], "weight_decay": 0.01},
            {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
        ],
        lr=LR,
    )
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.06 * steps), steps)
    order = list(range(len(claims)))
    random.Random(SEED).shuffle(order)
    model.train()
    started, window = time.perf_counter(), []
    for step, start in enumerate(range(0, len(order), BATCH_CLAIMS), 1):
        batch = [claims[i] for i in order[start : start + BATCH_CLAIMS]]
        premises = [e["text"] for r in batch for e in r["evidence"][:K]]
        hypotheses = [r["claim"] for r in batch for _ in r["evidence"][:K]]
        encoded = tokenizer(
            premises, hypotheses, truncation=True, max_length=MAX_LENGTH, padding=True, return_tensors="pt"
        )
        logits = pooled_logits(model(**encoded).logits, [len(r["evidence"][:K]) for r in batch])
        loss = torch.nn.functional.cross_entropy(logits, torch.tensor([LABELS.index(r["label"]) for r in batch]))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        window.append(loss.item())
        if step % 50 == 0 or step == steps:
            print(f"step {step}/{steps} loss {np.mean(window):.4f} {time.perf_counter() - started:.0f} s", flush=True)
            window.clear()
    model.eval().to(torch.float16).save_pretrained(OUT)
    tokenizer.save_pretrained(OUT)


def claim_probabilities(per_sentence_probabilities: np.ndarray) -> np.ndarray:
    """``(n, 3)`` claim probabilities, :func:`pooled_logits` of the model's ``(n, K, 3)`` per-sentence
    probabilities (their logs differ from the logits by a constant per sentence, which the log-odds
    cancel; missing sentences are ``NEI = 1`` and add nothing)."""
    import torch

    z = torch.from_numpy(np.log(np.clip(per_sentence_probabilities, 1e-9, 1.0)))
    n, k, _ = z.shape
    return pooled_logits(z.reshape(n * k, 3), [k] * n).softmax(1).numpy()


def stance_features(runs: list[dict], per_sentence_probabilities: np.ndarray) -> np.ndarray:
    """:func:`claim_features` with the model's probabilities as the top ``K`` sentences' stances."""
    rows = []
    for run, probabilities in zip(runs, per_sentence_probabilities):
        views = [EvidenceView.from_dict(e) for e in run["evidence"]]
        views[:K] = [replace(v, stance=dict(zip(LABELS, map(float, p)))) for v, p in zip(views[:K], probabilities)]
        rows.append(claim_features(run["claim"], views))
    return np.array(rows)


def accuracy(probabilities: np.ndarray, labels: np.ndarray) -> float:
    return float((probabilities.argmax(1) == labels).mean())


def main() -> None:
    runs = [json.loads(line) for line in RUNS.open()][:SHIPPED_RUNS]
    if not (OUT / "model.safetensors").is_file():
        train(runs)
    held = [r for r in runs if in_holdout(r["claim"], HOLDOUT, 0)]
    dev = dev_runs()
    y, y_dev = labels_of(held), labels_of(dev)
    s_held = cached("mil-per-sentence-held", lambda: per_sentence(str(OUT), held, K))
    s_dev = cached("mil-per-sentence-dev", lambda: per_sentence(str(OUT), dev, K))
    m_held, m_dev = claim_probabilities(s_held), claim_probabilities(s_dev)
    j_held, j_dev = cached("joint-held", lambda: joint(held)), cached("joint-dev", lambda: joint(dev))
    x_held, x_dev = base_features(held), base_features(dev)
    p_held, p_dev = cross_validated_regression(x_held, y, x_dev)
    print(f"{len(held)} held-out paper_test claims, {len(dev)} fever-dev claims")
    print("model                     | held-out: alone  mixed with the regression (w) | fever-dev: alone  mixed")
    for name, h, d in (("joint verifier (shipped)", j_held, j_dev), ("multiple-instance", m_held, m_dev)):
        weight, mixed = choose_joint_weight(p_held, h, y)
        print(
            f"{name:25s} | {accuracy(h, y):.3f}  {mixed:.3f} ({weight:.2f})"
            f"                     | {accuracy(d, y_dev):.3f}  {accuracy(mix(p_dev, d, weight), y_dev):.3f}"
        )
    print("fever-dev recall per label (alone):")
    for name, d in (("joint verifier (shipped)", j_dev), ("multiple-instance", m_dev)):
        predicted = d.argmax(1)
        print(
            f"  {name:25s}",
            ", ".join(f"{label} {(predicted[y_dev == i] == i).mean():.3f}" for i, label in enumerate(LABELS)),
        )
    print("fever-dev diagnostic, regression + multiple-instance at every weight (not used to choose):")
    print("  " + "  ".join(f"{w:.1f}: {accuracy(mix(p_dev, m_dev, w), y_dev):.3f}" for w in np.arange(0, 1.01, 0.1)))
    print(
        "the regression with this model's per-sentence probabilities as stances, mixed with the shipped joint verifier:"
    )
    print("stances                   | held-out: regression  mixed (w) | fever-dev: regression  mixed")
    s_x_held, s_x_dev = stance_features(held, s_held), stance_features(dev, s_dev)
    for name, a, b in (
        ("shipped verifier", x_held, x_dev),
        ("multiple-instance", s_x_held, s_x_dev),
        ("both", np.hstack([x_held, s_x_held]), np.hstack([x_dev, s_x_dev])),
    ):
        p_a, p_b = cross_validated_regression(a, y, b)
        weight, mixed = choose_joint_weight(p_a, j_held, y)
        print(
            f"{name:25s} | {accuracy(p_a, y):.3f}  {mixed:.3f} ({weight:.2f})"
            f"                | {accuracy(p_b, y_dev):.3f}  {accuracy(mix(p_b, j_dev, weight), y_dev):.3f}"
        )
        if name != "shipped verifier":
            weight, mixed = choose_joint_weight(p_a, m_held, y)
            print(
                f"{'  mixed with this model':25s} |        {mixed:.3f} ({weight:.2f})"
                f"                |        {accuracy(mix(p_b, m_dev, weight), y_dev):.3f}"
            )


if __name__ == "__main__":
    main()
