"""``ramsli replay FILE``: replay a hand history (or a session folder) trick by trick.

A session folder is either one with ``session.toml`` (its hands are also checked to
follow each other, R3.4, R5.4, R3.2) or one saved by ``ramsli play`` (``session.json``
and ``hand-0001.toml``, ``hand-0002.toml``, ...): then every hand file is replayed in
order on its own (each file's ``hand`` number must match its name: ``hand-0002.toml``
holds ``hand = 2``), and the output says that continuity between hands was not checked.

Every action is re-validated against the rules and the settlement is
re-computed and compared with the recorded one (see ``docs/hand-history.md``).

Exit status:
    0 the history replays and its settlement matches;
    1 an action is illegal: one line ``FILE:LINE: action 7 'p3 pl 9H': must follow suit ♠ (R4.10)``;
    2 a missing, unreadable or malformed file, an unknown card, a card dealt twice, a
      bad rule option, or a recorded settlement that does not match (the message names
      the line and says why).
"""

from __future__ import annotations

import json
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ramsli.cards import Card, Suit
from ramsli.frontends.i18n import detect_language, render_refusal, translation
from ramsli.frontends.text import card_label_in
from ramsli.hand import Hand, seat_name
from ramsli.history import HandHistory, HistoryError, ReplayError, read_hand_files, read_session
from ramsli.i18n import Lang, choices_text

__all__ = ["register", "replay", "describe_hand", "settlement_json", "error_text"]


def _opt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _card(c: Card | None, lang: str = "en") -> str:
    """A card as the reader reads it: the language's rank letters (de ``D♥``, R1.6), a joker by its
    symbol (``🃏1``), an unknown card ``??``."""
    if c is None:
        return "??"
    return c.display() if lang == "en" or c.suit is None else card_label_in(c, lang)


