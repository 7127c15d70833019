"""Players and logins on the server (docs/clubs.md, ``ramsli.server.players.accounts``), in-process over ASGI.

A player is a name (R2.2: the seat-name rules, and no other player's name or a look-alike of it)
and an argon2id-hashed password; logging in sets an HttpOnly, SameSite cookie; every
state-changing request with the cookie needs its CSRF token; logins are limited per name and address and per
address; logins are ended from any device; a player downloads their data and deletes the player.
Every refusal is a record in the request's language and changes nothing; a password is never
logged, stored or returned.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from argon2 import PasswordHasher

from clubworld import World, club_of_two

PASSWORD = "correct horse battery"


async def _players(w: World) -> list:
    async with w.app.state.hub.store.engine.connect() as conn:
        import sqlalchemy as sa

        return [
            tuple(r) for r in (await conn.execute(sa.text("SELECT id, name, name_key FROM players ORDER BY id"))).all()
        ]


def test_a_player_is_made_logged_in_and_the_cookies_are_safe(sqlite_url, caplog):
    """``POST /api/players`` makes the player and logs in: the login cookie is HttpOnly and
    SameSite=Lax (and Secure behind HTTPS), the CSRF cookie readable by the page; the password is
    kept only as an argon2id hash and never logged or returned."""
    caplog.set_level(logging.DEBUG)

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            r = await ann.http.post("/api/players", json={"name": "  Ann ", "password": PASSWORD, "listed": True})
            assert r.status_code == 201
            body = r.json()
            assert body["player"]["name"] == "Ann" and body["player"]["listed"] is True and body["csrf"]
            cookies = r.headers.get_list("set-cookie")
            login = next(c for c in cookies if c.startswith("ramsli_login="))
            csrf = next(c for c in cookies if c.startswith("ramsli_csrf="))
            assert "HttpOnly" in login and "SameSite=lax" in login and "Path=/" in login and "Max-Age=2592000" in login
            assert "HttpOnly" not in csrf and "Secure" not in login  # plain HTTP here
            me = await ann.ok("GET", "/api/me")
            assert me["player"] == body["player"] and me["csrf"] == body["csrf"] == ann.csrf
            # an X-Forwarded-Proto from a client that is no trusted proxy counts for nothing (38.8);
            # behind a trusted TLS proxy the cookies are Secure: test_cookies_under_a_path_prefix...
            r = await w.client().http.post(
                "/api/players",
                json={"name": "Bo", "password": PASSWORD},
                headers={"X-Forwarded-Proto": "https"},
            )
            assert r.status_code == 201 and not any("Secure" in c for c in r.headers.get_list("set-cookie"))
            async with w.app.state.hub.store.engine.connect() as conn:
                import sqlalchemy as sa

                stored = (await conn.execute(sa.text("SELECT password FROM players WHERE name = 'Ann'"))).scalar()
            assert stored.startswith("$argon2id$") and PASSWORD not in stored
            data = await ann.ok("GET", "/api/me/data")
            for answer in (body, me, data, await ann.ok("GET", "/api/me/logins")):
                text = json.dumps(answer)
                assert PASSWORD not in text and "$argon2" not in text and "digest" not in text
            assert data["format"] == "ramsli-player-data/1" and data["player"]["name"] == "Ann"
            status, _ = await w.client().call("POST", "/api/login", {"name": "Ann", "password": "wrong password"})
            assert status == 401

    asyncio.run(go())
    for record in caplog.records:
        assert PASSWORD not in record.getMessage() and "wrong password" not in record.getMessage()


def _cookie_lines(r) -> dict[tuple[str, str], str]:
    """The response's ``Set-Cookie`` lines by (name, Path)."""
    out = {}
    for line in r.headers.get_list("set-cookie"):
        name = line.split("=", 1)[0]
        path = next((p.split("=", 1)[1] for p in line.split("; ") if p.lower().startswith("path=")), "")
        out[(name, path)] = line
    return out


