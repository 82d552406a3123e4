"""FEVER Workbench's library: fact checking against Wikipedia, in layers (``ARCHITECTURE.md`` is the map)."""

__version__ = "1.0"
"""The workbench's version, as a ClaimReview's provenance names it (:mod:`fever_core.workbench.claimreview`)."""
