"""One server table: its seats, its session (R3) and the views it sends (issue 10).

A :class:`Table` holds no rules of its own: legality, settlement, session ends
and standings come from the engine (:class:`~ramsli.Session`,
:class:`~ramsli.Hand`). The table keeps what the engine does not know: who sits
where (seat tokens, names, human or bot), who is connected, the sequence number
``seq`` of accepted events, and the pacing of bots.

Every state change is an *event* (``sit``, ``start``, ``deal``, ``act``, ``pace``) that is
committed to the :class:`~ramsli.server.storage.EventStore` **before** it is applied
and broadcast; :meth:`Table.replay` rebuilds a table from its events through the
engine, so a restarted server has the same cards, actions and counters (R3.4).

Views (:meth:`Table.view`) are built per recipient from ``Hand.observe(seat)``
and the public log only: no other seat's unplayed or folded cards, no stock,
deck order, cut, seed or RNG state (R7, D-16). The fields are documented in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ramsli import Action, Hand, Rules, Session
from ramsli.bots import make_bot
from ramsli.bots.base import bot_names
from ramsli.cards import Card, make_deck
from ramsli.hand import seat_name
from ramsli.history import settlement_record
from ramsli.refusal import Refusal
from ramsli.session import first_dealer_cut, forbidden_name_char, name_is_blank, name_key

__all__ = [
    "Table",
    "SeatState",
    "TableError",
    "TableOptions",
    "FAST_BOTS",
    "FILL_BOT",
    "NAME_MAX",
    "BOT_SEAT_NAMES",
    "BOT_MOVE_SECONDS",
    "bot_pool",
    "shutdown_bot_pool",
]

#: bots cheap enough to run on the event loop; others run in worker processes (see :func:`bot_pool`)
FAST_BOTS = ("random", "tips", "rules")
#: the bot that plays an empty human seat, and an away player's seat after the grace period (the tips
#: player; tables saved with its old name ``rules`` still load: it is the same bot)
FILL_BOT = "tips"
#: longest seat name, characters
NAME_MAX = 24
#: the names of bots filling seats p1..p6 at the start (the same in every language)
BOT_SEAT_NAMES = ("Ada", "Bert", "Cleo", "Dario", "Elsa", "Finn")
#: seconds one decision of a slow bot may take; past it the seat plays a seeded ``tips`` decision
BOT_MOVE_SECONDS = 10.0


_POOL: Any = None


def bot_pool() -> Any:
    """The process pool where slow bots think (one worker per core but one, at least one).

    Threads would not do: a thinking bot holds the GIL and every table's event loop waits.
    """
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(
            max_workers=max(1, (os.cpu_count() or 2) - 1),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )
        atexit.register(shutdown_bot_pool)
    return _POOL


def shutdown_bot_pool() -> None:
    """Stop the bot worker processes (at server shutdown)."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=True, cancel_futures=True)
        _POOL = None


def _watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server is gone (also after a SIGKILL of it)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _decide(spec: str, seed: int, obs: Any) -> str:
    """In a worker process: a fresh bot of ``spec`` seeded for this one decision chooses (R7: obs only)."""
    return str(_safe_act(make_bot(spec, seed=seed), obs))


class TableError(Exception):
    """A request the table refuses; ``code`` is a protocol error code, ``fields`` fill its message.

    The table is unchanged when this is raised.
    """

    def __init__(self, code: str, detail: str = "", **fields: Any) -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.fields = {"detail": detail, **fields} if detail else fields  # fills a message's {detail}


@dataclass
class TableOptions:
    """A table's options: timings (seconds; ``turn_seconds`` None means no turn timer) and
    ``hint``, whether the creator allows the "should I stay in?" hint (issue 11). They are part of
    the stored spec, so they survive a restart; ``bot_pace_seconds`` may change during play
    (a ``pace`` event)."""

    grace_seconds: float = 60.0
    turn_seconds: float | None = None
    bot_pace_seconds: float = 0.8
    hand_pause_seconds: float = 4.0
    hint: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "grace_seconds": self.grace_seconds,
            "turn_seconds": self.turn_seconds,
            "bot_pace_seconds": self.bot_pace_seconds,
            "hand_pause_seconds": self.hand_pause_seconds,
            "hint": self.hint,
        }


