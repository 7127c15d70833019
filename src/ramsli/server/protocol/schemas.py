"""The shape of every message the server reads: one declared Pydantic model each.

Every HTTP request body and every WebSocket message is read here before anything else
happens: the bytes through one capped reader (:data:`MAX_BODY` for a body, :data:`MAX_MESSAGE`
for a WebSocket message), then JSON, then the message's model. The models forbid unknown
fields and take types strictly (``"3"`` is not a number, ``"01"`` not a list, ``true`` not a
whole number). A message that does not fit is refused with a
:class:`~ramsli.server.protocol.messages.BadMessage` whose refusal names the field (its path from the
Pydantic error's location, ``seats[1].bot``) and what it must be, before anything is applied.
What a value *means* (a legal action, a known preset, a free name) is checked afterwards by the
engine or the table.

Models: WebSocket :class:`Hello`, :class:`Act`, :class:`Ping`, :class:`Chat`, :class:`React`,
:class:`Ready`, :class:`Leave` (:func:`client_message`); HTTP :class:`CreateTable`
(``POST /api/tables``, ``/api/web/tables``), :class:`Sit`, :class:`Start`, :class:`Pace`,
:class:`BotNow`, :class:`Take`, :class:`Rematch`, :class:`CreateLedger`, :class:`LedgerHand`
and :class:`NoBody` (the ledger's ``end``). The fields are those of ``docs/protocol.md`` and ``docs/ledger.md``.

>>> parse(Sit, b'{"token": "abc", "name": "Ann"}')
Sit(token='abc', name='Ann', client='person')
>>> try:
...     parse(LedgerHand, b'{"active": "01"}')
... except BadMessage as e:
...     print(e.refusal.code, e.refusal["field"])
field_list active
>>> try:
...     parse(LedgerHand, b'{"active": [0, 1], "tricks": {"0": 4, "00": 3}}')
... except BadMessage as e:
...     print(e)
tricks gives seat 0 twice, as 0, 00
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Mapping
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from ramsli.bots.base import bot_factory, make_bot, package_bots
from ramsli.bots.refusals import REFUSALS as BOT_REFUSALS
from ramsli.bots.refusals import BotSpecError
from ramsli.refusal import Refusal, Refused
from ramsli.server.protocol.messages import SCHEMA_CODES, BadMessage

__all__ = [
    "MAX_BODY",
    "plain_number",
    "MAX_MESSAGE",
    "MAX_RULES",
    "Model",
    "Hello",
    "Act",
    "Ping",
    "Chat",
    "React",
    "Ready",
    "Leave",
    "ClientMessage",
    "CLIENT_TYPES",
    "SeatSpec",
    "CreateTable",
    "Sit",
    "Start",
    "Pace",
    "BotNow",
    "Take",
    "Rematch",
    "CreateLedger",
    "LedgerHand",
    "NoBody",
    "NewPlayer",
    "Login",
    "Password",
    "NewPassword",
    "MeSettings",
    "ClaimSeat",
    "CreateClub",
    "NewSeason",
    "JoinClub",
    "JoinTable",
    "QuickPlay",
    "NewEvening",
    "StartRound",
    "Participant",
    "Substitute",
    "Reseat",
    "PauseTable",
    "Captain",
    "read_body",
    "body_of",
    "parse",
    "validate",
    "load_message",
    "client_message",
    "refusal_of",
]

#: the longest HTTP request body accepted on any route, bytes (16 KiB)
MAX_BODY = 16384
#: the longest WebSocket client message accepted, bytes
MAX_MESSAGE = 4096
#: the most ``key=value`` entries in a table spec's ``rules`` list (R8 has fewer options than this)
MAX_RULES = 64

M = TypeVar("M", bound="Model")


class Model(BaseModel):
    """The base of every message model: unknown fields forbidden, strict types, no NaN or
    infinity, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


# -- WebSocket messages (client -> server) --------------------------------------------------------


class Hello(Model):
    """``{"type": "hello", "token", "lang"}``: the first message of a connection. ``lang`` picks
    the language of its messages (``en`` for one the server has no catalog of); ``table`` names
    the table when the address does not."""

    type: Literal["hello"]
    token: str
    lang: str = "en"
    table: str | None = None


