"""``ramsli play --plain``: the game as lines of text on stdin/stdout.

For screen readers, scripts and tests. The state is printed when it is your
turn; you type ``in``, ``out``, ``play AS`` (or ``play 10h``, a card in your
language's letters such as de ``play DKr``, or a card number 1–5 as the sorted
hand shows them), ``gr``, ``pass``, ``target 3``, ``state``, ``log``, ``last``, ``why``,
``rules``, ``review`` (the coach on the last finished hand), ``help``, ``quit`` — or the words of
the player's language (``rein``/``raus``,
``mee``/``pas``, ``dentro``/``fuori``...; English always works too).
Bad input gets a one-line reason and the prompt again; nothing changes. Lines
say what happened in the game's words; the rule ids behind the last message
are shown by ``why``. End of input is ``quit``: the session is saved, a hand in
progress with it (``--resume`` continues it where it was). Every bot
move is printed as a line. Colour (Rich) only when stdout is a terminal.
"""

from __future__ import annotations

import sys
import time
import unicodedata
from typing import TextIO

from rich.console import Console
from rich.text import Text

from ramsli.cards import Card, CardError
from ramsli.coach import review_lines
from ramsli.errors import IllegalActionError
from ramsli.frontends import cut as C
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.i18n import _, pgettext
from ramsli.hand import Action, Hand, Phase

__all__ = [
    "PlainGame",
    "parse_command",
    "save_failed_text",
    "is_yes",
    "parse_card",
    "AmbiguousCard",
    "last_hand_review",
]

#: command word -> canonical command; English words always work, the player's language's too
_EN = {
    "in": "in",
    "out": "out",
    "fold": "out",
    "play": "play",
    "p": "play",
    "pl": "play",
    "gr": "gr",
    "pass": "pass",
    "target": "target",
    "t": "target",
    "help": "help",
    "?": "help",
    "h": "help",
    "log": "log",
    "l": "log",
    "state": "state",
    "s": "state",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "last": "last",
    "why": "why",
    "rule": "why",
    "rules": "rules",
    "review": "review",
    "coach": "review",
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
        "review": pgettext("command", "review"),
    }


def _review_word() -> str:
    """The typed word of ``review`` in the player's language (its first word)."""
    return next((w.strip() for w in pgettext("command", "review").split("|") if w.strip()), "review")


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
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


class _Reply(Exception):
    """A refused input: the one-line reason to print."""


