"""The Textual app of ``ramsli play``.

The table shows every seat (name, stack, in/out, tricks taken, dealer button,
whose turn, ▶ in the seat's border), the pot, the turn-up and trump, the trick on
the table and your cards, sorted by suit with the trumps together (jokers too) at
the left, in red and black or four colours (``--four-colour``), German-suited
with the pack's letters (``--suits german``). Six seats fit 80 columns. Keys: ``1``–``N`` play a card (counted as shown; N = cards left; during target questions:
``2``–``5`` announce that target; a number that answers nothing now says why), ``i``/``o`` declare in/out, ``g`` General Rams, ``p``
pass, ``l`` the log of the hand, ``t`` the last trick, ``r`` the rule ids and names behind
the last message (messages say what happened in the game's words), space ends the pause
after a trick (a finished trick stays :data:`TRICK_PAUSE` x ``--speed`` seconds,
its cards in front of the seats), ``q`` save and quit (also on the panels);
every key has a button. The footer shows, translated, only the keys that
apply now; the header says when the session ends (R3.5, R3.6), the line
under it which preset, ante, bete and options are in force (R6, R8).
A card you may not play is dimmed, and trying it says why (the engine's
reason, translated; ``r`` names the rule). After each hand a panel gives the
settlement (R5), and ``c`` on it opens the coach's review of your decisions in that hand
(:class:`ReviewScreen`); at the end, the standings (R3.7).
"""

from __future__ import annotations

import dataclasses
import io
import sys
from typing import ClassVar

from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Static

from ramsli.frontends import cut as C
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.i18n import _, ngettext
from ramsli.frontends.plain import last_hand_review, ngettext_cards, save_failed_text
from ramsli.hand import Action, Hand, Phase
from ramsli.seats import seat_name

__all__ = ["RamsliApp", "run_app", "app_bindings", "quit_line", "CutScreen", "ReviewScreen"]

#: events kept for the hand (the screen shows the newest that fit, at least :data:`RECENT_SHOWN` on 24 rows)
RECENT_KEPT = 60
RECENT_SHOWN = 8
#: a finished trick stays on the table this many times ``--speed`` before the next lead (space goes on at once)
TRICK_PAUSE = 4
#: below this many columns per seat the seat boxes put one fact a line (6 players on 80 columns)
COMPACT_SEAT = 20


def app_bindings() -> list[Binding]:
    """The app's key bindings with descriptions in the language in use (call after ``set_language``).

    Which of them the footer shows depends on the phase (see :meth:`RamsliApp.check_action`):
    ``1-5`` play a card (R4.10), ``2-5`` announce a target (R4.8), ``i``/``o`` in/out (R4.5),
    ``g`` General Rams and ``p`` pass (R4.7), ``l`` log, ``q`` save and quit.
    """
    return [
        Binding("1", "card(1)", _("play a card"), key_display="1-5"),
        Binding("2", "card(2)", show=False),
        Binding("3", "card(3)", show=False),
        Binding("4", "card(4)", show=False),
        Binding("5", "card(5)", show=False),
        Binding("2", "target(2)", _("target"), key_display="2-5"),
        Binding("3", "target(3)", show=False),
        Binding("4", "target(4)", show=False),
        Binding("5", "target(5)", show=False),
        Binding("i", "declare(True)", _("in")),
        Binding("o", "declare(False)", _("out")),
        Binding("g", "general_rams", _("General Rams")),
        Binding("p", "pass_", _("pass")),
        Binding("l", "log", _("log")),
        Binding("t", "last_trick", _("last trick")),
        Binding("r", "why", _("rule")),
        Binding("space", "continue_", _("go on"), show=False),
        Binding("q", "quit_game", _("save and quit")),
        Binding("ctrl+c", "quit_game", show=False, priority=True),
    ] + [Binding(str(k), f"number({k})", show=False) for k in range(10)]  # tried last: says why not


def play_keys(n: int) -> str:
    """The footer's key text for playing one of ``n`` cards: ``"1-5"``, ``"1-3"``, ``"1"``."""
    return "1" if n <= 1 else f"1-{n}"


def quit_line(command: str = "ramsli play --resume") -> str:
    """The line printed after the app when the player left before the session ended (as ``--plain`` does);
    ``command`` is :meth:`LocalTable.resume_command` (with ``--data-dir`` when not the default folder)."""
    return _("Saved. Continue later with: {command}").format(command=command)


