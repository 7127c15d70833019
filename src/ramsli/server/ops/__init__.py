"""Operating the server: health and readiness, metrics, the admin's routes, guards.

:mod:`~ramsli.server.ops.routes` (``/healthz``, ``/readyz``, ``/admin/...``),
:mod:`~ramsli.server.ops.metrics` (Prometheus) and :mod:`~ramsli.server.ops.guards` (security
headers, body and create limits, ``HEAD``, the request log). Serving under ``--path-prefix`` is
the cluster's (:mod:`ramsli.server.cluster.prefix`: the reverse proxy in front).
"""