def describe_hand(hh: HandHistory, hand: Hand, lang: str = "en") -> list[str]:
    """The replayed hand as lines of text in ``lang`` (one of :data:`~ramsli.i18n.LANGS`): the deal,
    declarations, General Rams and targets, every trick (who led, each card, the winner) and the
    settlement (R4, R5); cards in the language's letters (R1.6)."""
    tr = translation(lang)
    _ = tr.gettext
    names = hh.names
    label = hh.seat_label
    out: list[str] = []
    r = hh.rules
    diff = r.diff()

    def card(c: Card | None) -> str:
        return _card(c, lang)

    title = _("Hand {number}").format(number=hh.hand_number) if hh.hand_number is not None else _("Hand")
    rules = ", ".join(f"{k}={_opt(v)}" for k, v in diff.items()) if diff else _("traditional")
    out.append(_("{title}: dealer {dealer}; rules {rules}").format(title=title, dealer=label(hh.dealer), rules=rules))
    out.append(
        _("Stacks before the ante: {stacks}; carry-in pot {pot}").format(
            stacks=", ".join(f"{label(s)} {hh.stacks[s]}" for s in range(len(names))), pot=hh.pot
        )
    )
    out.append(
        _("Ante {ante} each; pot {pot}").format(ante=r.ante, pot=hand.carry_in + r.ante * len(hand.seated))
        + (_("; cut {cut}").format(cut=hh.cut) if hh.cut is not None else "")
    )
    for s in hand.order:
        out.append(f"  {label(s)}: " + " ".join(card(c) for c in hh.cards[s]))
    aside = (
        " " + _("(jokers turned aside: {cards})").format(cards=" ".join(card(c) for c in hh.turned_aside))
        if hh.turned_aside
        else ""
    )
    out.append(_("Turn-up {card}: trump {suit}").format(card=card(hh.turn_up), suit=Suit(hand.trump).symbol) + aside)
    if r.compulsory:
        out.append(_("Compulsory Ramsli: everyone is in (R4.5)"))
    elif hand.declarations:
        said = ", ".join(f"{label(s)} {_('in') if d else _('out')}" for s, d in hand.declarations)
        out.append(_("Declarations: {list}").format(list=said))
    if hand.general_rams is not None:
        out.append(_("General Rams announced by {seat} (R4.7)").format(seat=label(hand.general_rams)))
    elif r.general_rams and len(hand.active) >= 2:
        out.append(_("No General Rams announced"))
    if hand.targets:
        targets = sorted(hand.targets.items(), key=lambda kv: hand.order.index(kv[0]))
        out.append(_("Targets: {list}").format(list=", ".join(f"{label(s)} {t}" for s, t in targets)))
    for i, trick in enumerate(hand.tricks, 1):
        plays = ", ".join(f"{seat_name(s)} {card(c)}" for s, c in trick.plays)
        assert trick.winner is not None  # a finished trick has its winner (R4.11)
        out.append(
            _("Trick {n}: {leader} leads: {plays}; won by {winner}").format(
                n=i, leader=label(trick.leader), plays=plays, winner=label(trick.winner)
            )
        )
    if hand.current:
        plays = ", ".join(f"{seat_name(s)} {card(c)}" for s, c in hand.current)
        out.append(_("Trick in progress: {plays}").format(plays=plays))
    st = hand.settlement
    if st is None:
        who = seat_name(hand.to_act) if hand.to_act is not None else _("nobody")
        out.append(_("The hand is not finished: {who} is to act ({phase})").format(who=who, phase=hand.phase.value))
        return out
    if st.kind == "thrown-in":
        out.append(
            _("Everyone is out: the hand is thrown in and the pot of {pot} carries over (D-10)").format(pot=st.pot)
        )
    elif st.kind == "walkover":
        out.append(_("Walkover: {seat} takes the pot of {pot} (R4.6)").format(seat=label(st.winners[0]), pot=st.pot))
    else:
        w = ", ".join(label(s) for s in st.winners)
        out.append(
            (
                _("Settlement: pot {pot}; {winners} takes {share}")
                if len(st.winners) == 1
                else _("Settlement: pot {pot}; {winners} share it, {share} each (R5.2)")
            ).format(pot=st.pot, winners=w, share=st.share)
        )
        if st.general_rams is not None:
            out.append(
                (
                    _("General Rams by {seat} made (R5.6)")
                    if st.general_rams_made
                    else _("General Rams by {seat} failed (R5.6)")
                ).format(seat=label(st.general_rams))
            )
        for s, t, met in st.targets:
            out.append(
                (
                    _("Target {target} of {seat} met (R5.7)") if met else _("Target {target} of {seat} missed (R5.7)")
                ).format(target=t, seat=label(s))
            )
        if st.bete:
            out.append(_("Bete: {seats} (R5.3)").format(seats=", ".join(label(s) for s in st.bete)))
    for s in hand.seated:
        short = st.shortfalls().get(s, 0)
        out.append(
            "  "
            + _("{seat}: tricks {tricks}, won {won}, paid {paid}").format(
                seat=label(s), tricks=st.tricks[s], won=st.won(s), paid=st.paid(s)
            )
            + (_(" (short {short}, forgiven: D-6)").format(short=short) if short else "")
            + _(", stack {stack}").format(stack=st.stacks_after[s])
        )
    out.append(_("Carry-over to the next hand: {n}").format(n=st.carry_over))
    return out


def _card_label(lang: str) -> Callable[[str], str] | None:
    """A card's text (``"QH"``) as ``lang`` shows it (de ``"D♥"``, R1.6); a text that is not a card as
    it is. None in English: the history's own notation (``QH``), as the file writes it."""
    if lang == "en":
        return None

    def label(text: str) -> str:
        try:
            return card_label_in(str(text), lang)
        except ValueError:
            return str(text)

    return label


