"""The coach's worker pool survives a killed worker (``docs/coach.md``, *In the background*).

A real ``spawn`` process (the app's :func:`ramsli.server.coach.review.coach_pool`) is killed with
SIGKILL while a hand review waits behind a task that holds it; then:

- the review that was under way is refused once, ``409 review_failed``, in the reader's language,
  its ``detail`` a code (``worker_lost``) and no exception text in the answer;
- ``/readyz`` stays ``ready`` and says the coach is ``restarting``; the next request makes a new
  pool and its review is done; ``/readyz`` says ``running``;
- a worker killed while idle: a training position and its answer still work (no 500), and the
  broken pool is replaced once.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from ramsli.coach import Settings
from ramsli.refusal import Refusal
from ramsli.server.coach import hints
from ramsli.server.coach import review as coach
from ramsli.server.protocol.messages import render

from helpers import scaled, wait_until

#: a coach that looks little (the test checks the pool, not the values)
QUICK = Settings(equilibrium_samples=60, declare_samples=20, play_samples=6, nodes=400, budget=4000)


@pytest.fixture
def quiet_warm_up(monkeypatch):
    """The server's lab warm-up is off in this process (no compile process is started)."""
    monkeypatch.setattr(hints, "_warm", [hints.LabWarmUp(enabled=False)])


def _kill_workers(pool) -> list[int]:
    """SIGKILL every worker process of ``pool``; their pids."""
    pids = list(pool._processes)
    assert pids, "the pool has no worker to kill"
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return pids


def _session(client) -> tuple[str, str]:
    made = client.post(
        "/api/web/tables",
        json={
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "tips"}, {"kind": "bot", "bot": "tips"}],
            "rules": ["end=hands:2"],
            "seed": 4,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0,
            "grace_seconds": 0,
        },
    ).json()
    tid = made["table"]
    token = client.post(f"/api/tables/{tid}/sit", json={"token": made["seats"][0]["token"], "name": "Ann"}).json()[
        "token"
    ]
    client.post(f"/api/tables/{tid}/start", json={"creator_token": made["creator_token"]})
    wait_until(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "over", 60, what="the session's end")
    return tid, token


def test_a_killed_coach_worker_fails_its_review_cleanly_and_the_next_one_works(tmp_path, quiet_warm_up):
    from starlette.testclient import TestClient

    from ramsli.server.app import create_app

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}", allow_test_seeds=True)
    app.state.coach = coach.CoachService(QUICK, warm=hints.LabWarmUp(enabled=False))  # the real pool
    with TestClient(app) as client:
        tid, token = _session(client)
        restarts = coach.coach_state()["restarts"]
        pool = coach.coach_pool()
        pool.submit(time.sleep, scaled(600))  # holds the one worker: the review waits behind it
        path = f"/api/tables/{tid}/hands/1/review?token={token}"
        first = client.get(path, headers={"Accept-Language": "de"})
        assert first.status_code == 200 and first.json()["status"] in ("waiting", "running")
        wait_until(lambda: client.get(path).json().get("status") == "running", 30, what="the review handed over")
        _kill_workers(pool)

        failed = wait_until(
            lambda: (r := client.get(path, headers={"Accept-Language": "de"})).status_code != 200 and r,
            60,
            what="the review's refusal",
        )
        body = failed.json()
        assert failed.status_code == 409 and body["error"] == "review_failed", body
        assert body["fields"] == {"detail": "worker_lost"}
        text = failed.text
        assert "Broken" not in text and "process" not in text and "abruptly" not in text
        assert body["message"] == render(Refusal("review_failed", None, {"detail": "worker_lost"}), "de")
        assert body["message"] != render(Refusal("review_failed", None, {"detail": "worker_lost"}), "en")

        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        assert ready.json()["coach"]["state"] == "restarting"
        assert ready.json()["coach"]["restarts"] == restarts + 1

        def settled():
            r = client.get(path)
            return r if r.status_code != 200 or r.json()["status"] == "done" else None

        done = wait_until(settled, 120, what="the review on the new pool")
        assert done.status_code == 200 and done.json()["review"]["format"] == "ramsli-review/1"
        assert coach.coach_pool() is not pool
        ready = client.get("/readyz").json()
        assert ready["status"] == "ready" and ready["coach"]["state"] == "running"

        # killed while idle: the training routes answer, and the pool is replaced once
        new_pool = coach.coach_pool()
        _kill_workers(new_pool)
        p = client.post("/api/train/position", json={"source": "generated"})
        assert p.status_code == 200, p.text
        a = client.post("/api/train/answer", json={"id": p.json()["id"], "answer": "in"})
        assert a.status_code == 200 and a.json()["source"] in ("equilibrium", "table"), a.text
        wait_until(lambda: coach.coach_state()["restarts"] == restarts + 2, 30, what="the idle pool replaced")
        assert coach.coach_pool() is not new_pool
        assert client.get("/readyz").status_code == 200


def test_readyz_is_not_ready_only_while_no_coach_process_can_be_made(tmp_path, quiet_warm_up, monkeypatch):
    """While the pool cannot be made (too many open files, say) ``/readyz`` answers ``503`` naming
    it, a review is refused ``review_failed`` (detail ``error``, no exception text) and a training
    position is answered from the policy's stored value; once a pool can be made, all is ready."""
    from starlette.testclient import TestClient

    from ramsli.server.app import create_app

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}", allow_test_seeds=True)
    app.state.coach = coach.CoachService(QUICK, warm=hints.LabWarmUp(enabled=False))
    with TestClient(app) as client:
        tid, token = _session(client)
        coach.shutdown_coach_pool()

        def no_pool(*args, **kwargs):
            raise OSError(24, "Too many open files")

        monkeypatch.setattr(coach, "ProcessPoolExecutor", no_pool)
        path = f"/api/tables/{tid}/hands/1/review?token={token}"
        failed = wait_until(
            lambda: (r := client.get(path, headers={"Accept-Language": "nl"})).status_code != 200 and r,
            30,
            what="the review's refusal",
        )
        assert failed.status_code == 409 and failed.json()["fields"] == {"detail": "error"}
        assert "open files" not in failed.text and "OSError" not in failed.text
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["coach"]["state"] == "failed"
        assert any("coach" in reason for reason in ready.json()["reasons"])
        p = client.post("/api/train/position", json={"source": "generated"})
        assert p.status_code == 200, p.text
        a = client.post("/api/train/answer", json={"id": p.json()["id"], "answer": "in"})
        assert a.status_code == 200 and a.json()["source"] == "table", a.text

        monkeypatch.undo()
        monkeypatch.setattr(hints, "_warm", [hints.LabWarmUp(enabled=False)])

        def settled():
            r = client.get(path)
            return r if r.status_code != 200 or r.json()["status"] == "done" else None

        done = wait_until(settled, 120, what="the review once a pool can be made")
        assert done.status_code == 200 and done.json()["status"] == "done"
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["coach"]["state"] == "running"