class Act(Model):
    """``{"type": "act", "action": "p2 pl AS", "seq": 17}``: an intent, with the ``seq`` of the
    view it was chosen on."""

    type: Literal["act"]
    action: Annotated[str, Field(max_length=40)]
    seq: int


class Ping(Model):
    """``{"type": "ping"}``; the server answers ``{"type": "pong"}``."""

    type: Literal["ping"]


class Chat(Model):
    """``{"type": "chat", "text": "Gut gespielt!"}``: a chat message of at most 200 characters
    (the table strips it and turns control characters into spaces; spectators may not chat)."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=200)]


class React(Model):
    """``{"type": "react", "code": "thumbs_up"}``: a reaction or a short phrase, by its code
    (``ramsli.server.tables.table.REACTIONS``, ``PHRASES``); each reader's page shows it in its language."""

    type: Literal["react"]
    code: Annotated[str, Field(max_length=20)]


class Ready(Model):
    """``{"type": "ready", "hand": 3}``: the person closed the summary of finished hand 3 (the
    next deal waits for every connected person, at most the table's ``hand_pause_seconds``)."""

    type: Literal["ready"]
    hand: int


class Leave(Model):
    """``{"type": "leave"}``: the person leaves the table during the session: a bot plays their
    seat at once until they open their link again; the connection is closed (code 4002)."""

    type: Literal["leave"]


ClientMessage = Hello | Act | Ping | Chat | React | Ready | Leave
_CLIENT: dict[str, type[Model]] = {
    "hello": Hello,
    "act": Act,
    "ping": Ping,
    "chat": Chat,
    "react": React,
    "ready": Ready,
    "leave": Leave,
}
#: the ``type`` of every message a client may send
CLIENT_TYPES = tuple(_CLIENT)


# -- HTTP bodies ------------------------------------------------------------------------------


class SeatSpec(Model):
    """One seat of a new table: ``{"kind": "human"}`` or ``{"kind": "bot", "bot": "montecarlo"}``
    (a bot spec or level; default ``rules``)."""

    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(max_length=80)] | None = None

    @field_validator("bot")
    @classmethod
    def _human_has_no_bot(cls, bot: str | None, info: Any) -> str | None:
        if bot is not None and info.data.get("kind") == "human":
            raise PydanticCustomError("human_bot", "a human seat has no bot")
        return bot

    @field_validator("bot")
    @classmethod
    def _known_bot(cls, bot: str | None) -> str | None:
        refusal = None if bot is None else bot_spec_refusal(bot)
        if refusal is not None:  # its fields are names and numbers: rendered in the reader's language
            raise PydanticCustomError(refusal.code, "bad bot spec", dict(refusal.fields))
        return bot


def bot_spec_refusal(spec: str) -> Refusal | None:
    """The refusal of a seat's bot spec that names no bot or level, or gives it a bad option
    (:data:`ramsli.bots.refusals.REFUSALS`: ``unknown_bot``, ``level_options``,
    ``bot_option_range``, …), as :func:`ramsli.bots.make_bot` refuses it; None for a good spec and
    for what the hub decides first: a bot of an installed package (admitted by the operator's list,
    not even imported otherwise) and a file option (never opened for a client).

    >>> bot_spec_refusal("montecarlo:samples=8") is None
    True
    >>> bot_spec_refusal("hard:samples=8").code, bot_spec_refusal("Hard")["lower"]
    ('level_options', "'hard'")
    """
    name, _, opts = spec.partition(":")
    name = name.strip()
    if name in package_bots():
        return None
    named = {part.partition("=")[0].strip() for part in opts.split(",") if part.strip()}
    try:
        files = getattr(bot_factory(name), "FILE_OPTIONS", ())
    except BotSpecError:  # a level, or an unknown name: make_bot says which
        files = ()
    except Exception:  # noqa: BLE001 - a bot that cannot be loaded (a missing extra) is the hub's to answer
        return None
    if named & set(files):
        return None
    try:
        make_bot(spec, seed=0)
    except BotSpecError as e:
        return e.refusal
    except Exception:  # noqa: BLE001 - anything else (a missing extra) is the hub's to answer
        return None
    return None