def test_cookies_under_a_path_prefix_and_secure_only_from_a_trusted_proxy(sqlite_url):
    """Under ``--path-prefix /ramsli`` the login and CSRF cookies have ``Path=/ramsli/`` (the ones
    an older server set with ``Path=/`` are removed), logging out removes them there; they are
    ``Secure`` when the trusted proxy says ``X-Forwarded-Proto: https``, never when another client
    says it (issues 37.3, 38.8)."""

    async def go():
        async with World(sqlite_url, path_prefix="/ramsli", trusted_proxies=["10.0.0.1"]) as w:
            tls = {"X-Forwarded-Proto": "https"}
            proxied = w.client(address="10.0.0.1")
            r = await proxied.http.post("/ramsli/api/players", json={"name": "Ann", "password": PASSWORD}, headers=tls)
            assert r.status_code == 201, r.text
            lines = _cookie_lines(r)
            for name in ("ramsli_login", "ramsli_csrf"):
                line = lines[(name, "/ramsli/")]
                assert "Secure" in line and "Max-Age=2592000" in line and "samesite=lax" in line.lower()
                assert "Max-Age=0" in lines[(name, "/")] or "expires=Thu, 01 Jan 1970" in lines[(name, "/")]
            assert "HttpOnly" in lines[("ramsli_login", "/ramsli/")]
            assert "HttpOnly" not in lines[("ramsli_csrf", "/ramsli/")]
            # a client that is no trusted proxy: its X-Forwarded-Proto is not believed
            stranger = w.client(address="192.0.2.9")
            r = await stranger.http.post("/ramsli/api/login", json={"name": "Ann", "password": PASSWORD}, headers=tls)
            assert r.status_code == 200, r.text
            lines = _cookie_lines(r)
            assert ("ramsli_login", "/ramsli/") in lines and ("ramsli_csrf", "/ramsli/") in lines
            assert not any("Secure" in c for c in r.headers.get_list("set-cookie"))
            # logging out removes the cookies where they are (the proxy may strip the prefix)
            status, _ = await stranger.call("POST", "/api/logout")
            assert status == 200
            r = await stranger.http.get("/ramsli/api/me")
            assert r.json()["player"] is None
        async with World(sqlite_url) as w:  # no prefix: Path=/ and nothing else
            r = await w.client().http.post("/api/players", json={"name": "Cy", "password": PASSWORD})
            assert set(_cookie_lines(r)) == {("ramsli_login", "/"), ("ramsli_csrf", "/")}

    asyncio.run(go())


def test_login_and_signup_take_json_only_under_a_path_prefix(sqlite_url):
    """A cross-site form (``text/plain``, no CSRF token possible) cannot log a browser in or make a
    player under ``--path-prefix /ramsli`` either, whether the proxy passes the prefix on or strips
    it (``415 json_only``, issue 38.3): the guard matches the route, not the raw path."""

    async def go():
        async with World(sqlite_url, path_prefix="/ramsli") as w:
            ann = w.client()  # the attacker's player; a text/plain form sends name=value: the "=" sits in the password
            await ann.register("Ann", "attacker=password")
            victim = w.client("de")
            form = '{"name": "Ann", "password": "attacker=password"}'
            for path in ("/ramsli/api/login", "/api/login", "/ramsli/api/players", "/api/players"):
                body = form if "login" in path else form.replace("Ann", "Mallory")
                r = await victim.http.post(path, content=body, headers={"Content-Type": "text/plain"})
                assert (r.status_code, r.json()["error"]) == (415, "json_only"), (path, r.text)
                assert "JSON" in r.json()["message"]
                assert "ramsli_login" not in victim.http.cookies, path
            assert (await victim.http.get("/ramsli/api/me")).json()["player"] is None
            assert [p[1] for p in await _players(w)] == ["Ann"]  # no Mallory
            # JSON still logs in, under the prefix
            status, answer = await victim.call(
                "POST", "/ramsli/api/login", {"name": "Ann", "password": "attacker=password"}
            )
            assert status == 200 and answer["player"]["name"] == "Ann"

    asyncio.run(go())