def error_text(e: HistoryError | ReplayError, lang: str = "en") -> str:
    """Why a hand history cannot be read or replayed, in ``lang`` (without the file and line): a
    refused action (R4.12) with its number and text, a reason with a refusal code by that code, in
    the reader's card letters; a reason without a code yet (a few rare shapes of a broken file) in
    English after the translated "not a hand history this reader can read". In English the
    engine's own text, as before (cards in the history's notation, ``QH``).

    >>> from ramsli.refusal import Refusal
    >>> error_text(HistoryError("x", refusal=Refusal("hh_card_twice_key", "R1", {"card": "QH", "other": "turn_up"}), key="p4", index=0), "de")
    'p4, Karte 1: D♥ wird doppelt gegeben (auch turn_up) (R1)'
    """
    if lang == "en":  # the engine's own English text, as the history's notation writes cards
        return str(e) if isinstance(e, ReplayError) else e.reason
    tr = translation(lang)
    _ = tr.gettext
    cards = _card_label(lang)
    if isinstance(e, ReplayError):
        reason = render_refusal(e.refusal, translations=tr, card_label=cards)
        return _("action {number} '{action}': {reason}").format(number=e.position, action=e.action, reason=reason)
    if e.refusal is None:
        return _("not a hand history this reader can read") + ": " + e.reason
    text = render_refusal(e.refusal, translations=tr, card_label=cards)
    if e.key is None:
        return text
    where = e.key if e.index is None else _("{key}, card {number}").format(key=e.key, number=e.index + 1)
    return f"{where}: {text}"


def _located_text(e: HistoryError, lang: str) -> str:
    """``FILE:LINE: reason`` of a history that cannot be read, the reason in ``lang``."""
    if e.path is None:
        return error_text(e, lang)
    where = f"{e.path}:{e.line}: " if e.line is not None else f"{e.path}: "
    return where + error_text(e, lang)


def settlement_json(hh: HandHistory, hand: Hand) -> dict[str, Any]:
    """The settlement as a JSON-ready dict: the pot facts and per seat (by name) tricks,
    counters won and counters paid (see :meth:`ramsli.settlement.Settlement.to_dict`)."""
    if hand.settlement is None:
        return {"hand": hh.hand_number, "finished": False}
    d: dict[str, Any] = dict(hand.settlement.to_dict(hh.names))
    d["seats"] = [{**seat, "id": seat_name(i)} for i, seat in enumerate(d["seats"])]  # the seat's notation too
    return {"hand": hh.hand_number, "finished": True, **d}


#: Unicode categories escaped before anything read from a file is printed: controls (Cc), format
#: characters (Cf: bidirectional controls, zero-width spaces), line and paragraph separators (Zl, Zp),
#: the characters a seat name may not hold (R2.2); the joiners U+200C, U+200D (emoji, scripts) are kept
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_JOINERS = frozenset("\u200c\u200d")


