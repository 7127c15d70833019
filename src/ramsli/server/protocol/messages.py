"""What the server says when it refuses: refusal codes, their texts, and the error answers.

Every refusal of the server is a :class:`~ramsli.refusal.Refusal` (a stable code, the rule id,
the fields of its message), raised as :class:`~ramsli.refusal.Refused`. This module declares the
server's codes as data, one table per concern (:data:`SERVER`, :data:`SCHEMA_CODES`,
:data:`TABLES`, :data:`LOBBY`, :data:`PLAYERS`, :data:`CLUBS`, :data:`BOOKS`, :data:`EVENINGS`,
:data:`CHALLENGE`): code ->
:class:`~ramsli.refusal.RefusalText`, the English text (a gettext msgid, translated in the
``ramsli`` catalogs) and the HTTP status. :data:`REFUSALS` gathers them with the engine's and the
bots' codes, :data:`STATUS` their statuses; and it turns any refusal into the error a client
reads (``docs/protocol.md``, *Errors*):

- :func:`render`: the text of a refusal in one language, by its code
  (:func:`ramsli.frontends.i18n.render_refusal` with that language's catalog; the process's
  own language is never switched, so two requests in two languages are each answered in their
  own);
- :func:`answer`: the *protocol code* of an error and the refusal its message is rendered
  from. Most refusals are answered under their own code (``stale_seq``, ``bad_token``); an
  illegal action is answered as ``illegal`` with the engine's record (``must_follow``), a
  malformed message as ``bad_message`` with the schema's record (``field_missing``), a refused
  pub-ledger hand as ``refused`` with the ledger's record (``tricks_sum``), a table or ledger
  that cannot be made as ``bad_spec``;
- :func:`error_frame` (a WebSocket ``error`` message) and :func:`error_body` (an HTTP error:
  status and JSON body): one shape for both since protocol version :data:`PROTOCOL_VERSION`
  (``error`` the protocol code, ``code`` the refusal's code, ``rule``, ``fields``, ``message``);
  the server announces the version in its ``welcome``.

>>> from ramsli.refusal import Refusal, Refused
>>> render(Refusal("stale_seq", None, {"seq": 4}), "de")
'Der Tisch ist schon weiter (jetzt bei 4); spiele auf dem aktuellen Stand'
>>> frame = error_frame(ProtocolRefusal(Refusal("must_follow", "R4.10", {"suit": "H"}), "illegal"), "en", seq=7)
>>> frame["error"], frame["code"], frame["rule"], frame["seq"], frame["message"]
('illegal', 'must_follow', 'R4.10', 7, 'Must follow suit: play ♥ (R4.10)')
>>> status, body = error_body(Refused(Refusal("no_table", None, {"table": "k3"})), "nl")
>>> status, body["error"], body["code"], body["fields"], body["message"]
(404, 'no_table', 'no_table', {'table': 'k3'}, 'Er is geen tafel k3')
>>> sorted(set(frame) - set(body))
['refusal', 'seq', 'type']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ramsli.bots.refusals import REFUSALS as BOT_REFUSALS
from ramsli.errors import IllegalActionError, SessionError
from ramsli.errors import TableError as EngineTableError
from ramsli.frontends import i18n
from ramsli.ledger import LedgerError
from ramsli.refusal import N_, Refusal, RefusalText, Refused, collect
from ramsli.refusal import REFUSALS as ENGINE_REFUSALS

__all__ = [
    "rules_refusal",
    "ProtocolRefusal",
    "SpecError",
    "BadMessage",
    "DroppedIntent",
    "REFUSALS",
    "STATUS",
    "SERVER",
    "SCHEMA_CODES",
    "TABLES",
    "LOBBY",
    "PLAYERS",
    "CLUBS",
    "BOOKS",
    "EVENINGS",
    "CHALLENGE",
    "answer",
    "render",
    "error_frame",
    "error_body",
    "PROTOCOL_VERSION",
]

#: the version of the table protocol this server speaks (``docs/protocol.md``), sent in every
#: ``welcome``: 2 is the one error shape of HTTP and WebSocket (``code`` always the refusal's)
PROTOCOL_VERSION = 2


class ProtocolRefusal(Refused):
    """A refusal answered under another protocol code than its own.

    Args:
        refusal: the record the message is rendered from (the engine's ``must_follow``, the
            schema's ``field_missing``, ...).
        protocol: the protocol code of the error (``illegal``, ``bad_message``, ``bad_action``,
            ``bad_spec``, ``refused``, ``bad_token``; ``docs/protocol.md``).

    Attributes:
        refusal (Refusal), protocol (str): as given.

    >>> e = ProtocolRefusal(Refusal("field_missing", None, {"field": "seq"}), "bad_message")
    >>> e.protocol, e.refusal.code, str(e)
    ('bad_message', 'field_missing', 'seq is missing')
    """

    def __init__(self, refusal: Refusal, protocol: str) -> None:
        super().__init__(refusal)
        self.args = (
            f"{refusal.text(texts=REFUSALS)} ({refusal.rule})" if refusal.rule else refusal.text(texts=REFUSALS),
        )
        self.protocol = protocol


class SpecError(ProtocolRefusal):
    """A table or ledger the server cannot make (protocol code ``bad_spec``); nothing is stored.

    The message (English; the answer renders it in the request's language) names the field
    or the rule, and what is allowed.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal, "bad_spec")


class BadMessage(ProtocolRefusal):
    """A message or request body that does not have its declared shape (protocol code
    ``bad_message``; :mod:`ramsli.server.protocol.schemas`): not JSON, too big, empty, a field missing,
    of the wrong type or unknown. Nothing was applied."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal, "bad_message")


class DroppedIntent(ProtocolRefusal):
    """An ``act`` the rate limit dropped (protocol code ``rate_limited``, refusal
    ``rate_limited_act``; docs/protocol.md): its ``error`` frame names the intent, so that the
    client may send it again: ``action`` (the action text sent, at most 40 characters) and
    ``intent_seq`` (the ``seq`` the act carried, None unless an int). :func:`error_frame` puts
    both into the frame it builds, so every transport carries them.

    Args:
        action: the ``action`` field of the dropped message, as sent (anything; cut to 40 characters).
        intent_seq: its ``seq`` field (anything; kept only if an int, not a bool).
        limit: the rate limit, messages a second.

    >>> e = DroppedIntent("p1 in", 7, 20)
    >>> e.protocol, e.refusal.code, e.action, e.intent_seq
    ('rate_limited', 'rate_limited_act', 'p1 in', 7)
    >>> DroppedIntent(None, True, 20).intent_seq is None
    True
    """

    def __init__(self, action: object, intent_seq: object, limit: int) -> None:
        self.action = str(action)[:40]
        self.intent_seq = intent_seq if type(intent_seq) is int else None
        super().__init__(Refusal("rate_limited_act", None, {"limit": limit, "action": self.action}), "rate_limited")


# -- the server's codes (the protocol's error codes, docs/protocol.md), declared as data ------------

#: the server's own codes: connections, tables, the hint, the coach, the pub ledger, hosting, pages
SERVER: Mapping[str, RefusalText] = {
    "bad_json": RefusalText(N_("the message is not a JSON object with a type")),
    "too_big": RefusalText(N_("the message is longer than {limit} bytes and was ignored")),
    "unknown_type": RefusalText(
        N_("unknown message type {kind}; allowed are hello, act, ping, chat, react, ready, leave")
    ),
    "hello_twice": RefusalText(N_("hello was already said on this connection")),
    "hello_table": RefusalText(N_("this connection is for another table than {table}; connect to /ws/{table}")),
    "no_hello": RefusalText(N_("say hello with your seat token first")),
    "bad_token": RefusalText(N_("this token belongs to no seat of this table; use your invite link"), status=403),
    "no_table": RefusalText(N_("there is no table {table}"), status=404),
    "table_broken": RefusalText(
        N_("table {table} could not be restored from the database and is unavailable"), status=503
    ),
    "replaced": RefusalText(N_("your seat was opened in another window; this one is closed")),
    "rate_limited": RefusalText(N_("too many messages; at most {limit} a second")),
    "rate_limited_act": RefusalText(
        N_("too many messages (at most {limit} a second): {action} was not played; send it again")
    ),
    "spectator": RefusalText(N_("a spectator cannot act")),
    "not_sitting": RefusalText(
        N_("this link does not play a seat: sit down with it first, or open the link you sat down with")
    ),
    "pending_seat": RefusalText(N_("you take over seat {seat} from the next hand; until then a bot plays it")),
    "seat_taken": RefusalText(N_("someone already sits at seat {seat}; open the link you sat down with"), status=409),
    "not_started": RefusalText(N_("the session has not started yet")),
    "started": RefusalText(N_("the session has already started"), status=409),
    "stale_seq": RefusalText(N_("the table has moved on (now at {seq}); act on the current view")),
    "not_your_seat": RefusalText(N_("you play seat {seat} only")),
    "name_taken": RefusalText(N_("the name {name} is already at this table"), status=409),
    "bad_spec": RefusalText(N_("the table cannot be made: {detail}"), status=422),
    "no_hand": RefusalText(N_("hand {number} is not finished or does not exist"), status=404),
    "storage": RefusalText(N_("the table could not save this move; nothing changed, try again"), status=503),
    # making a table (POST /api/tables)
    "bad_bot": RefusalText(N_("seat {seat}: {detail}")),
    "bot_file": RefusalText(
        N_(
            "seat {seat}: the bot option {option} names a file on the server; a table's bots use "
            "the policies shipped with ramsli"
        )
    ),
    "bot_not_allowed": RefusalText(
        N_(
            "seat {seat}: the bot {bot} comes from the installed {origin}; this server seats it only "
            "when started with --allow-bot {bot}"
        )
    ),
    "seed_off": RefusalText(
        N_(
            "a seed is accepted only when the server runs with --allow-test-seeds "
            "(tables of real play shuffle with secrets.SystemRandom)"
        )
    ),
    "tamper_off": RefusalText(
        N_(
            "test_tamper is accepted only with a seed, on a server run with --allow-test-seeds "
            "(it makes a table that cheats, to test the deal checks)"
        )
    ),
    # the "should I stay in?" hint
    "hint_off": RefusalText(N_("the creator of this table did not allow the hint"), status=403),
    "no_lab": RefusalText(N_("the hint needs the lab extra: pip install -e '.[lab]' (NumPy and Numba)"), status=501),
    "no_hint": RefusalText(N_("the hint is for your own turn to declare"), status=409),
    "hint_busy": RefusalText(N_("a hint for this seat is being computed; ask again when it is done"), status=429),
    "hints_busy": RefusalText(N_("the coach is computing {limit} hints already; try again in {seconds} s"), status=429),
    "hint_failed": RefusalText(N_("the hint cannot be computed for this position"), status=409),
    # the coach (docs/coach.md)
    "no_review": RefusalText(
        N_("the session review is for a seat's own player: open it with the link you sat down with"), status=403
    ),
    "no_seat": RefusalText(N_("there is no seat {seat} at this table; the seats are p1 to {last}"), status=404),
    "coach_busy": RefusalText(N_("the coach has {limit} reviews to do already; ask again in a minute"), status=429),
    "train_busy": RefusalText(
        N_("the coach has {limit} training positions to value already; try again in {seconds} s"), status=429
    ),
    "coach_flood": RefusalText(
        N_("too many requests to the coach from your address: at most {limit} a minute; try again in {seconds} s"),
        status=429,
    ),
    "review_failed": RefusalText(
        N_("the coach could not review this hand this time; ask again and it tries once more"), status=409
    ),
    "no_game": RefusalText(N_("the coach has no solved game {game}; the games are {allowed}"), status=404),
    "no_position": RefusalText(
        N_("there is no such position (or no hand of your tables left to train on)"), status=404
    ),
    # the pub ledger (docs/ledger.md)
    "no_ledger": RefusalText(N_("there is no ledger {ledger}"), status=404),
    "not_keeper": RefusalText(N_("this link does not keep this ledger; the keeper's link does")),
    "bad_link": RefusalText(N_("this link does not belong to this ledger")),
    "bad_options": RefusalText(N_("the ledger cannot be made: {detail}")),
    "first_dealer_range": RefusalText(N_("the first dealer is a seat 0 to {last}")),
    # hosting: several processes, draining, limits, the admin (docs/deploy.md)
    "moved": RefusalText(
        N_("table {table} is moving to another server process; your page reconnects by itself"), status=503
    ),
    "draining": RefusalText(
        N_("this server is shutting down and takes no new table; try again in a moment"), status=503
    ),
    "table_closed": RefusalText(N_("table {table} was closed by the server's admin"), status=410),
    "too_many_new": RefusalText(
        N_("too many new tables from your address: at most {limit} a minute; try again in {seconds} s"), status=429
    ),
    "body_slow": RefusalText(N_("the request's body did not come whole within {seconds} s; send it again"), status=408),
    "too_many_connections": RefusalText(
        N_("too many open connections from your address: at most {limit}; close a page or try again in {seconds} s"),
        status=429,
    ),
    "admin_token": RefusalText(N_("this needs the server's admin token"), status=401),
    "no_admin": RefusalText(N_("this server has no admin token set (ramsli serve --admin-token-file)"), status=403),
    # pages and files
    "no_file": RefusalText(N_("there is no file {name}"), status=404),
    "no_lang": RefusalText(N_("there is no language {lang}; allowed are {allowed}"), status=404),
    "no_page": RefusalText(N_("there is no page {path}"), status=404),
    "no_method": RefusalText(N_("{path} does not take {method}"), status=405),
}

#: the schema's codes (:mod:`ramsli.server.protocol.schemas`): a message or body of the wrong shape,
#: answered as ``bad_message``. ``field`` is the field's path in the message (``seats[1].bot``).
SCHEMA_CODES: Mapping[str, RefusalText] = {
    "body_too_big": RefusalText(N_("the request body is over {limit} bytes")),
    "not_json": RefusalText(N_("the request body is not JSON (or nested too deeply)")),
    "body_empty": RefusalText(N_("the request body is empty; send a JSON object")),
    "body_object": RefusalText(N_("the request body must be a JSON object")),
    "field_missing": RefusalText(N_("{field} is missing")),
    "field_unknown": RefusalText(N_("{field} is not a field here; allowed are {allowed}")),
    "field_twice": RefusalText(N_("{field} is given twice; give each field once")),
    "field_unknown_none": RefusalText(N_("{field} is not a field here; this request takes no fields")),
    "field_int": RefusalText(N_("{field} must be a whole number")),
    "field_number": RefusalText(N_("{field} must be a number")),
    "field_text": RefusalText(N_("{field} must be text")),
    "field_bool": RefusalText(N_("{field} must be true or false")),
    "field_list": RefusalText(N_("{field} must be a list")),
    "field_object": RefusalText(N_("{field} must be an object")),
    "field_choice": RefusalText(N_("{field} must be one of {allowed}")),
    "field_min": RefusalText(N_("{field} must be at least {limit}")),
    "field_above": RefusalText(N_("{field} must be more than {limit}")),
    "field_max": RefusalText(N_("{field} must be at most {limit}")),
    "field_below": RefusalText(N_("{field} must be less than {limit}")),
    "field_long": RefusalText(N_("{field} may be at most {limit} characters long")),
    "field_many": RefusalText(N_("{field} may have at most {limit} entries")),
    "field_few": RefusalText(N_("{field} needs at least {limit} entries")),
    "field_invalid": RefusalText(N_("{field} is not valid")),
    "query_range": RefusalText(N_("{field} must be a whole number from {least} to {most}")),
    "seat_key": RefusalText(N_("{field}: {given} is not a seat number (0, 1, 2, …)")),
    "seat_twice": RefusalText(N_("{field} gives seat {number} twice, as {given}")),
    "human_bot": RefusalText(N_("{field}: a human seat has no bot")),
}


#: the tables' refusals (:mod:`ramsli.server.tables`: chat, seats, rematch)
TABLES: Mapping[str, RefusalText] = {
    "chat_empty": RefusalText(N_("a chat message needs some text")),
    "chat_long": RefusalText(N_("a chat message is at most {limit} characters")),
    "chat_code": RefusalText(N_("there is no reaction or phrase {code}")),
    "chat_flood": RefusalText(N_("you are chatting too fast; wait {seconds} s"), status=429),
    "seat_left": RefusalText(N_("seat {seat} left the table as bust; nobody can take it over"), status=409),
    "not_a_bot_seat": RefusalText(
        N_("a person plays seat {seat}; only a seat a bot plays can be taken over"), status=409
    ),
    "seat_kept": RefusalText(
        N_("seat {seat} is kept for a player of the last session; only their own invite link takes it"), status=403
    ),
    "not_away": RefusalText(
        N_("the person at seat {seat} is at the table; only an away seat can go to the bot"), status=409
    ),
    "not_over": RefusalText(N_("the session is not over yet; play again at its end"), status=409),
    "left": RefusalText(N_("you left the table; a bot plays your seat until you come back")),
    "table_paused": RefusalText(
        N_("the evening's director has paused this table; play goes on when the director says so"), status=409
    ),
}


#: the lobby's refusals (:mod:`ramsli.server.tables.lobby`)
LOBBY: Mapping[str, RefusalText] = {
    "not_open": RefusalText(N_("table {table} is not open to anyone; ask its creator for an invite link"), status=403),
    "no_free_seat": RefusalText(N_("table {table} has no free seat; watch it, or choose another"), status=409),
}


#: the players' refusals (:mod:`ramsli.server.players.accounts`: logins, passwords)
PLAYERS: Mapping[str, RefusalText] = {
    "not_logged_in": RefusalText(N_("log in as a player first"), status=401),
    "login_unknown": RefusalText(
        N_("this login is not known (it was ended, or the cookie is not ours); log in again"), status=401
    ),
    "login_expired": RefusalText(N_("your login has expired; log in again"), status=401),
    "csrf_missing": RefusalText(
        N_("this request carries your login but not the page's safety token (CSRF); reload the page and try again"),
        status=403,
    ),
    "json_only": RefusalText(N_("send this request as JSON (Content-Type: application/json)"), status=415),
    "login_failed": RefusalText(N_("wrong name or password"), status=401),
    "wrong_password": RefusalText(N_("wrong password for {name}"), status=401),
    "player_name_taken": RefusalText(
        N_("the name {name} is already a player's, or looks like one (R2.2); choose another name"), status=409
    ),
    "password_short": RefusalText(N_("a password has at least {min} characters"), status=422),
    "password_long": RefusalText(N_("a password has at most {max} characters"), status=422),
    "login_flood": RefusalText(N_("too many login attempts; try again in {seconds} seconds"), status=429),
    "signup_flood": RefusalText(
        N_("too many new players from your address; try again in {seconds} seconds"), status=429
    ),
    "no_login": RefusalText(N_("you have no login {login}"), status=404),
}


#: the clubs' refusals (:mod:`ramsli.server.clubs`: members, invites, seasons)
CLUBS: Mapping[str, RefusalText] = {
    "no_club": RefusalText(N_("there is no club {club}"), status=404),
    "not_member": RefusalText(N_("only members of this club see it; ask a member for an invite link"), status=403),
    "not_owner": RefusalText(N_("only the club's owner may do this"), status=403),
    "no_invite": RefusalText(N_("this invite link is not known; ask the club for a new one"), status=404),
    "invite_revoked": RefusalText(N_("this invite link was revoked; ask the club for a new one"), status=410),
    "already_member": RefusalText(N_("you are already a member of {club}"), status=409),
    "bad_club_name": RefusalText(
        N_("a club or season name is 1 to {max} characters of text without control characters"), status=422
    ),
    "bad_date": RefusalText(N_("{field} must be a date written YYYY-MM-DD"), status=422),
    "season_order": RefusalText(N_("a season ends on or after the day it starts"), status=422),
    "season_overlap": RefusalText(
        N_("the season overlaps the season {name}; seasons of a club do not overlap"), status=409
    ),
    "no_season": RefusalText(N_("this club has no season {season}"), status=404),
    "no_record": RefusalText(N_("this club has no finished session {table}"), status=404),
    "claim_not_seat": RefusalText(N_("this is not the token you sat down with at table {table}"), status=403),
    "seat_claimed": RefusalText(N_("seat {seat} of this table is already linked to a player"), status=409),
    "already_seated": RefusalText(N_("you already sit at seat {seat} of this table"), status=409),
    "owner_leaves": RefusalText(N_("the owner cannot leave a club with other members"), status=409),
}


#: the club ledgers' refusals (:mod:`ramsli.server.ledger.books`)
BOOKS: Mapping[str, RefusalText] = {
    "players_need_club": RefusalText(
        N_("players are linked to a ledger's seats only in a club's ledger (give its club)"), status=422
    ),
    "players_count": RefusalText(N_("players gives {count} seats; the ledger has {seats}"), status=422),
    "not_a_member": RefusalText(N_("the player {player} is not a member of this club"), status=422),
    "player_twice": RefusalText(N_("a player keeps one seat only: {player} is given twice"), status=422),
    "not_named": RefusalText(N_("you are not named at a seat of this ledger; only its players confirm it"), status=403),
    "confirm_not_over": RefusalText(
        N_("this ledger's session is still being played; confirm it after its end"), status=409
    ),
    "confirm_closed": RefusalText(
        N_("the time to confirm this session ended {days} days after its end; it stays unrated"), status=409
    ),
}

#: the evenings' refusals (:mod:`ramsli.server.evenings`: check-in, the director, rounds; issue 34)
EVENINGS: Mapping[str, RefusalText] = {
    "no_evening": RefusalText(N_("there is no evening {evening}"), status=404),
    "bad_evening_name": RefusalText(
        N_("an evening's name is 1 to {max} characters of text without control characters"), status=422
    ),
    "not_director": RefusalText(N_("only the evening's director may do this"), status=403),
    "evening_closed": RefusalText(N_("this evening is closed; nothing can change any more"), status=409),
    "already_checked_in": RefusalText(N_("you are already checked in to this evening"), status=409),
    "in_other_evening": RefusalText(
        N_("you are checked in to the evening {name}, which is running; check out there first"), status=409
    ),
    "playing_elsewhere": RefusalText(
        N_("{name} is playing a round of the evening {evening} now; withdraw them here or wait until that round ends"),
        status=409,
    ),
    "evening_full": RefusalText(N_("this evening is full: at most {max} participants (people and bots)"), status=409),
    "evening_ledger_end": RefusalText(
        N_("a real-card table of an evening ends after its {hands} hands; {played} are booked"), status=409
    ),
    "not_checked_in": RefusalText(N_("you are not checked in to this evening"), status=409),
    "round_running": RefusalText(
        N_("round {round} is still being played; wait until every table of it has finished"), status=409
    ),
    "too_few": RefusalText(N_("{count} participants are too few for a round; a table needs at least 3"), status=409),
    "no_more_rounds": RefusalText(N_("all {rounds} rounds of this evening have been played"), status=409),
    "duplicate_online_only": RefusalText(
        N_(
            "a duplicate evening is played at online tables only: the server deals the same cards at every "
            "table, which real cards cannot do (not {mode})"
        ),
        status=422,
    ),
    "not_duplicate": RefusalText(
        N_("this evening is not a duplicate evening: its tables play different deals"), status=409
    ),
    "no_deal": RefusalText(N_("round {round} has no deal {hand}"), status=404),
    "deal_not_played": RefusalText(
        N_(
            "your table has not played deal {hand} of round {round} yet; the other tables' results of a deal "
            "are shown once your own table has played it"
        ),
        status=409,
    ),
    "field_after_round": RefusalText(
        N_(
            "round {round} is still being played; its deals' results are shown to those not seated in it "
            "once every table has finished"
        ),
        status=409,
    ),
    "bad_starts": RefusalText(
        N_("{field} must be a date and time with its offset, written like 2026-12-10T20:00+01:00"), status=422
    ),
    "members_need_club": RefusalText(N_("only a club's evening can be for members only (give its club)"), status=422),
    "recurring_needs_club": RefusalText(N_("only a club's evening can repeat every week (give its club)"), status=422),
    "evening_end_rule": RefusalText(
        N_("leave the end option out: an evening's tables end after the hands of a round"), status=422
    ),
    "no_participant": RefusalText(N_("{participant} is not a participant of this evening"), status=404),
    "bad_level": RefusalText(N_("there is no bot level {level}; the levels are {levels}"), status=422),
    "cards_no_bots": RefusalText(
        N_("an evening played with real cards has no substitute bots; a bot cannot hold real cards"), status=409
    ),
    "bot_at_cards": RefusalText(
        N_("{asked} tables were asked to play with real cards, but only {free} of this round seat no substitute bot"),
        status=409,
    ),
    "cards_only_mixed": RefusalText(
        N_("only a mixed evening names its real-card tables; this one plays {mode}"), status=422
    ),
    "no_evening_table": RefusalText(N_("this round has no table {table}"), status=404),
    "not_at_table": RefusalText(N_("{participant} does not sit at table {table} in this round"), status=409),
    "not_cards_table": RefusalText(N_("table {table} plays online; only a real-card table has a captain"), status=409),
    "table_done": RefusalText(N_("table {table} has finished this round"), status=409),
    "reseat_dealt": RefusalText(
        N_("table {table} has started playing; re-seat before a round's first deal or between rounds"), status=409
    ),
    "reseat_same": RefusalText(N_("a re-seat swaps two different participants"), status=422),
    "evening_playing": RefusalText(
        N_("tables of this evening are still playing; delete it when its round has finished"), status=409
    ),
    "no_evening_seat": RefusalText(N_("you have no table in this evening's round {round}"), status=404),
    "evening_busy": RefusalText(
        N_("someone changed this evening at the same moment; nothing of yours changed, try again"), status=409
    ),
}

#: the weekly challenge's refusals (:mod:`ramsli.server.challenge`; issue 35 item 3, D-21)
CHALLENGE: Mapping[str, RefusalText] = {
    "no_challenge_week": RefusalText(N_("there is no challenge week {week}; this week is {current}"), status=404),
    "no_challenge_deal": RefusalText(
        N_("the challenge of week {week} has no deal {deal}; it has deals 1 to {deals}"), status=404
    ),
    "challenge_tried": RefusalText(
        N_("you have played deal {deal} of week {week} already; each deal is played once"), status=409
    ),
    "challenge_closed": RefusalText(
        N_("the challenge of week {week} has closed; this week's deals are those of week {current}"), status=409
    ),
    "challenge_not_tried": RefusalText(
        N_(
            "play deal {deal} of week {week} first; everyone's results of a deal are shown after your own "
            "try, once the week has closed"
        ),
        status=409,
    ),
    "challenge_not_closed": RefusalText(
        N_("the results of week {week} are shown once the week has closed; until then nobody sees them"),
        status=409,
    ),
    "challenge_table": RefusalText(
        N_(
            "this is a weekly challenge table: its one hand is one player's try, so nobody else takes a seat and it is not played again"
        ),
        status=409,
    ),
}

#: the skill counters' refusals (:mod:`ramsli.server.clubs.skill`, issue 35 item 4)
SKILL: Mapping[str, RefusalText] = {
    "no_player": RefusalText(N_("there is no player {player}"), status=404),
    "skill_not_shared": RefusalText(
        N_("{name} has not chosen to share their skill counters; nothing is measured or shown for them"), status=403
    ),
}

#: every refusal code a client reads and its texts: the engine's, the bots', the server's and the
#: schema's (:func:`~ramsli.refusal.collect`; a code declared twice with different texts fails here)
REFUSALS: Mapping[str, RefusalText] = MappingProxyType(
    collect(
        ENGINE_REFUSALS,
        BOT_REFUSALS,
        SERVER,
        SCHEMA_CODES,
        TABLES,
        LOBBY,
        PLAYERS,
        CLUBS,
        BOOKS,
        EVENINGS,
        CHALLENGE,
        SKILL,
    )
)

#: HTTP status of each protocol code (400 for any other): the declared ``status`` of the server's
#: codes, and of the protocol codes under which other refusals are answered
STATUS: Mapping[str, int] = MappingProxyType(
    {code: t.status for code, t in REFUSALS.items() if t.status is not None}
    | {
        "bad_message": 422,
        "refused": 422,
        "session_over": 409,
        "bad_name": 422,
        "bot_name": 422,
        "name_invisible": 422,
        "name_marks": 422,
    }
)


def rules_refusal(error: Exception, code: str = "bad_spec") -> Refusal:
    """The refusal of a :class:`~ramsli.rules.RulesError` (a preset or an option the rules do not
    have, R6, R8): the engine's own record when it carries one, else ``code`` with the error's
    text as ``detail``."""
    refusal = getattr(error, "refusal", None)
    return refusal if isinstance(refusal, Refusal) else Refusal(code, None, {"detail": str(error)})


def answer(error: Exception) -> tuple[str, Refusal]:
    """The protocol code of ``error`` and the refusal its message is rendered from.

    ``error`` is a :class:`~ramsli.refusal.Refused` (a :class:`ProtocolRefusal` names its own
    protocol code), or an engine error carrying a refusal: an
    :class:`~ramsli.errors.IllegalActionError` is ``illegal``, a
    :class:`~ramsli.ledger.LedgerError` ``refused``, an engine
    :class:`~ramsli.errors.TableError` (a set-up the engine refuses) ``bad_spec``, a
    :class:`~ramsli.errors.SessionError` its own code.

    Raises:
        TypeError: for an exception that carries no refusal.
    """
    if isinstance(error, ProtocolRefusal):
        return error.protocol, error.refusal
    if isinstance(error, IllegalActionError):
        return "illegal", error.refusal
    if isinstance(error, LedgerError):
        return "refused", error.refusal
    if isinstance(error, EngineTableError):
        return "bad_spec", error.refusal
    if isinstance(error, (Refused, SessionError)):
        return error.refusal.code, error.refusal
    raise TypeError(f"{type(error).__name__} carries no refusal")


def render(refusal: Refusal, lang: str, reader: int | None = None) -> str:
    """The message of ``refusal`` in ``lang`` (``en``, ``de``, ``nl``, ``it``; English for
    another), with its rule id; ``reader`` is the reading seat (a refusal about that seat says
    "you"). The process's language is not touched."""
    return i18n.render_refusal(refusal, translations=i18n.translation(lang), reader=reader, texts=REFUSALS)


def error_frame(error: Exception, lang: str, seq: int | None = None, reader: int | None = None) -> dict[str, Any]:
    """The WebSocket ``error`` message of ``error`` in ``lang`` (protocol :data:`PROTOCOL_VERSION`):
    the body of :func:`error_body` — ``{"error": protocol code, "code", "rule", "fields": the
    refusal's record, "message"}`` — with ``"type": "error"``, ``"seq"`` (the table's ``seq``)
    when given, and the record again as ``"refusal"`` (the shape of version 1, where ``code`` was
    the protocol code; kept for one release). ``rule`` is null for a refusal of no rule. A
    :class:`DroppedIntent` adds ``"action"`` and ``"intent_seq"``, the act the rate limit dropped."""
    code, refusal = answer(error)
    record = refusal.to_dict()
    frame: dict[str, Any] = {
        "type": "error",
        "error": code,
        **record,
        "message": render(refusal, lang, reader),
        "refusal": record,
    }
    if seq is not None:
        frame["seq"] = seq
    if isinstance(error, DroppedIntent):  # the intent dropped, named in the frame itself
        frame["action"] = error.action
        frame["intent_seq"] = error.intent_seq
    return frame


def error_body(error: Exception, lang: str) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body of ``error`` in ``lang``: ``{"error": protocol code, "code",
    "rule", "fields", "message"}`` (the refusal's :meth:`~ramsli.refusal.Refusal.to_dict` besides
    the message), the shape of :func:`error_frame` too."""
    code, refusal = answer(error)
    body = {"error": code, **refusal.to_dict(), "message": render(refusal, lang)}
    return STATUS.get(code, 400), body
