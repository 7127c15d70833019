"""The table controller of ``ramsli play``: one session, one human seat, bots in the
other seats, saved between hands and after every action of a hand. Both
front ends (plain and Textual) drive a :class:`LocalTable`; it holds no rules — legality
comes from the engine.

>>> import tempfile
>>> from ramsli import Rules
>>> from ramsli.frontends.storage import SaveFolder
>>> t = LocalTable.new(Rules(end=["hands:1"]), ["You", "Anna", "Bruno"], ["random", "random"], seed=3,
...               store=SaveFolder(tempfile.mkdtemp()))
>>> hand = t.start_hand()
>>> while not hand.is_over:
...     _ = t.apply(hand.legal_actions()[0])
>>> entry = t.finish_hand()
>>> t.session.is_over, t.hands_played, t.session.total()
(True, 1, 60)
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import getpass
import random
import shlex
from collections.abc import Sequence

from ramsli.bots import bot_names, make_bot
from ramsli.bots.base import BOT_MODULES, BOTS
from ramsli.bots.levels import LEVEL_NAMES
from ramsli.frontends.i18n import _, sentence_case
from ramsli.frontends.storage import SavedSession, SaveFolder, default_data_dir
from ramsli.frontends.text import hand_title, refusal_text, session_end_text, who
from ramsli.hand import Action, Hand, Phase
from ramsli.history import HandHistory
from ramsli.refusal import Refusal
from ramsli.rules import Rules
from ramsli.session import HandResult, Session

__all__ = [
    "LocalTable",
    "default_bot",
    "default_name",
    "OPPONENT_NAMES",
    "split_bot_specs",
    "allowed_bots_words",
    "check_bot_names",
    "bot_seed",
    "decision_seed",
]

#: names given to bot seats, in seat order
OPPONENT_NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elke", "Franz")


def default_bot() -> str:
    """The default opponent: the ``hard`` level (:data:`ramsli.bots.levels.LEVELS`: ``montecarlo`` with
    a small budget), else ``tips``, else ``random``.

    Not ``expert``: a new player's first table should be beatable (the ladder in ``docs/benchmarks.md``).
    """
    names = bot_names()
    if "montecarlo" in names:
        return "hard"
    if "tips" in names:
        return "tips"
    return "random"


def default_name() -> str:
    """The player's login name, capitalised; ``"Player"`` (translated: Spieler, Speler, Giocatore)
    when there is none or it is ``root`` (containers). Not "You": the lines about a seat read
    "{name} takes the pot", which must work for the player's seat too."""
    try:
        n = getpass.getuser().strip()
    except Exception:  # noqa: BLE001 - no login name (containers)
        n = ""
    return n[:1].upper() + n[1:] if n and n != "root" else _("Player")


def allowed_bots_words() -> str:
    """The bots ``--bots`` accepts, then the levels as a group, in the player's language (as
    :func:`ramsli.bots.base.allowed_bots_text` says it in English).

    >>> allowed_bots_words().endswith("or a level: beginner, easy, medium, hard, expert (weakest first)")
    True
    """
    names = bot_names()  # loads the built-in bots first
    bots = [b for b in names if (b in BOTS or b in BOT_MODULES) and b not in LEVEL_NAMES]  # expert: with the levels
    return _("{bots}, or a level: {levels} (weakest first)").format(bots=", ".join(bots), levels=", ".join(LEVEL_NAMES))


def check_bot_names(specs: Sequence[str]) -> None:
    """Refuse, in the player's language, a spec whose bot name (before any ``:options``) is
    neither a bot nor a level (:func:`ramsli.bots.bot_names`); the bot's options are checked by
    :func:`ramsli.bots.make_bot` itself.

    Raises:
        ValueError: for the first unknown name; the message lists the bots and the levels.

    >>> check_bot_names(["hard", "montecarlo:samples=8"])
    >>> check_bot_names(["Hard"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown bot 'Hard' (names are lower case: 'hard'); allowed are random, ..., or a level: beginner, easy, ...
    """
    names = bot_names()
    for spec in specs:
        name = spec.strip().partition(":")[0].strip()
        if name in names:
            continue
        if name.lower() in names:
            raise ValueError(
                sentence_case(_("unknown bot {name} (names are lower case: {lower}); allowed are {bots}")).format(
                    name=repr(name), lower=repr(name.lower()), bots=allowed_bots_words()
                )
            )
        unknown = sentence_case(_("unknown bot {name}; allowed are {bots}"))  # a refusal reads as a sentence
        raise ValueError(unknown.format(name=repr(name), bots=allowed_bots_words()))


