"""How "checked before" (:mod:`fever_core.workbench.checked_before`) tells a paraphrase of an earlier claim from a
same-topic claim that states another fact: precision and recall on hand-written pairs, the threshold chosen, and how
long a lookup takes with 10,000 claims kept. Run ``python -m benchmarks.checked_before`` (README.md)."""
