"""Every HTTP route of the coach (``docs/coach.md``, *In the browser*): :data:`router`.

Each route takes its services typed (:mod:`ramsli.server.deps`: the hub, the
:class:`~ramsli.server.coach.review.CoachService`), calls the logic beside it
(:mod:`~ramsli.server.coach.hints`, :mod:`~ramsli.server.coach.review`) in the request's
language (:func:`ramsli.server.protocol.lang.request_lang`) and answers JSON or a page. A
refusal is raised and answered by the app's error handlers
(:func:`ramsli.server.protocol.messages.error_body`).

- ``GET /api/tables/{table}/hint?token=``: the "should I stay in?" hint (R4.5);
- ``GET /api/tables/{table}/hands/{n}/review?token=&seat=p2``: one hand's review for one seat;
- ``GET /api/tables/{table}/review?token=``: the session review of the token's own seat;
- ``GET /train``: the training page; ``POST /api/train/position``, ``POST /api/train/answer``:
  a position to answer "in or out?" and the coach's answer to it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ramsli.server.coach import hints, review
from ramsli.server.deps import CoachDep, HubDep
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.schemas import body_of
from ramsli.server.web.shell import shell

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables/{table_id}/hint")
async def hint(request: Request, hub: HubDep, table_id: str, token: str = "") -> dict[str, Any]:
    """The hint for the token's seat while it is that seat's turn to declare (R4.5), in the
    request's language (``?lang=``, else ``Accept-Language``).

    Answers ``{"advice": "in"|"out"|"close"|"must", "text", "detail", "estimate": "kernel"|"expert",
    "ev_diff": {"mean", "ci95"} or null, "samples", "out_allowed", ...}`` (counters of this hand;
    the kernel's answer also has ``p_trick``, ``p_most``, ``ev_in``, ``ev_out``), or a refusal:
    ``403 hint_off`` (the creator did not allow it), ``409 no_hint`` (not your turn to declare),
    ``429 hint_busy`` (a hint for another position of this seat is still being computed),
    ``409 hint_failed`` (this position cannot be estimated).
    """
    obs, key = hints.declaring_obs(hub.table(table_id), token)
    return hints.hint_words(await hints.answer_hint(obs, key), request_lang(request))


@router.get("/api/tables/{table_id}/hands/{number}/review")
async def hand_review(
    request: Request,
    hub: HubDep,
    coach: CoachDep,
    table_id: str,
    number: int,
    token: str = "",
    seat: str | None = None,
) -> dict[str, Any]:
    """The review of ``seat`` (``p1``…; default the token's own seat, else ``p1``) in finished hand
    ``number``, in the request's language (:func:`ramsli.server.coach.review.hand_review`: the
    review for the person who sat there, the public decisions for anyone else with a token).
    Errors: ``403 bad_token``, ``404 no_hand``, ``404 no_seat``, ``429 coach_busy``, ``409
    review_failed``."""
    return review.hand_review(coach, hub.table(table_id), number, token, seat, request_lang(request))


@router.get("/api/tables/{table_id}/review")
async def session_review(
    request: Request, hub: HubDep, coach: CoachDep, table_id: str, token: str = ""
) -> dict[str, Any]:
    """The session review of the token's own seat, in the request's language
    (:func:`ramsli.server.coach.review.session_review`; ask again until ``status`` is ``done``).
    Errors: ``403 bad_token``, ``403 no_review``, ``429 coach_busy``."""
    return review.session_review(coach, hub.table(table_id), token, request_lang(request))


@router.get("/train", response_class=HTMLResponse)
async def train_page(request: Request) -> HTMLResponse:
    """The "in or out?" training page, in the page's language: the games it covers; the page sends
    the seat tokens this browser holds when it asks for a position of one's own tables."""
    games = [{"name": g.name, "preset": g.preset, "players": g.players} for g in review.training_games()]
    return shell("train", request_lang(request), "Ramsli", {"games": games})


@router.post("/api/train/position")
async def train_position(request: Request, hub: HubDep, coach: CoachDep) -> dict[str, Any]:
    """A new "in or out?" position (:class:`~ramsli.server.coach.review.PositionRequest`;
    :func:`~ramsli.server.coach.review.new_position`): the seat's own cards, the turn-up, the
    declarations before it. Errors: ``422 bad_message``, ``404 no_game``, ``404 no_position``
    (none of your own tables' hands is left), ``429 train_busy`` (the coach's training queue is
    full; ``Retry-After``)."""
    body = await body_of(request, review.PositionRequest)
    return review.position_record(await review.new_position(hub, coach, body))


@router.post("/api/train/answer")
async def train_answer(request: Request, coach: CoachDep) -> dict[str, Any]:
    """The coach's answer to a position (:class:`~ramsli.server.coach.review.AnswerRequest`;
    :func:`~ramsli.server.coach.review.answer_position`). Errors: ``422 bad_message``, ``404
    no_position``."""
    body = await body_of(request, review.AnswerRequest)
    return await review.answer_position(coach, body, request_lang(request))