def split_bot_specs(text: str) -> list[str]:
    """Split ``--bots`` text into specs: ``"rules,montecarlo:samples=64,depth=2"`` gives
    ``["rules", "montecarlo:samples=64,depth=2"]`` (a ``key=value`` part belongs to the spec before it).

    Raises:
        ValueError: for an empty text or an empty part (``"random,"``); the message lists the bot names.
    """
    if not text.strip():
        raise ValueError(_("--bots is empty; give a bot name, allowed are {bots}").format(bots=allowed_bots_words()))
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise ValueError(
                _("--bots {text} has an empty bot name; allowed are {bots}").format(
                    text=repr(text), bots=allowed_bots_words()
                )
            )
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def bot_seed(seed: int, seat: int, hand_number: int) -> int:
    """The seed of the bot in ``seat`` for hand ``hand_number``: a resumed session plays like an uninterrupted one."""
    return random.Random(f"ramsli-bot:{seed}:{seat}:{hand_number}").randrange(2**32)


def decision_seed(seed: int, seat: int, hand_number: int, step: int) -> int:
    """The seed of the bot in ``seat`` for its decision after ``step`` actions of hand ``hand_number``.

    Every decision gets a freshly made bot with this seed, so a bot keeps no random state
    across a hand: a hand resumed in the middle plays on exactly as it would have.
    """
    return random.Random(f"ramsli-bot:{seed}:{seat}:{hand_number}:{step}").randrange(2**32)