class InfoScreen(ModalScreen[None]):
    """A panel of lines with one button (hand over, standings, log)."""

    BINDINGS = [
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("l", "close", show=False),
        Binding("n", "close", show=False),
        Binding("q", "quit_game", show=False),
        Binding("r", "why", show=False),
        Binding("c", "review", show=False),
    ]

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 90%; max-width: 100; height: auto; max-height: 90%;
                            border: thick $accent; background: $surface; padding: 1 2; }
    InfoScreen #panel-body { height: auto; max-height: 30; }
    InfoScreen Button { margin-top: 1; margin-right: 2; }
    InfoScreen #panel-buttons { height: auto; }
    """

    def __init__(self, title: str, lines: list[str], button: str, kind: str, quit_button: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.button = button
        self.kind = kind
        self.quit_button = quit_button

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="panel-title", classes="title")
            with VerticalScroll(id="panel-body"):
                text = (
                    "\n".join(self.lines)
                    if self.kind == "why"
                    else "\n".join(T.player_words(line) for line in self.lines)
                )  # rule ids only on asking (r)
                yield Static(text, id="panel-text", markup=False)
            with Horizontal(id="panel-buttons"):
                yield Button(self.button, id="panel-ok", variant="primary")
                if self.kind == "hand":
                    yield Button(_("The coach's review") + " (c)", id="panel-review")
                if self.quit_button:
                    yield Button(self.quit_button, id="panel-quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "panel-quit":
            self.action_quit_game()
        elif event.button.id == "panel-review":
            self.action_review()
        else:
            self.dismiss(None)

    def action_review(self) -> None:
        """``c`` on the hand's panel: the coach's review of the player's decisions in that hand."""
        if self.kind == "hand":
            self.app.push_screen(ReviewScreen(self.table_app.table))

    def action_close(self) -> None:
        self.dismiss(None)

    @property
    def table_app(self) -> RamsliApp:
        """The :class:`RamsliApp` this panel is shown by."""
        assert isinstance(self.app, RamsliApp)
        return self.app

    def action_why(self) -> None:
        """``r`` on a panel: the rule ids behind it (the settlement's, the standings')."""
        self.table_app.action_why()

    def action_quit_game(self) -> None:
        """``q``: save and quit (the standings panel just closes: the session is over)."""
        if self.kind == "standings":
            self.dismiss(None)
        else:
            self.table_app.action_quit_game()


