"""Reliability probes (issue 20, item 7): hostile claims, kill -9 mid-save, two writers, damaged corpus files,
a trickling or malformed Wikipedia API, and memory over many claims, run against the real library.

Run ``python -m benchmarks.reliability [--quick]`` from the project root (see ``README.md``).
"""
