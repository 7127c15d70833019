"""``ramsli play --plain``: the game as lines of text on stdin/stdout (issue #3.5).

For screen readers, scripts and tests. The state is printed when it is your
turn; you type ``in``, ``out``, ``play AS`` (or ``play 10h``, or a card number
1–5), ``gr``, ``pass``, ``target 3``, ``state``, ``log``, ``last``, ``why``,
``rules``, ``help``, ``quit`` — or the words of the player's language (``rein``/``raus``,
``mee``/``pas``, ``dentro``/``fuori``...; English always works too).
Bad input gets a one-line reason and the prompt again; nothing changes. Lines
say what happened in the game's words; the rule ids behind the last message
are shown by ``why`` (issue #12). End of input is ``quit``: the session is saved, a hand in
progress with it (``--resume`` continues it where it was). Every bot
move is printed as a line. Colour (Rich) only when stdout is a terminal.
"""

from __future__ import annotations

import sys
import time
import unicodedata
from typing import TextIO

from rich.console import Console

from ramsli.cards import Card, CardError
from ramsli.errors import IllegalActionError
from ramsli.hand import Action, Phase
from ramsli.frontends import text as T
from ramsli.frontends.game import Table
from ramsli.frontends.i18n import _, pgettext

__all__ = ["PlainGame", "parse_command", "save_failed_text", "is_yes"]

#: command word -> canonical command; English words always work, the player's language's too
_EN = {
    "in": "in", "out": "out", "fold": "out", "play": "play", "p": "play", "pl": "play",
    "gr": "gr", "pass": "pass", "target": "target", "t": "target", "help": "help", "?": "help", "h": "help",
    "log": "log", "l": "log", "state": "state", "s": "state", "quit": "quit", "q": "quit", "exit": "quit",
    "last": "last", "why": "why", "rule": "why", "rules": "rules",
}


def _localized_words() -> dict[str, str]:
    # typed command words in the player's language; "a|b" gives two words (R9: rein/raus, mee/pas, dentro/fuori)
    return {
        "in": pgettext("command", "in"),
        "out": pgettext("command", "out"),
        "play": pgettext("command", "play"),
        "pass": pgettext("command", "pass"),
        "target": pgettext("command", "target"),
        "help": pgettext("command", "help"),
        "log": pgettext("command", "log"),
        "state": pgettext("command", "state"),
        "quit": pgettext("command", "quit"),
        "last": pgettext("command", "last"),
        "why": pgettext("command", "why"),
        "rules": pgettext("command", "rules"),
    }


def _commands() -> dict[str, str]:
    words = dict(_EN)
    for canon, local in _localized_words().items():
        for w in local.lower().split("|"):
            w = w.strip()
            if w and w not in words:
                words[w] = canon
    return words


#: longest piece of the player's input echoed back in a reply
ECHO_MAX = 40


def echo_text(text: str, limit: int = ECHO_MAX) -> str:
    """The player's input made safe to print back: control and format characters
    (ESC, NUL, bidi overrides...) removed, cut to ``limit`` characters with ``…``."""
    clean = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return clean if len(clean) <= limit else clean[:limit - 1] + "…"


class _Reply(Exception):
    """A refused input: the one-line reason to print."""


def parse_command(line: str, table: Table) -> tuple[str, Action | None]:
    """Read one line of input.

    Returns:
        ``(command, action)``: command is ``"act"`` (with the action to try), or
        ``"help"``, ``"log"``, ``"state"``, ``"last"``, ``"why"``, ``"rules"``, ``"quit"``,
        ``"empty"`` (action None).

    Raises:
        _Reply: for input that is not a command, a malformed card or a card number
            that is not in the hand (the message says what is allowed).
    """
    words = line.split()
    if not words:
        return "empty", None
    cmds = _commands()
    head = words[0].lower()
    rest = words[1:]
    me = table.human
    hand = table.hand
    if head not in cmds:
        # a bare card ("AS", "10h"), a bare number ("3") or "t3"
        if head[:1] == "t" and _isnum(head[1:]) and not rest:
            head, rest = "target", [head[1:]]
        else:
            try:
                Card.parse(words[0])
                head, rest = "play", words[:1]
            except CardError:
                if _isnum(head):
                    head, rest = "play", words[:1]
                elif not echo_text(words[0]):  # NUL, invalid bytes, escapes: nothing printable to echo
                    raise _Reply(_("Unknown command (unprintable characters). Type help for the commands."))
                else:
                    raise _Reply(_("Unknown command '{word}'. Type help for the commands.").format(word=echo_text(words[0])))
    else:
        head = cmds[head]
    if head in ("help", "log", "state", "quit", "last", "why", "rules"):
        return head, None
    if head == "in":
        return "act", Action.declare(me, True)
    if head == "out":
        return "act", Action.declare(me, False)
    if head == "gr":
        return "act", Action.general_rams(me)
    if head == "pass":
        return "act", Action.pass_(me)
    if head == "target":
        if len(rest) != 1 or not _isnum(rest[0]) or not 2 <= int(rest[0]) <= 5:
            raise _Reply(_("Write target and a number of tricks from 2 to 5, e.g. target 3 (R4.8)."))
        return "act", Action.announce_target(me, int(rest[0]))
    # play
    if len(rest) != 1:
        raise _Reply(_("Write play and a card, e.g. play AS, play 10h, or its number 1 to 5 (R1.6)."))
    word = rest[0]
    cards = hand.observe(me).cards if hand is not None else ()
    if _isnum(word):
        k = int(word)
        if not 1 <= k <= len(cards):
            raise _Reply(ngettext_cards(k, len(cards)))
        return "act", Action.play(me, cards[k - 1])
    try:
        card = Card.parse(word)
    except CardError:
        raise _Reply(_("'{text}' is not a card: write rank then suit, ranks A K Q J 10 9 8 7, suits S H D C, "
                       "e.g. AS, 10h, QC (R1.6).").format(text=echo_text(word))) from None
    return "act", Action.play(me, card)