def parse_command(line: str, table: LocalTable) -> tuple[str, Action | None]:
    """Read one line of input.

    Returns:
        ``(command, action)``: command is ``"act"`` (with the action to try), or
        ``"help"``, ``"log"``, ``"state"``, ``"last"``, ``"why"``, ``"rules"``, ``"review"``,
        ``"quit"``, ``"empty"`` (action None).

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
                parse_card(words[0], table.suits)
                head, rest = "play", words[:1]
            except AmbiguousCard as e:
                raise _Reply(str(e)) from None
            except CardError:
                if _isnum(head):
                    head, rest = "play", words[:1]
                elif not echo_text(words[0]):  # NUL, invalid bytes, escapes: nothing printable to echo
                    raise _Reply(_("Unknown command (unprintable characters). Type help for the commands.")) from None
                else:
                    raise _Reply(
                        _("Unknown command '{word}'. Type help for the commands.").format(word=echo_text(words[0]))
                    ) from None
    else:
        head = cmds[head]
    if head in ("help", "log", "state", "quit", "last", "why", "rules", "review"):
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
    obs = hand.observe(me) if hand is not None else None
    cards = T.hand_order(obs.cards, obs.trump) if obs is not None else ()  # numbered as shown (cards_line)
    if _isnum(word):
        k = int(word)
        if not 1 <= k <= len(cards):
            raise _Reply(ngettext_cards(k, len(cards)))
        return "act", Action.play(me, cards[k - 1])
    try:
        card = parse_card(word, table.suits, (hand.rules if hand is not None else table.rules).deck)
    except CardError as e:
        raise _Reply(str(e)) from None
    return "act", Action.play(me, card)


class AmbiguousCard(CardError):
    """Typed card letters that name two different cards (the language's and the English notation's)."""


def _local_reading(key: str, suits: str) -> set[Card]:
    """The cards ``key`` (upper case) names in the letters of the language in use (or the German pack)."""
    ranks = {T.rank_letter(r, suits).upper(): r for r in range(14, 1, -1)}
    tokens = {
        sym: s
        for sym, s in (("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C"), ("♤", "S"), ("♡", "H"), ("♢", "D"), ("♧", "C"))
    }
    for s, spellings in T.suit_letters(suits).items():
        for w in spellings:
            tokens[w.upper()] = s
    found = set()
    for tok, s in tokens.items():
        if key.endswith(tok) and key[: -len(tok)] in ranks:
            found.add(Card.of(ranks[key[: -len(tok)]], s))
    return found


def parse_card(word: str, suits: str = "french", deck: str = "piquet32") -> Card:
    """A card as the player types it (R1.6, D-1): rank then suit, any case, in the letters of the
    language in use (de ``DKr`` Dame Kreuz, nl ``HR`` Heer ruiten, it ``FP`` Fante di picche; German
    pictures ``OHe`` Herz-Ober, ``USc``), or always in the English notation (``AS``, ``10h``, ``Q♣``,
    ``X1``). Hand histories and saves keep the English notation; this is input only.

    Args:
        word: the typed text.
        suits: ``"french"`` or ``"german"`` (the pictures shown, whose letters are accepted).
        deck: ``"piquet32"`` or ``"full52"``, for the ranks the error message lists.

    Raises:
        AmbiguousCard: when the language's letters and the English notation name two different
            cards (it ``AC``: asso di cuori or ace of clubs); the message gives a spelling for each.
        CardError: for anything else that is not a card; the message lists the ranks and suit
            letters of the language and the English notation (R1.6).

    >>> str(parse_card("10h")), str(parse_card("oHe", "german"))
    ('TH', 'QH')
    """
    text = word.strip()
    try:
        english = Card.parse(text)
    except CardError:
        english = None
    local = _local_reading(text.upper(), suits)
    readings = local | ({english} if english is not None else set())
    if len(readings) == 1:
        return readings.pop()
    if len(readings) > 1:
        one, other = sorted(readings, key=lambda c: c is english)  # the language's reading first
        labels = T.card_label(one, suits), T.card_label(other, suits)
        codes = T.card_spelling(one, suits), T.card_spelling(other, suits)
        if labels == codes:  # German pictures: the labels are the spellings (KSc or KGr)
            raise AmbiguousCard(
                _("'{text}' can be read two ways: write {one} or {other} (R1.6).").format(
                    text=echo_text(word), one=codes[0], other=codes[1]
                )
            )
        raise AmbiguousCard(
            _(
                "'{text}' can be read two ways: {one} or {other}; write {one_code} for {one} "
                "or {other_code} for {other} (R1.6)."
            ).format(text=echo_text(word), one=labels[0], other=labels[1], one_code=codes[0], other_code=codes[1])
        )
    raise CardError(_("'{text}' is not a card.").format(text=echo_text(word)) + " " + T.card_notation_text(suits, deck))


def last_hand_review(table: LocalTable) -> tuple[str, list[str]]:
    """The coach's words on the player's seat in the last finished hand, in the player's language:
    ``(title, lines)`` — one line per marked decision, or one saying there is none
    (:func:`ramsli.coach.review_lines`, from the seat's own knowledge only, R7); a line saying
    that no hand is finished yet, or that the player sat that hand out (R3.5).
    Takes a few seconds (the coach samples every decision)."""
    last = table.last
    if last is None or last.hand is None:
        return _("The coach"), [_("No hand is finished yet: the coach reviews finished hands.")]
    title = _("The coach on hand {n}").format(n=last.number)
    if table.human not in last.hand.seated:
        return title, [_("You did not play this hand (R3.5).")]
    suits = table.suits
    lines = review_lines(
        last.hand,
        table.human,
        table.lang,
        names=table.names,
        card_label=lambda c: T.card_label(c, suits),
        hand_number=last.number,  # the seed of the saved history's review: the same marks
    )
    return title, lines


def save_failed_text(table: LocalTable, error: OSError) -> str:
    """The message when the save file cannot be written (``ENOSPC``, ``EROFS``...): what failed, that
    the last good save is kept, and how to continue."""
    where = table.store.root if table.store is not None else "?"
    return _(
        "Cannot save the session in {dir}: {problem}. The game stops here; the last good save is kept "
        "and {command} continues from it."
    ).format(dir=where, problem=error.strerror or error, command=table.resume_command())


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
    rules of the last lines that named any, since the player's last input."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.console: Console | None = None
        #: the rule ids behind the last message that had any (shown by ``why``)
        self.cited: list[str] = []
        #: lines written so far (tells whether anything was said since a given line)
        self.written = 0
        self._fresh = True
        if getattr(stream, "isatty", lambda: False)():
            self.console = Console(file=stream, highlight=False)

    def new_batch(self) -> None:
        """The player typed something: the next line naming rules replaces :attr:`cited`."""
        self._fresh = True

    def __call__(self, line: str | Text = "", style: str | None = None, cite: bool = True) -> None:
        if isinstance(line, Text):  # a coloured cards line: cards only, no rule ids in it
            self.raw(line, style)
            return
        said = T.player_words(line)
        if cite and said.rules:
            if self._fresh:
                self.cited = []
                self._fresh = False
            self.cited += [r for r in said.rules if r not in self.cited]
        self.raw(str(said), style)

    def raw(self, line: str | Text = "", style: str | None = None) -> None:
        """Write ``line`` as it is (the detail of ``why`` shows rule ids)."""
        self.written += 1
        if self.console is not None:
            self.console.print(line, style=style, markup=False)
        else:
            self.stream.write(str(line) + "\n")  # a Rich Text as its plain text: no colour off a terminal
            self.stream.flush()


class PlainGame:
    """One session played as lines of text.

    Args:
        table: the :class:`~ramsli.frontends.game.LocalTable` (new or resumed).
        stdin, stdout: the streams (default ``sys.stdin``/``sys.stdout``).
        speed: seconds to wait after each bot move.
        ask_cut: ask where to cut when the player is the cutter (R4.2); default (None): when the
            input is a terminal (scripts and pipes cut at random, as bots do).
    """

    def __init__(
        self,
        table: LocalTable,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        speed: float = 0.0,
        ask_cut: bool | None = None,
    ) -> None:
        self.table = table
        self.inp = stdin or sys.stdin
        self.say = _Out(stdout or sys.stdout)
        self.speed = speed
        self.ask_cut = getattr(self.inp, "isatty", lambda: False)() if ask_cut is None else ask_cut
        self.suits = table.suits
        self._watching = False
        #: :attr:`_Out.written` after the hand's opening lines (its pot line and the player's cards)
        self._opened_at = -1

    # -- helpers ----------------------------------------------------------------------

    def _names(self) -> list[str]:
        return self.table.names

    def _hand(self) -> Hand:
        """The hand in progress (the game asks the player only during one)."""
        hand = self.table.hand
        assert hand is not None, "no hand in progress"
        return hand

    def _show_state(self, repeat: bool = True) -> None:
        """The table, the pot line, the trick, the player's cards and the prompt.

        Args:
            repeat: False leaves out the pot line and the cards, which the hand's opening lines
                showed just before (nothing was said since).
        """
        t = self.table
        obs = self._hand().observe(t.human)
        for line in T.table_lines(obs, t.names, t.human):
            self.say(line)
        if repeat:
            self.say(T.info_line(obs, self.suits))
        if obs.phase is Phase.PLAY:
            self.say(T.trick_text(obs, t.names, self.suits))
        if repeat:
            self.say(T.cards_text(obs, self.suits, self.table.four_colour), style="bold")
        self.say(T.prompt_text(obs, self.suits, enter=True), style="bold cyan")

    def _announce(self, action: Action, tricks_before: int) -> None:
        t = self.table
        hand = self._hand()
        self.say(T.action_text(action, t.names, self.suits, t.human))
        winner = hand.tricks[-1].winner if len(hand.tricks) > tricks_before else None
        if winner is not None:  # the action finished a trick (R4.11)
            self.say("  " + T.takes_trick_text(winner, t.names, t.human, len(hand.tricks)), style="green")

    def _read(self) -> str | None:
        self.say.new_batch()
        if self.say.console is not None:
            self.stream_prompt()
        line = self.inp.readline()
        if line == "":
            return None
        return line.strip()

    def stream_prompt(self) -> None:
        if self.say.console is not None:
            self.say.console.print("> ", end="", markup=False)

    # -- the game ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the session ends or the player quits; returns an exit code (0)."""
        t = self.table
        try:
            self.say(
                _("Ramsli — {n} players, you are {name} (p{seat}). Type help for the commands.").format(
                    n=len(t.names), name=t.names[t.human], seat=t.human + 1
                )
            )
            self.say(T.rules_line(t.rules))
            self.say(T.opponents_line(t.names, t.bots, t.human))
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
        except OSError as e:  # disk full, read-only folder: the last good save stays
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
        for line in T.standings_lines(s.stacks, s.pot, t.names, s.winners(), s.end_reason, t.hands_played, t.human):
            self.say(line, style="bold")

    def _review(self) -> None:
        """``review``: the coach's words on the player's last finished hand (R7: its own cards only)."""
        if self.table.last is not None:
            self.say(_("The coach is looking at hand {n} (a few seconds)…").format(n=self.table.last.number))
        title, lines = last_hand_review(self.table)
        self.say(_("{label}:").format(label=title), style="bold")
        for line in lines:
            self.say("  " + line, cite=False)

    def _play_hand(self) -> bool:
        t = self.table
        resumed = t.resumed_hand
        asked, cut = False, None
        if not resumed and self.ask_cut and t.human_cuts():  # R4.2: the player cuts
            asked, cut = self._ask_cut()
            if not asked:
                return False
        hand = t.start_hand(cut)
        obs = hand.observe(t.human)
        self.say("")
        self.say(t.hand_title(), style="bold")
        if asked and hand.cut is not None:  # the cut point is recorded with the deal (R4.2)
            self.say(C.cut_done_text(hand.cut, cut is not None))
        self.say(T.info_line(obs, self.suits))
        if resumed:  # continued in the middle: what was played before the quit
            self.say(_("{label}:").format(label=_("The hand so far")))
            for line in T.log_lines(hand, t.names, self.suits, t.human)[2:]:
                self.say("  " + line)
        if t.human in hand.seated:
            self.say(T.cards_text(obs, self.suits, self.table.four_colour))
        if hand.rules.compulsory:
            self.say(_("Compulsory Ramsli: everyone is in (R4.5)."))
        self._opened_at = self.say.written
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
        assert hand.settlement is not None  # a hand that is over is settled (R5)
        for line in T.settlement_lines(hand.settlement, t.names, t.human):
            self.say(line)
        if t.hands_played == 1 and t.human in hand.seated:  # said once a session
            self.say(
                _("Type {word} at your next turn for the coach's review of this hand.").format(word=_review_word())
            )
        return True

    def _ask_cut(self) -> tuple[bool, int | None]:
        """R4.2, the player cuts: ask how many cards to lift (Enter or ``random``: a random cut) until
        the answer is a cut point. ``(False, None)`` at the end of input or ``quit``."""
        t = self.table
        self.say("")
        self.say(C.cut_question(t.cut_points, t.names[t.session.dealer]), style="bold cyan")
        while True:
            line = self._read()
            if line is None or _commands().get(line.lower()) == "quit":
                return False, None
            try:
                return True, C.parse_cut(line, t.cut_points)
            except C.CutError as e:
                self.say(str(e), style="red")

    def _human_turn(self) -> bool:
        t = self.table
        # the player acting first: the opening lines just said the pot and the cards
        self._show_state(repeat=self.say.written != self._opened_at)
        while True:
            line = self._read()
            if line is None:
                return False
            try:
                cmd, action = parse_command(line, t)
            except _Reply as r:
                self.say(str(r), style="red")
                continue
            if cmd == "empty":  # Enter: plays the only card allowed (said in the prompt), else asks again
                obs = self._hand().observe(t.human)
                action = T.only_play(obs)
                if action is None:
                    self.say(T.prompt_text(obs, self.suits, enter=True), style="bold cyan")
                    continue
                cmd = "act"
            if cmd == "quit":
                return False
            if cmd == "help":
                self.say(T.rules_line(t.rules), cite=False)
                for h in T.help_lines(self.suits):
                    self.say(h, cite=False)
                self.say(
                    _("And: {word} — the coach's review of your last finished hand").format(word=_review_word()),
                    cite=False,
                )
                continue
            if cmd == "review":
                self._review()
                continue
            if cmd == "rules":
                self.say(T.rules_line(t.rules), cite=False)
                self.say(T.opponents_line(t.names, t.bots, t.human), cite=False)
                self.say(t.hand_title(), cite=False)
                continue
            if cmd == "why":
                for h in T.detail_lines(self.say.cited):
                    self.say.raw(h)
                continue
            if cmd == "last":
                for h in T.last_trick_lines(self._hand().observe(t.human), t.names, self.suits):
                    self.say(h)
                continue
            if cmd == "log":
                for h in T.log_lines(self._hand(), t.names, self.suits, t.human):
                    self.say(h, cite=False)
                continue
            if cmd == "state":
                self._show_state()
                continue
            assert action is not None  # "act" comes with its action
            why = t.why_illegal(action)
            if why is not None:
                self.say(
                    _("Not allowed: {reason}").format(reason=T.reason_text(why, t.names, self.suits, t.human)),
                    style="red",
                )
                continue
            before = len(self._hand().tricks)
            try:
                t.apply(action)
            except IllegalActionError as e:  # the engine is the judge; why_illegal said yes
                self.say(
                    _("Not allowed: {reason}").format(reason=T.reason_text(e.refusal, t.names, self.suits, t.human)),
                    style="red",
                )
                continue
            self._announce(action, before)
            return True