def test_bad_names_and_passwords_are_refused_and_nothing_is_made(sqlite_url):
    """A name another player has, or a look-alike of it (case, spaces, Cyrillic or full-width
    letters: :func:`ramsli.session.name_key`, R2.2), a blank name, a bot's label, a password too short
    or too long, a form instead of JSON: each refused with its code, no player made."""

    async def go():
        async with World(sqlite_url) as w:
            await w.client().register("Ann")
            before = await _players(w)
            c = w.client("de")
            for name, password, status, code in [
                ("Ann", PASSWORD, 409, "player_name_taken"),
                (" aNN ", PASSWORD, 409, "player_name_taken"),
                ("\u0410nn", PASSWORD, 409, "player_name_taken"),  # Cyrillic A
                ("\uff21nn", PASSWORD, 409, "player_name_taken"),  # full-width A
                ("   ", PASSWORD, 422, "bad_name"),
                ("Bo\u200bb", PASSWORD, 422, "name_invisible"),  # issue 38.4: says why
                ("A\u200dnn", PASSWORD, 422, "name_invisible"),
                ("Bob" + "\u0301" * 18, PASSWORD, 422, "name_marks"),  # accents piled up ("Zalgo")
                ("\u0391nn", PASSWORD, 409, "player_name_taken"),  # Greek capital alpha (UTS #39 skeleton)
                ("x" * 25, PASSWORD, 422, "bad_name"),
                ("rules p4", PASSWORD, 422, "bot_name"),
                ("Bo", "short", 422, "password_short"),
                ("Bo", "y" * 257, 422, "password_long"),
            ]:
                got, answer = await c.call("POST", "/api/players", {"name": name, "password": password})
                assert (got, answer["error"]) == (status, code), (name, answer)
                assert PASSWORD not in json.dumps(answer)
            got, answer = await c.call("POST", "/api/players", {"name": "Аnn", "password": PASSWORD})
            assert answer["rule"] == "R2.2"
            assert (
                answer["message"]
                == "Der Name Аnn gehört schon einem Spieler oder sieht so aus (R2.2); wähle einen anderen (R2.2)"
            )
            r = await c.http.post("/api/players", data={"name": "Bo", "password": PASSWORD})  # a form
            assert (r.status_code, r.json()["error"]) == (415, "json_only")
            r = await c.http.post(
                "/api/login",
                content=json.dumps({"name": "Ann", "password": PASSWORD}),
                headers={"Content-Type": "text/plain"},
            )
            assert (r.status_code, r.json()["error"]) == (415, "json_only")  # no login from another site's form
            assert await _players(w) == before

    asyncio.run(go())


def test_login_refusals_and_floods(sqlite_url):
    """A wrong password and an unknown name get the same refusal (``401 login_failed``, no name in
    it) in the request's language; after :data:`NAME_FAILURES` wrong passwords for a name from an
    address, that address's logins of the name are refused (``429 login_flood``, even with the right password), and after
    :data:`ADDRESS_ATTEMPTS` attempts so are an address's; no login is made."""
    from ramsli.server.players.accounts import ADDRESS_ATTEMPTS, NAME_FAILURES

    async def go():
        async with World(sqlite_url) as w:
            await w.client().register("Ann", PASSWORD)
            await w.client().register("Bo", PASSWORD)
            c = w.client("nl")
            verified: list[str] = []

            class Counting(PasswordHasher):
                def verify(self, hash, password):
                    verified.append(hash)
                    return super().verify(hash, password)

            accounts = w.app.state.accounts
            cheap, accounts.hasher = accounts.hasher, Counting(time_cost=1, memory_cost=1024, parallelism=1)
            wrong = await c.call("POST", "/api/login", {"name": "Ann", "password": "not it at all"})
            assert (wrong[0], wrong[1]["error"], wrong[1]["fields"]) == (401, "login_failed", {})
            assert wrong[1]["message"] == "Verkeerde naam of verkeerd wachtwoord"
            unknown = await c.call("POST", "/api/login", {"name": "Nobody", "password": PASSWORD})
            assert unknown == wrong  # the same refusal: an unknown name is not told from a wrong password
            # the same work: one argon2id verification each (the unknown name's of a dummy hash)
            assert len(verified) == 2 and all(v.startswith("$argon2id$") for v in verified)
            accounts.hasher = cheap
            assert "ramsli_login" not in c.http.cookies
            for _ in range(NAME_FAILURES - 1):
                assert (await c.call("POST", "/api/login", {"name": "ann", "password": "guess"}))[0] == 401
            got, answer = await c.call("POST", "/api/login", {"name": "ANN", "password": PASSWORD})
            assert (got, answer["error"]) == (429, "login_flood") and answer["fields"]["seconds"] > 0
            ok = await c.call("POST", "/api/login", {"name": "Bo", "password": PASSWORD})  # another name still works
            assert ok[0] == 200
            attempts = 1 + 1 + NAME_FAILURES - 1 + 1  # the address's attempts so far (the refused one not counted)
            for _ in range(ADDRESS_ATTEMPTS - attempts):
                assert (await c.call("POST", "/api/login", {"name": "Bo", "password": PASSWORD}, csrf=False))[0] == 200
            got, answer = await c.call("POST", "/api/login", {"name": "Bo", "password": PASSWORD}, csrf=False)
            assert (got, answer["error"]) == (429, "login_flood")
            assert (
                len(await w.directory.logins_of((await w.directory.player_by_key("bo"))["id"]))
                == ADDRESS_ATTEMPTS - attempts + 2  # and its own and the first
            )

    asyncio.run(go())


