"""Every message the server reads has one declared shape (``ramsli.server.protocol.schemas``), and every
refusal is answered by its code in the language the request asks for (``ramsli.server.protocol.messages``).

For every HTTP route with a body and for the WebSocket messages: a wrong type, a missing field,
an unknown field, a list given as a string, a seat given twice under two spellings, an empty
body and an oversized body are refused before anything is applied, with a message naming the
field in the asked language (German here), and the table, the ledger and the database are
exactly as before. The server never switches the process's language: two requests in two
languages at once are each answered in their own.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from ramsli.frontends import i18n
from ramsli.server.app import create_app
from ramsli.server.clubs.clubs import Clubs
from ramsli.server.protocol.schemas import MAX_BODY, read_body
from ramsli.server.storage.directory import Directory
from ramsli.server.storage.eventstore import EventStore
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.hub import Hub

SEATS3 = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}]
DE = {"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def no_language_switch(monkeypatch):
    """The server must never call ``i18n.set_language``: it would answer one request in the
    language of another."""

    def forbidden(lang):
        raise AssertionError(f"the server switched the process language to {lang!r}")

    monkeypatch.setattr(i18n, "set_language", forbidden)
    before = i18n.language()
    yield
    assert i18n.language() == before


class World:
    """A hub on SQLite with the app around it, driven in-process over ASGI (no sockets)."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def __aenter__(self) -> World:
        self.store = await EventStore.open(self.url)
        self.hub = Hub(self.store, allow_test_seeds=True)
        self.app = create_app(self.url)
        self.app.state.hub = self.hub
        # what the app's start-up makes beside the hub: the ledger's routes ask the clubs who consented (38.11)
        self.app.state.clubs = Clubs(Directory(self.store.engine), self.hub, self.app.state.calibration)
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://127.0.0.1")
        made = (
            await self.hub.create_table(
                {"rules": ["end=hands:3"], "seats": SEATS3, "seed": 3, "bot_pace_seconds": 30, "hand_pause_seconds": 30}
            )
        ).to_json()
        self.made, self.tid = made, made["table"]
        self.personal = (await self.hub.sit(self.tid, made["seats"][0]["token"], "Ann")).token
        r = await self.client.post("/api/ledgers", json={"names": ["Ann", "Bo", "Cy"], "first_dealer": 2})
        assert r.status_code == 201, r.text
        self.ledger = r.json()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.client.aclose()
        await self.hub.close()
        await self.store.close()

    async def state(self):
        """Everything a refusal must leave as it was: the table, the ledger and every stored row."""
        t = self.hub.tables[self.tid]
        r = await self.client.get(f"/api/ledgers/{self.ledger['ledger']}?token={self.ledger['token']}")
        return (
            t.seq,
            t.status,
            [(s.name, s.taken, s.personal) for s in t.seats],
            t.options.to_dict(),
            r.json(),
            await self.store.load(),
        )

    def routes(self):
        """(method, path, a good body) of every route that reads a body."""
        tid, lid, ltok = self.tid, self.ledger["ledger"], self.ledger["token"]
        return [
            ("POST", "/api/tables", {"seats": SEATS3}),
            ("POST", "/api/web/tables", {"seats": SEATS3, "hint": False}),
            ("POST", f"/api/tables/{tid}/sit", {"token": self.made["seats"][1]["token"], "name": "Bo"}),
            ("POST", f"/api/tables/{tid}/start", {"creator_token": self.made["creator_token"]}),
            ("POST", f"/api/tables/{tid}/pace", {"creator_token": self.made["creator_token"], "bot_pace_seconds": 2}),
            ("POST", "/api/ledgers", {"names": ["Ann", "Bo"]}),
            ("POST", f"/api/ledgers/{lid}/hands?token={ltok}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}),
            ("PUT", f"/api/ledgers/{lid}/hands/1?token={ltok}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}),
            ("POST", f"/api/ledgers/{lid}/end?token={ltok}", {}),
            # club evenings (issue 34): the body is read before the login and the evening
            ("POST", "/api/evenings", {"name": "Thursday", "starts": "2026-12-10T20:00+01:00"}),
            ("POST", "/api/evenings/e1/check-in", {}),
            ("POST", "/api/evenings/e1/rounds", {"cards": [1]}),
            ("POST", "/api/evenings/e1/withdraw", {"participant": "p1"}),
            ("POST", "/api/evenings/e1/substitutes", {"level": "easy"}),
            ("POST", "/api/evenings/e1/reseat", {"a": "p1", "b": "p2"}),
            ("POST", "/api/evenings/e1/pause", {"paused": True, "table": 1}),
            ("POST", "/api/evenings/e1/captain", {"participant": "p1", "table": 1}),
            ("POST", "/api/evenings/e1/close", {}),
        ]


def _refused(r, code, field=None, error="bad_message"):
    assert r.status_code == 422, (r.status_code, r.text[:300])
    body = r.json()
    assert body["error"] == error and body["code"] == code, body
    assert set(body) == {"error", "code", "rule", "fields", "message"}
    if field is not None:
        assert body["fields"]["field"] == field and body["message"].startswith(field), body
    return body


def test_every_route_refuses_a_malformed_body_in_german_naming_the_field(sqlite_url, no_language_switch):
    """Wrong type, missing, unknown, a list as a string, empty and oversized bodies on every
    route with a body: 422 with the schema's code, the field named, in German; nothing changed."""

    async def go():
        async with World(sqlite_url) as w:
            before = await w.state()
            for method, path, good in w.routes():
                name = next(iter(good), None)
                cases = [(b"", "body_empty", None), (b"[1, 2]", "body_object", None), (b"{no json", "not_json", None)]
                cases.append((b'{"x": ' + b'"y' * (MAX_BODY // 2) + b'"}', "body_too_big", None))
                unknown = "field_unknown" if good else "field_unknown_none"
                cases.append((json.dumps(dict(good, colour="red")).encode(), unknown, "colour"))
                if name is not None:  # a wrong type: a list given as a string, a text as a number
                    value = good[name]
                    wrong = (
                        "".join(map(str, value)) if isinstance(value, list) else 7 if isinstance(value, str) else "7"
                    )
                    kind = {list: "field_list", str: "field_text", bool: "field_bool", int: "field_int"}.get(
                        type(value), "field_number"
                    )
                    cases.append((json.dumps(dict(good, **{name: wrong})).encode(), kind, name))
                    missing = {k: v for k, v in good.items() if k != name}
                    cases.append((json.dumps(missing).encode(), "field_missing", name))
                for raw, code, field in cases:
                    if raw == b"" and (not good or path.endswith("/rounds")):
                        continue  # end takes no fields, a round's are optional: an empty body is fine there
                    if code == "field_missing" and name in ("hint", "tricks", "cards"):
                        continue  # optional fields
                    r = await w.client.request(method, path, content=raw, headers=DE)
                    body = _refused(r, code, field)
                    assert body["message"] != body["code"] and "{" not in body["message"]
                    assert any(word in body["message"] for word in ("muss", "fehlt", "kein", "leer", "länger", "darf"))
                    assert await w.state() == before, (method, path, raw[:60])

    run(go())


def test_the_pub_ledger_refuses_a_string_a_seat_spelled_twice_and_an_empty_body(sqlite_url, no_language_switch):
    """Three inputs the ledger once booked: ``{"active": "01"}`` (as seats 0 and 1), ``"0": 4``
    beside ``"00": 3`` (one silently dropped) and an empty body (a thrown-in hand). Each is
    refused, nothing is booked, in the asked language."""

    async def go():
        async with World(sqlite_url) as w:
            hands = f"/api/ledgers/{w.ledger['ledger']}/hands?token={w.ledger['token']}"
            before = await w.state()
            r = await w.client.post(hands, json={"active": "01"}, headers=DE)
            assert _refused(r, "field_list", "active")["message"] == "active muss eine Liste sein"
            r = await w.client.post(hands, json={"active": [0, 1], "tricks": {"0": 4, "00": 3}}, params={"lang": "nl"})
            body = _refused(r, "seat_twice", "tricks")
            assert body["fields"] == {"field": "tricks", "number": 0, "given": "0, 00"}
            assert body["message"] == "tricks noemt plaats 0 twee keer, als 0, 00"
            r = await w.client.post(hands, content=b"", headers={"Accept-Language": "it"})
            assert _refused(r, "body_empty")["message"] == "La richiesta è vuota; invia un oggetto JSON"
            r = await w.client.post(hands, json={}, headers=DE)
            _refused(r, "field_missing", "active")
            r = await w.client.post(hands, json={"active": [0, 1], "tricks": {"p1": 5}}, headers=DE)
            _refused(r, "seat_key", "tricks")
            r = await w.client.post(hands, json={"active": [0, 1], "tricks": {"0": "3", "1": 2}}, headers=DE)
            _refused(r, "field_int", "tricks.0")
            assert await w.state() == before
            # the engine's refusal of a well-formed hand: its code, rule and fields, in German
            r = await w.client.post(hands, json={"active": [0, 1], "tricks": {"0": 3, "1": 1}}, headers=DE)
            body = _refused(r, "tricks_sum", error="refused")
            assert body["rule"] == "R4.9" and body["fields"] == {"hand": 1, "total": 4}
            assert body["message"] == "Spiel 1: die Stiche ergeben zusammen 4; gespielt werden fünf Stiche (R4.9)"
            assert await w.state() == before
            r = await w.client.post(hands, json={"active": [0, 1], "tricks": {"0": 3, "1": 2}})
            assert r.status_code == 200 and r.json()["stacks"] == [22, 19, 19]  # the same hand, well-formed (R5.1)

    run(go())


def test_the_ledgers_refusals_speak_the_request_language(sqlite_url, no_language_switch):
    """The ledger's API answers its own refusals (no ledger, the wrong link, a bad set-up) in the
    asked language too, with the code: the page shows this message and no copy of its own."""

    async def go():
        async with World(sqlite_url) as w:
            lid = w.ledger["ledger"]
            r = await w.client.get("/api/ledgers/Lnope?token=x", headers=DE)
            assert r.status_code == 404 and r.json()["message"] == "Es gibt kein Kneipen-Buch Lnope"
            follow = (await w.client.get(f"/api/ledgers/{lid}?token={w.ledger['token']}")).json()["follow"]
            r = await w.client.post(f"/api/ledgers/{lid}/end?token={follow.rsplit('/', 1)[1]}", headers=DE)
            assert r.status_code == 403 and (r.json()["error"], r.json()["code"]) == ("bad_token", "not_keeper")
            assert "Schreibers" in r.json()["message"]
            r = await w.client.get(f"/api/ledgers/{lid}?token=Ünïcode", headers=DE)  # not ASCII: still a 403
            assert r.status_code == 403
            r = await w.client.post("/api/ledgers", json={"names": ["Ann", "ann"]}, params={"lang": "it"})
            assert r.status_code == 422 and r.json()["error"] == "bad_spec" and r.json()["rule"] == "R2.2"
            r = await w.client.post("/api/ledgers", json={"names": ["A", "B"], "preset": "nope"}, headers=DE)
            assert r.status_code == 422 and r.json()["error"] == "bad_spec" and "'nope'" in r.json()["message"]

    run(go())


def test_pace_reads_its_body_capped_before_the_token(sqlite_url, no_language_switch):
    """``POST /api/tables/{t}/pace`` once read a body of any size before it checked the token: a
    20 KB body was applied and a 5 MB one read in full. Both are refused now, the big one after
    reading no more than the limit, and nothing changes."""

    async def go():
        async with World(sqlite_url) as w:
            before = await w.state()
            url = f"/api/tables/{w.tid}/pace"
            padded = json.dumps(
                {"creator_token": w.made["creator_token"], "bot_pace_seconds": 2, "pad": "x" * 20_000}
            ).encode()
            r = await w.client.post(url, content=padded, headers=DE)
            assert _refused(r, "body_too_big")["message"] == f"Die Anfrage ist länger als {MAX_BODY} Bytes"
            pulled = []

            async def five_megabytes():  # no Content-Length: the reader must stop by itself
                for i in range(80):
                    pulled.append(i)
                    yield b"x" * 65536

            r = await w.client.post(url, content=five_megabytes(), headers=DE)
            _refused(r, "body_too_big")
            assert len(pulled) <= 2  # it stopped at the first chunk past 16 KiB, not after 5 MB
            r = await w.client.post(url, content=padded, headers={"Content-Length": str(5 << 20)})
            _refused(r, "body_too_big")  # a declared length over the limit: refused before reading
            assert await w.state() == before
            r = await w.client.post(url, json={"creator_token": "nope", "bot_pace_seconds": 2}, headers=DE)
            assert r.status_code == 403 and r.json()["code"] == "bad_token"
            r = await w.client.post(url, json={"creator_token": w.made["creator_token"], "bot_pace_seconds": 99})
            assert _refused(r, "field_max", "bot_pace_seconds")["fields"]["limit"] == 60
            assert await w.state() == before
            r = await w.client.post(url, json={"creator_token": w.made["creator_token"], "bot_pace_seconds": 2})
            assert r.status_code == 200 and r.json() == {"bot_pace_seconds": 2.0, "seq": before[0] + 1}

    run(go())


def test_the_capped_reader_stops_at_the_limit():
    async def go():
        pulled = []

        async def chunks():
            for i in range(100):
                pulled.append(i)
                yield b"x" * 1000

        with pytest.raises(Exception) as e:
            await read_body(chunks())
        assert e.value.refusal.code == "body_too_big" and len(pulled) == MAX_BODY // 1000 + 1

        async def small():
            yield b'{"a": 1}'

        assert await read_body(small(), "8") == b'{"a": 1}'
        # a Content-Length that is no plain number is not believed (no 500 from int("²")); one
        # too long for int() is too big
        assert await read_body(small(), "\u00b2") == b'{"a": 1}'
        with pytest.raises(Exception) as e:
            await read_body(small(), "9" * 5000)
        assert e.value.refusal.code == "body_too_big"

    run(go())


def test_two_requests_at_once_in_two_languages_are_each_answered_in_their_own(sqlite_url, no_language_switch):
    async def go():
        async with World(sqlite_url) as w:
            url = f"/api/tables/{w.tid}/sit"
            body = {"token": w.made["seats"][1]["token"], "name": "ann"}  # Ann sits at p1 (R2.2)
            langs = ["de", "it", "nl", "en", "fr-BE"] * 8  # fr-BE: a Belgian browser gets French
            answers = await asyncio.gather(
                *(w.client.post(url, json=body, headers={"Accept-Language": lang}) for lang in langs)
            )
            expected = {
                "de": "Der Name ann sitzt schon an diesem Tisch (R2.2)",
                "it": "Il nome ann è già a questo tavolo (R2.2)",
                "nl": "De naam ann zit al aan deze tafel (R2.2)",
                "en": "The name ann is already at this table (R2.2)",
                "fr-BE": "Le nom ann est déjà à cette table (R2.2)",
            }
            for lang, r in zip(langs, answers):
                assert r.status_code == 409 and r.json()["message"] == expected[lang], (lang, r.json())
                assert r.json()["code"] == "name_taken" and r.json()["fields"] == {"name": "ann"}

    run(go())


def test_the_http_api_answers_every_error_by_code_in_the_asked_language(sqlite_url, no_language_switch):
    async def go():
        async with World(sqlite_url) as w:
            r = await w.client.get("/api/tables/nope", params={"lang": "de"})
            assert (r.status_code, r.json()["code"], r.json()["message"]) == (
                404,
                "no_table",
                "Es gibt keinen Tisch nope",
            )
            r = await w.client.get(f"/api/tables/{w.tid}/hands/abc.json", headers=DE)
            assert _refused(r, "field_int", "number")["message"] == "number muss eine ganze Zahl sein"
            r = await w.client.get("/no/such/page", headers=DE)
            assert r.status_code == 404 and r.json()["message"] == "Es gibt keine Seite /no/such/page"
            r = await w.client.get("/static/nothing.js", headers=DE)
            assert r.status_code == 404 and r.json()["code"] == "no_file"
            r = await w.client.get("/api/i18n/xx.json", headers=DE)
            assert r.status_code == 404 and r.json()["message"].startswith("Es gibt keine Sprache xx")
            r = await w.client.get(f"/api/tables/{w.tid}/hint?token={w.personal}", headers=DE)
            assert (
                r.status_code == 403
                and r.json()["message"] == "Wer diesen Tisch angelegt hat, hat den Tipp nicht erlaubt"
            )
            r = await w.client.post("/api/tables", json={"seats": SEATS3, "rules": ["players=4"]}, headers=DE)
            body = r.json()
            assert (r.status_code, body["error"], body["code"], body["rule"]) == (
                422,
                "bad_spec",
                "players_mismatch",
                "R2.1",
            )

    run(go())


def test_websocket_messages_are_refused_by_their_shape_in_the_hello_language(sqlite_url, no_language_switch):
    """A WebSocket message of the wrong shape gets ``bad_message`` with the schema's record,
    rendered in the language of the connection's ``hello``; an illegal action keeps the code
    ``illegal`` and carries the engine's record."""

    async def go():
        async with World(sqlite_url) as w:
            t = w.hub.tables[w.tid]
            await w.hub.sit(w.tid, w.made["seats"][1]["token"], "Bo")
            await w.hub.start(w.tid, w.made["creator_token"])
            c = Conn()
            await w.hub.receive(c, json.dumps({"type": "hello", "token": w.personal, "lang": "de"}), w.tid)
            seq, events = t.seq, len(next(r["events"] for r in await w.store.load() if r["id"] == w.tid))
            fingerprint = t.session.hand.fingerprint()
            for msg, code, field in [
                ({"type": "act", "action": "p1 in", "seq": "1"}, "field_int", "seq"),
                ({"type": "act", "action": ["p1", "in"], "seq": seq}, "field_text", "action"),
                ({"type": "act", "seq": seq}, "field_missing", "action"),
                ({"type": "act", "action": "p1 in", "seq": seq, "seat": 0}, "field_unknown", "seat"),
                ({"type": "ping", "now": 1}, "field_unknown", "now"),
            ]:
                await w.hub.receive(c, json.dumps(msg))
                err = c.sent[-1]
                assert (err["error"], err["refusal"]["code"], err["refusal"]["fields"]["field"]) == (
                    "bad_message",
                    code,
                    field,
                )
                assert err["message"].startswith(field) and err["rule"] is None
                assert any(word in err["message"] for word in ("muss", "fehlt", "kein Feld"))
            assert c.sent[-5]["message"] == "seq muss eine ganze Zahl sein"
            to_act = t.session.hand.to_act
            other = f"p{(to_act + 1) % 3 + 1}"
            if to_act != 0:  # Ann (p1) is not to act: the engine refuses, its record comes along
                await w.hub.receive(c, json.dumps({"type": "act", "action": "p1 in", "seq": seq}))
                err = c.sent[-1]
                assert err["error"] == "illegal" and err["refusal"]["code"] == "not_your_turn"
                assert err["rule"] == err["refusal"]["rule"] == "R4.5" and "nicht du" in err["message"]
            await w.hub.receive(c, json.dumps({"type": "act", "action": f"{other} in", "seq": seq}))
            assert c.sent[-1]["code"] == "not_your_seat" and c.sent[-1]["refusal"]["fields"]["seat"] == "p1"
            assert t.seq == seq and t.session.hand.fingerprint() == fingerprint
            assert len(next(r["events"] for r in await w.store.load() if r["id"] == w.tid)) == events

    run(go())


def test_a_field_given_twice_is_refused_over_http_and_websocket():
    """One JSON text, one meaning: a key given twice (``{"name": "Zed", "name": "Zed2"}``) is
    refused by name, never read as its last value, in a body and in a WebSocket message."""
    from ramsli.server.protocol.messages import BadMessage, render
    from ramsli.server.protocol.schemas import Sit, load_message, parse

    with pytest.raises(BadMessage) as e:
        parse(Sit, b'{"token": "a", "name": "Zed", "name": "Zed2"}')
    assert (e.value.refusal.code, e.value.refusal.fields) == ("field_twice", {"field": "name"})
    with pytest.raises(BadMessage) as e:
        load_message('{"type": "act", "action": "p1:in", "seq": 1, "seq": 2}')
    assert (e.value.refusal.code, e.value.refusal.fields["field"]) == ("field_twice", "seq")
    text = render(e.value.refusal, "de")
    assert "zweimal" in text and "seq" in text
    assert parse(Sit, b'{"token": "a", "name": "Zed"}').name == "Zed"  # nested and single keys as before
    assert load_message('{"type": "x", "a": {"type": 1}}') == {"type": "x", "a": {"type": 1}}
