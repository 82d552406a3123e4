"""Evaluation: scoring verifiers and pipelines against labelled data."""
