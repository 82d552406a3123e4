"""Work spread over a Ray cluster: a dense index's embedding (:class:`RayEmbedder`, ``corpus build --ray``) and a
long claims file's checks (:func:`check_batch_on_ray`, ``check-batch --ray``).

Ray is an optional extra (``pip install -r requirements-ray.txt``); without it these raise a
:class:`RayUnavailable` that says how to install it, and the rest of the workbench never imports it.
"""

from __future__ import annotations

from fever_core.distributed.batch import check_batch_on_ray
from fever_core.distributed.cluster import RayUnavailable, connect, require_ray
from fever_core.distributed.embedding import RayEmbedder

__all__ = ["RayEmbedder", "RayUnavailable", "check_batch_on_ray", "connect", "require_ray"]