@dataclass
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
    conn: Any = None
    away_since: float | None = None
    bot_player: Any = None
    proxy: Any = None

    @property
    def bot_controlled(self) -> bool:
        """True if a bot plays this seat for good (a bot seat, or a human seat nobody took)."""
        return not self.taken


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


def looks_like_a_bot(name: str) -> bool:
    """True if ``name`` imitates the label the server gives a bot-played seat (``rules p4``,
    ``montecarlo p2'``), compared as :func:`~ramsli.session.name_key` compares names."""
    key = name_key(name).replace(" ", "")
    bots = sorted({name_key(b) for b in bot_names()} | {name_key(FILL_BOT), "tips", "bot"}, key=len, reverse=True)
    for b in bots:
        if key.startswith(b):
            rest = key[len(b) :].rstrip("'")
            if len(rest) >= 2 and rest[0] == "p" and all(c.isdigit() or c == "l" for c in rest[1:]):
                return True
    return False


def check_name(name: Any) -> str:
    """A seat name as R2.2 wants it: 1..24 characters of text without control characters, not
    blank (spaces and invisible fillers only) and not imitating a bot's label (``rules p4``).

    Raises:
        TableError: ``bad_name``.
    """
    if not isinstance(name, str) or name_is_blank(name) or len(name.strip()) > NAME_MAX:
        raise TableError("bad_name", max=NAME_MAX)
    if forbidden_name_char(name) is not None:  # the engine's one R2.2 character rule
        raise TableError("bad_name", max=NAME_MAX)
    if looks_like_a_bot(name):
        raise TableError("bot_name", name=name.strip())
    return name.strip()