def save_failed_text(table: Table, error: OSError) -> str:
    """The message when the save file cannot be written (``ENOSPC``, ``EROFS``...): what failed, that
    the last good save is kept, and how to continue."""
    where = table.store.root if table.store is not None else "?"
    return _("Cannot save the session in {dir}: {problem}. The game stops here; the last good save is kept "
             "and {command} continues from it.").format(dir=where, problem=error.strerror or error,
                                                        command=table.resume_command())


def is_yes(text: str) -> bool:
    """True for a yes to a ``[y/N]`` question: ``y``/``yes`` or the player's language's word (ja, sì...)."""
    word = text.strip().lower()
    yes = {"y", "yes"} | {w.strip() for w in pgettext("answer", "y|yes").lower().split("|") if w.strip()}
    return word in yes


def _isnum(text: str) -> bool:
    """True for ASCII digits only ('²' is not a number here), at most 9 of them (no answer needs more;
    Python refuses to read numbers past 4300 digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def ngettext_cards(k: int, n: int) -> str:
    return _("There is no card number {k}: your cards are numbered 1 to {n}.").format(k=k, n=n)


class _Out:
    """Lines to stdout; Rich colours only on a terminal. Rule ids are taken out of every line
    (:func:`~ramsli.frontends.text.player_words`) and kept in :attr:`cited` for ``why``: the
    rules of the last lines that named any, since the player's last input (issue #12)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.console = None
        #: the rule ids behind the last message that had any (shown by ``why``)
        self.cited: list[str] = []
        self._fresh = True
        if getattr(stream, "isatty", lambda: False)():
            self.console = Console(file=stream, highlight=False)

    def new_batch(self) -> None:
        """The player typed something: the next line naming rules replaces :attr:`cited`."""
        self._fresh = True

    def __call__(self, line: str = "", style: str | None = None, cite: bool = True) -> None:
        said = T.player_words(line)
        if cite and said.rules:
            if self._fresh:
                self.cited = []
                self._fresh = False
            self.cited += [r for r in said.rules if r not in self.cited]
        self.raw(str(said), style)

    def raw(self, line: str = "", style: str | None = None) -> None:
        """Write ``line`` as it is (the detail of ``why`` shows rule ids)."""
        if self.console is not None:
            self.console.print(line, style=style, markup=False)
        else:
            self.stream.write(line + "\n")
            self.stream.flush()


