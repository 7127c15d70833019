"""The server's Prometheus metrics (``GET /metrics``, text format 0.0.4, ``prometheus-client``).

Each app has its own :class:`Metrics` (its own registry, so several apps in one process, as in
the tests, never share counters). What is measured:

- ``ramsli_tables{status}``: tables this process runs, by status (``waiting``, ``playing``,
  ``over``, ``broken``), and ``ramsli_ledgers``: pub ledgers it runs;
- ``ramsli_connections{role}``: open WebSocket connections (``seat``, ``spectator``, ``invite``,
  ``hello``: not yet said hello, ``forwarded``: relayed to the process that runs the table);
- ``ramsli_events_total{kind}``: events committed (``rate(ramsli_events_total[1m])`` is events
  per second);
- ``ramsli_commit_seconds``: from a table handing an event to the store to its commit (group
  commit included);
- ``ramsli_bot_decision_seconds{bot}``: one bot decision (on the event loop or in a worker);
- ``ramsli_refusals_total{code, via}``: refused intents and requests by the refusal's code
  (``must_follow``, ``stale_seq``, ``bad_token``, ...), ``via`` ``ws`` or ``http``;
- ``ramsli_claims_total``, ``ramsli_releases_total``, ``ramsli_forwards_total{via}``: tables
  taken over from another process, let go, and requests relayed to their owner;
- ``ramsli_draining``: 1 while the process drains after SIGTERM;
- the process's own CPU, memory and file descriptors (``process_*``) and Python's (``python_*``).

>>> m = Metrics()
>>> m.events.labels("act").inc()
>>> b"ramsli_events_total{kind=\\"act\\"} 1.0" in m.render()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

__all__ = ["Metrics", "CONTENT_TYPE"]

#: the media type of ``GET /metrics``
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_BOTS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _Live(Collector):
    """Gauges read at scrape time from the hub (tables by status, connections by role)."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = self.read()
        tables = GaugeMetricFamily("ramsli_tables", "Tables this process runs, by status", labels=["status"])
        for status in ("waiting", "playing", "over", "broken"):
            tables.add_metric([status], float(now.get("tables", {}).get(status, 0)))
        yield tables
        yield GaugeMetricFamily("ramsli_ledgers", "Pub ledgers this process runs", value=float(now.get("ledgers", 0)))
        conns = GaugeMetricFamily("ramsli_connections", "Open WebSocket connections, by role", labels=["role"])
        for role in ("seat", "spectator", "invite", "hello", "forwarded"):
            conns.add_metric([role], float(now.get("connections", {}).get(role, 0)))
        yield conns
        yield GaugeMetricFamily("ramsli_draining", "1 while the process drains", value=float(now.get("draining", 0)))


class Metrics:
    """The metrics of one app (see the module's notes). ``live`` reads the hub at scrape time:
    a dict ``{"tables": {status: n}, "ledgers": n, "connections": {role: n}, "draining": 0|1}``."""

    def __init__(self, live: Callable[[], dict[str, Any]] | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.events = Counter("ramsli_events", "Events committed", ["kind"], registry=r)
        self.commit = Histogram(
            "ramsli_commit_seconds", "From handing an event to the store to its commit", buckets=_FAST, registry=r
        )
        self.bot_decision = Histogram(
            "ramsli_bot_decision_seconds", "One bot decision", ["bot"], buckets=_BOTS, registry=r
        )
        self.refusals = Counter("ramsli_refusals", "Refused intents and requests, by code", ["code", "via"], registry=r)
        self.claims = Counter("ramsli_claims", "Tables this process took over or loaded", registry=r)
        self.releases = Counter("ramsli_releases", "Tables this process let go", registry=r)
        self.forwards = Counter("ramsli_forwards", "Requests relayed to the owning process", ["via"], registry=r)
        self._live = live
        r.register(_Live(self._read))
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)

    def _read(self) -> dict[str, Any]:
        if self._live is None:
            return {}
        try:
            return self._live()
        except Exception:  # noqa: BLE001 - a scrape never fails on a half-built hub
            return {}

    def refused(self, code: str, via: str) -> None:
        """Count one refusal of ``code`` answered over ``via`` (``ws`` or ``http``)."""
        self.refusals.labels(code[:40], via).inc()

    def observe_bot(self, spec: str, seconds: float) -> None:
        """Count one bot decision of ``spec`` (labelled by the bot's name, without options)."""
        self.bot_decision.labels(spec.split(":", 1)[0][:40]).observe(seconds)

    def observe_commit(self, seconds: float) -> None:
        """Count one event's commit latency in seconds."""
        self.commit.observe(seconds)

    def render(self) -> bytes:
        """The metrics as Prometheus text."""
        return generate_latest(self.registry)