class CreateTable(Model):
    """``POST /api/tables`` (and ``/api/web/tables``): a new table. Times in seconds;
    ``turn_seconds`` null is no turn timer; ``seed`` only with ``--allow-test-seeds``. How many
    seats, the rules and the bots are checked by the engine and the bots afterwards."""

    preset: str = "traditional"
    rules: Annotated[list[str], Field(max_length=MAX_RULES)] = []
    seats: Annotated[list[SeatSpec], Field(max_length=64)]
    grace_seconds: Annotated[float, Field(ge=0, le=3600)] = 60.0
    turn_seconds: Annotated[float, Field(ge=1, le=3600)] | None = None
    bot_pace_seconds: Annotated[float, Field(ge=0, le=60)] = 0.8
    hand_pause_seconds: Annotated[float, Field(ge=0, le=600)] = 8.0
    hint: bool = False
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    #: tests only, with a ``seed``: the table swaps two unplayed cards after each deal's
    #: commitment, so that the deal checks can be seen to catch it (``docs/fairness.md``)
    test_tamper: bool = False
    open: bool = False
    club: Annotated[str, Field(max_length=40)] | None = None


class Sit(Model):
    """``POST /api/tables/{table}/sit``: a seat token and a name (R2.2, checked by the table);
    ``client``: ``"bot"`` when a program sits there (``ramsli bot``, :mod:`ramsli.client`), shown
    to everyone as "bot (external)"; ``"person"`` (the default) otherwise."""

    token: str
    name: str
    client: Literal["person", "bot"] = "person"


class Start(Model):
    """``POST /api/tables/{table}/start``: the creator's token."""

    creator_token: str


class Pace(Model):
    """``POST /api/tables/{table}/pace``: the creator's token and the bots' new pace (seconds;
    the table checks 0..60)."""

    creator_token: str
    bot_pace_seconds: float


class BotNow(Model):
    """``POST /api/tables/{table}/bot-now``: the creator hands an away person's seat (``"p2"``)
    to the bot at once."""

    creator_token: str
    seat: Annotated[str, Field(max_length=4)]


class Take(Model):
    """``POST /api/tables/{table}/take``: a holder of a token of the table (issue 38.1) takes over the
    bot-played seat ``seat`` (``"p3"``) under ``name`` (R2.2), from the next hand on."""

    token: str
    seat: Annotated[str, Field(max_length=4)]
    name: str


class Rematch(Model):
    """``POST /api/tables/{table}/rematch``: "Play again" at the end of a session. ``token`` is the
    person's own seat token (or the creator's token); ``creator_token``, when the creator's page
    sends it too, gets the new table's creator token and every invite link."""

    token: str
    creator_token: str | None = None


class CreateLedger(Model):
    """``POST /api/ledgers``: the names clockwise (R2), a preset (R6) and R8 options, the first
    dealer (a 0-based seat, R3.1), and whether stakes show as cents."""

    names: list[str]
    preset: str = "traditional"
    options: dict[str, Any] = {}
    first_dealer: int = 0
    cents: bool = False
    club: Annotated[str, Field(max_length=40)] | None = None
    players: Annotated[list[Annotated[str, Field(max_length=40)] | None], Field(max_length=6)] | None = None


_SEAT_KEY = re.compile(r"[0-9]{1,3}")


def _seat_keys(field: str, given: Mapping[str, int]) -> dict[int, int]:
    """``{"0": 3}`` as ``{0: 3}``; a key that is no seat number, or a seat given twice under two
    spellings (``"0"`` and ``"00"``), is refused (the field validator's error names ``field``)."""
    out: dict[int, int] = {}
    spelled: dict[int, str] = {}
    for key, value in given.items():
        if not _SEAT_KEY.fullmatch(key):
            raise PydanticCustomError("seat_key", "not a seat number", {"given": key[:20]})
        seat = int(key)
        if seat in out:
            raise PydanticCustomError(
                "seat_twice", "a seat given twice", {"number": seat, "given": f"{spelled[seat]}, {key}"}
            )
        out[seat], spelled[seat] = value, key
    return out