class PlainGame:
    """One session played as lines of text.

    Args:
        table: the :class:`~ramsli.frontends.game.Table` (new or resumed).
        stdin, stdout: the streams (default ``sys.stdin``/``sys.stdout``).
        speed: seconds to wait after each bot move.
    """

    def __init__(self, table: Table, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 speed: float = 0.0) -> None:
        self.table = table
        self.inp = stdin or sys.stdin
        self.say = _Out(stdout or sys.stdout)
        self.speed = speed
        self.suits = table.suits
        self._watching = False

    # -- helpers ----------------------------------------------------------------------

    def _names(self) -> list[str]:
        return self.table.names

    def _show_state(self) -> None:
        t = self.table
        obs = t.hand.observe(t.human)
        for line in T.table_lines(obs, t.names, t.human):
            self.say(line)
        self.say(T.info_line(obs, self.suits))
        if obs.phase is Phase.PLAY:
            self.say(T.trick_text(obs, t.names, self.suits))
        self.say(T.cards_line(obs, self.suits), style="bold")
        self.say(T.prompt_text(obs), style="bold cyan")

    def _announce(self, action: Action, tricks_before: int) -> None:
        t = self.table
        hand = t.hand
        self.say(T.action_text(action, t.names, self.suits, t.human))
        if len(hand.tricks) > tricks_before:
            tr = hand.tricks[-1]
            self.say("  " + T.takes_trick_text(tr.winner, t.names, t.human, len(hand.tricks)), style="green")

    def _read(self) -> str | None:
        self.say.new_batch()
        if self.say.console is not None:
            self.stream_prompt()
        line = self.inp.readline()
        if line == "":
            return None
        return line.strip()

    def stream_prompt(self) -> None:
        self.say.console.print("> ", end="", markup=False)

    # -- the game ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the session ends or the player quits; returns an exit code (0)."""
        t = self.table
        try:
            self.say(_("Ramsli — {n} players, you are {name} (p{seat}). Type help for the commands.").format(
                n=len(t.names), name=t.names[t.human], seat=t.human + 1))
            self.say(T.rules_line(t.rules))
            if len(t.names) == 2:
                self.say(_("Two players are allowed, but the game loses its tension (R2.1)."))
            while not t.is_over:
                if t.human_bust and not self._watch_on():
                    t.stop_session()
                    break
                if not self._play_hand():
                    self._quit()
                    return 0
            self._standings()
            return 0
        except KeyboardInterrupt:
            try:
                self._quit()
            except OSError as e:
                self.say(save_failed_text(t, e), style="red")
                return 1
            return 130
        except OSError as e:  # disk full, read-only folder: the last good save stays (issue #12)
            self.say(save_failed_text(t, e), style="red")
            return 1

    def _watch_on(self) -> bool:
        """The human left bust (R3.5 leave): ask once whether to watch the bots play on; default no."""
        if self._watching:
            return True
        self.say(_("You are bust and have left the table (R3.5)."))
        self.say(_("Watch the bots play on? [y/N]"), style="bold cyan")
        line = self._read()
        self._watching = line is not None and is_yes(line)
        return self._watching

    def _quit(self) -> None:
        self.table.quit()
        self.say(_("Saved. Continue later with: {command}").format(command=self.table.resume_command()))

    def _standings(self) -> None:
        t = self.table
        s = t.session
        self.say("")
        for line in T.standings_lines(s.stacks, s.pot, t.names, s.winners(), s.end_reason, t.hands_played,
                                      t.human):
            self.say(line, style="bold")

    def _play_hand(self) -> bool:
        t = self.table
        resumed = t.resumed_hand
        hand = t.start_hand()
        obs = hand.observe(t.human)
        self.say("")
        self.say(t.hand_title(), style="bold")
        self.say(T.info_line(obs, self.suits))
        if resumed:  # continued in the middle: what was played before the quit
            self.say(_("The hand so far") + ":")
            for line in T.log_lines(hand, t.names, self.suits, t.human)[2:]:
                self.say("  " + line)
        if t.human in hand.seated:
            self.say(T.cards_line(obs, self.suits))
        if hand.rules.compulsory:
            self.say(_("Compulsory Ramsli: everyone is in (R4.5)."))
        while not hand.is_over:
            before = len(hand.tricks)
            if t.human_to_act():
                forced = t.forced_declaration()
                if forced is not None:
                    t.apply(forced)
                    self.say(_("Everyone before you is out, so as the dealer you must be in (R4.5)."))
                    self._announce(forced, before)
                    continue
                if not self._human_turn():
                    return False
            else:
                action = t.bot_action()
                t.apply(action)
                self._announce(action, before)
                if self.speed > 0:
                    time.sleep(self.speed)
        t.finish_hand()
        for line in T.settlement_lines(hand.settlement, t.names, t.human):
            self.say(line)
        return True

    def _human_turn(self) -> bool:
        t = self.table
        self._show_state()
        while True:
            line = self._read()
            if line is None:
                return False
            try:
                cmd, action = parse_command(line, t)
            except _Reply as r:
                self.say(str(r), style="red")
                continue
            if cmd == "empty":
                self.say(T.prompt_text(t.hand.observe(t.human)), style="bold cyan")
                continue
            if cmd == "quit":
                return False
            if cmd == "help":
                self.say(T.rules_line(t.rules), cite=False)
                for h in T.help_lines():
                    self.say(h, cite=False)
                continue
            if cmd == "rules":
                self.say(T.rules_line(t.rules), cite=False)
                self.say(t.hand_title(), cite=False)
                continue
            if cmd == "why":
                for h in T.detail_lines(self.say.cited):
                    self.say.raw(h)
                continue
            if cmd == "last":
                for h in T.last_trick_lines(t.hand.observe(t.human), t.names, self.suits):
                    self.say(h)
                continue
            if cmd == "log":
                for h in T.log_lines(t.hand, t.names, self.suits, t.human):
                    self.say(h, cite=False)
                continue
            if cmd == "state":
                self._show_state()
                continue
            why = t.why_illegal(action)
            if why is not None:
                self.say(_("Not allowed: {reason}").format(
                    reason=T.reason_text(why, t.names, self.suits, t.human)), style="red")
                continue
            before = len(t.hand.tricks)
            try:
                t.apply(action)
            except IllegalActionError as e:  # the engine is the judge; why_illegal said yes
                self.say(_("Not allowed: {reason}").format(
                    reason=T.reason_text((e.reason, e.rule), t.names, self.suits, t.human)), style="red")
                continue
            self._announce(action, before)
            return True
