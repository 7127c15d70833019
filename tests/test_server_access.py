"""A private table stays private (issue 38.1): the table's id is not secret (history links, the
download names players share for ``ramsli verify``, ``next_table``, the access log), so the id
alone gives no spectator link (and so no chat to read, no seat to take); ``/take`` needs a token
of the table, and a seat kept by "Play again" only its own invite token. docs/protocol.md,
"Tokens", is the table of what each token may do."""

from __future__ import annotations

import json

import pytest

from helpers import ServerProcess, http_json, post_ok, wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("access")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _make(base: str, seats: list[dict], **kw) -> dict:
    body = {"seats": seats, "bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 0, **kw}
    return post_ok(base, "/api/tables", body)


def _spectator(made: dict) -> str:
    return made["spectate"].rsplit("/", 1)[1]


HUMANS2_BOT = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]


def test_the_id_alone_gives_no_spectator_link_and_no_seat(server):
    """A stranger with only the id reads the public info (status, rules, seats, test seeding) but
    no spectator link, no token; cannot take the bot's seat, with no token or a made-up one. The
    creator and a seat's link get the spectator link; the seat's link takes the bot's seat."""
    made = _make(server, HUMANS2_BOT, rules=["end=hands:3"])
    tid, spect = made["table"], _spectator(made)
    st, info = http_json(server, "GET", f"/api/tables/{tid}")
    assert st == 200 and {"status", "rules", "seats", "test_seeded"} <= set(info)
    assert "spectate" not in info and spect not in json.dumps(info)
    assert made["creator_token"] not in json.dumps(info)
    for token in ("", "nope", tid):
        st, info = http_json(server, "GET", f"/api/tables/{tid}?token={token}")
        assert st == 200 and "spectate" not in info, token
        st, err = http_json(server, "POST", f"/api/tables/{tid}/take", {"token": token, "seat": "p3", "name": "Eve"})
        assert (st, err["error"]) == (403, "bad_token"), (token, err)
    # the watch link of a private table takes no seat either: it is for watching (issue 38.1)
    st, err = http_json(server, "POST", f"/api/tables/{tid}/take", {"token": spect, "seat": "p3", "name": "Eve"})
    assert (st, err["error"]) == (403, "bad_token"), err
    # the page the watch link opens offers no "Take this seat"
    st, page = http_json(server, "GET", f"/t/{tid}/watch/{spect}")
    assert st == 200 and '"can_take": false' in page
    for token in (made["creator_token"], made["seats"][0]["token"], spect):
        st, info = http_json(server, "GET", f"/api/tables/{tid}?token={token}")
        assert st == 200 and info["spectate"] == made["spectate"]
    seat = post_ok(server, f"/api/tables/{tid}/take", {"token": made["seats"][1]["token"], "seat": "p3", "name": "Cy"})
    assert seat["seat"] == "p3"
    st, info = http_json(server, "GET", f"/api/tables/{tid}")
    assert info["seats"][2]["taken"] and info["seats"][2]["name"] == "Cy"  # before the start: at once


def test_an_open_table_shows_its_spectator_link_and_its_watchers_take_a_bot_seat(server):
    """A table open to anyone is listed with its spectator link, so its info shows it too, and a
    watcher (the spectator token) may take a bot's seat, as ``join`` takes a free one."""
    made = _make(server, HUMANS2_BOT, rules=["end=hands:3"], open=True)
    tid = made["table"]
    st, info = http_json(server, "GET", f"/api/tables/{tid}")
    assert st == 200 and info["spectate"] == made["spectate"]
    st, page = http_json(server, "GET", f"/t/{tid}/watch/{_spectator(made)}")
    assert '"can_take": true' in page
    seat = post_ok(server, f"/api/tables/{tid}/take", {"token": _spectator(made), "seat": "p3", "name": "Cy"})
    assert seat["seat"] == "p3"


def test_a_kept_seat_after_play_again_is_its_friend_s_alone(server):
    """ "Play again": the new table's id reaches everyone at the old table (``next_table``) and the
    access log. A stranger with it gets no spectator link; the host's own token, another seat's
    link or the new table's watch link cannot take the seat kept for the friend (``seat_kept``);
    the friend's own invite still seats them (it used to answer ``409 seat_taken``)."""
    made = _make(server, HUMANS2_BOT, rules=["end=hands:1"], seed=4)
    tid = made["table"]
    ann = post_ok(server, f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    bo = post_ok(server, f"/api/tables/{tid}/sit", {"token": made["seats"][1]["token"], "name": "Bo"})
    post_ok(server, f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
    wait_until(lambda: http_json(server, "GET", f"/api/tables/{tid}")[1]["status"] == "over", 60, what="the end")
    host = post_ok(
        server, f"/api/tables/{tid}/rematch", {"token": ann["token"], "creator_token": made["creator_token"]}
    )
    friend = post_ok(server, f"/api/tables/{tid}/rematch", {"token": bo["token"]})
    new = host["table"]
    assert friend["table"] == new and friend["seat"] == "p2"
    st, info = http_json(server, "GET", f"/api/tables/{new}")
    assert st == 200 and "spectate" not in info
    new_spect = host["spectate"].rsplit("/", 1)[1]
    for token in ("", host["creator_token"], host["invite"].rsplit("/", 1)[1]):
        st, err = http_json(server, "POST", f"/api/tables/{new}/take", {"token": token, "seat": "p2", "name": "Eve"})
        assert st == 403 and err["error"] == ("bad_token" if token == "" else "seat_kept"), (token, err)
    st, err = http_json(server, "POST", f"/api/tables/{new}/take", {"token": new_spect, "seat": "p2", "name": "Eve"})
    assert (st, err["error"]) == (403, "bad_token"), err
    sat = post_ok(server, f"/api/tables/{new}/sit", {"token": friend["invite"].rsplit("/", 1)[1], "name": "Bo"})
    assert sat["seat"] == "p2"
    st, info = http_json(server, "GET", f"/api/tables/{new}")
    assert info["seats"][1]["name"] == "Bo"


def test_an_evening_table_named_on_the_public_evening_page_stays_private(sqlite_url):
    """Issue 34's evenings name their tables' ids on the evening's page, which anyone may read; the
    id gives a stranger no spectator link and no seat (issue 38.1)."""
    import asyncio

    from test_server_evenings import evening, people

    from clubworld import World

    async def go():
        async with World(sqlite_url) as w:
            (ann,) = await people(w, ["Ann"])
            eid = await evening(ann, hands_per_round=1)
            for level in ("easy", "easy", "easy"):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": level})
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tid = st["rounds_played"][0]["tables"][0]["table"]
            stranger = w.client()
            assert tid in json.dumps(await stranger.ok("GET", f"/api/evenings/{eid}"))
            info = await stranger.ok("GET", f"/api/tables/{tid}")
            assert "spectate" not in info and w.hub.tables[tid].spectator_token not in json.dumps(info)
            status, err = await stranger.call(
                "POST", f"/api/tables/{tid}/take", {"token": "", "seat": "p1", "name": "Eve"}
            )
            assert (status, err["error"]) == (403, "bad_token"), err

    asyncio.run(go())