class LedgerHand(Model):
    """``POST /api/ledgers/{id}/hands`` and ``PUT .../hands/{n}``: one hand played with real
    cards. ``active``: the 0-based seats that were in (``[]``: everyone out, a thrown-in hand);
    ``tricks`` and ``targets``: seat (a key ``"0"``) -> tricks taken / target announced;
    ``general_rams``: the announcer's seat or null. The ledger checks the hand (R4.5-R4.9)."""

    active: list[int]
    tricks: dict[str, int] = {}
    general_rams: int | None = None
    targets: dict[str, int] = {}

    @field_validator("tricks", "targets")
    @classmethod
    def _one_key_per_seat(cls, given: dict[str, int], info: Any) -> dict[str, int]:
        return {str(k): v for k, v in _seat_keys(info.field_name, given).items()}

    def entry(self) -> dict[str, Any]:
        """The hand as :meth:`ramsli.ledger.PubHand.from_dict` reads it (seat keys as ints)."""
        return {
            "active": list(self.active),
            "tricks": {int(k): v for k, v in self.tricks.items()},
            "general_rams": self.general_rams,
            "targets": {int(k): v for k, v in self.targets.items()},
        }


class NoBody(Model):
    """A request that takes no fields (``POST /api/ledgers/{id}/end``): an empty body or ``{}``."""


# -- players, clubs, open tables (docs/clubs.md) ----------------------------------------------------

_Name = Annotated[str, Field(max_length=64)]
#: a password of any length (the body's cap holds it): one longer than the accounts accept is
#: refused there with its own message, ``password_long`` (docs/clubs.md), also at a login
_Password = str


class NewPlayer(Model):
    """``POST /api/players``: a new player's name (R2.2), password, and whether the player is
    listed in the server-wide ratings."""

    name: _Name
    password: _Password
    listed: bool = False


class Login(Model):
    """``POST /api/login``: a player's name and password."""

    name: _Name
    password: _Password


class Password(Model):
    """``DELETE /api/me``: the password, confirming it."""

    password: _Password


class NewPassword(Model):
    """``POST /api/me/password``: the password now and the new one."""

    password: _Password
    new_password: _Password


class MeSettings(Model):
    """``PUT /api/me``: whether the player is listed in the server-wide ratings."""

    listed: bool


class SkillOptIn(Model):
    """``PUT /api/me/skill``: whether the player's skill counters are measured and shown (issue 35)."""

    opt_in: bool


class ClaimSeat(Model):
    """``POST /api/me/claim``: a table and the personal token its guest seat was played with."""

    table: Annotated[str, Field(max_length=40)]
    token: Annotated[str, Field(max_length=80)]


class NewSeason(Model):
    """A season: a name and its first and last day (``YYYY-MM-DD``); ``best_of`` N (1..100): the
    season table also ranks by the best N evening scores of each member (issue 34 item 6,
    :func:`ramsli.server.players.records.best_of_table`), None: no such ranking."""

    name: _Name
    starts: Annotated[str, Field(max_length=10)]
    ends: Annotated[str, Field(max_length=10)]
    best_of: Annotated[int, Field(ge=1, le=100)] | None = None


class CreateClub(Model):
    """``POST /api/clubs``: a club's name, and its first season (default: this year's, from today)."""

    name: _Name
    season: NewSeason | None = None


class JoinClub(Model):
    """``POST /api/clubs/join``: the token of a club's invite link."""

    token: Annotated[str, Field(max_length=80)]


class JoinTable(Model):
    """``POST /api/tables/{table}/join``: take a free seat at an open table (the name is the
    player's when logged in)."""

    name: _Name | None = None


class QuickPlay(Model):
    """``POST /api/quick-play``: a seat at the fullest open table of ``preset``, or a new one."""

    preset: Annotated[str, Field(max_length=40)] = "traditional"
    name: _Name | None = None


