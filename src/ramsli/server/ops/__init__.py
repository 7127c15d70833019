"""Operating the server: health and readiness, metrics, the admin's routes, guards, the path prefix.

:mod:`~ramsli.server.ops.routes` (``/healthz``, ``/readyz``, ``/admin/...``),
:mod:`~ramsli.server.ops.metrics` (Prometheus), :mod:`~ramsli.server.ops.guards` (security headers,
body and create limits, ``HEAD``, the request log) and :mod:`~ramsli.server.ops.prefix` (serving
under ``--path-prefix``).
"""