class ReviewScreen(ModalScreen[None]):
    """The coach's words on the player's last finished hand (:func:`ramsli.frontends.plain.last_hand_review`:
    one line per marked decision, from the player's own cards only, R7), computed on a thread while
    the panel says so; Enter or Esc closes it."""

    BINDINGS = [
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("c", "close", show=False),
    ]

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > Vertical { width: 90%; max-width: 100; height: auto; max-height: 90%;
                              border: thick $success; background: $surface; padding: 1 2; }
    ReviewScreen #review-body { height: auto; max-height: 30; }
    ReviewScreen Button { margin-top: 1; }
    """

    def __init__(self, table: LocalTable) -> None:
        super().__init__()
        self.table = table
        #: the review's lines once computed (None while the coach is looking)
        self.lines: list[str] | None = None

    def compose(self) -> ComposeResult:
        number = self.table.last.number if self.table.last is not None else 0
        with Vertical():
            yield Static(_("The coach on hand {n}").format(n=number), id="review-title", classes="title")
            with VerticalScroll(id="review-body"):
                yield Static(
                    _("The coach is looking at hand {n} (a few seconds)…").format(n=number),
                    id="review-text",
                    markup=False,
                )
            yield Button(_("Close") + " (Enter, Esc)", id="review-close", variant="primary")

    def on_mount(self) -> None:
        self.run_worker(self._compute, thread=True, exclusive=True)

    def _compute(self) -> None:
        title, lines = last_hand_review(self.table)
        self.app.call_from_thread(self._show, title, lines)

    def _show(self, title: str, lines: list[str]) -> None:
        self.lines = lines
        self.query_one("#review-title", Static).update(title)
        self.query_one("#review-text", Static).update("\n".join(lines))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class CutScreen(ModalScreen[int | None]):
    """R4.2, the player cuts: type how many cards to lift (digits, Backspace, Enter), ``r`` for a random
    cut, ``q`` to save and quit. Dismissed with the cut point, or None for a random cut; a number
    outside the allowed range is refused with the range (:func:`ramsli.frontends.cut.parse_cut`).

    Args:
        points: the allowed cut points (``LocalTable.cut_points``).
        dealer: the dealer's name.
    """

    AUTO_FOCUS = None  # Enter is the binding, not a focused button
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(k), f"digit({k})", show=False) for k in range(10)),
        Binding("backspace", "erase", show=False),
        Binding("enter", "cut", show=False),
        Binding("r", "random", show=False),
        Binding("q", "quit_game", show=False),
    ]

    DEFAULT_CSS = """
    CutScreen { align: center middle; }
    CutScreen > Vertical { width: 90%; max-width: 80; height: auto; border: thick $accent;
                           background: $surface; padding: 1 2; }
    CutScreen #cut-entry { text-style: bold; margin-top: 1; }
    CutScreen #cut-message { color: $warning; text-style: bold; }
    CutScreen Button { margin-top: 1; margin-right: 2; }
    CutScreen #cut-buttons { height: auto; }
    """

    def __init__(self, points: range, dealer: str) -> None:
        super().__init__()
        self.points = points
        self.dealer = dealer
        self.typed = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(C.cut_question(self.points, self.dealer), id="cut-question", markup=False)
            yield Static("> ", id="cut-entry", markup=False)
            yield Static("", id="cut-message", markup=False)
            with Horizontal(id="cut-buttons"):
                yield Button(_("Cut") + " (Enter)", id="cut-ok", variant="primary")
                yield Button(_("Random cut") + " (r)", id="cut-random")
                yield Button(_("save and quit") + " (q)", id="cut-quit")

    def _show(self, message: str = "") -> None:
        self.query_one("#cut-entry", Static).update("> " + self.typed)
        self.query_one("#cut-message", Static).update(message)

    def action_digit(self, k: int) -> None:
        if len(self.typed) < len(str(self.points[-1])) + 1:
            self.typed += str(k)
        self._show()

    def action_erase(self) -> None:
        self.typed = self.typed[:-1]
        self._show()

    def on_key(self, event: events.Key) -> None:
        """A letter or sign that is no key of this screen says what is allowed (it was ignored, and
        Enter then cut at random without a word)."""
        ch = event.character
        if ch and ch.isprintable() and not ch.isdigit() and ch.lower() not in ("r", "q") and not ch.isspace():
            event.stop()
            self.typed = ""
            try:
                C.parse_cut(ch, self.points)
            except C.CutError as e:
                self._show(str(e))
                self.app.bell()

    def action_cut(self) -> None:
        try:
            cut = C.parse_cut(self.typed, self.points)
        except C.CutError as e:
            self.typed = ""
            self._show(str(e))
            self.app.bell()
            return
        self.dismiss(cut)

    def action_random(self) -> None:
        self.dismiss(None)

    def action_quit_game(self) -> None:
        app = self.app
        assert isinstance(app, RamsliApp)
        app.action_quit_game()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"cut-ok": self.action_cut, "cut-random": self.action_random, "cut-quit": self.action_quit_game}.get(
            event.button.id or "", lambda: None
        )()


class RamsliApp(App[int]):
    """The table.

    Args:
        table: the :class:`~ramsli.frontends.game.LocalTable` (new or resumed).
        speed: seconds between bot moves.
        ask_cut: ask where to cut when the player is the cutter (R4.2, :class:`CutScreen`), else cut at
            random; default (None): as ``table.ask_cut`` says.
    """

    TITLE = "Ramsli"
    CSS = """
    #seats { height: auto; }
    .seat { width: 1fr; height: auto; min-height: 6; max-height: 10; border: round $primary; padding: 0 1;
            border-title-align: left; }
    .seat.compact { padding: 0 0; }
    .seat.to-act { border: heavy $warning; border-title-color: $warning; border-title-style: bold; }
    .seat.out { color: $text-muted; }
    .seat.me { background: $boost; }
    #info, #trick, #message { height: auto; padding: 0 1; }
    #recent { height: 1fr; min-height: 3; padding: 0 1; }
    #info { text-style: bold; }
    #rules { height: auto; padding: 0 1; color: $text-muted; }
    #message { color: $warning; text-style: bold; }
    #cards, #actions { height: auto; }
    #cards Button { min-width: 12; }
    #cards Button.illegal { opacity: 45%; text-style: strike; }
    #cards Button.red { color: #ff5f5f; }
    #cards Button.black { color: $text; }
    #cards Button.blue { color: #5f9fff; }
    #cards Button.green { color: #3fbf5f; }
    #cards Button.gold { color: #e0b000; }
    #cards Button.brown { color: #c08040; }
    #cards Button.trump { text-style: bold underline; border-top: tall $warning; }
    #actions Button { min-width: 10; }
    .hidden { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = list(
        app_bindings()
    )  # English; rebuilt translated in __init__ (the language is set by then)

    def __init__(
        self, table: LocalTable, speed: float = 0.6, notice: str | None = None, ask_cut: bool | None = None
    ) -> None:
        super().__init__()
        self.ask_cut = table.ask_cut if ask_cut is None else ask_cut
        keys = dict(self._bindings.key_to_bindings)
        keys.update(BindingsMap(app_bindings()).key_to_bindings)  # descriptions in the language in use
        self._bindings = BindingsMap.from_keys(keys)
        self.table = table
        self.speed = speed
        self.suits = table.suits
        #: ♦ blue and ♣ green (``--four-colour``); else red ♥ ♦ and black ♠ ♣
        self.four_colour = table.four_colour
        self.notice = notice
        self.recent: list[str] = []
        self.message = ""
        #: the rule ids behind the last message, refusal or panel (shown by ``r``)
        self.cited: list[str] = []
        self._cited_message = ""
        self._waiting = False  # a panel is open or the session is over
        self._pause: Timer | None = None  # the timer of the pause after a finished trick (None when not pausing)
        #: how many times a finished trick was held on the table (the trick pause)
        self.trick_pauses = 0
        #: True once the player left with q (the session is saved; run_app prints :func:`quit_line`)
        self.quit_saved = False
        #: the message when the save could not be written (run_app prints it; exit code 1)
        self.save_error: str | None = None

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(T.rules_line(self.table.rules), id="rules", markup=False)
        with Horizontal(id="seats"):
            for s in range(len(self.table.names)):
                yield Static("", id=f"seat-{s}", classes="seat", markup=False)
        yield Static("", id="info", markup=False)
        yield Static("", id="trick", markup=False)
        yield Static("", id="recent", markup=False)
        yield Static("", id="message", markup=False)
        with Horizontal(id="cards"):
            for i in range(1, 6):
                yield Button("", id=f"card-{i}")
        with Horizontal(id="actions"):  # hidden until a hand asks for them (not during the cut, R4.2)
            yield Button(_("in") + " (i)", id="btn-in", variant="success", classes="hidden")
            yield Button(_("out") + " (o)", id="btn-out", variant="error", classes="hidden")
            yield Button(_("General Rams") + " (g)", id="btn-gr", variant="warning", classes="hidden")
            yield Button(_("pass") + " (p)", id="btn-pass", classes="hidden")
            for t in (2, 3, 4, 5):
                yield Button(_("target {n}").format(n=t) + f" ({t})", id=f"btn-t{t}", classes="hidden")
            yield Button(_("log") + " (l)", id="btn-log")
            yield Button(_("save and quit") + " (q)", id="btn-quit")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Ramsli"
        if self.notice:
            self.notify(self._cite(self.notice), timeout=10)
        if len(self.table.names) == 2:  # as --plain says it (R2.1)
            self.notify(self._cite(_("Two players are allowed, but the game loses its tension (R2.1).")), timeout=10)
        if self.table.human_bust and self.table.hand is None:
            self.table.stop_session()
        if self.table.is_over:
            self._show_standings()
            return
        self._next_hand()

    # -- the flow ---------------------------------------------------------------------------

    def _save_failed(self, error: OSError) -> None:
        """The save cannot be written (disk full, read-only folder): stop cleanly, the last good save kept."""
        self.save_error = save_failed_text(self.table, error)
        self.exit(1, return_code=1)

    def _next_hand(self, cut: int | None = None, asked: bool = False) -> None:
        t = self.table
        resumed = t.resumed_hand
        if self.ask_cut and not asked and not resumed and t.human_cuts():  # R4.2: the player cuts
            self._waiting = True
            self.sub_title = t.hand_title()
            self.push_screen(CutScreen(t.cut_points, t.names[t.session.dealer]), self._after_cut)
            return
        try:
            hand = t.start_hand(cut)
        except OSError as e:
            self._save_failed(e)
            return
        self.recent = [C.cut_done_text(hand.cut, cut is not None)] if asked and hand.cut is not None else []
        if resumed:  # continued in the middle: what was played before the quit
            self.recent = T.log_lines(hand, t.names, self.suits, t.human)[2:][-RECENT_KEPT:]
        self.message = ""
        self.sub_title = t.hand_title()
        self.refresh_table()
        self._step()

    def _after_cut(self, cut: int | None) -> None:
        self._waiting = False
        self._next_hand(cut, asked=True)

    def _step(self) -> None:
        """Advance: bots act (paced), the forced dealer is declared in, or wait for the player."""
        t = self.table
        hand = t.hand
        if hand is None or self.save_error is not None:
            return
        if hand.is_over:
            self._hand_over()
            return
        if t.human_to_act():
            forced = t.forced_declaration()
            if forced is not None:
                self._do(forced)
                self.message = _("Everyone before you is out, so as the dealer you must be in (R4.5).")
                self.refresh_table()
                self._schedule()
                return
            self.message = T.prompt_text(hand.observe(t.human))
            self.refresh_table()
            return
        self._schedule()

    def _schedule(self) -> None:
        if self._trick_just_finished() and self.speed > 0:
            # no trick goes by unseen: the finished trick and its winner stay on the table a while
            self.trick_pauses += 1
            self._pause = self.set_timer(self.speed * TRICK_PAUSE, self._end_pause)
        elif self.speed > 0:
            self.set_timer(self.speed, self._bot_move)
        else:
            self.call_later(self._bot_move)

    def _trick_just_finished(self) -> bool:
        """True right after the last card of a trick (the trick is complete, no card of the next one yet)."""
        hand = self.table.hand
        return hand is not None and hand.trick_complete and not hand.is_over

    def _end_pause(self) -> None:
        self._pause = None
        self._bot_move()

    def action_continue_(self) -> None:
        """Space: end the pause after a trick now."""
        if self._pause is not None:
            self._pause.stop()
            self._end_pause()

    def action_last_trick(self) -> None:
        """``t``: the last finished trick, card by card, and who took it (R4.11)."""
        t = self.table
        hand = t.hand if t.hand is not None else (t.last.hand if t.last else None)
        if hand is None or self._waiting:
            return
        lines = T.last_trick_lines(hand.observe(t.human), t.names, self.suits)
        self.push_screen(InfoScreen(_("Last trick"), lines, _("Close") + " (Esc)", "log"))

    def _cite(self, *lines: str) -> str:
        """Keep the rule ids of ``lines`` (the last message) for ``r``; returns the first line without them."""
        rules: list[str] = []
        for line in lines:
            rules += [r for r in T.player_words(line).rules if r not in rules]
        if rules:
            self.cited = rules
        return str(T.player_words(lines[0])) if lines else ""

    def action_why(self) -> None:
        """``r``: the rule ids behind the last message, refusal or panel, each with its one-line name."""
        if isinstance(self.screen, InfoScreen) and self.screen.kind == "why":
            return
        self.push_screen(InfoScreen(_("Rules"), T.detail_lines(self.cited), _("Close") + " (Esc)", "why"))

    def _bot_move(self) -> None:
        t = self.table
        if self.save_error is not None:
            return
        if t.hand is None or t.hand.is_over or t.human_to_act():
            self._step()
            return
        self._do(t.bot_action())
        self.refresh_table()
        self._step()

    def _do(self, action: Action) -> None:
        t = self.table
        hand = t.hand
        assert hand is not None, "no hand in progress"
        before = len(hand.tricks)
        try:
            t.apply(action)
        except OSError as e:
            self._save_failed(e)
            return
        self.recent.append(T.action_text(action, t.names, self.suits, t.human))
        winner = hand.tricks[-1].winner if len(hand.tricks) > before else None
        if winner is not None:  # the action finished a trick (R4.11)
            self.recent.append(T.takes_trick_text(winner, t.names, t.human, len(hand.tricks)))
        self.recent = self.recent[-RECENT_KEPT:]

    def _hand_over(self) -> None:
        t = self.table
        hand = t.hand
        assert hand is not None and hand.settlement is not None, "no hand to settle"
        try:
            t.finish_hand()
        except OSError as e:
            self._save_failed(e)
            return
        self.refresh_table(hand)
        lines = T.settlement_lines(hand.settlement, t.names, t.human)
        self._cite(*lines)
        self._waiting = True
        self.refresh_bindings()
        self.push_screen(
            InfoScreen(
                _("Hand {n} is over").format(n=t.hands_played),
                lines,
                _("Next") + " (Enter, Esc)",
                "hand",
                _("save and quit") + " (q)",
            ),
            self._after_panel,
        )

    def _after_panel(self, _result: None) -> None:
        self._waiting = False
        if self.table.human_bust:  # R3.5 leave: the human is gone; the bots do not play on alone
            self.table.stop_session()
            self.notify(self._cite(_("You are bust and have left the table (R3.5).")), timeout=10)
        if self.table.is_over:
            self._show_standings()
        else:
            self._next_hand()

    def _show_standings(self) -> None:
        t = self.table
        s = t.session
        self._waiting = True
        lines = T.standings_lines(s.stacks, s.pot, t.names, s.winners(), s.end_reason, t.hands_played, t.human)
        self._cite(*lines)
        self.push_screen(
            InfoScreen(_("Standings"), lines, _("quit") + " (Enter, q)", "standings"), lambda _r: self.exit(0)
        )

    # -- the player's input ------------------------------------------------------------------

    def _try(self, action: Action) -> None:
        t = self.table
        if self._waiting or not t.human_to_act():
            self.message = _("Wait: it is not your turn.")
            self.refresh_table()
            return
        why = t.why_illegal(action)
        if why is not None:
            self.message = _("Not allowed: {reason}").format(reason=T.reason_text(why, t.names, self.suits, t.human))
            self.bell()
            self.refresh_table()
            return
        self.message = ""
        self._do(action)
        self.refresh_table()
        self._step()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys apply now (the footer shows only those): True in the phase where the key
        answers the question and it is the player's turn, None (dimmed) in that phase while
        others act, False (hidden) otherwise. ``l`` and ``q`` always apply."""
        phases = {
            "card": (Phase.PLAY,),
            "target": (Phase.TARGETS,),
            "declare": (Phase.DECLARE,),
            "general_rams": (Phase.GENERAL_RAMS,),
            "pass_": (Phase.GENERAL_RAMS, Phase.TARGETS),
        }
        if action not in phases:
            return True
        t = self.table
        hand = t.hand
        if action == "number":
            return hand is not None and not hand.is_over and not self._waiting
        if hand is None or hand.is_over or self._waiting or hand.phase not in phases[action]:
            return False
        if action == "card" and t.human not in hand.active:
            return False  # declared out (or not seated): no card to play in this hand
        if action == "declare" and any(s == t.human for s, _d in hand.observe(t.human).declarations):
            return False
        if not t.human_to_act():
            return None if action in ("card", "declare") else False
        if action in ("general_rams", "pass_"):
            kind = "gr" if action == "general_rams" else "pass"
            return any(a.kind == kind for a in hand.legal_actions())
        return True

    def action_target(self, k: int) -> None:
        self._try(Action.announce_target(self.table.human, k))

    def action_card(self, k: int) -> None:
        t = self.table
        if t.hand is None:
            return
        obs = t.hand.observe(t.human)
        cards = T.hand_order(obs.cards, obs.trump)  # the keys count the cards as the buttons show them
        if 1 <= k <= len(cards):
            self._try(Action.play(t.human, cards[k - 1]))
        else:
            self._say_no(ngettext_cards(k, len(cards)))

    def action_number(self, k: int) -> None:
        """A number key that neither plays a card nor announces a target now: say why, as ``--plain`` does."""
        t = self.table
        if t.hand is None or self._waiting:
            return
        if not t.human_to_act():
            self._say_no(_("Wait: it is not your turn."))
            return
        self.action_card(k)  # a card number in range: the engine's reason (e.g. declare first, R4.5)

    def _say_no(self, text: str) -> None:
        self.message = text
        self.bell()
        self.refresh_table()

    def action_declare(self, stay_in: bool) -> None:
        self._try(Action.declare(self.table.human, stay_in))

    def action_general_rams(self) -> None:
        self._try(Action.general_rams(self.table.human))

    def action_pass_(self) -> None:
        self._try(Action.pass_(self.table.human))

    def action_log(self) -> None:
        t = self.table
        hand = t.hand if t.hand is not None else (t.last.hand if t.last else None)
        if hand is None or self._waiting:
            return
        self.push_screen(
            InfoScreen(
                _("The hand so far"), T.log_lines(hand, t.names, self.suits, t.human), _("Close") + " (Esc)", "log"
            )
        )

    def screen_text(self) -> str:
        """The screen as plain text (for tests, reports and screen-reader checks)."""
        width, height = self.size
        console = Console(
            width=width,
            height=height,
            file=io.StringIO(),
            force_terminal=False,
            record=True,
            color_system=None,
            legacy_windows=False,
            safe_box=False,
        )
        console.print(self.screen._compositor.render_update(full=True, screen_stack=self._background_screens))
        return console.export_text()

    def action_quit_game(self) -> None:
        """``q``: save and quit (a hand in progress is saved with its actions; --resume continues it)."""
        try:
            self.table.quit()
        except OSError as e:
            self._save_failed(e)
            return
        self.quit_saved = not self.table.is_over
        self.exit(0)

    def on_resize(self, _event: events.Resize) -> None:
        if self.table.hand is not None or self.table.last is not None:
            self.refresh_table()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid.startswith("card-"):
            self.action_card(int(bid[5:]))
        elif bid == "btn-in":
            self.action_declare(True)
        elif bid == "btn-out":
            self.action_declare(False)
        elif bid == "btn-gr":
            self.action_general_rams()
        elif bid == "btn-pass":
            self.action_pass_()
        elif bid.startswith("btn-t"):
            t = self.table
            self._try(Action.announce_target(t.human, int(bid[5:])))
        elif bid == "btn-log":
            self.action_log()
        elif bid == "btn-quit":
            self.action_quit_game()

    # -- drawing ------------------------------------------------------------------------------

    def refresh_table(self, hand: Hand | None = None) -> None:
        """Redraw every widget from the human seat's observation (R7): of ``hand`` (a hand just
        settled) or else of the hand in progress."""
        t = self.table
        hand = hand or t.hand
        if hand is None:
            return
        obs = hand.observe(t.human)
        # the trick in front of the seats that played it; a finished trick until the next lead (R4.9)
        last = obs.last_trick
        on_table = dict(obs.current) if obs.current else (dict(last.plays) if obs.trick_complete and last else {})
        # narrow seats (6 players on 80 columns): one fact a line, so that nothing is cut off
        compact = self.size.width // max(len(t.names), 1) < COMPACT_SEAT
        boxes = []
        for s, name in enumerate(t.names):
            tricks = ngettext("{n} trick", "{n} tricks", obs.tricks_won[s]).format(n=obs.tricks_won[s])
            if compact:  # the dealer button ◉ by the name (the header names the dealer)
                lines = [
                    f"{seat_name(s)} {name}" + (" ◉" if s == obs.dealer else ""),
                    _("stack {n}").format(n=obs.stacks[s]),
                    T.seat_status(obs, s),
                    tricks,
                ]
            else:
                lines = [
                    f"{seat_name(s)} {name}" + ("  ◉ " + _("dealer") if s == obs.dealer else ""),
                    _("stack {n}").format(n=obs.stacks[s]),
                    T.seat_status(obs, s) + " · " + tricks,
                ]
            extra = []
            if s == obs.general_rams:
                extra.append(_("General Rams"))
            extra += [_("target {n}").format(n=tt) for ss, tt in obs.targets if ss == s]
            if s == obs.to_act:
                extra.append("▶ " + _("to act"))
            card = None
            if s in on_table:
                card = "[" + T.card_label(on_table[s], self.suits) + "]"
                extra.insert(0, card)
            lines += extra if compact else [", ".join(extra)]
            boxes.append((lines, card))
        tallest = max(len(lines) for lines, _card in boxes)
        for s, (lines, card) in enumerate(boxes):
            w = self.query_one(f"#seat-{s}", Static)
            body = Text("\n".join(lines + [""] * (tallest - len(lines))))  # the boxes as tall as each other
            if card is not None:  # the card in its colour (red ♥ ♦, black ♠ ♣, or four colours)
                at = body.plain.index(card)
                body.stylize(
                    T.CARD_STYLES[T.card_colour(on_table[s], self.suits, self.four_colour)], at + 1, at + len(card) - 1
                )
            w.update(body)
            w.border_title = "▶" if s == obs.to_act else None  # whose turn, in the border: seen however narrow
            w.set_class(compact, "compact")
            w.set_class(s == obs.to_act, "to-act")
            w.set_class(T.seat_status(obs, s) == T.declaration_text("out"), "out")
            w.set_class(s == t.human, "me")
        self.query_one("#info", Static).update(T.info_line(obs, self.suits))
        self.query_one("#trick", Static).update(T.trick_text(obs, t.names, self.suits))
        rows = self.query_one("#recent", Static).content_region.height
        self.query_one("#recent", Static).update("\n".join(self.recent[-(rows if rows > 0 else RECENT_SHOWN) :]))
        if self.message != self._cited_message:  # a new message: its rule ids are the detail (r)
            self._cited_message = self.message
            self._cite(self.message)
        self.query_one("#message", Static).update(str(T.player_words(self.message)))
        my_turn = obs.to_act == t.human
        legal_cards = {a.card for a in obs.legal if a.kind == "pl"}
        shown = T.hand_order(obs.cards, obs.trump)  # sorted by suit, the trumps together
        for i in range(1, 6):
            b = self.query_one(f"#card-{i}", Button)
            if i <= len(shown):
                c = shown[i - 1]
                trump = T.is_trump(c, obs.trump)  # jokers are trumps (D-2)
                b.label = f"{i}  {T.card_label(c, self.suits)}" + (" ★" if trump else "")
                b.set_class(False, "hidden")
                b.set_class(obs.phase is Phase.PLAY and my_turn and c not in legal_cards, "illegal")
                colour = T.card_colour(c, self.suits, self.four_colour)  # red ♥ ♦, black ♠ ♣, or four colours
                for name in T.CARD_STYLES:
                    b.set_class(name == colour, name)
                b.set_class(trump, "trump")
                b.tooltip = None
            else:
                b.set_class(True, "hidden")
        kinds = {a.kind for a in obs.legal} if my_turn else set()
        targets = {a.target for a in obs.legal if a.kind == "t"} if my_turn else set()
        self.query_one("#btn-in", Button).set_class(obs.phase is not Phase.DECLARE, "hidden")
        self.query_one("#btn-out", Button).set_class(obs.phase is not Phase.DECLARE, "hidden")
        self.query_one("#btn-gr", Button).set_class("gr" not in kinds, "hidden")
        self.query_one("#btn-pass", Button).set_class("pass" not in kinds, "hidden")
        for tt in (2, 3, 4, 5):
            self.query_one(f"#btn-t{tt}", Button).set_class(tt not in targets, "hidden")
        self._set_play_keys(len(obs.cards))
        self.refresh_bindings()

    def _set_play_keys(self, n: int) -> None:
        """Show ``1-N`` in the footer for the N cards left (``1`` for the last card)."""
        shown = play_keys(n)
        bindings = self._bindings.key_to_bindings.get("1", [])
        for i, b in enumerate(bindings):
            if b.action == "card(1)" and b.key_display != shown:
                bindings[i] = dataclasses.replace(b, key_display=shown)


def run_app(table: LocalTable, speed: float = 0.6, notice: str | None = None) -> int:
    """Run the app until the player quits or the session ends; returns an exit code.

    ``notice`` (e.g. "Resuming the session after hand 3.") is shown inside the app. When the
    player leaves before the session ends, :func:`quit_line` is printed after the app. The app
    asks where to cut when the player is the cutter if ``table.ask_cut`` is True (R4.2).
    """
    app = RamsliApp(table, speed=speed, notice=notice)
    try:
        code = app.run()
    except KeyboardInterrupt:
        table.quit()
        print(quit_line(table.resume_command()))
        return 130
    if app.save_error is not None:
        print(app.save_error, file=sys.stderr)
        return 1
    if table.hand is not None:  # the app stopped in the middle of a hand: keep the state before it
        table.quit()
    if not table.is_over:
        print(quit_line(table.resume_command()))
    return code or 0