class LocalTable:
    """A session with one human seat, bots elsewhere, saved to a :class:`SaveFolder` between hands.

    Use :meth:`new` or :meth:`resume`. Attributes: ``session`` (the engine's
    :class:`~ramsli.session.Session`), ``names``, ``bots`` (spec per seat, None for
    the human), ``human`` (seat), ``seed``, ``session_id``, ``store``, ``hand``
    (the hand in progress or None), ``last`` (the last finished :class:`HandResult`).
    """

    def __init__(
        self,
        session: Session,
        bots: Sequence[str | None],
        human: int,
        seed: int,
        session_id: str,
        store: SaveFolder | None,
        hands_offset: int = 0,
        lang: str = "en",
        suits: str = "french",
        four_colour: bool = False,
    ) -> None:
        self.session = session
        self.names = list(session.names)
        self.bots = list(bots)
        self.human = human
        self.seed = seed
        self.session_id = session_id
        self.store = store
        self.hands_offset = hands_offset
        self.lang = lang
        self.suits = suits
        #: the four-colour deck on screen (♦ blue, ♣ green); a display choice saved with the session
        self.four_colour = four_colour
        self.hand: Hand | None = None
        self.last: HandResult | None = None
        self.history_errors: list[str] = []
        #: the last error writing the save file (disk full, read-only folder), None after a good save
        self.save_error: OSError | None = None
        self._settled: Hand | None = None  # the settled hand whose history and save are on disk
        self._stopped = False  # stop_session was called: the save says the session is over
        self._before: SavedSession | None = None
        #: True while the hand in progress was dealt and replayed by :meth:`resume` (not yet shown)
        self.resumed_hand = False
        #: the rules of the session as agreed (a resumed session's engine counts only the hands still to come)
        self.rules: Rules = session.rules
        #: the player's choice (not saved): the full-screen app asks where to cut when the player cuts (R4.2)
        self.ask_cut = False

    # -- construction -------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: Sequence[str],
        bots: Sequence[str],
        seed: int | None = None,
        store: SaveFolder | None = None,
        human: int = 0,
        lang: str = "en",
        suits: str = "french",
        four_colour: bool = False,
    ) -> LocalTable:
        """A new session: ``names`` per seat (the human's at ``human``), ``bots`` for the other seats in order.

        Raises:
            ValueError: for a bad number of names or bots (R2.1) or an unknown bot spec.
        """
        n = len(names)
        if len(bots) != n - 1:
            raise ValueError(f"{len(bots)} bots for {n - 1} other seats")
        for spec in set(bots):
            make_bot(spec, 0)  # fail early on an unknown bot or a bad option
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)  # OS entropy, as secrets.randbelow
        specs: list[str | None] = list(bots)
        specs.insert(human, None)
        session = Session(rules, names, seed=seed)
        sid = _dt.datetime.now().strftime("%Y%m%d-%H%M%S") + f"-{seed}"
        if store is not None:  # two sessions started in the same second with the same seed: own folders
            base, k = sid, 1
            while store.session_dir(sid).exists():
                k += 1
                sid = f"{base}-{k}"
        t = cls(session, specs, human, seed, sid, store, lang=lang, suits=suits, four_colour=four_colour)
        if store is not None:
            store.set_aside()
            t.save()
        return t

    @classmethod
    def resume(cls, saved: SavedSession, store: SaveFolder | None) -> LocalTable:
        """The session as saved: stacks, pot, dealer, seated seats, hands played and the
        random state restored, so the next deal is the one that would have come (R3.2, R3.4).
        If the save was made during a hand (``saved.hand_actions`` not None), that hand is
        dealt again from the same state and the saved actions are re-applied, each checked
        by the engine: the hand continues exactly where it was (:attr:`hand`, with
        :attr:`resumed_hand` True), so nothing can be taken back by quitting.

        Raises:
            ValueError: if the saved bots or state cannot make a session, or a saved action
                does not fit the deal (R4.12); the caller treats the save as unusable and
                must not write over it.
        """
        if [s for s, b in enumerate(saved.bots) if b is None] != [saved.human]:
            raise ValueError("'bots' must have exactly one null, at the human's seat")
        for spec in {b for b in saved.bots if b is not None}:
            make_bot(spec, 0)  # an unknown bot fails here, before anything is written
        rules = saved.rules
        session = Session.restore(
            {
                "names": saved.names,
                "seed": saved.seed,
                "rules": rules.to_dict(),
                "stacks": saved.stacks,
                "pot": saved.pot,
                "dealer": saved.dealer,
                "seated": saved.seated,
                "departed": saved.departed,
                "hands_played": saved.hands_played,
                "rng_state": saved.rng_state,
                "elapsed": saved.elapsed,
                "end_reason": saved.end_reason,
            }
        )
        t = cls(
            session,
            saved.bots,
            saved.human,
            saved.seed,
            saved.session_id,
            store,
            hands_offset=saved.hands_played,
            lang=saved.lang,
            suits=saved.suits,
            four_colour=saved.four_colour,
        )
        t.rules = rules
        if saved.hand_actions is not None:
            if session.is_over:
                raise ValueError("'hand_actions' is set but the session is over (R3.5, R3.6)")
            t._before = dataclasses.replace(saved, hand_actions=None)  # keeps the chosen cut (R4.2)
            hand = t.hand = session.start_hand(cut=saved.hand_cut)
            for i, text in enumerate(saved.hand_actions, 1):
                if hand.is_over:
                    raise ValueError(f"saved action {i} {text!r}: hand {t.hand_number} is already over (R4.12)")
                try:
                    session.apply(Action.parse(text, len(saved.names)))
                except ValueError as e:  # IllegalActionError (a refusal), CardError, a malformed action
                    why = refusal_text(e, t.names, t.suits, t.human)
                    raise ValueError(
                        _("saved action {i} {action} of hand {n} does not fit the deal: {reason}").format(
                            i=i, action=repr(text), n=t.hand_number, reason=why
                        )
                    ) from None
            t.resumed_hand = True
        return t

    # -- queries ----------------------------------------------------------------------

    @property
    def hands_played(self) -> int:
        """Hands finished in the whole session (also before a resume)."""
        return self.session.hands_played

    @property
    def hand_number(self) -> int:
        """The number of the hand in progress (or of the next hand)."""
        return self.hands_played + 1

    @property
    def is_over(self) -> bool:
        """True once the session has ended (R3.5, R3.6)."""
        return self.session.is_over

    def human_cuts(self) -> bool:
        """True if the next hand is to be dealt and the human is its cutter (the player to the dealer's
        right, R4.2): the front end then asks where to cut and passes the answer to :meth:`start_hand`."""
        s = self.session
        return (
            self.hand is None
            and not s.is_over
            and self.human in s.seated
            and s.cutter == self.human
            and len(s.seated) > 1
        )

    @property
    def cut_points(self) -> range:
        """The cut points the cutter may choose (R4.2): 1..deck size - 1."""
        return self.session.cut_points

    def human_to_act(self) -> bool:
        """True if the hand waits for the human."""
        return self.hand is not None and not self.hand.is_over and self.hand.to_act == self.human

    def forced_declaration(self) -> Action | None:
        """The human's only legal declaration when the dealer is forced in (R4.5), else None."""
        hand = self.hand
        if hand is not None and self.human_to_act() and hand.phase is Phase.DECLARE:
            legal = hand.legal_actions()
            if len(legal) == 1:
                return legal[0]
        return None

    @property
    def human_bust(self) -> bool:
        """True if the human left the table bust (R3.5 ``bust=leave``) while the bots could play on."""
        return not self.is_over and self.human not in self.session.seated

    def stop_session(self) -> None:
        """End the session now (``end_reason`` ``"quit"``, "the session was stopped") and save it as
        finished: e.g. when the human is bust under ``bust=leave`` and does not want to watch the
        bots play on. Only between hands."""
        assert self.hand is None or self.hand.is_over
        if self.hand is not None:
            self.finish_hand()
        self.session.quit()
        self._stopped = True
        self.save()

    def end_text(self) -> str:
        """When the session ends, in words (see :func:`ramsli.frontends.text.session_end_text`, R3.5, R3.6)."""
        return session_end_text(self.rules, elapsed=max(0.0, self.session.clock() - self.session.started))

    def hand_title(self) -> str:
        """``"Hand 2 of 10 — dealer: Anna · first to 30 counters"`` for the hand in progress (R3.6);
        ``"dealer: you"`` when the player deals (the player is named one way)."""
        dealer = self.hand.dealer if self.hand is not None else self.session.dealer
        title = hand_title(self.hand_number, who(dealer, self.names, self.human), self.rules)
        end = self.end_text()
        return f"{title} · {end}" if end else title

    # -- play ----------------------------------------------------------------------------

    def start_hand(self, cut: int | None = None) -> Hand:
        """Deal the next hand (R4.1–R4.4) and save the session with it (no action yet).

        Args:
            cut: the cut point the human chose as cutter (R4.2, see :meth:`human_cuts`), one of
                :attr:`cut_points`; None: a random cut (bots and automatic tables always). It is
                saved with the hand, so ``--resume`` deals the same cards.

        After :meth:`resume` in the middle of a hand, that hand is returned as it stands
        (its actions re-applied); :attr:`resumed_hand` stays True for the front end to show it.

        Raises:
            ValueError: for a ``cut`` outside :attr:`cut_points` (R4.2); nothing is dealt or saved.
        """
        if self.hand is not None and self.resumed_hand:
            return self.hand
        if cut is not None and (type(cut) is not int or cut not in self.cut_points):
            raise ValueError(
                f"cut {cut!r} must leave at least one card in each packet: 1..{len(self.cut_points)} (R4.2)"
            )
        for spec in {b for b in self.bots if b is not None}:
            make_bot(spec, 0)  # before saving: a bad bot changes nothing
        self._before = dataclasses.replace(self.snapshot(), hand_cut=cut)  # the state the hand is dealt from
        self.hand = self.session.start_hand(cut=cut)
        self._save_in_hand()
        return self.hand

    def bot_action(self) -> Action:
        """The action the bot to act chooses (from its own observation only, R7); not yet applied.

        The bot is made afresh for each decision with :func:`decision_seed`, so the choice
        depends only on the observation and the seed: the same after a resume.
        """
        hand = self.hand
        assert hand is not None
        seat = hand.to_act
        assert seat is not None and seat != self.human, "no bot is to act"
        spec = self.bots[seat]
        assert spec is not None  # every seat but the human's has a bot
        bot = make_bot(spec, decision_seed(self.seed, seat, self.hand_number, len(hand.history)))
        return bot.act(hand.observe(seat))

    def apply(self, action: Action) -> Action:
        """Apply an action to the hand in progress; the save file then holds it (written atomically)
        before this returns. An action that ends the hand (a walkover, the last card) is saved too:
        first with the hand's actions, then its history and the settled session, so a kill at any
        point never lets the player answer again on ``--resume``.

        Raises:
            IllegalActionError: if the engine refuses it (R4.12); nothing changes.
            OSError: if the save cannot be written (disk full, read-only folder); the last
                good save stays on disk (see :attr:`save_error`).
        """
        self.session.apply(action)
        self.resumed_hand = False
        self._save_in_hand()
        if self.hand is not None and self.hand.is_over:
            self._settle_on_disk()
        return action

    def _save_in_hand(self) -> None:
        """Write the state the hand was dealt from plus its actions so far, the final one too."""
        hand = self.hand
        if self.store is None or self._before is None or hand is None:
            return
        self._store_save(
            dataclasses.replace(
                self._before,
                hand_actions=[str(a) for a in hand.history],
                lang=self.lang,
                suits=self.suits,
                four_colour=self.four_colour,
            )
        )

    def _settle_on_disk(self) -> None:
        """A settled hand: its history (folded hands hidden, D-16), then the session between hands."""
        hand = self.hand
        if hand is None or self._settled is hand:
            return
        self._write_history(hand, self.hands_played)
        self.save()
        self._settled = hand

    def _store_save(self, saved: SavedSession) -> None:
        if self.store is None:
            return
        try:
            self.store.save(saved)
        except OSError as e:
            self.save_error = e
            raise
        self.save_error = None

    def resume_command(self) -> str:
        """The command that continues this session: ``ramsli play --resume``, with ``--data-dir``
        when the data folder is not the default one."""
        cmd = "ramsli play --resume"
        if self.store is not None:
            try:
                default = default_data_dir().resolve()
            except Exception:  # noqa: BLE001 - no home folder
                default = None
            root = self.store.root
            if default is None or root.resolve() != default:
                cmd += " --data-dir " + shlex.quote(str(root))
        return cmd

    def why_illegal(self, action: Action) -> Refusal | None:
        """The engine's refusal of ``action`` now (:meth:`Hand.why_illegal <ramsli.hand.Hand.why_illegal>`), or None."""
        assert self.hand is not None
        return self.hand.why_illegal(action)

    def finish_hand(self) -> HandResult:
        """After a settled hand: keep its history, save the session (nothing lost)."""
        hand = self.hand
        assert hand is not None and hand.is_over
        entry = self.session.results[-1]
        self._settle_on_disk()
        self.last = entry
        self.hand = None
        return entry

    def quit(self) -> None:
        """Leave the table and save: a hand in progress is saved with its actions so far, and
        ``--resume`` continues it in the middle, exactly where it was (nothing taken back); a hand
        that is over is finished (its history written)."""
        if self.hand is not None and self.hand.is_over:
            self.finish_hand()
            return
        if self.hand is not None and not self.hand.is_over:
            self._save_in_hand()
            self.session.abandon_hand()
            self.hand = None
            self.resumed_hand = False
            return
        self.save()

    # -- saving ----------------------------------------------------------------------------

    def snapshot(self) -> SavedSession:
        """The session between hands, as saved (a hand in progress is not in it: see :meth:`quit`)."""
        s = self.session
        st = s.rng.getstate()
        return SavedSession(
            session_id=self.session_id,
            names=self.names,
            bots=self.bots,
            human=self.human,
            seed=self.seed,
            rules_toml=self.rules.to_toml(),
            hands_played=self.hands_played,
            stacks=list(s.stacks),
            pot=s.pot,
            dealer=s.dealer,
            seated=list(s.seated),
            departed=[list(d) for d in s.departed],
            rng_state=[st[0], list(st[1]), st[2]],
            elapsed=max(0.0, s.clock() - s.started),
            end_reason=s.end_reason if s.end_reason != "quit" or self._stopped else None,
            lang=self.lang,
            suits=self.suits,
            four_colour=self.four_colour,
        )

    def save(self) -> None:
        """Write the save file atomically (no-op without a store)."""
        if self.store is not None and self.session.hand is None:
            self._store_save(self.snapshot())

    def _write_history(self, hand: Hand, number: int) -> None:
        if self.store is None:
            return
        try:
            text = HandHistory.from_hand(hand, self.names, hand_number=number, hide_folded=True).to_toml()
            self.store.write_history(self.session_id, number, text)
        except Exception as e:  # noqa: BLE001 - a history that cannot be written must not stop the game
            self.history_errors.append(f"hand {number}: {e}")