# -- evenings (issue 34, docs/evenings.md) ------------------------------------------------------

_Id = Annotated[str, Field(max_length=40)]


class NewEvening(Model):
    """``POST /api/evenings``: a club evening or tournament. ``starts``: a date and time with its
    offset (``2026-12-10T20:00+01:00``); ``club``: the club's evening (its owner makes it);
    ``rules``: R8 options of every table (not ``end``: each round plays ``hands_per_round``,
    rounded up so everyone deals equally often); ``mode``: ``online``, ``cards`` (real cards, a
    captain keeps each table's ledger) or ``mixed`` (the director names the real-card tables at
    each round); ``format``: ``lot`` (every round drawn by lot), ``results`` (after round 1 the
    leaders sit together), ``final`` (``rounds`` qualifying rounds, then a final of
    ``final_size`` and a small final) or ``duplicate`` (issue 35). Times in seconds, as a
    table's (:class:`CreateTable`); ``bot_pace_seconds`` and ``hand_pause_seconds`` are the
    tables' too."""

    name: _Name
    starts: Annotated[str, Field(max_length=80)]
    club: _Id | None = None
    preset: Annotated[str, Field(max_length=40)] = "traditional"
    rules: Annotated[list[Annotated[str, Field(max_length=80)]], Field(max_length=MAX_RULES)] = []
    mode: Literal["online", "cards", "mixed"] = "online"
    members_only: bool = False
    format: Literal["lot", "results", "final", "duplicate"] = "lot"
    rounds: Annotated[int, Field(ge=1, le=12)] = 3
    hands_per_round: Annotated[int, Field(ge=1, le=60)] = 10
    final_size: Annotated[int, Field(ge=3, le=6)] | None = None
    small_final: bool = True
    recurring: Literal["weekly"] | None = None
    turn_seconds: Annotated[float, Field(ge=1, le=3600)] | None = None
    grace_seconds: Annotated[float, Field(ge=0, le=3600)] = 120.0
    bot_pace_seconds: Annotated[float, Field(ge=0, le=60)] = 0.8
    hand_pause_seconds: Annotated[float, Field(ge=0, le=600)] = 8.0


class StartRound(Model):
    """``POST /api/evenings/{id}/rounds``: the director starts the next round; in a ``mixed``
    evening ``cards`` names the table numbers (1..T) that play with real cards."""

    cards: Annotated[list[int], Field(max_length=64)] = []


class Participant(Model):
    """``POST /api/evenings/{id}/withdraw``: the participant (a player id or ``bot:LEVEL:K``)."""

    participant: _Id


class Substitute(Model):
    """``POST /api/evenings/{id}/substitutes``: a substitute bot of a level (``easy``, ``medium``,
    ``hard``, ``expert``)."""

    level: Annotated[str, Field(max_length=20)]


class Reseat(Model):
    """``POST /api/evenings/{id}/reseat``: swap the seats of participants ``a`` and ``b``."""

    a: _Id
    b: _Id


class PauseTable(Model):
    """``POST /api/evenings/{id}/pause``: pause (or go on at) table ``table`` (1..T) of the round."""

    table: int
    paused: bool


class Captain(Model):
    """``POST /api/evenings/{id}/captain``: the participant who keeps real-card table ``table``'s ledger."""

    table: int
    participant: _Id


# -- reading and validating -----------------------------------------------------------------


def _refuse(code: str, **fields: Any) -> BadMessage:
    return BadMessage(Refusal(code, None, fields))