def test_a_wrong_password_flood_from_one_address_does_not_lock_the_owner_out(sqlite_url):
    """A tester's finding: failing :data:`NAME_FAILURES` logins on purpose locked a name for ten
    minutes, its owner too. The name's failures count per address: the flooding address is refused
    (``429 login_flood``, even with the right password), the owner logs in from another address, and
    an IPv6 attacker's neighbours in the same /64 count as one address."""
    from ramsli.server.players.accounts import NAME_FAILURES

    async def go():
        async with World(sqlite_url) as w:
            await w.client().register("Ann", PASSWORD)
            stranger = w.client("de", address="198.51.100.9")
            for _ in range(NAME_FAILURES):
                got, answer = await stranger.call("POST", "/api/login", {"name": "Ann", "password": "a guess!"})
                assert (got, answer["error"]) == (401, "login_failed")
            got, answer = await stranger.call("POST", "/api/login", {"name": "ann", "password": PASSWORD})
            assert (got, answer["error"]) == (429, "login_flood") and answer["fields"]["seconds"] > 0
            assert answer["message"].startswith("Zu viele Anmeldeversuche")
            owner = w.client(address="203.0.113.20")
            got, answer = await owner.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
            assert got == 200 and answer["player"]["name"] == "Ann" and "ramsli_login" in owner.http.cookies
            # an IPv6 /64 is one address: a neighbour of a flooding address is refused too
            for i in range(NAME_FAILURES):
                v6 = w.client(address=f"2001:db8:5:6::{i + 1}")
                assert (await v6.call("POST", "/api/login", {"name": "Ann", "password": "a guess!"}))[0] == 401
            neighbour = w.client(address="2001:db8:5:6:ffff::1")
            assert (await neighbour.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD}))[0] == 429
            other_net = w.client(address="2001:db8:5:7::1")
            assert (await other_net.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD}))[0] == 200

    asyncio.run(go())


