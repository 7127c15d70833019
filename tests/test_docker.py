"""The container (issue 22): the image builds from the ``Dockerfile`` on a local base, starts, is
healthy and ready, and plays a hand over its WebSocket; it runs as a user, not root, and holds
only the runtime. ``compose.yaml`` wires the documented pieces together.

No container registry is reachable from the CI machines, so the base is made from Debian's
packages (``debootstrap`` + ``docker import``, ``../shared/RECIPES.md``) and the wheels are built on
the host (``pip wheel``, from pip's cache after the install; or a folder of them named by
``RAMSLI_TEST_WHEELS``): ``.ci/run`` starts Debian's ``dockerd``, makes the base while pip
installs and exports ``RAMSLI_TEST_DOCKER_BASE``. Without a Docker engine the image test skips
with the reason locally and fails under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_server_e2e import _play_until

from helpers import ROOT, WSPlayer, free_port, http_get, post_json, scaled

BASE_ENV = "RAMSLI_TEST_DOCKER_BASE"
WHEELS_ENV = "RAMSLI_TEST_WHEELS"


def _docker(*args: str, timeout: float = scaled(600), check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args[:3])} failed: {done.stderr[-2000:]}")
    return done


def _need(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, but CI=true: the image test must run (.ci/run starts dockerd and makes the base)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def docker_base() -> str:
    """The base image to build on; skips (fails under CI=true) without a Docker engine or the base."""
    if shutil.which("docker") is None:
        _need("no docker command here (apt-get install docker.io)")
    info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True)
    if info.returncode != 0:
        _need("no Docker engine answers (start dockerd, or set DOCKER_HOST)")
    base = os.environ.get(BASE_ENV, "local/debian-python:bookworm")
    if _docker("image", "inspect", base, check=False).returncode != 0:
        _need(f"the base image {base} is not there (.ci/run makes it with debootstrap; or set {BASE_ENV})")
    return base


def _context(folder: Path) -> Path:
    """A build context: the Dockerfile, the package's sources, and wheels of ramsli and its
    dependencies (the dependencies' from ``RAMSLI_TEST_WHEELS`` when given; ramsli's own built now)."""
    ctx = folder / "context"
    ctx.mkdir()
    for name in ("Dockerfile", ".dockerignore", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, ctx / name)
    shutil.copytree(ROOT / "src", ctx / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = ctx / "wheels"
    given = os.environ.get(WHEELS_ENV)
    if given:
        shutil.copytree(given, wheels)
        for old in wheels.glob("ramsli-*.whl"):
            old.unlink()
        cmd = ["wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(ctx)]
    else:
        cmd = ["wheel", "--wheel-dir", str(wheels), f"{ctx}[postgres]"]
    done = subprocess.run([sys.executable, "-m", "pip", *cmd], capture_output=True, text=True, timeout=scaled(900))
    assert done.returncode == 0, done.stderr[-2000:]
    return ctx


def test_the_image_builds_starts_and_plays_a_hand(docker_base, tmp_path):
    tag = f"ramsli-test:{secrets.token_hex(4)}"
    ctx = _context(tmp_path)
    build = subprocess.run(
        ["docker", "build", "--build-arg", f"BASE={docker_base}", "-t", tag, str(ctx)],
        capture_output=True,
        text=True,
        timeout=scaled(900),
        env=dict(os.environ, DOCKER_BUILDKIT="0"),  # the classic builder: Debian's docker has no buildx
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-2000:]
    name = f"ramsli-test-{secrets.token_hex(4)}"
    try:
        config = json.loads(_docker("image", "inspect", tag).stdout)[0]["Config"]
        assert config["User"] == "ramsli"  # not root
        assert "healthz" in " ".join(config["Healthcheck"]["Test"])
        assert config["Env"] and any(e.startswith("RAMSLI_DATABASE=sqlite") for e in config["Env"])
        # only the runtime: no sources, no wheels, no pip, no compiler
        probe = "import importlib.util as u, os; print(os.path.exists('/src'), u.find_spec('pip') is not None)"
        assert _docker("run", "--rm", "--network", "none", tag, "python3", "-c", probe).stdout.split() == [
            "False",
            "False",
        ]
        assert _docker("run", "--rm", "--network", "none", tag, "id", "-u").stdout.strip() != "0"
        port = free_port()
        _docker(
            "run", "-d", "--name", name, "--network", "host", "--health-interval", "2s", "--health-start-period", "30s",
            "-e", f"RAMSLI_HEALTH_URL=http://127.0.0.1:{port}/healthz", tag, "ramsli", "serve", "--host", "127.0.0.1", "--port", str(port), "--allow-test-seeds",
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + scaled(90)
        while True:
            try:
                status, body = http_get(base, "/readyz")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("not ready: " + _docker("logs", name, check=False).stderr[-2000:])
            time.sleep(0.5)
        assert json.loads(body)["status"] == "ready"
        asyncio.run(_one_hand(base, f"ws://127.0.0.1:{port}"))
        while _docker("inspect", "-f", "{{.State.Health.Status}}", name).stdout.strip() != "healthy":
            assert time.monotonic() < deadline + 60, json.loads(_docker("inspect", name).stdout)[0]["State"]
            time.sleep(1)
        _docker("stop", "--time", "20", name)  # SIGTERM: it drains and exits
        logs = _docker("logs", name, check=False)
        assert "drained: 1 tables let go" in logs.stdout + logs.stderr
    finally:
        _docker("rm", "-f", name, check=False)
        _docker("rmi", "-f", tag, check=False)


async def _one_hand(http: str, ws: str) -> None:
    status, made = post_json(
        http,
        "/api/tables",
        {
            "rules": ["end=hands:1"],
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "bot", "bot": "random"}],
            "bot_pace_seconds": 0,
            "seed": 5,
        },
    )
    assert status == 201, made
    table = made["table"]
    st, sat = post_json(http, f"/api/tables/{table}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    assert st == 200
    ann = await WSPlayer(ws, table, sat["token"]).start()
    assert post_json(http, f"/api/tables/{table}/start", {"creator_token": made["creator_token"]})[0] == 200
    await _play_until([ann], lambda v: v["status"] == "over", timeout=scaled(60))
    final = ann.view
    assert (
        len(final["results"]) == 1
        and sum(s["stack"] for s in final["seats"]) + final["results"][0]["pot_after"] == 3 * 20
    )  # R3.4
    await ann.close()


def test_compose_wires_the_documented_pieces():
    """``compose.yaml``: the server built from the Dockerfile with the base as a build argument, on
    PostgreSQL, behind Caddy with the documented Caddyfile, trusting only Caddy's network."""
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "ramsli", "caddy"}
    ramsli = services["ramsli"]
    assert ramsli["build"]["context"] == "." and "BASE" in ramsli["build"]["args"]
    env = ramsli["environment"]
    assert env["RAMSLI_DATABASE"].startswith("postgresql+asyncpg://") and "@db:5432/" in env["RAMSLI_DATABASE"]
    subnet = compose["networks"]["inside"]["ipam"]["config"][0]["subnet"]
    assert env["RAMSLI_TRUSTED_PROXIES"] == subnet
    assert ramsli["depends_on"]["db"]["condition"] == "service_healthy"
    assert "ports" not in ramsli  # reachable only through Caddy
    caddy = services["caddy"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert caddy["environment"]["RAMSLI_UPSTREAM"] == "ramsli"
    assert caddy["environment"]["RAMSLI_PORT"] == "8000" and "8000" in " ".join(ramsli["command"])
    assert (ROOT / "deploy" / "Caddyfile").is_file()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "ARG BASE=python:3.11-slim" in dockerfile
    assert "\nUSER ramsli\n" in dockerfile and "HEALTHCHECK" in dockerfile
