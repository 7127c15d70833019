"""What the server says when it refuses: refusal codes, their texts, and the error answers.

Every refusal of the server is a :class:`~ramsli.refusal.Refusal` (a stable code, the rule id,
the fields of its message), raised as :class:`~ramsli.refusal.Refused`. This module registers
the English texts of the server's own codes (gettext msgids, translated in the ``ramsli``
catalogs) with :func:`ramsli.refusal.register`, and turns any refusal into the error a client
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
  status and JSON body).

>>> from ramsli.refusal import Refusal, Refused
>>> render(Refusal("stale_seq", None, {"seq": 4}), "de")
'der Tisch ist schon weiter (jetzt bei 4); spiele auf dem aktuellen Stand'
>>> frame = error_frame(ProtocolRefusal(Refusal("must_follow", "R4.10", {"suit": "H"}), "illegal"), "en", seq=7)
>>> frame["code"], frame["rule"], frame["seq"], frame["message"], frame["refusal"]["code"]
('illegal', 'R4.10', 7, 'must follow suit: play ♥ (R4.10)', 'must_follow')
>>> error_body(Refused(Refusal("no_table", None, {"table": "k3"})), "nl")
(404, {'error': 'no_table', 'code': 'no_table', 'rule': None, 'fields': {'table': 'k3'}, 'message': 'er is geen tafel k3'})
"""

from __future__ import annotations

from typing import Any

from ramsli.errors import IllegalActionError, SessionError
from ramsli.errors import TableError as EngineTableError
from ramsli.frontends import i18n
from ramsli.ledger import LedgerError
from ramsli.refusal import N_, Refusal, Refused, register

__all__ = [
    "rules_refusal",
    "ProtocolRefusal",
    "SpecError",
    "BadMessage",
    "STATUS",
    "SCHEMA_CODES",
    "answer",
    "render",
    "error_frame",
    "error_body",
]


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


# -- the server's own codes (the protocol's error codes, docs/protocol.md) ------------------------

register(
    {
        "bad_json": N_("the message is not a JSON object with a type"),
        "too_big": N_("the message is longer than {limit} bytes and was ignored"),
        "unknown_type": N_("unknown message type {kind}; allowed are hello, act, ping, chat, react, ready, leave"),
        "hello_twice": N_("hello was already said on this connection"),
        "hello_table": N_("this connection is for another table than {table}; connect to /ws/{table}"),
        "no_hello": N_("say hello with your seat token first"),
        "bad_token": N_("this token belongs to no seat of this table; use your invite link"),
        "no_table": N_("there is no table {table}"),
        "table_broken": N_("table {table} could not be restored from the database and is unavailable"),
        "replaced": N_("your seat was opened in another window; this one is closed"),
        "rate_limited": N_("too many messages; at most {limit} a second"),
        "rate_limited_act": N_("too many messages (at most {limit} a second): {action} was not played; send it again"),
        "spectator": N_("a spectator cannot act"),
        "not_sitting": N_("this link does not play a seat: sit down with it first, or open the link you sat down with"),
        "pending_seat": N_("you take over seat {seat} from the next hand; until then a bot plays it"),
        "seat_taken": N_("someone already sits at seat {seat}; open the link you sat down with"),
        "not_started": N_("the session has not started yet"),
        "started": N_("the session has already started"),
        "stale_seq": N_("the table has moved on (now at {seq}); act on the current view"),
        "not_your_seat": N_("you play seat {seat} only"),
        "name_taken": N_("the name {name} is already at this table"),
        "bad_spec": N_("the table cannot be made: {detail}"),
        "no_hand": N_("hand {number} is not finished or does not exist"),
        "storage": N_("the table could not save this move; nothing changed, try again"),
        # making a table (POST /api/tables)
        "bad_bot": N_("seat {seat}: {detail}"),
        "bot_file": N_(
            "seat {seat}: the bot option {option} names a file on the server; a table's bots use "
            "the policies shipped with ramsli"
        ),
        "bot_not_allowed": N_(
            "seat {seat}: the bot {bot} comes from the installed {origin}; this server seats it only "
            "when started with --allow-bot {bot}"
        ),
        "seed_off": N_(
            "a seed is accepted only when the server runs with --allow-test-seeds "
            "(tables of real play shuffle with secrets.SystemRandom)"
        ),
        "tamper_off": N_(
            "test_tamper is accepted only with a seed, on a server run with --allow-test-seeds "
            "(it makes a table that cheats, to test the deal checks)"
        ),
        # the "should I stay in?" hint
        "hint_off": N_("the creator of this table did not allow the hint"),
        "no_lab": N_("the hint needs the lab extra: pip install -e '.[lab]' (NumPy and Numba)"),
        "no_hint": N_("the hint is for your own turn to declare"),
        "hint_busy": N_("a hint for this seat is being computed; ask again when it is done"),
        "hint_failed": N_("the hint cannot be computed for this position"),
        # the coach (docs/coach.md)
        "no_review": N_("the session review is for a seat's own player: open it with the link you sat down with"),
        "no_seat": N_("there is no seat {seat} at this table; the seats are p1 to {last}"),
        "coach_busy": N_("the coach has {limit} reviews to do already; ask again in a minute"),
        "review_failed": N_("the coach could not review this hand: {detail}"),
        "no_game": N_("the coach has no solved game {game}; the games are {allowed}"),
        "no_position": N_("there is no such position (or no hand of your tables left to train on)"),
        # the pub ledger (docs/ledger.md)
        "no_ledger": N_("there is no ledger {ledger}"),
        "not_keeper": N_("this link does not keep this ledger; the keeper's link does"),
        "bad_link": N_("this link does not belong to this ledger"),
        "bad_options": N_("the ledger cannot be made: {detail}"),
        "first_dealer_range": N_("the first dealer is a seat 0 to {last}"),
        # hosting: several processes, draining, limits, the admin (docs/deploy.md)
        "moved": N_("table {table} is moving to another server process; your page reconnects by itself"),
        "draining": N_("this server is shutting down and takes no new table; try again in a moment"),
        "table_closed": N_("table {table} was closed by the server's admin"),
        "too_many_new": N_("too many new tables from your address: at most {limit} a minute; try again in {seconds} s"),
        "admin_token": N_("this needs the server's admin token"),
        "no_admin": N_("this server has no admin token set (ramsli serve --admin-token-file)"),
        # pages and files
        "no_file": N_("there is no file {name}"),
        "no_lang": N_("there is no language {lang}; allowed are {allowed}"),
        "no_page": N_("there is no page {path}"),
        "no_method": N_("{path} does not take {method}"),
    }
)