def test_csrf_forged_and_expired_cookies_change_nothing(sqlite_url):
    """A state-changing request with the login cookie but without its CSRF token, or with another,
    is refused before any route runs (``403 csrf_missing``); a forged cookie is ``401 login_unknown``
    and an expired one ``401 login_expired``, and the answer removes the cookies; nothing changes."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client("it")
            await ann.register("Ann")
            for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": ann.csrf[:-1] + "x"}):
                r = await ann.http.post("/api/clubs", json={"name": "Zur Linde"}, headers=headers)
                assert (r.status_code, r.json()["error"]) == (403, "csrf_missing")
                r = await ann.http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2}, headers=headers)
                assert r.status_code == 403
            assert r.json()["message"].startswith("Questa richiesta porta il tuo accesso")
            pid = (await ann.ok("GET", "/api/me"))["player"]["id"]
            assert await w.directory.clubs_of(pid) == [] and not w.hub.tables
            # a forged cookie
            forger = w.client("de")
            forger.http.cookies.set("ramsli_login", "forged-cookie-value", domain="127.0.0.1")
            r = await forger.http.get("/api/me")
            assert (r.status_code, r.json()["error"]) == (401, "login_unknown")
            assert r.json()["message"].startswith("Diese Anmeldung ist unbekannt")
            assert any(c.startswith('ramsli_login=""') or "Max-Age=0" in c for c in r.headers.get_list("set-cookie"))
            from ramsli.server.players.accounts import csrf_of

            assert "ramsli_login" not in forger.http.cookies  # removed by the answer
            forger.http.cookies.set("ramsli_login", "forged-cookie-value", domain="127.0.0.1")
            r = await forger.http.post(
                "/api/clubs", json={"name": "X"}, headers={"X-CSRF-Token": csrf_of("forged-cookie-value")}
            )
            assert (r.status_code, r.json()["error"]) == (401, "login_unknown")
            assert r.json()["message"].startswith("Diese Anmeldung ist unbekannt")
            assert await _players(w) == [(pid, "Ann", "ann")] and not w.hub.tables
            # an expired login: the server's clock a month on
            w.app.state.accounts.clock = lambda: time.time() + 31 * 86400
            status, answer = await ann.call("POST", "/api/clubs", {"name": "Zur Linde"})
            assert (status, answer["error"]) == (401, "login_expired")
            assert answer["message"] == "Il tuo accesso è scaduto; accedi di nuovo"
            assert await w.directory.clubs_of(pid) == [] and await w.directory.logins_of(pid) == []

    asyncio.run(go())


def test_logins_are_listed_and_ended_from_any_device(sqlite_url):
    """Ann logs in on a phone and a laptop: each lists both; the laptop ends the phone's login (the
    phone is logged out), then ends every other; logging out ends this one; a login of another
    player cannot be ended (``404 no_login``)."""

    async def go():
        async with World(sqlite_url) as w:
            laptop, phone, bo = w.client(), w.client(), w.client()
            await laptop.register("Ann", PASSWORD)
            await bo.register("Bo", PASSWORD)
            phone.http.headers["User-Agent"] = "Phone browser"
            await phone.ok("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
            mine = await laptop.ok("GET", "/api/me/logins")
            assert len(mine) == 2 and sum(x["current"] for x in mine) == 1
            other = next(x for x in mine if not x["current"])
            assert other["agent"] == "Phone browser" and other["expires"] > other["created"]
            bos = await bo.ok("GET", "/api/me/logins")
            status, answer = await bo.call("DELETE", f"/api/me/logins/{other['login']}")
            assert (status, answer["error"]) == (404, "no_login")
            assert (await phone.call("GET", "/api/me"))[0] == 200
            await laptop.ok("DELETE", f"/api/me/logins/{other['login']}")
            status, answer = await phone.call("GET", "/api/me")
            assert (status, answer["error"]) == (401, "login_unknown")
            await phone.ok("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
            assert (await laptop.ok("POST", "/api/me/logins/end-others"))["ended"] == 1
            assert (await phone.call("GET", "/api/me"))[0] == 401
            await laptop.ok("POST", "/api/logout")
            assert (await laptop.ok("GET", "/api/me")) == {"player": None}  # a guest again
            assert await bo.ok("GET", "/api/me/logins") == bos
            # a new password ends the other logins too
            await phone.ok("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
            await laptop.ok("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
            status, answer = await laptop.call(
                "POST", "/api/me/password", {"password": "nope", "new_password": "another password"}
            )
            assert (status, answer["error"]) == (401, "wrong_password")
            status, answer = await laptop.call(
                "POST", "/api/me/password", {"password": PASSWORD, "new_password": "short"}
            )
            assert (status, answer["error"]) == (422, "password_short")
            await laptop.ok("POST", "/api/me/password", {"password": PASSWORD, "new_password": "another password"})
            assert (await phone.call("GET", "/api/me"))[0] == 401
            assert (await w.client().call("POST", "/api/login", {"name": "Ann", "password": PASSWORD}))[0] == 401
            assert (await w.client().call("POST", "/api/login", {"name": "Ann", "password": "another password"}))[
                0
            ] == 200

    asyncio.run(go())


def test_a_player_downloads_their_data_and_deletes_the_player(sqlite_url):
    """The download holds the player, logins (no token), clubs, seats and sessions; deleting needs the
    password, ends every login and membership, and the club's season shows the seats as a former
    player's (``name`` null); the name is free again and others' ratings stay as they were."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            made = await w.club_table(
                ann, club, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
            )
            for i, who in enumerate((ann, bo)):
                await who.ok(
                    "POST", f"/api/tables/{made['table']}/sit", {"token": made["seats"][i]["token"], "name": "x"}
                )
            await ann.ok("POST", f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
            await w.finish(made["table"])
            data = await bo.ok("GET", "/api/me/data")
            assert data["clubs"] == [{"id": club, "name": "Zur Linde", "role": "member"}]
            assert [s["table_id"] for s in data["seats"]] == [made["table"]] and data["sessions"][0]["seats"][0][
                "seat"
            ] == 1
            assert data["ratings"]["server"]["sessions"] == 1 and len(data["logins"]) == 1
            ann_rating = (await w.directory.ratings("server"))[(await ann.ok("GET", "/api/me"))["player"]["id"]]
            status, answer = await bo.call("DELETE", "/api/me", {"password": "not mine"})
            assert (status, answer["error"]) == (401, "wrong_password")
            assert (await bo.ok("GET", "/api/me"))["player"]["name"] == "Bo"
            await bo.ok("DELETE", "/api/me", {"password": "a good password"})
            assert (await bo.call("GET", "/api/me"))[0] in (200, 401)
            season = await ann.ok("GET", f"/api/clubs/{club}/seasons/current")
            assert [r["name"] for r in season["rows"]] in (["Ann", None], [None, "Ann"])
            assert season["sessions"][0]["seats"][1]["name"] is None  # shown as "a former player"
            assert [m["name"] for m in (await ann.ok("GET", f"/api/clubs/{club}"))["members"]] == ["Ann"]
            assert (await w.directory.ratings("server"))[(await ann.ok("GET", "/api/me"))["player"]["id"]] == ann_rating
            again = w.client()
            await again.register("Bo")  # the name is free again
            status, _ = await w.client().call("POST", "/api/login", {"name": "Bo", "password": "a good password"})
            assert status == 200  # the new Bo
            assert "Bo" not in json.dumps(await ann.ok("GET", f"/api/clubs/{club}/sessions/{made['table']}"))

    asyncio.run(go())


def test_the_server_wide_ratings_list_only_players_who_opted_in(sqlite_url):
    """Every finished session between players and bots is rated server-wide; ``GET /api/ratings``
    lists the bots and the players who opted in (``listed``), and a player may change their mind."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo = w.client(), w.client()
            await ann.register("Ann", listed=True)
            await bo.register("Bo")
            made = await w.club_table(ann, None, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}])
            for i, who in enumerate((ann, bo)):
                await who.ok(
                    "POST", f"/api/tables/{made['table']}/sit", {"token": made["seats"][i]["token"], "name": "x"}
                )
            await ann.ok("POST", f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
            await w.finish(made["table"])
            listed = (await w.client().ok("GET", "/api/ratings"))["ratings"]
            assert sorted(r["name"] for r in listed) == ["Ann", "easy"]
            easy = next(r for r in listed if r["bot"])
            assert easy["sessions"] == 1 and easy["uncertainty"] < 8  # the calibrated bot: a small σ
            await bo.ok("PUT", "/api/me", {"listed": True})
            await ann.ok("PUT", "/api/me", {"listed": False})
            listed = (await w.client().ok("GET", "/api/ratings"))["ratings"]
            assert sorted(r["name"] for r in listed) == ["Bo", "easy"]
            orders = [r["order"] for r in listed]
            assert orders == sorted(orders, reverse=True)

    asyncio.run(go())


def test_a_password_over_the_limit_is_password_long_everywhere(sqlite_url):
    """docs/clubs.md: a password has at most 256 characters, refused with ``password_long``. One of
    2,000 characters was ``field_long`` (a cap of 1,024 in the schema); a login with one over 256
    was a plain ``login_failed``: both are ``password_long`` now, with the limit, in German too."""

    async def go():
        async with World(sqlite_url) as w:
            await w.client().register("Ann")
            c = w.client("de")
            for password in ("y" * 257, "y" * 2000):
                got, answer = await c.call("POST", "/api/players", {"name": "Bo", "password": password})
                assert (got, answer["error"]) == (422, "password_long"), answer
                assert "256" in answer["message"] and password not in json.dumps(answer)
                got, answer = await c.call("POST", "/api/login", {"name": "Ann", "password": password})
                assert (got, answer["error"]) == (422, "password_long"), answer
            got, answer = await c.call("POST", "/api/login", {"name": "Ann", "password": "y" * 256})
            assert (got, answer["error"]) == (401, "login_failed")

    asyncio.run(go())