class Table:
    """A live table. Build it with :meth:`create` (new) or :meth:`replay` (from stored events).

    Args:
        table_id: the table's id (in its links).
        spec: the stored spec: ``preset``, ``rules`` (``Rules.to_dict``), ``seats``
            (``kind``, ``bot``, ``token``), ``creator_token``, ``spectator_token``,
            ``options`` (:class:`TableOptions`), ``seed`` (None unless test-seeded).
        store: where events are committed (any object with ``async append(table_id, seq, kind, data)``).
    """

    def __init__(
        self, table_id: str, spec: dict[str, Any], store: Any, on_change: Callable[[Table], None] | None = None
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.store = store
        self.preset = spec.get("preset", "traditional")
        self.rules = Rules.from_dict(spec["rules"])
        self.options = TableOptions(**spec.get("options", {}))
        self.seed: int | None = spec.get("seed")
        self.creator_token: str = spec["creator_token"]
        self.spectator_token: str = spec["spectator_token"]
        self.seats = [SeatState(i, s["kind"], s.get("bot"), s["token"]) for i, s in enumerate(spec["seats"])]
        self.status = "waiting"
        self.session: Session | None = None
        self.seq = 0
        self.clock = _Clock()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.spectators: set[Any] = set()
        self.turn_since = time.monotonic()
        self.hand_ended = time.monotonic()
        self.driver: asyncio.Task | None = None
        self.closed = False
        self.replaying = False
        self._rng: random.Random = secrets.SystemRandom() if self.seed is None else random.Random(self.seed)
        self._rules_view = {"preset": self.preset, "options": self.rules.to_dict(), "summary": self.rules_summary()}

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def new_spec(
        rules: Rules, preset: str, seats: list[dict[str, Any]], options: TableOptions, seed: int | None
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
    def replay(cls, table_id: str, spec: dict[str, Any], events: list[tuple[int, str, dict]], store: Any) -> Table:
        """Rebuild a table from its stored events through the engine (exact restore).

        Raises:
            ValueError: if the events do not replay (a corrupt database): the message names the event.
        """
        t = cls(table_id, spec, store)
        t.replaying = True
        for seq, kind, data in events:
            if seq != t.seq + 1:
                raise ValueError(f"table {table_id}: event {seq} follows event {t.seq}; the log has a gap")
            try:
                t._apply_event(kind, data)
            except Exception as e:  # noqa: BLE001
                raise ValueError(f"table {table_id}: event {seq} ({kind}) does not replay: {e}") from None
            t.seq = seq
        t.replaying = False
        if t.session is not None:
            t.clock.run_from(t._last_elapsed)
        now = time.monotonic()
        for s in t.seats:
            if s.taken:
                s.away_since = now  # nobody is connected after a restart
        return t

    # -- events: the only way the state changes ---------------------------------------

    _last_elapsed = 0.0

    def _apply_event(self, kind: str, data: dict[str, Any]) -> None:
        """Apply one event to the in-memory state (live after commit, or while replaying)."""
        if kind == "sit":
            seat = self.seats[data["seat"]]
            seat.personal = data.get("token", seat.personal)
            if self.status == "waiting":
                seat.name = data["name"]
                seat.taken = True
                seat.since_hand = 1
                self._away_unless_connected(seat)
            else:
                seat.pending = data["name"]
        elif kind == "start":
            names = data["names"]
            for s, name in zip(self.seats, names):
                s.name = name
            self.session = Session(self.rules, names, dealer=data["dealer"], clock=self.clock)
            if not self.replaying:
                self.clock.run_from(0.0)
            self.status = "over" if self.session.is_over else "playing"
            self._make_bots()
        elif kind == "deal":
            assert self.session is not None
            for s in self.seats:
                if s.pending is not None:  # a person takes over a bot-played seat between hands
                    s.name, s.taken, s.pending = s.pending, True, None
                    s.since_hand = self.session.hands_played + 1
                    s.bot_player = None
                    self._away_unless_connected(s)
            deck = [Card.parse(c) for c in data["deck"]]
            hand = self.session.start_hand(deck=deck, cut=data["cut"])
            if (
                hand.dealer != data["dealer"]
                or list(hand.start_stacks) != data["stacks"]
                or hand.carry_in != data["pot"]
            ):
                raise ValueError("the deal does not match the recorded dealer, stacks and pot")
        elif kind == "pace":
            self.options.bot_pace_seconds = float(data["seconds"])
        elif kind == "act":
            assert self.session is not None and self.session.hand is not None
            elapsed = float(data.get("elapsed", 0.0))
            self._last_elapsed = elapsed
            self.clock.fixed = elapsed  # R3.6 time:M is decided on the recorded time, live and in replay
            try:
                self.session.apply(Action.parse(data["action"], len(self.seats)))
            finally:
                if not self.replaying:
                    self.clock.fixed = None
            if self.session.hand is None:
                self.hand_ended = time.monotonic()
                if self.session.is_over:
                    self.status = "over"
        else:
            raise ValueError(f"unknown event kind {kind!r}")
        self.turn_since = time.monotonic()

    async def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Commit the event, then apply it, then count it; the caller holds :attr:`lock`."""
        await self.store.append(self.id, self.seq + 1, kind, data)
        self._apply_event(kind, data)
        self.seq += 1
        self.broadcast()
        self.changed.set()

    def _make_bots(self) -> None:
        for s in self.seats:
            if s.bot_controlled and s.bot_player is None:
                s.bot_player = self._new_bot(s.bot or FILL_BOT, s.index)

    def _new_bot(self, spec: str, seat: int, salt: str = "bot") -> Any:
        seed = (
            random.Random(f"{self.seed}:{salt}:{seat}").randrange(2**32)
            if self.seed is not None
            else secrets.randbits(32)
        )
        return make_bot(spec, seed=seed)

    # -- requests --------------------------------------------------------------------

    def seat_of_token(self, token: Any) -> SeatState | None:
        """The seat whose invite token or personal token is ``token`` (compared in constant
        time), or None. Whether the token may act for that seat is :meth:`owns`."""
        if not isinstance(token, str):
            return None
        for s in self.seats:
            if secrets.compare_digest(s.token.encode(), token.encode()) or (
                s.personal is not None and secrets.compare_digest(s.personal.encode(), token.encode())
            ):
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
            return secrets.compare_digest(seat.personal.encode(), token.encode())
        return seat.taken and secrets.compare_digest(
            seat.token.encode(), token.encode()
        )  # a table stored before personal tokens

    async def sit(self, token: Any, name: Any) -> SeatState:
        """A person sits down with a seat token and a name (R2.2); on a bot-played seat
        during the session, from the next hand on.

        The first ``sit`` at a seat issues the seat's personal token (:attr:`SeatState.personal`);
        from then on ``sit`` again needs that token (the invite token gets ``seat_taken``).

        Raises:
            TableError: ``bad_token``, ``bad_name``, ``name_taken``, ``seat_taken``, ``session_over``.
        """
        async with self.lock:
            seat = self.seat_of_token(token)
            if seat is None:
                raise TableError("bad_token")
            name = check_name(name)
            if self.status == "over":
                raise TableError("session_over")
            if seat.personal is not None and not self.owns(seat, token):
                raise TableError("seat_taken", seat=seat_name(seat.index))
            if seat.taken and self.status != "waiting":
                return seat  # already sitting; the name stays (R2.2: names are fixed in a session)
            if seat.pending is not None:
                return seat
            others = [s.name for s in self.seats if s is not seat and s.name] + [
                s.pending for s in self.seats if s is not seat and s.pending
            ]
            if name_key(name) in {name_key(n) for n in others}:  # look-alikes are the same name (R2.2)
                raise TableError("name_taken", name=name)
            if self.status == "waiting" and seat.taken and seat.name == name:
                return seat
            personal = seat.personal or secrets.token_urlsafe(18)
            await self._commit("sit", {"seat": seat.index, "name": name, "token": personal})
            return seat

    async def start(self, creator_token: Any) -> None:
        """The creator starts the session: bots fill empty seats, the first dealer is cut (R3.1),
        the first hand is dealt.

        Raises:
            TableError: ``bad_token`` (not the creator), ``started`` (already started).
        """
        async with self.lock:
            if not isinstance(creator_token, str) or not secrets.compare_digest(
                creator_token.encode(), self.creator_token.encode()
            ):
                raise TableError("bad_token")
            if self.status != "waiting":
                raise TableError("started")
            names = []
            used = {name_key(s.name) for s in self.seats if s.name}
            for s in self.seats:
                if s.name:
                    names.append(s.name)
                    continue
                base = BOT_SEAT_NAMES[s.index]  # the level is shown beside the name (the seat's ``bot``)
                name = base
                while name_key(name) in used:
                    name += "'"
                used.add(name_key(name))
                names.append(name)
            rng = random.Random(f"{self.seed}:dealer") if self.seed is not None else self._rng
            dealer, _rounds = first_dealer_cut(len(self.seats), rng, deck=self.rules.deck)
            await self._commit("start", {"names": names, "dealer": dealer})
            if self.status == "playing":
                await self._deal()

    async def set_pace(self, creator_token: Any, seconds: Any) -> None:
        """The creator changes how long bots wait before they act (``bot_pace_seconds``, 0..60),
        also during play; stored as a ``pace`` event, so it survives a restart.

        Raises:
            TableError: ``bad_token`` (not the creator), ``bad_message`` (not a number 0..60).
        """
        async with self.lock:
            if not isinstance(creator_token, str) or not secrets.compare_digest(
                creator_token.encode(), self.creator_token.encode()
            ):
                raise TableError("bad_token")
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 60:
                raise TableError("bad_message", detail=f"bot_pace_seconds must be a number 0..60, got {seconds!r}")
            await self._commit("pace", {"seconds": float(seconds)})

    async def _deal(self) -> None:
        """Shuffle (``secrets.SystemRandom``, or the test seed), cut, commit the deal, deal it (R4.1–R4.4)."""
        s = self.session
        assert s is not None and s.hand is None and not s.is_over
        number = s.hands_played + 1
        rng = random.Random(f"{self.seed}:hand:{number}") if self.seed is not None else self._rng
        deck = list(make_deck(self.rules.deck, self.rules.jokers))
        rng.shuffle(deck)
        cut = rng.randrange(1, len(deck))
        await self._commit(
            "deal",
            {
                "number": number,
                "deck": [str(c) for c in deck],
                "cut": cut,
                "dealer": s.dealer,
                "stacks": list(s.stacks),
                "pot": s.pot,
                "seated": list(s.seated),
            },
        )

    def check_intent(self, seat: int, text: Any, seq: Any) -> Action:
        """Check an intent of ``seat`` without changing anything; return the action.

        Raises:
            TableError: ``not_started``, ``session_over``, ``stale_seq``, ``bad_action``,
                ``not_your_seat``, ``illegal`` (``fields`` hold the engine's reason and rule, R4.12).
        """
        if self.status == "waiting":
            raise TableError("not_started")
        if self.status == "over":
            raise TableError("session_over")
        if type(seq) is not int or seq != self.seq:
            raise TableError("stale_seq", seq=self.seq)
        if not isinstance(text, str) or len(text) > 40:
            raise TableError("bad_action", action=str(text)[:40])
        try:
            action = Action.parse(text, len(self.seats))
        except ValueError as e:
            raise TableError("bad_action", str(e), action=text) from None
        if action.seat != seat:
            raise TableError("not_your_seat", seat=seat_name(seat))
        hand = self.session.hand if self.session is not None else None
        if hand is None:
            raise TableError("illegal", refusal=Refusal("hand_over", "R5"))
        why = hand.why_illegal(action)
        if why is not None:
            raise TableError("illegal", refusal=why)
        return action

    async def intent(self, seat: int, text: Any, seq: Any, by: str = "seat") -> Action:
        """Check, commit, apply and broadcast one intent (R4.12); stale or repeated ``seq`` is refused.

        Raises:
            TableError: as :meth:`check_intent`; ``not_seated`` if the seat's takeover
                (:meth:`sit` on a bot-played seat) has not taken effect yet; the table is unchanged.
        """
        async with self.lock:
            if self.status == "playing" and not self.seats[seat].taken:
                raise TableError("not_seated")  # a bot plays it until the takeover at the next deal
            action = self.check_intent(seat, text, seq)
            await self._commit("act", {"action": str(action), "by": by, "elapsed": round(self.clock(), 3)})
            return action

    # -- connections ------------------------------------------------------------------

    @staticmethod
    def _away_unless_connected(seat: SeatState) -> None:
        """A person who sat down (over HTTP) but has no live connection is away from now on, so
        the grace period runs and a bot plays the seat until they connect (issue 10, item 7)."""
        if seat.conn is None and seat.away_since is None:
            seat.away_since = time.monotonic()

    def attach(self, seat: SeatState | None, conn: Any) -> Any:
        """Attach a connection to a seat (or as spectator); returns the replaced connection, if any."""
        if seat is None:
            self.spectators.add(conn)
            return None
        old = seat.conn
        seat.conn = conn
        seat.away_since = None
        self.broadcast()
        self.changed.set()
        return old

    def detach(self, seat: SeatState | None, conn: Any) -> None:
        """Forget a closed connection; its seat is away from now on (grace period starts)."""
        if seat is None:
            self.spectators.discard(conn)
            return
        if seat.conn is conn:
            seat.conn = None
            seat.away_since = time.monotonic()
            self.broadcast()
            self.changed.set()

    def broadcast(self) -> None:
        """Send every connection its own current view (never blocks)."""
        for s in self.seats:
            if s.conn is not None:
                s.conn.deliver(self.view(s.index))
        if self.spectators:
            v = self.view(None)
            for c in list(self.spectators):
                c.deliver(v)

    # -- views -------------------------------------------------------------------------

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

    def own_cards_shown(self, seat: SeatState | None, number: int) -> bool:
        """True if the person at ``seat`` (None: a spectator) may see that seat's own dealt cards
        of finished hand ``number``: they sat there in that hand (R7: never a bot's cards from
        before a takeover)."""
        return seat is not None and seat.taken and seat.since_hand is not None and seat.since_hand <= number

    def finished_hand(self, number: int, seat: SeatState | None) -> dict[str, Any]:
        """A readable account of finished hand ``number`` for ``seat`` (None: a spectator): the
        public log (declarations, every trick, the settlement) and, when
        :meth:`own_cards_shown`, that seat's own dealt cards; never anyone else's unplayed or
        folded cards, the stock or the cut (R7, D-16).

        Raises:
            TableError: ``no_hand`` if hand ``number`` is not finished.
        """
        s = self.session
        if s is None or not 1 <= number <= len(s.results):
            raise TableError("no_hand", number=number)
        entry = s.results[number - 1]
        hand = entry.hand
        obs = hand.observe(hand.seated[0])  # only public fields are read from it
        mine = self.own_cards_shown(seat, number)
        return {
            "number": number,
            "dealer": seat_name(hand.dealer),
            "turn_up": str(hand.turn_up),
            "trump": obs.trump,
            "turned_aside": [str(c) for c in hand.turned_aside],
            "declarations": [[seat_name(a), d] for a, d in obs.declarations],
            "tricks": [_trick(t) for t in obs.tricks],
            "settlement": settlement_record(entry.settlement),
            "your_cards": [str(c) for c in hand.dealt[seat.index] if c is not None] if mine else [],
            "history": f"/api/tables/{self.id}/hands/{number}.toml",
        }

    def rules_summary(self) -> str:
        try:
            base = Rules.preset(self.preset)
        except Exception:  # noqa: BLE001
            base = Rules()
        diff = self.rules.diff(base)
        parts = [self.preset] + [f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in diff.items()]
        return "; ".join(parts)

    def is_away(self, s: SeatState) -> bool:
        return s.taken and s.conn is None

    def proxy_playing(self, s: SeatState, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return (
            s.taken and s.conn is None and s.away_since is not None and now - s.away_since >= self.options.grace_seconds
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator), as ``docs/protocol.md`` describes it (R7).

        A seat nobody sits at yet (a bot seat whose link was opened, a takeover still ``pending``
        until the next deal) gets a spectator's view: a bot plays those cards, and the person
        holding the link may not see them (R7, D-16); ``you.pending`` says so.
        """
        sess = self.session
        hand, number = self.current_hand()
        obs = None
        private = seat is not None and self.seats[seat].taken
        if hand is not None:
            obs = hand.observe(seat if private else hand.seated[0])
        now = time.monotonic()
        declared = dict(obs.declarations) if obs is not None else {}
        seats = []
        for s in self.seats:
            i = s.index
            if obs is not None:
                stack = obs.stacks[i]
            elif sess is not None:
                stack = sess.stacks[i]
            else:
                stack = self.rules.starting_stack
            in_hand = obs is not None and i in obs.seated
            seats.append(
                {
                    "seat": seat_name(i),
                    "name": s.name,
                    "kind": "human" if (s.taken or (self.status == "waiting" and s.kind == "human")) else "bot",
                    "bot": None if s.taken else (s.bot or (FILL_BOT if self.status != "waiting" else None)),
                    "taken": s.taken,
                    "stack": stack,
                    "seated": (i in sess.seated) if sess is not None else True,
                    "in": (
                        {"in": True, "out": False}.get(declared[i])
                        if i in declared
                        else (True if obs is not None and in_hand and i in obs.active else None)
                    ),
                    "tricks": obs.tricks_won[i] if obs is not None else 0,
                    "cards_left": obs.cards_left[i] if obs is not None else 0,
                    "away": self.is_away(s),
                    "bot_playing": self.proxy_playing(s, now),
                    "dealer": obs is not None and obs.dealer == i,
                }
            )
        hand_v = None
        if hand is not None and obs is not None:
            tricks = [_trick(t) for t in obs.tricks]
            hand_v = {
                "number": number,
                "phase": obs.phase.value,
                "dealer": seat_name(obs.dealer),
                "to_act": None if obs.to_act is None else seat_name(obs.to_act),
                "turn_up": str(obs.turn_up),
                "trump": obs.trump,
                "turned_aside": [str(c) for c in obs.turned_aside],
                "pot": obs.pot,
                "declarations": [[seat_name(a), d] for a, d in obs.declarations],
                "general_rams": None if obs.general_rams is None else seat_name(obs.general_rams),
                "targets": [[seat_name(a), t] for a, t in obs.targets],
                "current": {
                    "leader": None if obs.leader is None else seat_name(obs.leader),
                    "plays": [[seat_name(a), str(c)] for a, c in obs.current],
                },
                "last_trick": tricks[-1] if tricks else None,
                "tricks": tricks,
                "log": [str(a) for a in hand.history],
                "settlement": settlement_record(obs.settlement) if obs.settlement is not None else None,
            }
        ledger = []
        if sess is not None:
            for e in sess.results:
                st = e.settlement
                ledger.append(
                    {
                        "hand": e.number,
                        "kind": st.kind,
                        "winners": [seat_name(w) for w in st.winners],
                        "bete": [seat_name(b) for b in st.bete],
                        "stacks_after": list(e.stacks_after),
                        "pot_after": e.pot_after,
                        "left": [seat_name(x) for x in e.left],
                        "history": f"/api/tables/{self.id}/hands/{e.number}.toml",
                    }
                )
        standings = None
        if sess is not None and sess.is_over:
            order = sorted(range(len(self.seats)), key=lambda i: (-sess.stacks[i], i))
            standings = []
            for i in order:
                place = 1 + sum(1 for j in range(len(self.seats)) if sess.stacks[j] > sess.stacks[i])
                standings.append(
                    {"place": place, "seat": seat_name(i), "name": self.seats[i].name, "stack": sess.stacks[i]}
                )
        mine = private and obs is not None
        return {
            "type": "view",
            "table": self.id,
            "seq": self.seq,
            "you": {
                "role": "seat" if seat is not None else "spectator",
                "seat": None if seat is None else seat_name(seat),
                "pending": seat is not None and self.seats[seat].pending is not None,
            },
            "status": self.status,
            "test_seeded": self.seed is not None,
            "rules": self._rules_view,
            "options": self.options.to_dict(),
            "seats": seats,
            "hand": hand_v,
            "to_act": hand_v["to_act"] if hand_v else None,
            "your_cards": [str(c) for c in obs.cards] if mine else [],
            "legal": [str(a) for a in obs.legal] if mine else [],
            "ledger": ledger,
            "standings": standings,
            "end_reason": sess.end_reason if sess is not None else None,
        }

    def info(self) -> dict[str, Any]:
        """Public table info (no tokens, no cards): status, rules, seats."""
        return {
            "table": self.id,
            "status": self.status,
            "seq": self.seq,
            "test_seeded": self.seed is not None,
            "rules": {"preset": self.preset, "options": self.rules.to_dict(), "summary": self.rules_summary()},
            "options": self.options.to_dict(),
            "seats": [
                {"seat": seat_name(s.index), "name": s.name, "kind": s.kind, "bot": s.bot, "taken": s.taken}
                for s in self.seats
            ],
            "spectate": f"/t/{self.id}/watch/{self.spectator_token}",
        }

    # -- the driver: bots, proxies, timers, next deals ---------------------------------

    def _controller(self, s: SeatState, now: float) -> tuple[float, str] | None:
        """When and how the seat to act will be played without a person: (delay, job) or None."""
        pace = self.options.bot_pace_seconds
        if s.bot_controlled:
            return max(0.0, self.turn_since + pace - now), "bot"
        if s.conn is None and s.away_since is not None:
            due = s.away_since + self.options.grace_seconds
            if now >= due:
                return max(0.0, max(self.turn_since, due) + pace - now), "proxy"
            return due - now, "recheck"
        if self.options.turn_seconds is not None:
            return max(0.0, self.turn_since + self.options.turn_seconds - now), "timer"
        return None

    def next_job(self, now: float) -> tuple[float, str] | None:
        if self.status != "playing" or self.session is None:
            return None
        s = self.session
        if s.hand is None:
            return max(0.0, self.hand_ended + self.options.hand_pause_seconds - now), "deal"
        return self._controller(self.seats[s.hand.to_act], now)

    def start_driver(self) -> None:
        """Start the task that plays bots, proxies and timers and deals the next hands."""
        if self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def stop_driver(self) -> None:
        self.closed = True
        self.changed.set()
        if self.driver is not None:
            self.driver.cancel()
            try:
                await self.driver
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
            self.driver = None

    async def _drive(self) -> None:
        while not self.closed:
            self.changed.clear()
            job = self.next_job(time.monotonic())
            if job is None:
                await self.changed.wait()
                continue
            delay, kind = job
            if delay > 0:
                try:
                    await asyncio.wait_for(self.changed.wait(), delay)
                    continue  # something changed: look again
                except TimeoutError:
                    pass
            if kind == "recheck":
                self.broadcast()  # the seat's bot_playing flag flips now
                continue
            try:
                await self._run(kind)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger("ramsli.server").exception("table %s: %s failed", self.id, kind)
                await asyncio.sleep(1.0)

    async def _run(self, kind: str) -> None:
        if kind == "deal":
            async with self.lock:
                if self.status == "playing" and self.session is not None and self.session.hand is None:
                    await self._deal()
            return
        s = self.session
        if s is None or s.hand is None:
            return
        hand = s.hand
        seat = self.seats[hand.to_act]
        seq = self.seq
        if kind == "bot":
            if seat.bot_player is None:
                seat.bot_player = self._new_bot(seat.bot or FILL_BOT, seat.index)
            player, spec = seat.bot_player, seat.bot or FILL_BOT
        else:
            if seat.proxy is None:
                seat.proxy = self._new_bot(FILL_BOT, seat.index, salt="proxy")
            player, spec = seat.proxy, FILL_BOT
        obs = hand.observe(seat.index)
        if spec.split(":")[0] in FAST_BOTS:
            action = _safe_act(player, obs)
        else:
            seed = (
                random.Random(f"{self.seed}:decide:{seat.index}:{seq}").randrange(2**32)
                if self.seed is not None
                else secrets.randbits(32)
            )
            try:
                action = await asyncio.wait_for(
                    asyncio.get_running_loop().run_in_executor(bot_pool(), _decide, spec, seed, obs), BOT_MOVE_SECONDS
                )
            except TimeoutError:  # too slow: a seeded rules decision instead (same seed, same move)
                logging.getLogger("ramsli.server").warning(
                    "table %s: bot %s at %s took over %g s; played a rules move instead",
                    self.id,
                    spec,
                    seat_name(seat.index),
                    BOT_MOVE_SECONDS,
                )
                action = _safe_act(make_bot(FILL_BOT, seed=seed), obs)
            except Exception:  # noqa: BLE001 - a broken pool: think in a thread instead
                shutdown_bot_pool()
                action = await asyncio.get_running_loop().run_in_executor(None, _safe_act, player, obs)
        async with self.lock:
            if self.seq != seq:
                return  # the table moved on meanwhile (e.g. the player came back and acted)
            try:
                self.check_intent(seat.index, str(action), seq)
            except TableError:
                return
            await self._commit("act", {"action": str(action), "by": kind, "elapsed": round(self.clock(), 3)})


def _safe_act(player: Any, obs: Any) -> Action:
    """The bot's choice; a failing bot falls back to the first legal action."""
    try:
        a = player.act(obs)
        if a in obs.legal:
            return a
    except Exception:  # noqa: BLE001
        pass
    return obs.legal[0]


def _trick(t: Any) -> dict[str, Any]:
    return {
        "leader": seat_name(t.leader),
        "plays": [[seat_name(a), str(c)] for a, c in t.plays],
        "winner": None if t.winner is None else seat_name(t.winner),
    }