#: the schema's codes (:mod:`ramsli.server.protocol.schemas`): a message or body of the wrong shape,
#: answered as ``bad_message``. ``field`` is the field's path in the message (``seats[1].bot``).
SCHEMA_CODES = {
    "body_too_big": N_("the request body is over {limit} bytes"),
    "not_json": N_("the request body is not JSON (or nested too deeply)"),
    "body_empty": N_("the request body is empty; send a JSON object"),
    "body_object": N_("the request body must be a JSON object"),
    "field_missing": N_("{field} is missing"),
    "field_unknown": N_("{field} is not a field here; allowed are {allowed}"),
    "field_twice": N_("{field} is given twice; give each field once"),
    "field_unknown_none": N_("{field} is not a field here; this request takes no fields"),
    "field_int": N_("{field} must be a whole number"),
    "field_number": N_("{field} must be a number"),
    "field_text": N_("{field} must be text"),
    "field_bool": N_("{field} must be true or false"),
    "field_list": N_("{field} must be a list"),
    "field_object": N_("{field} must be an object"),
    "field_choice": N_("{field} must be one of {allowed}"),
    "field_min": N_("{field} must be at least {limit}"),
    "field_above": N_("{field} must be more than {limit}"),
    "field_max": N_("{field} must be at most {limit}"),
    "field_below": N_("{field} must be less than {limit}"),
    "field_long": N_("{field} may be at most {limit} characters long"),
    "field_many": N_("{field} may have at most {limit} entries"),
    "field_few": N_("{field} needs at least {limit} entries"),
    "field_invalid": N_("{field} is not valid"),
    "query_range": N_("{field} must be a whole number from {least} to {most}"),
    "seat_key": N_("{field}: {given} is not a seat number (0, 1, 2, …)"),
    "seat_twice": N_("{field} gives seat {number} twice, as {given}"),
    "human_bot": N_("{field}: a human seat has no bot"),
}
register(SCHEMA_CODES)

#: HTTP status of each protocol code (400 for any other)
STATUS: dict[str, int] = {
    "no_table": 404,
    "no_hand": 404,
    "no_seat": 404,
    "no_game": 404,
    "no_position": 404,
    "no_ledger": 404,
    "no_file": 404,
    "no_lang": 404,
    "no_page": 404,
    "no_method": 405,
    "bad_token": 403,
    "hint_off": 403,
    "started": 409,
    "not_over": 409,
    "not_away": 409,
    "seat_left": 409,
    "not_a_bot_seat": 409,
    "chat_flood": 429,
    "session_over": 409,
    "name_taken": 409,
    "seat_taken": 409,
    "no_hint": 409,
    "hint_failed": 409,
    "review_failed": 409,
    "no_review": 403,
    "bad_name": 422,
    "bot_name": 422,
    "bad_spec": 422,
    "bad_message": 422,
    "refused": 422,
    "hint_busy": 429,
    "coach_busy": 429,
    "no_lab": 501,
    "table_broken": 503,
    "storage": 503,
    "moved": 503,
    "draining": 503,
    "table_closed": 410,
    "too_many_new": 429,
    "admin_token": 401,
    "no_admin": 403,
}


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
    return i18n.render_refusal(refusal, translations=i18n.translation(lang), reader=reader)


def error_frame(error: Exception, lang: str, seq: int | None = None, reader: int | None = None) -> dict[str, Any]:
    """The WebSocket ``error`` message of ``error`` in ``lang``: ``{"type": "error", "code":
    protocol code, "message", "rule", "refusal": {"code", "rule", "fields"}}`` and ``"seq"`` (the
    table's ``seq``) when given; ``rule`` is null for a refusal of no rule."""
    code, refusal = answer(error)
    frame: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": render(refusal, lang, reader),
        "rule": refusal.rule,
        "refusal": refusal.to_dict(),
    }
    if seq is not None:
        frame["seq"] = seq
    return frame


def error_body(error: Exception, lang: str) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body of ``error`` in ``lang``: ``{"error": protocol code,
    "code", "rule", "fields", "message"}`` (the refusal's :meth:`~ramsli.refusal.Refusal.to_dict`
    besides the message)."""
    code, refusal = answer(error)
    body = {"error": code, **refusal.to_dict(), "message": render(refusal, lang)}
    return STATUS.get(code, 400), body
