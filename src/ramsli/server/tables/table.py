"""One table of the server: who sits where, and the events that change it (R2, R3).

Where a table's things are made:

- **here**: the seats (tokens, names, people and bots, connections), the events that change a
  table (the records of :mod:`ramsli.server.tables.events`: ``sit``, ``start``, ``deal``, ``act``,
  ``pace``, ``chat``, ``rematch``), each committed to the
  :class:`~ramsli.server.storage.eventstore.EventStore` **before** it is applied and broadcast, and
  :meth:`Table.replay`, which rebuilds a table from its events through the engine (so a
  restarted server has the same cards, actions, counters and chat, R3.4); the presence of
  people (connected, away, left, handed to a bot, closed the last hand's summary), which is
  not stored: after a restart every person is away until they connect;
- :mod:`ramsli.server.tables.views`: what each seat is sent (the ``view``, a finished hand, the
  public table info);
- :mod:`ramsli.server.tables.bot_driver`: the moves of bots, of proxies for away players and of turn
  timers, and the next deal.

A :class:`Table` holds no rules: legality, settlement, session ends and standings come from the
engine (:class:`~ramsli.Session`, :class:`~ramsli.Hand`). An intent is parsed once
(``Action.parse``), checked once (``Hand.why_illegal``) and committed; the parsed action itself
is applied. Every refusal is a :class:`~ramsli.refusal.Refused` (or a
:class:`~ramsli.server.protocol.messages.ProtocolRefusal`) and leaves the table unchanged.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from ramsli import Action, Hand, Phase, Rules, Session
from ramsli.bots.base import bot_names
from ramsli.cards import Card, make_deck
from ramsli.evening.duplicate import DealPlan
from ramsli.fairness import SALT_BYTES, SCHEME, DealBinding, DealCommitment, DealProof, dealt_order
from ramsli.refusal import Refusal, Refused
from ramsli.seats import seat_name
from ramsli.server.protocol.messages import BadMessage, ProtocolRefusal
from ramsli.server.tables import views
from ramsli.server.tables.connection import Connection
from ramsli.server.tables.events import (
    Act,
    ActBy,
    Chat,
    Deal,
    EventKind,
    Pace,
    Rematch,
    Sit,
    Start,
    TableEvent,
    parse_table_event,
)
from ramsli.session import check_name, first_dealer_cut, name_is_blank, name_key

__all__ = [
    "Table",
    "TableStatus",
    "EventKind",
    "SeatState",
    "TableOptions",
    "EventLog",
    "Deals",
    "FILL_BOT",
    "PACE_MAX",
    "BOT_SEAT_NAMES",
    "CHAT_MAX",
    "CHAT_KEEP",
    "CHAT_BURST",
    "CHAT_REFILL_SECONDS",
    "REACTIONS",
    "PHRASES",
    "REMATCH_WAIT_SECONDS",
    "chat_text",
    "shuffled_deck",
]

#: the bot that plays an empty human seat, and an away player's seat after the grace period (the tips
#: player; a table stored with its alias ``rules`` loads as the same bot)
FILL_BOT = "tips"
#: the longest pause a bot may take before it acts, seconds (``bot_pace_seconds``)
PACE_MAX = 60.0
#: how many of the moves a bot made for a person their seat's view lists (``SeatState.bot_moves``)
BOT_MOVES_KEPT = 12

#: the names of bots filling seats p1..p6 at the start (the same in every language)
BOT_SEAT_NAMES = ("Ada", "Bert", "Cleo", "Dario", "Elsa", "Finn")
#: longest chat message, characters
CHAT_MAX = 200
#: chat lines a table keeps in memory and sends to a connection that says hello
CHAT_KEEP = 100
#: chat messages a seat may send at once; then one each :data:`CHAT_REFILL_SECONDS`
CHAT_BURST = 5
#: seconds until a seat may send one more chat message after a burst
CHAT_REFILL_SECONDS = 2.0
#: the reactions a person may send (the page draws each as its emoji, named in the reader's language)
REACTIONS = ("thumbs_up", "laugh", "wow", "grimace", "clap", "facepalm")
#: the short phrases a person may send (the page shows each in the reader's language)
PHRASES = ("well_played", "good_luck", "thanks", "nice_hand", "oops", "one_more")
#: seconds a new session made by "Play again" waits, after its first person sat down, for the
#: others before it starts with bots in the seats nobody took
REMATCH_WAIT_SECONDS = 60.0
#: seconds the turn timer waits after the card that completed a trick (R4.9) before it counts:
#: the pages keep the finished trick on the table that long (their "normal" pause, 1.6 s, and
#: the card's way to its winner), so the next player's countdown starts when the trick is cleared
TRICK_SHOWN_SECONDS = 2.0

#: the OS CSPRNG every table that is not test-seeded shuffles, cuts and picks the first dealer
#: with; one for all tables (it keeps no state of its own, but each ``random.Random`` instance
#: carries a 2.5 KiB Mersenne Twister state)
_OS_RNG = secrets.SystemRandom()
#: the random source of every server table's engine :class:`~ramsli.Session`: never drawn from
#: (the table gives the deck, the cut and the first dealer), shared for the same reason
_SESSION_RNG = random.Random(0)


class TableStatus(StrEnum):
    """Where a table's session is: ``waiting`` (before the start), ``playing``, ``over`` (R3.5, R3.6)."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


#: events that are no move of the game: they do not count in :attr:`Table.seq`, so a chat line
#: never makes a person's intent stale
_NOT_PLAY = (Chat,)