class _Twice(ValueError):
    """A JSON object that gives one key twice (``field_twice``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object of ``pairs``; a key given twice is refused (a proxy or another reader of the
    same text could take the other value)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Twice(k)
        out[k] = v
    return out


def plain_number(text: object, most: int = 99999) -> int | None:
    """``text`` as a whole number from 0 to ``most`` if it is written in plain ASCII digits only
    (``"0"``-``"9"``, no sign, no space), else None: the one check of a number read from a URL's
    path or query (a deal, an evening's round and hand, ``limit``/``offset``). ``str.isdigit`` alone also takes ``"²"`` (which ``int`` refuses)
    and Arabic-Indic, Devanagari or full-width digits (which ``int`` reads).

    >>> plain_number("12"), plain_number("\u00b2"), plain_number("\u0663"), plain_number("123456")
    (12, None, None, None)
    """
    if not isinstance(text, str) or not text or not (text.isascii() and text.isdigit()):
        return None
    if len(text) > len(str(most)):
        return None
    n = int(text)
    return n if n <= most else None


async def read_body(chunks: AsyncIterator[bytes], length: str | None = None) -> bytes:
    """An HTTP request body, at most :data:`MAX_BODY` bytes, read from an async iterator of byte
    chunks (Starlette's ``request.stream()``). A ``Content-Length`` over the limit is refused
    before a byte is read; a body without one stops being read as soon as it passes the limit.

    Raises:
        BadMessage: ``body_too_big``.
    """
    given = length.strip() if length is not None else ""  # ASCII digits only: "²" is a digit to isdigit()
    if given.isascii() and given.isdigit() and (len(given) > 18 or int(given) > MAX_BODY):
        raise _refuse("body_too_big", limit=MAX_BODY)
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > MAX_BODY:
            raise _refuse("body_too_big", limit=MAX_BODY)
        parts.append(chunk)
    return b"".join(parts)


class _Request(Protocol):
    """What :func:`body_of` needs of a request (Starlette's ``Request``)."""

    @property
    def headers(self) -> Mapping[str, str]: ...

    def stream(self) -> AsyncIterator[bytes]: ...


async def body_of(request: _Request, model: type[M]) -> M:
    """The body of an HTTP ``request`` as ``model``: read through the one capped reader
    (:func:`read_body`), then parsed (:func:`parse`). Every route with a body reads it so,
    before it looks at anything else.

    Raises:
        BadMessage: too big, empty, not JSON, or a field that does not fit.
    """
    raw = await read_body(request.stream(), request.headers.get("content-length"))
    return parse(model, raw)


def parse(model: type[M], raw: bytes) -> M:
    """The ``model`` of an HTTP request body (bytes as :func:`read_body` read them).

    An empty body is refused (``body_empty``) unless the model has no required field.

    Raises:
        BadMessage: ``body_too_big``, ``body_empty``, ``not_json``, ``field_twice``, ``body_object``, or a field's
            code (:data:`~ramsli.server.protocol.messages.SCHEMA_CODES`) naming the field.
    """
    if len(raw) > MAX_BODY:
        raise _refuse("body_too_big", limit=MAX_BODY)
    if not raw.strip():
        if any(f.is_required() for f in model.model_fields.values()):
            raise _refuse("body_empty")
        return model()
    try:
        value = json.loads(raw, object_pairs_hook=_object)
    except _Twice as e:
        raise _refuse("field_twice", field=e.key[:40]) from None
    except (ValueError, RecursionError):
        raise _refuse("not_json") from None
    return validate(model, value)


def validate(model: type[M], value: Any) -> M:
    """``value`` (JSON data) as a ``model``.

    Raises:
        BadMessage: the first field that does not fit, named by its path.
    """
    if not isinstance(value, dict):
        raise _refuse("body_object")
    try:
        return model.model_validate(value)
    except ValidationError as e:
        raise BadMessage(refusal_of(e.errors()[0], model)) from None


def load_message(raw: str) -> Any:
    """The JSON value of one WebSocket text message (at most :data:`MAX_MESSAGE` bytes).

    Raises:
        Refused: ``too_big`` (over the limit), ``bad_json`` (not JSON, or nested too deeply);
            ``bad_message`` with ``field_twice`` for a key given twice.
    """
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refused(Refusal("too_big", None, {"limit": MAX_MESSAGE}))
    try:
        return json.loads(raw, object_pairs_hook=_object)
    except _Twice as e:
        raise _refuse("field_twice", field=e.key[:40]) from None
    except (ValueError, RecursionError):
        raise Refused(Refusal("bad_json")) from None


def client_message(value: Any) -> Model:
    """The model of one WebSocket message (the JSON value of :func:`load_message`), by its ``type``.

    Raises:
        Refused: ``bad_json`` (not an object with a text ``type``), ``unknown_type``.
        BadMessage: a field of the message's model missing, unknown or of the wrong type.
    """
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise Refused(Refusal("bad_json"))
    model = _CLIENT.get(value["type"])
    if model is None:
        raise Refused(Refusal("unknown_type", None, {"kind": value["type"][:30]}))
    return validate(model, value)


# -- a Pydantic error as a refusal ------------------------------------------------------------

#: Pydantic's error type -> the schema's refusal code (and the context key of its limit)
_CODES: dict[str, tuple[str, str | None]] = {
    "missing": ("field_missing", None),
    "extra_forbidden": ("field_unknown", None),
    "int_type": ("field_int", None),
    "int_parsing": ("field_int", None),
    "int_from_float": ("field_int", None),
    "float_type": ("field_number", None),
    "float_parsing": ("field_number", None),
    "finite_number": ("field_number", None),
    "string_type": ("field_text", None),
    "bool_type": ("field_bool", None),
    "list_type": ("field_list", None),
    "dict_type": ("field_object", None),
    "model_type": ("field_object", None),
    "literal_error": ("field_choice", None),
    "greater_than_equal": ("field_min", "ge"),
    "greater_than": ("field_above", "gt"),
    "less_than_equal": ("field_max", "le"),
    "less_than": ("field_below", "lt"),
    "string_too_long": ("field_long", "max_length"),
    "too_long": ("field_many", "max_length"),
    "too_short": ("field_few", "min_length"),
}


def _path(loc: tuple[int | str, ...]) -> str:
    """A field's path as a client writes it: ``seats[1].bot``, ``tricks``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _model_at(model: type[Model], loc: tuple[int | str, ...]) -> type[Model] | None:
    """The model whose field ``loc`` ends in (for the list of allowed fields), or None."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, Model)) or part not in current.model_fields:
            return None
        current = current.model_fields[part].annotation
        args = getattr(current, "__args__", ())  # list[SeatSpec] -> SeatSpec
        current = next((a for a in args if isinstance(a, type) and issubclass(a, Model)), current)
    return current if isinstance(current, type) and issubclass(current, Model) else None


def _number(x: Any) -> Any:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def refusal_of(error: Mapping[str, Any], model: type[Model] | None = None) -> Refusal:
    """The refusal of one Pydantic error (``ValidationError.errors()[i]``): the schema's code for
    its type, ``field`` the path of its location; for an unknown field, ``allowed`` lists the
    fields of ``model`` there.

    >>> refusal_of({"type": "int_type", "loc": ("seats", 1, "seq")})
    Refusal('field_int', None, {'field': 'seats[1].seq'})
    >>> refusal_of({"type": "literal_error", "loc": ("kind",), "ctx": {"expected": "'human' or 'bot'"}}).fields["allowed"]
    "'human', 'bot'"
    """
    loc = tuple(error.get("loc", ()))
    field = _path(loc) or "body"
    kind = str(error.get("type", ""))
    ctx = dict(error.get("ctx") or {})
    if kind in SCHEMA_CODES or kind in BOT_REFUSALS:  # one of ours (a PydanticCustomError of a validator)
        return Refusal(kind, None, {"field": field, **ctx})
    code, limit = _CODES.get(kind, ("field_invalid", None))
    if code == "field_object" and not loc:
        return Refusal("body_object")
    fields: dict[str, Any] = {"field": field}
    if code == "field_unknown":
        at = _model_at(model, loc) if model is not None else None
        if at is not None and not at.model_fields:
            return Refusal("field_unknown_none", None, fields)
        fields["allowed"] = ", ".join(at.model_fields) if at is not None else "?"
    elif code == "field_choice":  # Pydantic's English "'a' or 'b'" as a list that reads in every language
        expected = str(ctx.get("expected", ""))
        fields["allowed"] = ", ".join(re.findall(r"'[^']*'", expected)) or expected
    elif limit is not None:
        fields["limit"] = _number(ctx.get(limit))
    return Refusal(code, None, fields)
