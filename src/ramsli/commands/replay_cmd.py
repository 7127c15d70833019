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
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ramsli.cards import Card, Suit
from ramsli.hand import Hand, seat_name
from ramsli.history import HandHistory, HistoryError, ReplayError, read_hand_files, read_session

__all__ = ["register", "replay", "describe_hand", "settlement_json"]


def _opt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _card(c: Card | None) -> str:
    return "??" if c is None else c.display()


def describe_hand(hh: HandHistory, hand: Hand) -> list[str]:
    """The replayed hand as lines of text: the deal, declarations, General Rams and
    targets, every trick (who led, each card, the winner) and the settlement (R4, R5)."""
    names = hh.names
    label = hh.seat_label
    out: list[str] = []
    r = hh.rules
    diff = r.diff()
    title = f"Hand {hh.hand_number}" if hh.hand_number is not None else "Hand"
    out.append(
        f"{title}: dealer {label(hh.dealer)}; rules "
        + (", ".join(f"{k}={_opt(v)}" for k, v in diff.items()) if diff else "traditional")
    )
    out.append(
        "Stacks before the ante: "
        + ", ".join(f"{label(s)} {hh.stacks[s]}" for s in range(len(names)))
        + f"; carry-in pot {hh.pot}"
    )
    out.append(
        f"Ante {r.ante} each; pot {hand.carry_in + r.ante * len(hand.seated)}"
        + (f"; cut {hh.cut}" if hh.cut is not None else "")
    )
    for s in hand.order:
        out.append(f"  {label(s)}: " + " ".join(_card(c) for c in hh.cards[s]))
    aside = f" (jokers turned aside: {' '.join(_card(c) for c in hh.turned_aside)})" if hh.turned_aside else ""
    out.append(f"Turn-up {_card(hh.turn_up)}: trump {Suit(hand.trump).symbol}{aside}")
    if r.compulsory:
        out.append("Compulsory Ramsli: everyone is in (R4.5)")
    elif hand.declarations:
        out.append("Declarations: " + ", ".join(f"{label(s)} {'in' if d else 'out'}" for s, d in hand.declarations))
    if hand.general_rams is not None:
        out.append(f"General Rams announced by {label(hand.general_rams)} (R4.7)")
    elif r.general_rams and len(hand.active) >= 2:
        out.append("No General Rams announced")
    if hand.targets:
        out.append(
            "Targets: "
            + ", ".join(
                f"{label(s)} {t}" for s, t in sorted(hand.targets.items(), key=lambda kv: hand.order.index(kv[0]))
            )
        )
    for i, trick in enumerate(hand.tricks, 1):
        plays = ", ".join(f"{seat_name(s)} {_card(c)}" for s, c in trick.plays)
        assert trick.winner is not None  # a finished trick has its winner (R4.11)
        out.append(f"Trick {i}: {label(trick.leader)} leads: {plays}; won by {label(trick.winner)}")
    if hand.current:
        out.append("Trick in progress: " + ", ".join(f"{seat_name(s)} {_card(c)}" for s, c in hand.current))
    st = hand.settlement
    if st is None:
        who = seat_name(hand.to_act) if hand.to_act is not None else "nobody"
        out.append(f"The hand is not finished: {who} is to act ({hand.phase.value})")
        return out
    if st.kind == "thrown-in":
        out.append(f"Everyone is out: the hand is thrown in and the pot of {st.pot} carries over (D-10)")
    elif st.kind == "walkover":
        out.append(f"Walkover: {label(st.winners[0])} takes the pot of {st.pot} (R4.6)")
    else:
        w = ", ".join(label(s) for s in st.winners)
        out.append(
            f"Settlement: pot {st.pot}; "
            + (f"{w} takes {st.share}" if len(st.winners) == 1 else f"{w} share it, {st.share} each (R5.2)")
        )
        if st.general_rams is not None:
            out.append(
                f"General Rams by {label(st.general_rams)} "
                + ("made (R5.6)" if st.general_rams_made else "failed (R5.6)")
            )
        for s, t, met in st.targets:
            out.append(f"Target {t} of {label(s)} {'met' if met else 'missed'} (R5.7)")
        if st.bete:
            out.append("Bete: " + ", ".join(label(s) for s in st.bete) + " (R5.3)")
    for s in hand.seated:
        short = st.shortfalls().get(s, 0)
        out.append(
            f"  {label(s)}: tricks {st.tricks[s]}, won {st.won(s)}, paid {st.paid(s)}"
            + (f" (short {short}, forgiven: D-6)" if short else "")
            + f", stack {st.stacks_after[s]}"
        )
    out.append(f"Carry-over to the next hand: {st.carry_over}")
    return out


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
) -> None:
    """Replay a hand history trick by trick, re-checking every action and the settlement.

    Exit status 1 for an illegal action, 2 for a missing or malformed file, an
    unknown card, a card dealt twice or a settlement that does not match.
    """
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
                _fail(1, where + str(e))
            except HistoryError as e:
                raise e.with_path(path) from None
    except ReplayError as e:  # an illegal action met while read_session replays the session
        where = f"{e.path}:{e.line}: " if e.line is not None else f"{e.path}: "
        _fail(1, where + str(e))
        return
    except HistoryError as e:
        _fail(2, str(e))
        return
    loose = None
    if file.is_dir() and sh is None:
        loose = (
            f"No session.toml in {file}: replayed {len(results)} hand file"
            f"{'' if len(results) == 1 else 's'} one by one; continuity between hands (stacks, pot, "
            "dealer: R3.4, R5.4, R3.2) was not checked."
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
                    f"Session: {', '.join(sh.names)}; {len(sh.hands)} hands; seed {sh.seed}; "
                    f"first dealer {sh.names[sh.first_dealer]}"
                )
            )
        )
    for k, (hh, hand) in enumerate(results):
        if k:
            console.print()
        for line in describe_hand(hh, hand):
            console.print(escape(_safe(line)))
    if sh is not None:
        ended = f"ended ({sh.end_reason})" if sh.end_reason else "not ended"
        winners = ", ".join(sh.names[s] for s in sh.winners) or "-"
        console.print(
            escape(
                _safe(
                    f"\nSession {ended}; winners {winners}; stacks "
                    + ", ".join(f"{n} {v}" for n, v in zip(sh.names, sh.stacks))
                    + f"; pot {sh.pot}"
                )
            )
        )


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to the ``ramsli`` app."""
    app.command("replay")(replay)