class EventLog(Protocol):
    """Where a table commits its events (:class:`ramsli.server.storage.eventstore.EventStore`)."""

    async def append(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Commit one event; return once it is committed."""


@dataclass
class TableOptions:
    """A table's options: timings (seconds; ``turn_seconds`` None means no turn timer;
    ``hand_pause_seconds`` is the longest pause between hands: the next hand is dealt as soon as
    every connected person has closed the last hand's summary) and ``hint``, whether the creator
    allows the "should I stay in?" hint. They are part of the stored spec, so they survive a
    restart; ``bot_pace_seconds`` may change during play (a ``pace`` event)."""

    grace_seconds: float = 60.0
    turn_seconds: float | None = None
    bot_pace_seconds: float = 0.8
    hand_pause_seconds: float = 8.0
    hint: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data (as stored and as sent in views)."""
        return {
            "grace_seconds": self.grace_seconds,
            "turn_seconds": self.turn_seconds,
            "bot_pace_seconds": self.bot_pace_seconds,
            "hand_pause_seconds": self.hand_pause_seconds,
            "hint": self.hint,
        }


@dataclass(slots=True)
class SeatState:
    """One seat slot of a table.

    Attributes:
        index: 0-based seat (``p1`` is 0).
        kind: ``"human"`` or ``"bot"`` as created.
        bot: the bot spec of a bot seat, else None.
        token: the seat token of its invite link (``secrets.token_urlsafe``).
        personal: the token issued to the person who sat down here (returned by ``sit``); once it
            exists only it acts for the seat and sees its cards, the invite token no longer does.
            None before anyone sat down (and in tables stored before personal tokens existed,
            where the invite token of a taken seat still acts).
        name: the name shown, or None while an open human seat is empty.
        taken: a person sits here (sat down through the invite link).
        pending: the name of a person taking over a bot-played seat at the next deal.
        since_hand: the first hand (1-based) its person played, or None while nobody sits here;
            that person may see this seat's own cards of hands from then on (R7).
        conn: the person's live connection, or None.
        away_since: ``time.monotonic()`` seconds since the person is away (no connection), or None.
        left: the person left the table (``leave``): a bot plays the seat at once until they are back.
        handed: the creator handed the away person's seat to the bot at once (``bot_now``).
        external: the one sitting here (or taking over at the next deal) said it is a program
            playing from elsewhere (``sit`` with ``client="bot"``): shown as "bot (external)".
        bot_moves: the last :data:`BOT_MOVES_KEPT` moves a bot made for the person sitting here
            (their turn timer ran out, ``timer``; they were away, ``proxy``), oldest first, each
            ``{"n", "by", "hand", "action"}`` with ``n`` counting such moves of this seat from 1
            (issue 36.3); only this seat's own view carries them (R7, D-16).
        bot_moves_n: how many such moves this seat has had (the ``n`` of the last one).
    """

    index: int
    kind: str
    bot: str | None
    token: str
    name: str | None = None
    personal: str | None = None
    taken: bool = False
    pending: str | None = None
    since_hand: int | None = None
    conn: Connection | None = None
    away_since: float | None = None
    left: bool = False
    handed: bool = False
    external: bool = False
    bot_moves: list[dict[str, Any]] = field(default_factory=list)
    bot_moves_n: int = 0

    @property
    def bot_controlled(self) -> bool:
        """True if a bot plays this seat for good (a bot seat, or a human seat nobody took)."""
        return not self.taken

    @property
    def bot_spec(self) -> str:
        """The spec of the bot that plays this seat while nobody sits here: its own, or :data:`FILL_BOT`."""
        return self.bot or FILL_BOT


#: (preset, rules as JSON) -> the rules and their view, shared by every table that plays them
_RULES: dict[str, tuple[Rules, dict[str, Any]]] = {}
#: at most this many kept in :data:`_RULES` (then it starts again)
_RULES_KEEP = 256


def _shared_rules(preset: str, data: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """The :class:`~ramsli.Rules` of ``data`` (``Rules.to_dict``) and their view
    (:func:`ramsli.server.tables.views.rules_view`), one pair for all the tables of the same preset and
    rules (a table does not carry its own copy). Both are read only: ``Rules`` is
    frozen, and no view changes the dict it is sent."""
    key = json.dumps([preset, data], sort_keys=True)
    got = _RULES.get(key)
    if got is None:
        rules = Rules.from_dict(data)
        got = (rules, views.rules_view(preset, rules))
        if len(_RULES) >= _RULES_KEEP:
            _RULES.clear()
        _RULES[key] = got
    return got


class Deals:
    """The deals' commitments of a table's hands (``docs/fairness.md``), by 1-based hand number:
    the latest hand's :class:`~ramsli.fairness.DealCommitment` as built, every earlier one kept
    as its cards, its salts packed in one ``bytes`` (about 0.6 KiB instead of 7 KiB a hand) and
    its binding (``ramsli-deal/2``, or None) and built again (32 SHA-256) when asked for.
    ``deals[n]`` and ``deals.get(n)`` give the same commitment, digest and salts as the deal's
    stored event."""

    __slots__ = ("_latest", "_number", "_past")

    def __init__(self) -> None:
        self._latest: DealCommitment | None = None
        self._number = 0
        #: hand number -> (cards in dealt order, the salts' bytes, bytes a salt, the binding), or
        #: the commitment itself when its salts differ in length (or have an odd length)
        self._past: dict[int, tuple[tuple[Card, ...], bytes, int, DealBinding | None] | DealCommitment] = {}

    def __setitem__(self, number: int, deal: DealCommitment) -> None:
        if self._latest is not None and self._number != number:
            old = self._latest
            size = len(old.salts[0]) // 2 if old.salts else 0
            if all(len(x) == 2 * size for x in old.salts):
                self._past[self._number] = (old.cards, bytes.fromhex("".join(old.salts)), size, old.binding)
            else:
                self._past[self._number] = old
        self._latest, self._number = deal, number

    def get(self, number: int) -> DealCommitment | None:
        """The commitment of hand ``number``, or None (a hand not dealt, or dealt without one)."""
        if self._latest is not None and number == self._number:
            return self._latest
        past = self._past.get(number)
        if past is None or isinstance(past, DealCommitment):
            return past
        cards, packed, size, binding = past
        salts = [packed[i : i + size].hex() for i in range(0, len(packed), size)]
        return DealCommitment.build(cards, salts, binding)

    def __getitem__(self, number: int) -> DealCommitment:
        deal = self.get(number)
        if deal is None:
            raise KeyError(number)
        return deal

    def __contains__(self, number: object) -> bool:
        return (self._latest is not None and number == self._number) or number in self._past

    def __len__(self) -> int:
        return len(self._past) + (self._latest is not None)


class _Clock:
    """Session seconds: fixed while replaying recorded events, else running from the last value."""

    def __init__(self) -> None:
        self.fixed: float | None = 0.0
        self.base = 0.0
        self.t0 = time.monotonic()

    def __call__(self) -> float:
        if self.fixed is not None:
            return self.fixed
        return self.base + time.monotonic() - self.t0

    def run_from(self, value: float) -> None:
        self.fixed = None
        self.base = value
        self.t0 = time.monotonic()


def shuffled_deck(rules: Rules, rng: random.Random) -> tuple[list[Card], int]:
    """The server's shuffle and cut of one hand (R4.2): the rules' deck shuffled with ``rng``
    (``secrets.SystemRandom`` at a table that is not test-seeded) and a cut point 1..size - 1
    drawn from it. ``bench/shuffle.py`` measures this very function.

    >>> deck, cut = shuffled_deck(Rules(), random.Random(1))
    >>> len(deck), 1 <= cut <= 31
    (32, True)
    """
    deck = list(make_deck(rules.deck, rules.jokers))
    rng.shuffle(deck)
    return deck, rng.randrange(1, len(deck))


def _swap_two_unplayed(hand: Hand) -> None:
    """The test-only tamper of :attr:`Table.tamper`: swap the first dealt cards of the first two
    seats to be dealt, after the deal's commitment (a cheating server would do this; every check
    of ``docs/fairness.md`` must catch it)."""
    a, b = hand.order[0], hand.order[1]
    ca, cb = hand.hands[a][0], hand.hands[b][0]
    hand.hands[a][0], hand.hands[b][0] = cb, ca
    dealt = [list(d) for d in hand.dealt]
    dealt[a][0], dealt[b][0] = cb, ca
    hand.dealt = tuple(tuple(d) for d in dealt)
    hand._forget_legal_plays()  # the test-only hook: the legal plays follow the swapped cards


def chat_text(text: Any) -> str:
    r"""A chat message as it is stored and sent: control characters and runs of white space become
    one space, the ends are stripped; 1..:data:`CHAT_MAX` characters.

    Raises:
        Refused: ``chat_empty`` (nothing but white space), ``chat_long`` (over :data:`CHAT_MAX`).

    >>> chat_text("  well\n\tplayed  ")
    'well played'
    """
    if not isinstance(text, str):
        raise Refused(Refusal("chat_empty"))
    clean = " ".join("".join(" " if unicodedata.category(c)[0] == "C" else c for c in text).split())
    if not clean or name_is_blank(clean):
        raise Refused(Refusal("chat_empty"))
    if len(clean) > CHAT_MAX:
        raise Refused(Refusal("chat_long", None, {"limit": CHAT_MAX}))
    return clean


def _same(a: str, b: str) -> bool:
    """Tokens compared in constant time."""
    return secrets.compare_digest(a.encode(), b.encode())


class Table:
    """A live table. Build it with :meth:`new_spec` and the constructor (new) or :meth:`replay`
    (from stored events).

    Args:
        table_id: the table's id (in its links).
        spec: the stored spec: ``preset``, ``rules`` (``Rules.to_dict``), ``seats``
            (``kind``, ``bot``, ``token``), ``creator_token``, ``spectator_token``,
            ``options`` (:class:`TableOptions`), ``seed`` (None unless test-seeded).
        store: where events are committed (:class:`EventLog`).

    Attributes:
        status (TableStatus), session (Session | None, None before the start), seq (int: how
        many events of the game were accepted: every event but ``chat``; an intent carries it),
        log_seq (int: how many events are stored, chat lines included), seats (list of
        SeatState), options (TableOptions).
        turn_since, hand_ended: ``time.monotonic()`` seconds of the last move (or deal) and of
        the end of the last hand (the bot driver's timers count from them).
        chat: the last :data:`CHAT_KEEP` chat lines (``{"n", "seat", "name", "text" | "code"}``).
        ready: the seats whose person closed the last hand's summary (the next deal waits for
            every connected person, at most ``hand_pause_seconds``).
        next_table: the id of the table "Play again" made for the next session, or None.
        rematch: ``{"of", "expect"}`` for a table made by "Play again" (the table before and the
            seats kept for its people), else None; waiting_since: ``time.monotonic()`` seconds
            of its first person sitting down (it starts :data:`REMATCH_WAIT_SECONDS` later).
        changed: set after every change (the bot driver waits for it); lock: held by every change.
        listeners: functions ``f(table, kind)`` called after every committed event of the game
            (``kind`` its :class:`~ramsli.server.tables.events.EventKind`, e.g. ``"act"``; not
            after a chat line); they must not block.
    """

    def __init__(self, table_id: str, spec: dict[str, Any], store: EventLog) -> None:
        self.id = table_id
        self.spec = spec
        self.store = store
        self.preset: str = spec.get("preset", "traditional")
        self.rules, self.rules_view = _shared_rules(self.preset, spec["rules"])
        self.options = TableOptions(**spec.get("options", {}))
        self.seed: int | None = spec.get("seed")
        self.creator_token: str = spec["creator_token"]
        self.spectator_token: str = spec["spectator_token"]
        self.seats = [SeatState(i, s["kind"], s.get("bot"), s["token"]) for i, s in enumerate(spec["seats"])]
        self.status = TableStatus.WAITING
        self.session: Session | None = None
        self.seq = 0
        self.log_seq = 0
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.chat_count = 0
        self._chat_bucket: dict[int, tuple[float, float]] = {}
        self.ready: set[int] = set()
        self.next_table: str | None = spec.get("next_table")
        self.rematch: dict[str, Any] | None = spec.get("rematch")
        self.waiting_since: float | None = None
        self.clock = _Clock()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.listeners: list[Callable[[Table, EventKind], None]] = []
        self.spectators: set[Connection] = set()
        self.turn_since = time.monotonic()
        self.hand_ended = time.monotonic()
        self.replaying = False
        self._last_elapsed = 0.0
        self._rng: random.Random = _OS_RNG  # a test-seeded table draws from its seed (``_deal``, ``start``)
        #: hand number -> its commitments and salts (from the deal's stored event; R7, D-16)
        self.deals = Deals()
        #: the test-only hook of a test-seeded table: swap two unplayed cards after each deal's
        #: commitment (``docs/fairness.md``), so that the checks can be seen to catch it
        self.tamper: bool = bool(spec.get("test_tamper")) and self.seed is not None
        #: the evening this table plays for (``{"id", "round", "table", "name"}``, issue 34), or None
        self.evening: dict[str, Any] | None = spec.get("evening")
        #: a duplicate evening's deals for this table (issue 35): ``{"deals": [DealPlan data],
        #: "bot_seed"}``, the same at every table of its section; never sent (it holds every card).
        #: The table deals hand k from deal k (deck, cut, dealer, salts) instead of shuffling.
        self.duplicate: dict[str, Any] | None = spec.get("duplicate")
        #: the evening's director paused the table: no move, no deal, no turn timer and no bot
        #: acts until it goes on (not a stored event: the evening's log keeps it and sets it again
        #: after a restart, :mod:`ramsli.server.evenings`)
        self.paused = False
        #: hand number -> who made each of its actions, in order (:data:`~ramsli.server.tables.events.
        #: ActBy`: ``seat``, or a bot for the person: ``bot``, ``proxy``, ``timer``), from the stored
        #: events (rebuilt by a replay); the coach says "the bot at your seat chose" by it
        self.acted_by: dict[int, list[str]] = {}
        #: seconds since the epoch the table was created (set by the hub; None if unknown)
        self.created: float | None = None

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def new_spec(
        rules: Rules, preset: str, seats: Sequence[dict[str, Any]], options: TableOptions, seed: int | None
    ) -> dict[str, Any]:
        """A fresh spec with new random tokens (``secrets.token_urlsafe``) for every seat."""
        return {
            "preset": preset,
            "rules": rules.to_dict(),
            "seats": [{"kind": s["kind"], "bot": s.get("bot"), "token": secrets.token_urlsafe(18)} for s in seats],
            "creator_token": secrets.token_urlsafe(18),
            "spectator_token": secrets.token_urlsafe(18),
            "options": options.to_dict(),
            "seed": seed,
        }

    @classmethod
    def replay(
        cls, table_id: str, spec: dict[str, Any], events: Sequence[tuple[int, str, dict[str, Any]]], store: EventLog
    ) -> Table:
        """Rebuild a table from its stored events through the engine (exact restore); every
        action is parsed from its stored text and checked by the engine again.

        Raises:
            ValueError: if the events do not replay (a corrupt database: a malformed event,
                :class:`~ramsli.server.tables.events.EventError`, or one the engine refuses):
                the message names the event.
        """
        t = cls(table_id, spec, store)
        t.replaying = True
        for seq, kind, data in events:
            if seq != t.log_seq + 1:
                raise ValueError(f"table {table_id}: event {seq} follows event {t.log_seq}; the log has a gap")
            try:
                event = parse_table_event(kind, data)  # EventError: a malformed stored event
                t._apply(event)
            except Exception as e:  # noqa: BLE001 - any failure is a corrupt log, named below
                raise ValueError(f"table {table_id}: event {seq} ({kind}) does not replay: {e}") from None
            t.log_seq = seq
            if not isinstance(event, _NOT_PLAY):
                t.seq += 1
        t.replaying = False
        if t.rematch is not None and t.status is TableStatus.WAITING and any(s.taken for s in t.seats):
            t.waiting_since = time.monotonic()
        if t.session is not None:
            t.clock.run_from(t._last_elapsed)
        now = time.monotonic()
        for s in t.seats:
            if s.taken:
                s.away_since = now  # nobody is connected after a restart
        return t

    # -- events: the only way the state changes ---------------------------------------

    def _apply(self, event: TableEvent) -> None:
        """Apply one event to the in-memory state: live after its commit, or while replaying
        (an ``act``'s action is checked by the engine in either case, R4.12)."""
        if isinstance(event, Act):  # the most frequent first
            self._apply_act(event)
        elif isinstance(event, Sit):
            self._apply_sit(event)
        elif isinstance(event, Start):
            self._apply_start(event)
        elif isinstance(event, Deal):
            self._apply_deal(event)
        elif isinstance(event, Pace):
            self.options.bot_pace_seconds = event.seconds
        elif isinstance(event, Chat):
            self.chat_count += 1
            line = {"n": self.chat_count, "seat": seat_name(event.seat), "name": event.name}
            if event.code is not None:
                line["code"] = event.code
            else:
                line["text"] = str(event.text)
            self.chat.append(line)
            return  # a chat line is no move: the turn timer goes on
        else:
            self.next_table = event.table  # a rematch
            return
        self.turn_since = time.monotonic()

    def _apply_sit(self, event: Sit) -> None:
        seat = self.seats[event.seat]
        seat.personal = event.token or seat.personal
        seat.external = event.external
        if self.status is TableStatus.WAITING:
            seat.name = event.name
            seat.taken = True
            seat.since_hand = 1
            self._away_unless_connected(seat)
            if self.waiting_since is None and not self.replaying:
                self.waiting_since = time.monotonic()
        else:
            seat.pending = event.name

    def _apply_start(self, event: Start) -> None:
        names = list(event.names)
        for s, name in zip(self.seats, names):
            s.name = name
        self.session = Session(self.rules, names, dealer=event.dealer, rng=_SESSION_RNG, clock=self.clock)
        if not self.replaying:
            self.clock.run_from(0.0)
            now = time.monotonic()
            for s in self.seats:
                if s.away_since is not None:
                    s.away_since = now  # the grace period of a person away counts from the start
        self.status = TableStatus.OVER if self.session.is_over else TableStatus.PLAYING

    def _apply_deal(self, event: Deal) -> None:
        session = self._session()
        self.ready = set()
        for s in self.seats:
            if s.pending is not None and s.index not in session.seated:
                s.pending = None  # the seat left as bust meanwhile: nobody takes it over (R3.5)
            elif s.pending is not None:  # a person takes over a bot-played seat between hands
                s.name, s.taken, s.pending = s.pending, True, None
                s.since_hand = session.hands_played + 1
                self._away_unless_connected(s)
        number = session.hands_played + 1
        hand = session.start_hand(deck=list(event.deck), cut=event.cut)
        if hand.dealer != event.dealer or tuple(hand.start_stacks) != event.stacks or hand.carry_in != event.pot:
            raise ValueError("the deal does not match the recorded dealer, stacks and pot")
        if event.salts is not None:  # a deal stored before its commitments existed has none
            # ramsli-deal/2 binds the digest to this table, hand, dealer and seats; a deal stored
            # before (no scheme) has a ramsli-deal/1 digest of the commitments only
            binding = None if event.scheme is None else self._binding(number, event.dealer, event.seated)
            deal = DealCommitment.build(dealt_order(list(event.deck), event.cut), list(event.salts), binding)
            if deal.digest != event.digest:
                raise ValueError("the deal's commitments do not match its stored digest")
            self.deals[number] = deal
        if self.tamper and not self.replaying:
            _swap_two_unplayed(hand)

    def _apply_act(self, event: Act) -> None:
        session = self._session()
        if event.by in ("timer", "proxy"):
            seat = self.seats[event.action.seat]
            if seat.taken:  # a bot moved for the person sitting here: their view says so (issue 36.3)
                seat.bot_moves_n += 1
                seat.bot_moves.append(
                    {
                        "n": seat.bot_moves_n,
                        "by": event.by,
                        "hand": session.hands_played + 1,
                        "action": str(event.action),
                    }
                )
                del seat.bot_moves[:-BOT_MOVES_KEPT]
        elapsed = 0.0 if event.elapsed is None else event.elapsed
        self._last_elapsed = elapsed
        self.clock.fixed = elapsed  # R3.6 time:M is decided on the recorded time, live and in replay
        number = session.hands_played + 1
        try:
            session.apply(event.action)
        finally:
            if not self.replaying:
                self.clock.fixed = None
        self.acted_by.setdefault(number, []).append(event.by)
        if session.hand is None:
            self.hand_ended = time.monotonic()
            for s in self.seats:
                if s.pending is not None and s.index not in session.seated:
                    s.pending = None  # the seat left as bust: nobody takes it over (R3.5)
            if session.is_over:
                self.status = TableStatus.OVER

    async def _commit(self, event: TableEvent) -> None:
        """Commit the event (its stored data, ``event.to_data()``), then apply it, then count
        it and broadcast (a chat line goes out as a ``chat`` message, every other
        event as new views); the caller holds :attr:`lock`."""
        await self.store.append(self.id, self.log_seq + 1, event.KIND.value, event.to_data())
        self._apply(event)
        self.log_seq += 1
        if isinstance(event, _NOT_PLAY):
            self._send_all({"type": "chat", **self.chat[-1]})
            return
        self.seq += 1
        self.broadcast()
        self.changed.set()
        for listener in self.listeners:
            listener(self, event.KIND)

    def _session(self) -> Session:
        if self.session is None:
            raise ValueError("the session has not started")
        return self.session

    # -- tokens ------------------------------------------------------------------------

    def seat_of_token(self, token: Any) -> SeatState | None:
        """The seat whose invite token or personal token is ``token`` (compared in constant
        time), or None. Whether the token may act for that seat is :meth:`owns`."""
        if not isinstance(token, str):
            return None
        for s in self.seats:
            if _same(s.token, token) or (s.personal is not None and _same(s.personal, token)):
                return s
        return None

    def owner_of(self, token: Any) -> SeatState | None:
        """The seat whose person holds ``token`` (their personal token), or None: the seat whose
        own cards that token may read in finished hands. An invite link (the creator holds one
        for every seat), a bot seat's link or the spectator link reads as a spectator (R7, D-16)."""
        seat = self.seat_of_token(token)
        return seat if seat is not None and self.owns(seat, token) else None

    def owns(self, seat: SeatState, token: Any) -> bool:
        """True if ``token`` is the token of the person sitting at ``seat`` (or taking it over at
        the next deal): the personal token ``sit`` returned. The invite token of a bot seat, of a
        human seat nobody took, or of a seat someone sat down at, owns nothing (R7)."""
        if not isinstance(token, str):
            return False
        if seat.personal is not None:
            return _same(seat.personal, token)
        return seat.taken and _same(seat.token, token)  # a table stored before personal tokens

    def is_creator(self, token: Any) -> bool:
        """True if ``token`` is the creator's token (compared in constant time)."""
        return isinstance(token, str) and _same(token, self.creator_token)

    def is_spectator(self, token: Any) -> bool:
        """True if ``token`` is the spectator token (compared in constant time)."""
        return isinstance(token, str) and _same(token, self.spectator_token)

    # -- requests --------------------------------------------------------------------

    async def sit(self, token: Any, name: Any, client: str = "person") -> SeatState:
        """A person sits down with a seat token and a name (R2.2); on a bot-played seat
        during the session, from the next hand on. ``client="bot"``: a program sits there
        (:mod:`ramsli.client`), shown as "bot (external)" (:attr:`SeatState.external`); it gets
        the seat's view only, as a person does (R7).

        The first ``sit`` at a seat issues the seat's personal token (:attr:`SeatState.personal`);
        from then on ``sit`` again needs that token (the invite token gets ``seat_taken``).

        At a table made by "Play again" the session starts as soon as every seat kept for a
        person of the last session is taken (:attr:`rematch`).

        Raises:
            Refused: ``bad_token``, ``bad_name``, ``bot_name``, ``name_taken`` (R2.2),
                ``seat_taken``, ``seat_left`` (the seat left as bust, R3.5), ``session_over`` (R3.6).
        """
        seat = await self._sit(token, name, client)
        if self._everyone_back():
            try:
                await self.start(self.creator_token)
            except Refused:
                pass  # started meanwhile
        return seat

    def is_kept(self, seat: SeatState) -> bool:
        """True if ``seat`` is kept for a person of the last session at a table made by "Play
        again" and that person has not sat down yet: only the seat's own invite link takes it."""
        return self.rematch is not None and seat.index in self.rematch.get("expect", []) and seat.personal is None

    def holds_table_token(self, token: Any) -> bool:
        """True if ``token`` is a token of this table that a person was given by its host: the
        creator's, a seat's invite or personal token, or the spectator token (compared in
        constant time). The table's id alone is none of these (issue 38.1)."""
        return self.is_creator(token) or self.seat_of_token(token) is not None or self.is_spectator(token)

    async def take(self, token: Any, seat: int, name: Any, open_: bool = False) -> SeatState:
        """A person at or around the table takes over the bot-played seat ``seat`` (0-based) from
        the table itself, as its invite link would: before the start at once, during the session
        from the next hand on. Who may (docs/protocol.md, "Tokens"; issue 38.1):

        - a seat kept for a person of the last session ("Play again", :meth:`is_kept`): only with
          that seat's own invite token;
        - any other bot-played seat: with the creator's token or a seat's invite or personal
          token; with the spectator token only at a table open to anyone in the lobby
          (``open_``: the directory's flag, which the table does not hold), whose watchers could
          take a free seat with ``join`` anyway.

        Raises:
            Refused: ``bad_token`` (none of those tokens), ``seat_kept`` (a kept seat, another
                token), ``no_seat``, ``not_a_bot_seat`` (a person sits there or takes it over),
                ``seat_left`` (R3.5), and the refusals of :meth:`sit`.
        """
        if not self.holds_table_token(token) or (self.is_spectator(token) and not open_):
            raise Refused(Refusal("bad_token"))
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise Refused(Refusal("no_seat", None, {"seat": str(seat)[:8], "last": seat_name(len(self.seats) - 1)}))
        target = self.seats[seat]
        if self.is_kept(target) and not target.taken:
            if not _same(target.token, token):
                raise Refused(Refusal("seat_kept", None, {"seat": seat_name(seat)}))
            return await self.sit(target.token, name)
        if target.taken or target.pending is not None or target.personal is not None:
            raise Refused(Refusal("not_a_bot_seat", None, {"seat": seat}))
        return await self.sit(target.token, name)

    def _everyone_back(self) -> bool:
        """True if this table was made by "Play again", is waiting, and every seat kept for a
        person of the last session is taken."""
        if self.rematch is None or self.status is not TableStatus.WAITING:
            return False
        return all(self.seats[i].taken for i in self.rematch.get("expect", []))

    async def _sit(self, token: Any, name: Any, client: str = "person") -> SeatState:
        async with self.lock:
            seat = self.seat_of_token(token)
            if seat is None:
                raise Refused(Refusal("bad_token"))
            name = check_name(name, bot_names())
            if self.status is TableStatus.OVER:
                raise Refused(Refusal("session_over", "R3.6"))
            if seat.personal is not None and not self.owns(seat, token):
                raise Refused(Refusal("seat_taken", None, {"seat": seat.index}))
            if self.session is not None and seat.index not in self.session.seated:
                raise Refused(Refusal("seat_left", "R3.5", {"seat": seat.index}))  # its bot left as bust
            if seat.taken and self.status is not TableStatus.WAITING:
                return seat  # already sitting; the name stays (R2.2: names are fixed in a session)
            if seat.pending is not None:
                return seat
            others = [s.name for s in self.seats if s is not seat and s.name] + [
                s.pending for s in self.seats if s is not seat and s.pending
            ]
            if name_key(name) in {name_key(n) for n in others}:  # look-alikes are the same name (R2.2)
                raise Refused(Refusal("name_taken", "R2.2", {"name": name}))
            external = client == "bot"
            if self.status is TableStatus.WAITING and seat.taken and seat.name == name and seat.external == external:
                return seat
            personal = seat.personal or secrets.token_urlsafe(18)
            await self._commit(Sit(seat.index, name, personal, external))
            return seat

    async def start(self, creator_token: Any) -> None:
        """The creator starts the session: bots fill empty seats, the first dealer is cut (R3.1),
        the first hand is dealt.

        Raises:
            Refused: ``bad_token`` (not the creator), ``started`` (already started).
        """
        async with self.lock:
            if not self.is_creator(creator_token):
                raise Refused(Refusal("bad_token"))
            if self.status is not TableStatus.WAITING:
                raise Refused(Refusal("started"))
            names = []
            used = {name_key(s.name) for s in self.seats if s.name}
            for s in self.seats:
                if s.name:
                    names.append(s.name)
                    continue
                name = BOT_SEAT_NAMES[s.index]  # the level is shown beside the name (the seat's ``bot``)
                while name_key(name) in used:
                    name += "'"
                used.add(name_key(name))
                names.append(name)
            rng = random.Random(f"{self.seed}:dealer") if self.seed is not None else self._rng
            dealer, _rounds = first_dealer_cut(len(self.seats), rng, deck=self.rules.deck)
            plan = self.duplicate_deal(1)
            if plan is not None:  # a duplicate deal fixes the first dealer (issue 35)
                dealer = plan.dealer
            await self._commit(Start(tuple(names), dealer))
            if self._playing():  # the start applied: the first deal follows
                await self._deal()

    def _playing(self) -> bool:
        return self.status is TableStatus.PLAYING

    async def set_pace(self, creator_token: Any, seconds: float) -> None:
        """The creator changes how long bots wait before they act (``bot_pace_seconds``,
        0..:data:`PACE_MAX` seconds), also during play; stored as a ``pace`` event, so it
        survives a restart.

        Raises:
            Refused: ``bad_token`` (not the creator).
            BadMessage: ``field_min``/``field_max`` naming ``bot_pace_seconds`` (not 0..60).
        """
        async with self.lock:
            if not self.is_creator(creator_token):
                raise Refused(Refusal("bad_token"))
            if seconds < 0:
                raise BadMessage(Refusal("field_min", None, {"field": "bot_pace_seconds", "limit": 0}))
            if seconds > PACE_MAX:
                raise BadMessage(Refusal("field_max", None, {"field": "bot_pace_seconds", "limit": int(PACE_MAX)}))
            await self._commit(Pace(float(seconds)))

    async def say(self, seat: SeatState, text: Any = None, code: Any = None) -> None:
        """A person at ``seat`` says something: a chat ``text`` (:func:`chat_text`) or a reaction
        or phrase ``code`` (:data:`REACTIONS`, :data:`PHRASES`). Stored as a ``chat`` event (it
        survives a restart, and does not count in :attr:`seq`) and sent to every connection as a
        ``chat`` message. Nothing in it comes from the game's state: only the person's words.

        Raises:
            Refused: ``not_sitting`` (nobody sits there and nobody takes it over), ``chat_empty``,
                ``chat_long``, ``chat_code`` (no such reaction or phrase), ``chat_flood`` (over
                :data:`CHAT_BURST` messages, then one each :data:`CHAT_REFILL_SECONDS`).
        """
        name = seat.pending or (seat.name if seat.taken else None)
        if name is None:
            raise Refused(Refusal("not_sitting"))
        if code is not None:
            if code not in REACTIONS and code not in PHRASES:
                raise Refused(Refusal("chat_code", None, {"code": str(code)[:20]}))
            line = Chat(seat.index, name, code=code)
        else:
            line = Chat(seat.index, name, text=chat_text(text))
        now = time.monotonic()
        tokens, last = self._chat_bucket.get(seat.index, (float(CHAT_BURST), now))
        tokens = min(float(CHAT_BURST), tokens + (now - last) / CHAT_REFILL_SECONDS)
        if tokens < 1.0:
            wait = max(1, round((1.0 - tokens) * CHAT_REFILL_SECONDS))
            raise Refused(Refusal("chat_flood", None, {"seconds": wait}))
        self._chat_bucket[seat.index] = (tokens - 1.0, now)
        async with self.lock:
            await self._commit(line)

    def set_paused(self, paused: bool) -> None:
        """Pause the table (an evening's director, issue 34) or let it go on: while paused every
        move is refused (``table_paused``), and no bot, proxy, turn timer or deal acts (the bot
        driver waits); going on starts the turn timer of the one to act afresh. Every connection
        gets its view (``paused``)."""
        if self.paused == paused:
            return
        self.paused = paused
        if not paused:
            self.turn_since = time.monotonic()
        self.broadcast()
        self.changed.set()

    def leave(self, seat: SeatState) -> None:
        """The person at ``seat`` leaves the table during the session: a bot plays the seat at
        once (the proxy), until they open their link again (:meth:`attach`)."""
        if seat.taken and not seat.left:
            seat.left = True
            self.broadcast()
            self.changed.set()

    def bot_now(self, creator_token: Any, index: Any) -> None:
        """The creator hands the seat of an away person to the bot at once, without waiting for
        the rest of the grace period; the person gets it back when they connect.

        Raises:
            Refused: ``bad_token`` (not the creator), ``no_seat``, ``not_away`` (nobody sits there,
                or the person is connected).
        """
        if not self.is_creator(creator_token):
            raise Refused(Refusal("bad_token"))
        if not isinstance(index, int) or not 0 <= index < len(self.seats):
            raise Refused(Refusal("no_seat", None, {"seat": str(index)[:8], "last": seat_name(len(self.seats) - 1)}))
        seat = self.seats[index]
        if not self.is_away(seat):
            raise Refused(Refusal("not_away", None, {"seat": index}))
        if not seat.handed:
            seat.handed = True
            self.broadcast()
            self.changed.set()

    def set_ready(self, seat: SeatState, number: int) -> None:
        """The person at ``seat`` closed the summary of finished hand ``number``; the next deal
        comes as soon as every connected person has (or ``hand_pause_seconds`` have passed).
        A number that is not the last finished hand's, or a hand in progress, changes nothing."""
        s = self.session
        if s is None or s.hand is not None or not s.results or s.results[-1].number != number:
            return
        if seat.taken and seat.index not in self.ready:
            self.ready.add(seat.index)
            self.broadcast()
            self.changed.set()

    def readers(self) -> list[SeatState]:
        """The people the next deal waits for: connected, at the table, not yet ready."""
        return [s for s in self.seats if s.taken and s.conn is not None and not s.left and s.index not in self.ready]

    def deal_due(self) -> float:
        """``time.monotonic()`` seconds of the next deal between hands: the end of the pause, or
        now if every connected person has closed the last hand's summary."""
        if not self.readers() and any(s.taken and s.conn is not None and not s.left for s in self.seats):
            return time.monotonic()
        return self.hand_ended + self.options.hand_pause_seconds

    def start_due(self) -> float | None:
        """``time.monotonic()`` seconds when a table made by "Play again" starts without the
        people still missing (bots take their seats), or None (another table, or nobody sat yet)."""
        if self.rematch is None or self.status is not TableStatus.WAITING or self.waiting_since is None:
            return None
        return self.waiting_since + REMATCH_WAIT_SECONDS

    async def set_next_table(self, table_id: str) -> None:
        """Record the table made by "Play again" (a ``rematch`` event: it survives a restart)."""
        async with self.lock:
            if self.next_table is None:
                await self._commit(Rematch(table_id))

    def rematch_spec(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The seats of the next session at this table, as :meth:`new_spec` takes them, and the
        seats kept for its people: a seat a person sat at stays theirs (a human seat), a bot seat
        keeps its bot, a human seat nobody took is open again (its invite link, a bot at the start)."""
        seats: list[dict[str, Any]] = []
        expect: list[int] = []
        for s in self.seats:
            if s.taken:
                seats.append({"kind": "human"})
                expect.append(s.index)
            elif s.kind == "bot":
                seats.append({"kind": "bot", "bot": s.bot})
            else:
                seats.append({"kind": "human"})
        return seats, expect

    async def deal_next(self) -> bool:
        """Deal the next hand if the session is playing (not paused) and between hands; True if it dealt."""
        async with self.lock:
            if (
                self.status is TableStatus.PLAYING
                and not self.paused
                and self.session is not None
                and self.session.hand is None
            ):
                await self._deal()
                return True
            return False

    async def _deal(self) -> None:
        """Shuffle (``secrets.SystemRandom``, or the test seed; a duplicate evening's table takes
        the hand's :meth:`duplicate_deal` with its salts instead), cut, commit to every card with a
        fresh salt per position (``secrets.token_hex``; ``docs/fairness.md``), store the deal with
        its salts and digest, then deal it (R4.1–R4.4): the digest is stored before anyone sees
        the hand. The caller holds :attr:`lock`."""
        s = self._session()
        number = s.hands_played + 1
        plan = self.duplicate_deal(number)
        if plan is not None:  # a duplicate evening's deal: the same deck, cut and salts at every table of the section
            deck, cut, salts = list(plan.deck), plan.cut, list(plan.salts)
        else:
            rng = random.Random(f"{self.seed}:hand:{number}") if self.seed is not None else self._rng
            deck, cut = shuffled_deck(self.rules, rng)
            salts = [secrets.token_hex(SALT_BYTES) for _ in deck]
        deal = DealCommitment.build(dealt_order(deck, cut), salts, self._binding(number, s.dealer, tuple(s.seated)))
        await self._commit(
            Deal(
                number=number,
                deck=tuple(deck),
                cut=cut,
                dealer=s.dealer,
                stacks=tuple(s.stacks),
                pot=s.pot,
                seated=tuple(s.seated),
                salts=tuple(salts),
                digest=deal.digest,
                scheme=SCHEME,
            )
        )

    def _binding(self, number: int, dealer: int, seated: tuple[int, ...]) -> DealBinding:
        """What the digest of hand ``number`` is bound to (``ramsli-deal/2``, ``docs/fairness.md``):
        this table's id, the hand's number, its dealer and the seats dealt in it (R3.2, R3.5)."""
        return DealBinding(self.id, number, dealer, tuple(sorted(seated)))

    def duplicate_deal(self, number: int) -> DealPlan | None:
        """Hand ``number``'s deal of a duplicate evening's table (issue 35; the cut is the
        deal's, R4.2), or None (not a duplicate table, or no such deal: then the table shuffles)."""
        deals = (self.duplicate or {}).get("deals") or []
        if not 1 <= number <= len(deals):
            return None
        return DealPlan.from_data(deals[number - 1])

    def _refuse_now(self, seq: int) -> None:
        """Refuse any action now if the session is not playing, the table is paused or ``seq``
        is not the table's."""
        if self.status is TableStatus.WAITING:
            raise Refused(Refusal("not_started"))
        if self.status is TableStatus.OVER:
            raise Refused(Refusal("session_over", "R3.6"))
        if self.paused:
            raise Refused(Refusal("table_paused"))
        if seq != self.seq:
            raise Refused(Refusal("stale_seq", None, {"seq": self.seq}))

    def _refuse_action(self, seat: int, action: Action) -> None:
        """Refuse an action of ``seat`` it may not make: another seat's, or one the engine finds
        illegal. This is the one legality check of a move: :meth:`Hand.why_illegal` (R4.12)."""
        if action.seat != seat:
            raise Refused(Refusal("not_your_seat", None, {"seat": seat}))
        hand = self.session.hand if self.session is not None else None
        why = Refusal("hand_over", "R5") if hand is None else hand.why_illegal(action)
        if why is not None:
            raise ProtocolRefusal(why, "illegal")

    def _act_event(self, action: Action, by: ActBy) -> Act:
        """The ``act`` event of ``action`` made now by ``by`` (the session's seconds, to the ms)."""
        return Act(action, by, round(self.clock(), 3))

    async def intent(self, seat: int, text: str, seq: int, by: ActBy = "seat") -> Action:
        """A person's intent: the action ``text`` of ``seat`` on the view of ``seq``, parsed once,
        checked once (R4.12), committed, applied and broadcast. A stale or repeated ``seq`` is
        refused, so an intent is never applied twice.

        Raises:
            Refused: ``pending_seat`` (the seat's takeover takes effect at the next deal),
                ``not_started``, ``session_over``, ``stale_seq``, ``not_your_seat``.
            ProtocolRefusal: ``bad_action`` (the text is no action: the engine's
                ``not_an_action``), ``illegal`` (the engine's reason and rule).
        """
        async with self.lock:
            if self.status is TableStatus.PLAYING and not self.seats[seat].taken:
                raise Refused(Refusal("pending_seat", None, {"seat": seat}))  # a bot plays it until the next deal
            self._refuse_now(seq)
            try:
                action = Action.parse(text, len(self.seats))
            except ValueError:
                refusal = Refusal("not_an_action", "R4.12", {"given": text[:40]})
                raise ProtocolRefusal(refusal, "bad_action") from None
            self._refuse_action(seat, action)
            await self._commit(self._act_event(action, by))
            return action

    async def act(self, seat: int, action: Action, seq: int, by: ActBy) -> None:
        """A move made for ``seat`` by the bot driver (``by``: ``bot``, ``proxy``, ``timer``) on the
        view of ``seq``: checked once, committed, applied and broadcast.

        Raises:
            Refused, ProtocolRefusal: as :meth:`intent` (the table moved on meanwhile: ``stale_seq``).
        """
        async with self.lock:
            self._refuse_now(seq)
            self._refuse_action(seat, action)
            await self._commit(self._act_event(action, by))

    # -- connections ------------------------------------------------------------------

    @staticmethod
    def _away_unless_connected(seat: SeatState) -> None:
        """A person who sat down (over HTTP) but has no live connection is away from now on, so
        the grace period runs and a bot plays the seat until they connect."""
        if seat.conn is None and seat.away_since is None:
            seat.away_since = time.monotonic()

    def attach(self, seat: SeatState | None, conn: Connection) -> Connection | None:
        """Attach a connection to a seat (or as spectator); returns the replaced connection, if any."""
        if seat is None:
            self.spectators.add(conn)
            if self.chat:
                conn.deliver(self.chat_log())
            return None
        old = seat.conn
        seat.conn = conn
        seat.away_since = None
        seat.left = seat.handed = False  # back at the table
        if self.chat:
            conn.deliver(self.chat_log())
        self.broadcast()
        self.changed.set()
        return old

    def chat_log(self) -> dict[str, Any]:
        """The ``chat_log`` message: the last :data:`CHAT_KEEP` chat lines, oldest first."""
        return {"type": "chat_log", "lines": list(self.chat)}

    def detach(self, seat: SeatState | None, conn: Connection) -> None:
        """Forget a closed connection; its seat is away from now on (grace period starts)."""
        if seat is None:
            self.spectators.discard(conn)
            return
        if seat.conn is conn:
            seat.conn = None
            seat.away_since = time.monotonic()
            self.broadcast()
            self.changed.set()

    def _send_all(self, msg: dict[str, Any]) -> None:
        """Send one message (the same for everyone, e.g. a chat line) to every connection."""
        for s in self.seats:
            if s.conn is not None:
                s.conn.deliver(msg)
        for c in list(self.spectators):
            c.deliver(msg)

    def broadcast(self) -> None:
        """Send every connection its own current view (:func:`ramsli.server.tables.views.view`; never blocks)."""
        for s in self.seats:
            if s.conn is not None:
                s.conn.deliver(views.view(self, s.index))
        if self.spectators:
            v = views.view(self, None)
            for c in list(self.spectators):
                c.deliver(v)

    # -- what the views and the driver read ----------------------------------------------

    def current_hand(self) -> tuple[Hand | None, int | None]:
        """The hand in progress, else the last finished one, with its 1-based number."""
        s = self.session
        if s is None:
            return None, None
        if s.hand is not None:
            return s.hand, s.hands_played + 1
        if s.results:
            return s.results[-1].hand, s.results[-1].number
        return None, None

    def proof(self, number: int, reader: SeatState | None) -> DealProof | None:
        """What ``reader`` (None: a spectator) may check of hand ``number`` now: the hand's
        commitments and the openings of the cards it may know (its own cards only when it is
        seated in that hand and :meth:`own_cards_shown`; R7, D-16), from the salts of the stored deal event; None for a
        hand without commitments or a number not dealt."""
        deal = self.deals.get(number)
        s = self.session
        if deal is None or s is None:
            return None
        if 1 <= number <= len(s.results):
            hand = s.results[number - 1].hand
        elif number == s.hands_played + 1:
            hand = s.hand
        else:
            hand = None
        if hand is None:
            return None
        mine = reader is not None and reader.index in hand.seated and self.own_cards_shown(reader, number)
        return DealProof.of(deal, hand, reader.index if mine and reader is not None else None)

    def own_cards_shown(self, seat: SeatState | None, number: int) -> bool:
        """True if the person at ``seat`` (None: a spectator) may see that seat's own dealt cards
        of finished hand ``number``: they sat there in that hand (R7: never a bot's cards from
        before a takeover)."""
        return seat is not None and seat.taken and seat.since_hand is not None and seat.since_hand <= number

    def is_away(self, s: SeatState) -> bool:
        """True if a person sits at ``s`` with no live connection."""
        return s.taken and s.conn is None

    def bot_due(self, s: SeatState) -> float | None:
        """``time.monotonic()`` seconds from which a bot plays ``s`` for its person: the end of the
        grace period of an away person (at once if they left or the creator handed the seat to
        the bot), or None while the person is at the table (or nobody sits there, or the
        session is over: nothing is played any more, or it has not started yet: nothing is played
        before the start, and the grace period of a person away then counts from the start)."""
        if not s.taken or self.status is not TableStatus.PLAYING:
            return None
        if s.left or s.handed:
            return -float("inf")
        if s.conn is None and s.away_since is not None:
            return s.away_since + self.options.grace_seconds
        return None

    def proxy_playing(self, s: SeatState, now: float | None = None) -> bool:
        """True if a bot plays ``s`` for its person (away past the grace period, left, or handed)."""
        now = time.monotonic() if now is None else now
        due = self.bot_due(s)
        return due is not None and now >= due

    def timer_due(self) -> float | None:
        """``time.monotonic()`` seconds when the turn timer plays for the person to act, or None
        (no timer, no hand in progress, a bot to act, or the person away: then :meth:`bot_due`).

        After the card that completed a trick (R4.9, ``Hand.trick_complete``) the countdown starts
        :data:`TRICK_SHOWN_SECONDS` later (:meth:`timer_start`), while the pages still show that trick."""
        s = self.session
        if self.options.turn_seconds is None or s is None or s.hand is None or s.hand.to_act is None:
            return None
        if self.paused:
            return None
        seat = self.seats[s.hand.to_act]
        if not seat.taken or self.bot_due(seat) is not None:
            return None
        return self.timer_start() + self.options.turn_seconds

    def timer_start(self) -> float:
        """``time.monotonic()`` seconds from which the turn timer of the one to act counts: the last
        move (or deal), or :data:`TRICK_SHOWN_SECONDS` after it when that move completed a trick."""
        s = self.session
        hand = s.hand if s is not None else None
        if hand is not None and hand.phase is Phase.PLAY and hand.trick_complete:
            return self.turn_since + TRICK_SHOWN_SECONDS
        return self.turn_since