def _safe(text: str) -> str:
    """``text`` with control characters, format characters (bidirectional controls, zero-width
    spaces) and line separators escaped (``\\x1b``, ``\\n``, ``\\u202e``), so nothing read from a
    file can move the cursor, change colours, reorder or hide text or add lines on the terminal.
    Names holding one are refused when a history is read (:mod:`ramsli.history`); this also
    covers paths."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in UNSAFE_CATEGORIES and ch not in _JOINERS
        else ch
        for ch in text
    )


def _fail(code: int, message: str) -> None:
    typer.echo(_safe(message), err=True)
    raise typer.Exit(code)


#: the largest hand history file (bytes) replay reads; a hand history is a few kB, so a device such as /dev/zero is refused
MAX_HISTORY_BYTES = 1_000_000


def _check_input(file: Path) -> None:
    """Exit 2 with the reason for a path that cannot be read as a history: missing, too long a name,
    not a regular file (a FIFO would hang, a device never ends), or larger than :data:`MAX_HISTORY_BYTES`.
    In a folder, each ``*.toml`` entry is checked the same way before anything is read."""
    try:
        if not file.exists():
            _fail(2, f"{file}: no such file or directory")
        entries = [file]
        if file.is_dir():
            entries = sorted(p for p in file.iterdir() if p.suffix == ".toml")
        for p in entries:
            st = p.stat()  # follows links: a link to /dev/zero is a device
            if not stat.S_ISREG(st.st_mode):
                _fail(2, f"{p}: not a regular file (a pipe, device or socket); give a hand history file")
            if st.st_size > MAX_HISTORY_BYTES:
                _fail(
                    2,
                    f"{p}: {st.st_size:,} bytes is too large for a hand history (at most "
                    f"{MAX_HISTORY_BYTES:,} bytes; a hand is a few kB)",
                )
    except OSError as e:  # a name over 255 characters, a path through a file, no permission
        _fail(2, f"{e.filename or file}: {e.strerror or e}")


def replay(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A hand history (.toml), or a session folder: one with session.toml, or one saved by "
            "'ramsli play' (hand-0001.toml, hand-0002.toml, ...).",
            show_default=False,
        ),
    ],
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the settlement as JSON (per seat: tricks, counters won, counters paid) instead of the hand.",
        ),
    ] = False,
    lang: Annotated[
        Lang | None,
        typer.Option("--lang", help=f"Language: {choices_text()}; default from the locale (LANGUAGE, LC_ALL, LANG)."),
    ] = None,
) -> None:
    """Replay a hand history trick by trick, re-checking every action and the settlement.

    Exit status 1 for an illegal action, 2 for a missing or malformed file, an
    unknown card, a card dealt twice or a settlement that does not match.
    """
    language = lang.value if lang else detect_language()
    _ = translation(language).gettext
    _check_input(file)
    if file.is_file() and file.name == "session.toml":
        file = file.parent  # a session is replayed from its directory
    sh = None
    try:
        if file.is_dir() and (file / "session.toml").exists():
            sh = read_session(file)
            items = [(str(file / f), hh) for f, hh in zip(sh.files, sh.hands)]
        elif file.is_dir():  # a folder saved by `ramsli play`: each hand file on its own
            items = [(str(p), hh) for p, hh in read_hand_files(file)]  # hand numbers match the names
        else:
            items = [(str(file), HandHistory.read(file))]
        results = []
        for path, hh in items:
            try:
                results.append((hh, hh.replay()))
            except ReplayError as e:
                where = f"{path}:{e.line}: " if e.line is not None else f"{path}: "
                _fail(1, where + error_text(e, language))
            except HistoryError as e:
                raise e.with_path(path) from None
    except ReplayError as e:  # an illegal action met while read_session replays the session
        where = f"{e.path}:{e.line}: " if e.line is not None else f"{e.path}: "
        _fail(1, where + error_text(e, language))
        return
    except HistoryError as e:
        _fail(2, _located_text(e, language))
        return
    loose = None
    if file.is_dir() and sh is None:
        loose = (
            translation(language)
            .ngettext(
                "No session.toml in {folder}: replayed {n} hand file one by one; continuity between hands "
                "(stacks, pot, dealer: R3.4, R5.4, R3.2) was not checked.",
                "No session.toml in {folder}: replayed {n} hand files one by one; continuity between hands "
                "(stacks, pot, dealer: R3.4, R5.4, R3.2) was not checked.",
                len(results),
            )
            .format(folder=file, n=len(results))
        )
    if json_out:
        data = [settlement_json(hh, hand) for hh, hand in results]
        if loose:
            typer.echo(_safe(loose), err=True)  # stdout stays pure JSON
        typer.echo(json.dumps(data if file.is_dir() else data[0], indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False, soft_wrap=True)
    if loose:
        console.print(escape(_safe(loose)))
        console.print()
    if sh is not None:
        console.print(
            escape(
                _safe(
                    _("Session: {names}; {hands} hands; seed {seed}; first dealer {dealer}").format(
                        names=", ".join(sh.names), hands=len(sh.hands), seed=sh.seed, dealer=sh.names[sh.first_dealer]
                    )
                )
            )
        )
    for k, (hh, hand) in enumerate(results):
        if k:
            console.print()
        for line in describe_hand(hh, hand, language):
            console.print(escape(_safe(line)))
    if sh is not None:
        winners = ", ".join(sh.names[s] for s in sh.winners) or "-"
        stacks = ", ".join(f"{n} {v}" for n, v in zip(sh.names, sh.stacks))
        text = (
            _("Session ended ({reason}); winners {winners}; stacks {stacks}; pot {pot}")
            if sh.end_reason
            else _("Session not ended; winners {winners}; stacks {stacks}; pot {pot}")
        )
        console.print()  # a blank line before the session's end (not a "\n" that _safe would show escaped)
        console.print(escape(_safe(text.format(reason=sh.end_reason, winners=winners, stacks=stacks, pot=sh.pot))))


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to the ``ramsli`` app."""
    app.command("replay")(replay)
