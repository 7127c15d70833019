"""Hand histories: one hand of Ramsli as a TOML text file.

The format (``ramsli-hh/1``, documented in ``docs/hand-history.md``) is
modelled on pokerkit's PHH: a format version, the rules (R8), the seat names,
the stacks and the carry-in pot before the ante (R4.1, R5.4), the dealer, the
cut (R4.2), each seat's five dealt cards (``??`` for an unknown card, as a
person recording a folded hand would write it; R7, D-16), the turn-up and any
jokers turned aside (R4.4, D-9), the ordered list of action strings (``p3 in``,
``p2 gr``, ``p4 t3``, ``p2 pl AS``) and the settlement (R5).

:meth:`HandHistory.from_toml` parses and checks the structure (every error
names the line); :meth:`HandHistory.replay` rebuilds the hand, re-validates
every action against the rules and re-computes the settlement.
Write → read → write is byte-identical.

>>> import random
>>> from ramsli import Hand, Rules
>>> hand = Hand.new(Rules(), stacks=[20] * 4, dealer=0, rng=random.Random(3))
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> hh = HandHistory.from_hand(hand, ["Ann", "Bo", "Cy", "Di"], hand_number=1)
>>> text = hh.to_toml()
>>> HandHistory.from_toml(text).to_toml() == text
True
>>> HandHistory.from_toml(text).replay().settlement == hand.settlement
True

A whole session is a directory: ``session.toml`` (names, starting stacks,
seed, first-dealer cut, end reason, final stacks) and one hand history per
hand, ``hand-0001.toml``, ``hand-0002.toml``, ...; see :func:`write_session`
and :func:`read_session`.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ramsli.cards import Card, CardError, make_deck
from ramsli.errors import IllegalActionError, RamsliError, SessionError, TableError
from ramsli.fairness import DealProof, ProofError
from ramsli.hand import MAX_SEATS, Action, Hand, check_table, parse_seat, seat_name
from ramsli.refusal import Refusal
from ramsli.rules import OPTIONS, Rules, RulesError
from ramsli.session import EndReason, Session, check_names, check_players, forbidden_name_char
from ramsli.settlement import Settlement
from ramsli.toml_text import key_value as _kv
from ramsli.toml_text import quote as _q
from ramsli.toml_text import value as _val

__all__ = [
    "FORMAT",
    "FORMAT_CHECKED",
    "SESSION_FORMAT",
    "UNKNOWN",
    "HistoryError",
    "ReplayError",
    "HandHistory",
    "SessionHistory",
    "settlement_record",
    "write_session",
    "read_session",
    "hand_files",
    "read_hand_files",
    "session_histories",
]

#: The format version written to every hand history without commitments.
FORMAT = "ramsli-hh/1"
#: The format version of a hand history with a ``[fairness]`` table (``ramsli-hh/1`` plus the
#: deal's commitments and the reader's openings; ``docs/fairness.md``).
FORMAT_CHECKED = "ramsli-hh/2"
#: The format version of a session directory's ``session.toml``.
SESSION_FORMAT = "ramsli-session/1"
#: How an unknown card is written (R7, D-16: a folded hand is never shown).
UNKNOWN = "??"

_TOP_KEYS = (
    "format",
    "hand",
    "seats",
    "seated",
    "dealer",
    "stacks",
    "pot",
    "rules",
    "deal",
    "play",
    "settlement",
    "fairness",
)
_SETTLEMENT_KEYS = (
    "kind",
    "pot",
    "winners",
    "share",
    "carry_over",
    "bete",
    "general_rams",
    "general_rams_made",
    "targets",
    "tricks",
    "won",
    "paid",
    "shortfall",
    "stacks_after",
    "payments",
)


class HistoryError(RamsliError, ValueError):
    """A hand history (or session directory) that cannot be read: malformed TOML, a
    missing or bad field, an unknown card, a card dealt twice (R1), a bad rule option
    (R8), or a recorded settlement that the replay does not reproduce (R5).

    Attributes:
        line: the 1-based line of the offending key or action in the text, or None.
        reason: what is wrong and what is allowed (English).
        path: the file, when known (set by :func:`read_session` and the CLI).
        refusal: the record of the reason (:mod:`ramsli.refusal`, codes of :data:`ramsli.refusal.HISTORY`
            and the engine's), so that a front end says it in the reader's language; None for a reason
            that has no code yet (then only ``reason`` says it).
        key: the history's key the refusal is about (``"p4"``, ``"turn_up"``, ``"ante"``), or None.
        index: the 0-based element of ``key``'s array (the card of a seat), or None.
    """

    def __init__(
        self,
        reason: str,
        line: int | None = None,
        path: str | None = None,
        *,
        refusal: Refusal | None = None,
        key: str | None = None,
        index: int | None = None,
    ) -> None:
        self.reason = reason
        self.line = line
        self.path = path
        self.refusal = refusal
        self.key = key
        self.index = index
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return where + self.reason

    def with_path(self, path: str | Path) -> HistoryError:
        """The same error with ``path`` set (for messages like ``hand.toml:12: ...``)."""
        return HistoryError(self.reason, self.line, str(path), refusal=self.refusal, key=self.key, index=self.index)


class ReplayError(IllegalActionError):
    """An action of a hand history that the rules do not allow at that point (R4.12).

    The message is one line: ``action 7 'p3 pl 9H': must follow suit: play ♠ (R4.10)``.

    Args:
        position: the action's 1-based position in ``actions``.
        action: the action's text.
        refusal: why (:meth:`Hand.why_illegal <ramsli.hand.Hand.why_illegal>`'s record).
        line: the 1-based line of the action in the text, or None.
        path: the hand file, when known (set by :func:`read_session`).

    Attributes:
        position, action, refusal, line, path: as given; reason (str): the English text of the
        refusal; rule (str): its rule id, e.g. ``"R4.10"``.
    """

    def __init__(
        self, position: int, action: str, refusal: Refusal, line: int | None = None, path: str | None = None
    ) -> None:
        super().__init__(action, refusal)
        self.position = position
        self.line = line
        self.path = path
        self.args = (f"action {position} '{action}': {self.reason} ({self.rule})",)

    def __str__(self) -> str:
        return str(self.args[0])


# TOML is written by ramsli.toml_text (the project's one TOML writer; _q, _val, _kv above).


# -- line numbers: a scan of the text for keys and array elements ----------------------------

_TABLE_RE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY_RE = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*(?:\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*)*=""")


class _Lines:
    """Where keys and array elements are in a TOML text (1-based lines).

    ``key(table, name)`` gives the line of ``name = ...`` in ``[table]`` (``""``: top
    level; name ``""``: the table header); ``elem(table, name, i)`` the line of the
    i-th element of an array value (falls back to the key's line).
    """

    def __init__(self, text: str) -> None:
        self.keys: dict[tuple[str, str], int] = {}
        self.elems: dict[tuple[str, str], list[int]] = {}
        table = ""
        depth = 0
        key: tuple[str, str] | None = None
        for lineno, raw in enumerate(text.splitlines(), 1):
            pos = 0
            if depth <= 0:
                depth = 0
                m = _TABLE_RE.match(raw)
                if m and not _KEY_RE.match(raw):
                    table = m.group(1).strip().strip("\"'")
                    self.keys.setdefault((table, ""), lineno)
                    continue
                m = _KEY_RE.match(raw)
                if not m:
                    continue
                key = (table, m.group(1).strip("\"'"))
                self.keys.setdefault(key, lineno)
                self.elems.setdefault(key, [])
                pos = m.end()
            j = pos
            n = len(raw)
            while j < n:
                ch = raw[j]
                if ch == "#":
                    break
                if ch in "\"'":
                    if depth == 1 and key is not None:
                        self.elems[key].append(lineno)
                    k = j + 1
                    while k < n and raw[k] != ch:
                        k += 2 if (ch == '"' and raw[k] == "\\") else 1
                    j = k + 1
                    continue
                if ch in "[{":
                    if depth == 1 and ch == "{" and key is not None:
                        self.elems[key].append(lineno)
                    depth += 1
                elif ch in "]}":
                    depth -= 1
                elif (
                    depth == 1
                    and key is not None
                    and not ch.isspace()
                    and ch != ","
                    and (j == 0 or raw[j - 1] in " ,[\t")
                ):
                    self.elems[key].append(lineno)  # a bare value (number, true/false) in an array
                j += 1

    def key(self, table: str, name: str) -> int | None:
        line = self.keys.get((table, name))
        if line is None and name and not table:
            line = self.keys.get((name, ""))  # a top-level key written as a [name] table
        if line is None and name:
            return self.keys.get((table, ""))
        return line

    def elem(self, table: str, name: str, i: int) -> int | None:
        lines = self.elems.get((table, name), [])
        if 0 <= i < len(lines):
            return lines[i]
        return self.key(table, name)


# -- the settlement as recorded ------------------------------------------------------------------


def _seat_or_pot(s: int | None) -> str:
    return "pot" if s is None else seat_name(s)


def settlement_record(settlement: Settlement) -> dict[str, Any]:
    """The ``[settlement]`` table of a hand history: plain TOML-ready values (R5).

    Keys, in the order written: ``kind``, ``pot``, ``winners`` (seat ids), ``share``,
    ``carry_over``, ``bete`` (seat ids), ``general_rams`` and ``general_rams_made``
    (only when announced), ``targets`` (``{seat, target, met}``), then per seat slot
    ``tricks``, ``won``, ``paid``, ``shortfall`` (counters, D-6) and ``stacks_after``,
    and ``payments`` (``{step, from, to, owed, paid, reason}``, R5.9; ``"pot"`` for the pot).
    """
    s = settlement
    n = len(s.tricks)
    short = s.shortfalls()
    rec: dict[str, Any] = {
        "kind": str(s.kind),  # plain text, not the SettlementKind
        "pot": s.pot,
        "winners": [seat_name(w) for w in s.winners],
        "share": s.share,
        "carry_over": s.carry_over,
        "bete": [seat_name(b) for b in s.bete],
    }
    if s.general_rams is not None:
        rec["general_rams"] = seat_name(s.general_rams)
        rec["general_rams_made"] = bool(s.general_rams_made)
    rec["targets"] = [{"seat": seat_name(t[0]), "target": t[1], "met": t[2]} for t in s.targets]
    rec["tricks"] = list(s.tricks)
    rec["won"] = [s.won(i) for i in range(n)]
    rec["paid"] = [s.paid(i) for i in range(n)]
    rec["shortfall"] = [short.get(i, 0) for i in range(n)]
    rec["stacks_after"] = list(s.stacks_after)
    rec["payments"] = [
        {
            "step": p.step,
            "from": _seat_or_pot(p.payer),
            "to": _seat_or_pot(p.payee),
            "owed": p.owed,
            "paid": p.paid,
            "reason": str(p.reason),
        }
        for p in s.payments
    ]
    return rec


def _strict_eq(a: Any, b: Any) -> bool:
    """Equality that does not confuse ``true`` with ``1``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict_eq(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_eq(x, y) for x, y in zip(a, b))
    return bool(a == b)


# -- shared checks: text read from a file, TOML errors, names, rules ------------------------------

#: The characters a name must not hold (R2.2), escaped by ``ramsli replay`` in what it
#: prints: the engine's own test (:func:`ramsli.session.forbidden_name_char`).
_control_char = forbidden_name_char


def _decode(raw: bytes) -> str:
    """UTF-8 text of a history file; a leading byte order mark is dropped.

    Raises:
        HistoryError: for bytes that are not UTF-8, with the line of the first bad byte.
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise HistoryError(
            "the file holds NUL bytes: it is a binary file, not a hand history (UTF-8 TOML text)",
            raw.count(b"\n", 0, nul) + 1,
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise HistoryError(
            f"column {col}: byte 0x{raw[e.start]:02X} is not UTF-8 ({e.reason}); a history is "
            "UTF-8 text (save it as UTF-8, not Latin-1 or a binary file)",
            line,
        ) from None


#: How deeply arrays and inline tables may nest in a history (the format needs 3 levels:
#: ``payments = [{ ... }]`` in ``[settlement]``, ``cut = [["p1 AS"]]`` in ``session.toml``).
MAX_NESTING = 16
_TOO_DEEP = (
    "not valid TOML (nested too deeply): arrays or inline tables inside each other more than "
    f"{MAX_NESTING} levels deep; a hand history nests at most 3 levels (e.g. payments = [{{ ... }}])"
)


def _nesting_line(text: str) -> int:
    """The 1-based line where brackets outside strings first open more than :data:`MAX_NESTING` deep
    (an estimate used only for the error message; 1 if not found)."""
    depth, line, quote, i, n = 0, 1, "", 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return 1


def _too_deep(value: Any) -> bool:
    """Whether arrays / tables in ``value`` nest more than :data:`MAX_NESTING` levels (iterative: no recursion)."""
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        items: Iterable[Any]
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if d > MAX_NESTING:
            return True
        stack.extend((x, d + 1) for x in items if isinstance(x, (dict, list)))
    return False


def _loads(text: str) -> dict[str, Any]:
    """``tomllib.loads`` whose error always names a line (the last line for a file cut short).

    Arrays and inline tables nested more than :data:`MAX_NESTING` levels deep are refused
    (the parser would otherwise run out of stack: a RecursionError), as is a text the
    parser runs out of memory on.

    Raises:
        HistoryError: ``not valid TOML: ...`` with the line.
    """
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise HistoryError(_TOO_DEEP, _nesting_line(text)) from None
    except MemoryError:
        raise HistoryError(
            "not valid TOML (too large to read: out of memory); a hand history is a few kB", None
        ) from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        if m:
            raise HistoryError(
                f"not valid TOML: {e}", int(m.group(1)), refusal=Refusal("hh_not_toml", None, {"error": str(e)})
            ) from None
        last = max(1, len(text.splitlines()))
        raise HistoryError(
            f"not valid TOML: {e}: the text ends in the middle of a value or table (is the file cut short?)", last
        ) from None
    except ValueError:  # not a TOMLDecodeError: an integer of more than 4300 digits
        raise HistoryError(
            "not valid TOML: it holds a number of more than 4300 digits; the numbers of a hand "
            "history are counters and hand numbers",
            None,
        ) from None
    # data nested [[[...]]] ([dict]s: one level per dotted table too) is refused before any check walks it
    if _too_deep(data):
        raise HistoryError(_TOO_DEEP, _nesting_line(text))
    return data


#: Where each input the engine checks (``TableError.field``) is written in a history:
#: ``(table, key, prefix of the message)``. The engine calls the names ``names``, a
#: history ``seats``; the other messages already say what they are about.
_TABLE_KEYS = {
    "names": ("", "seats", "seats: "),
    "players": ("rules", "players", ""),
    "ante": ("rules", "ante", ""),
    "stacks": ("", "stacks", ""),
    "pot": ("", "pot", ""),
    "dealer": ("", "dealer", ""),
    "seated": ("", "seated", ""),
}


def _table_fault(e: TableError, L: _Lines, path: str | None = None) -> HistoryError:
    """The engine's refusal of a table as a HistoryError: its message, at the line of the
    input it names (``field``), of the element (``index``) when the input is an array."""
    table, key, prefix = _TABLE_KEYS.get(e.field, ("", "", ""))
    if e.index is not None:
        line = L.elem(table, key, e.index)
    else:
        line = L.key(table, key) if key else None
    return HistoryError(prefix + str(e), line, path, refusal=e.refusal, key=key if prefix else None)


def _check_seats(names: Any, L: _Lines, path: str | None = None) -> None:
    """The ``seats`` of a history: a list of names, checked by the engine (R2.1, R2.2).

    Raises:
        HistoryError: at the line of ``seats`` (or of the bad name).
    """
    if not isinstance(names, list):
        raise HistoryError(
            f'seats must be a list of 2..{MAX_SEATS} names, like ["Anna", "Bruno"] (R2.1)', L.key("", "seats"), path
        )
    try:
        check_names(names)
    except TableError as e:
        raise _table_fault(e, L, path) from None


def _check_rules(rtab: Any, err: Any) -> Rules:
    """The ``[rules]`` table (R8): every option present (``players`` optional), each value
    valid on its own, ``end`` a list (not a bare string) of session ends written as the
    engine writes them, each kind at most once (R3.6).

    ``err(reason, key[, refusal])`` builds the HistoryError (key ``""``: the ``[rules]`` line).
    """
    if not isinstance(rtab, dict):
        raise err("rules must be a table [rules] of options (R8)", "")
    for k, v in rtab.items():
        if k not in OPTIONS:
            raise err(
                f"unknown option {k!r} (R8); allowed are {', '.join(OPTIONS)}",
                k,
                Refusal("unknown_option", "R8", {"option": k, "allowed": ", ".join(OPTIONS)}),
            )
        if k == "end" and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            raise err(
                f"option 'end': {v!r} is not a list of session ends; write a list like "
                'end = ["hands:10"] or end = [] (R3.6)',
                k,
            )
        try:
            Rules.from_dict({k: v})
        except (RulesError, TypeError) as e:
            raise err(str(e), k, e.refusal if isinstance(e, RulesError) else None) from None
    missing = [k for k in OPTIONS if k != "players" and k not in rtab]
    if missing:
        raise err(
            f"[rules] misses option{'s' if len(missing) > 1 else ''} {', '.join(missing)}: a history lists "
            "every option of R8 (as `ramsli rules --toml` prints them; only players may be left out), so "
            "no default is filled in",
            "",
        )
    try:
        rules = Rules.from_dict(rtab)
    except (RulesError, TypeError) as e:  # pragma: no cover - every option was checked alone
        raise err(str(e), "") from None
    for text, cond in zip(rtab["end"], rules.end):  # (two ends of one kind: refused by Rules, R3.6)
        if str(cond) != text:
            raise err(
                f"option 'end': {text!r} is not written as the engine writes it; write {str(cond)!r} (R3.6)", "end"
            )
    return rules


def _rules_diff(mine: Rules, theirs: Rules) -> list[tuple[str, Any, Any]]:
    """``(option, mine, theirs)`` for every option whose value differs."""
    a, b = mine.to_dict(), theirs.to_dict()
    return [(k, a.get(k), b.get(k)) for k in OPTIONS if a.get(k) != b.get(k)]


# -- the hand history ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandHistory:
    """One hand as recorded (format ``ramsli-hh/1``; ``ramsli-hh/2`` with :attr:`fairness`).

    Attributes:
        rules: the rules in force (R8).
        names: one name per seat slot (p1 first).
        stacks: counters per seat slot before the ante (R4.1).
        pot: the carry-in pot before the ante, counters (R5.4).
        dealer: the dealer's seat (0-based).
        seated: seats taking part in the hand (others left as bust, R3.5).
        cut: the cut point (R4.2), or None when not recorded.
        cards: per seat slot the five dealt cards (``None`` = unknown card ``??``);
            empty for a seat not seated.
        turn_up: the turn-up (R4.4).
        turned_aside: jokers turned aside before the turn-up (D-9).
        actions: every action in the order made (R4.5–R4.10).
        settlement: the recorded ``[settlement]`` table (see :func:`settlement_record`),
            or None for a hand that is not finished.
        hand_number: the 1-based number of the hand in its session, or None.
        fairness: the deal's commitments and the reader's openings (the ``[fairness]`` table,
            :class:`~ramsli.fairness.DealProof`; ``docs/fairness.md``), or None.
    """

    rules: Rules
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    pot: int
    dealer: int
    seated: tuple[int, ...]
    cut: int | None
    cards: tuple[tuple[Card | None, ...], ...]
    turn_up: Card
    turned_aside: tuple[Card, ...]
    actions: tuple[Action, ...]
    settlement: dict[str, Any] | None
    hand_number: int | None = None
    fairness: DealProof | None = None
    _source: str | None = field(default=None, compare=False, repr=False)

    # -- building --------------------------------------------------------------------

    @classmethod
    def from_hand(
        cls, hand: Hand, names: Sequence[str], hand_number: int | None = None, hide_folded: bool = False
    ) -> HandHistory:
        """The history of a hand (finished or not) as the engine played it.

        Args:
            hand: the hand; its ``dealt`` cards and ``history`` are recorded.
            names: one name per seat slot.
            hand_number: the hand's 1-based number in its session, if any.
            hide_folded: write ``??`` for the cards of every seat that played no card
                (folded seats, and the seats of a walkover or thrown-in hand), as a log
                shown to a player must (R7, D-16). Default: record every card.

        Raises:
            ValueError: if ``names`` does not have one name per seat slot.
        """
        if len(names) != hand.n_seats:
            raise ValueError(f"{len(names)} names given for {hand.n_seats} seat slots")
        played = {a.seat for a in hand.history if a.kind == "pl"}
        cards: list[tuple[Card | None, ...]] = []
        for s, dealt in enumerate(hand.dealt):
            if hide_folded and dealt and s not in played:
                cards.append(tuple(None for _ in dealt))
            else:
                cards.append(tuple(dealt))
        return cls(
            rules=hand.rules,
            names=tuple(names),
            stacks=tuple(hand.start_stacks),
            pot=hand.carry_in,
            dealer=hand.dealer,
            seated=tuple(hand.seated),
            cut=hand.cut,
            cards=tuple(cards),
            turn_up=hand.turn_up,
            turned_aside=tuple(hand.turned_aside),
            actions=tuple(hand.history),
            settlement=settlement_record(hand.settlement) if hand.settlement is not None else None,
            hand_number=hand_number,
        )

    # -- writing -----------------------------------------------------------------------

    def to_toml(self) -> str:
        """The history as TOML text (canonical layout; ``from_toml(t).to_toml() == t``)."""
        fmt = FORMAT if self.fairness is None else FORMAT_CHECKED
        out: list[str] = [f"# Ramsli hand history ({fmt}); see docs/hand-history.md", f"format = {_q(fmt)}"]
        if self.hand_number is not None:
            out += _kv("hand", self.hand_number)
        out += _kv("seats", list(self.names))
        out += _kv("seated", [seat_name(s) for s in self.seated])
        out += _kv("dealer", seat_name(self.dealer))
        out += _kv("stacks", list(self.stacks))
        out += _kv("pot", self.pot)
        out += ["", "[rules]"]
        for k, v in self.rules.to_dict().items():
            out += _kv(k, v)
        out += ["", "[deal]"]
        if self.cut is not None:
            out += _kv("cut", self.cut)
        for s in self.seated:
            out += _kv(seat_name(s), [UNKNOWN if c is None else str(c) for c in self.cards[s]])
        out += _kv("turn_up", str(self.turn_up))
        out += _kv("turned_aside", [str(c) for c in self.turned_aside])
        out += ["", "[play]"]
        out += _kv("actions", [str(a) for a in self.actions], multiline=True)
        if self.settlement is not None:
            out += ["", "[settlement]"]
            for k in _SETTLEMENT_KEYS:
                if k in self.settlement:
                    out += _kv(k, self.settlement[k], multiline=k in ("payments", "targets"))
        if self.fairness is not None:
            out += ["", "[fairness]"]
            for k, v in self.fairness.to_data().items():
                out += _kv(k, v, multiline=k in ("commitments", "openings"))
        return "\n".join(out) + "\n"

    def to_data(self) -> dict[str, Any]:
        """The history as plain data: the keys and tables of :meth:`to_toml` in the same order, with the
        same values (``tomllib.loads(hh.to_toml()) == hh.to_data()``); JSON-ready.

        >>> import random
        >>> from ramsli import Hand, Rules
        >>> hand = Hand.new(Rules(), stacks=[20] * 3, dealer=0, rng=random.Random(3))
        >>> while not hand.is_over:
        ...     hand.apply(hand.legal_actions()[0])
        >>> data = HandHistory.from_hand(hand, ["Ann", "Bo", "Cy"]).to_data()
        >>> list(data)
        ['format', 'seats', 'seated', 'dealer', 'stacks', 'pot', 'rules', 'deal', 'play', 'settlement']
        >>> HandHistory.from_data(data).replay().settlement == hand.settlement
        True
        """
        out: dict[str, Any] = {"format": FORMAT if self.fairness is None else FORMAT_CHECKED}
        if self.hand_number is not None:
            out["hand"] = self.hand_number
        out["seats"] = list(self.names)
        out["seated"] = [seat_name(s) for s in self.seated]
        out["dealer"] = seat_name(self.dealer)
        out["stacks"] = list(self.stacks)
        out["pot"] = self.pot
        out["rules"] = dict(self.rules.to_dict())
        deal: dict[str, Any] = {}
        if self.cut is not None:
            deal["cut"] = self.cut
        for s in self.seated:
            deal[seat_name(s)] = [UNKNOWN if c is None else str(c) for c in self.cards[s]]
        deal["turn_up"] = str(self.turn_up)
        deal["turned_aside"] = [str(c) for c in self.turned_aside]
        out["deal"] = deal
        out["play"] = {"actions": [str(a) for a in self.actions]}
        if self.settlement is not None:
            out["settlement"] = {k: copy.deepcopy(self.settlement[k]) for k in _SETTLEMENT_KEYS if k in self.settlement}
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_data()
        return out

    def to_json(self) -> str:
        """:meth:`to_data` as one line of JSON (UTF-8 text, no spaces, keys in the order of the TOML form):
        a line of a JSON-lines file. ``from_json(hh.to_json()) == hh``."""
        return json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> HandHistory:
        """A history from one JSON object (:meth:`to_json`), checked as :meth:`from_data` checks it.

        Raises:
            HistoryError: for text that is not JSON, or for anything :meth:`from_data` refuses.
        """
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise HistoryError(f"not JSON: {e}") from None
        return cls.from_data(data)

    # -- reading -----------------------------------------------------------------------

    @classmethod
    def from_toml(cls, text: str) -> HandHistory:
        """Parse a hand history and check its structure (not yet the actions' legality).

        Checked here: TOML syntax; the format version; known keys only; the table by the
        engine's own checks (names: :func:`ramsli.session.check_names`; seated, dealer,
        stacks, pot: :func:`ramsli.hand.check_table`; the ``players`` option); every rule option (R8); every card is a card (R1.6), is in
        the rules' deck (R1) and is dealt only once; five cards per seated seat (R4.3);
        the turn-up is suited and jokers only are turned aside (D-9); every action parses
        and names a seat of the table; no seat written with unknown cards ``??`` plays a card.

        Raises:
            HistoryError: with the line of the offending key or action and the reason.
        """
        if text.startswith("\ufeff"):
            text = text[1:]  # a byte order mark (some editors write one) is not part of the TOML
        return cls._from_data(_loads(text), _Lines(text), text)

    @classmethod
    def from_data(cls, data: Any) -> HandHistory:
        """A history from plain data: the keys and tables of its TOML form (as :meth:`to_data` gives them,
        e.g. one line of a JSON-lines dataset read with ``json.loads``), with every check of
        :meth:`from_toml`. Errors carry no line (``line`` is None).

        Raises:
            HistoryError: if ``data`` is not a mapping, or for anything :meth:`from_toml` refuses.
        """
        if not isinstance(data, dict):
            raise HistoryError(f"a hand history is an object of keys, not {type(data).__name__}")
        return cls._from_data(data, _Lines(""), "")

    @classmethod
    def _from_data(cls, data: dict[str, Any], L: _Lines, text: str) -> HandHistory:
        """:meth:`from_toml` after parsing: ``L`` finds the lines of ``text`` (empty for data without text)."""

        def err(
            reason: str, table: str = "", key: str = "", index: int | None = None, refusal: Refusal | None = None
        ) -> HistoryError:
            line = L.elem(table, key, index) if index is not None else L.key(table, key)
            return HistoryError(reason, line, refusal=refusal, key=key if table == "deal" else None, index=index)

        for k in data:
            if k not in _TOP_KEYS:
                raise err(
                    f"unknown key {k!r}; allowed are {', '.join(_TOP_KEYS)}",
                    "",
                    k,
                    refusal=Refusal("hh_unknown_key", None, {"given": k, "allowed": ", ".join(_TOP_KEYS)}),
                )
        needed = ("format", "seats", "dealer", "stacks", "pot", "rules", "deal", "play")
        for k in needed:
            if k not in data:
                raise HistoryError(
                    f"missing key {k!r} (a hand history needs format, seats, dealer, stacks, pot, "
                    "[rules], [deal], [play])",
                    1 if text else None,
                    refusal=Refusal("hh_missing_key", None, {"given": k, "allowed": ", ".join(needed)}),
                )
        if data["format"] not in (FORMAT, FORMAT_CHECKED):
            raise err(
                f"format {data['format']!r} is not supported; this reader reads {FORMAT!r} and {FORMAT_CHECKED!r}",
                "",
                "format",
            )
        if data["format"] == FORMAT and "fairness" in data:
            raise err(f"[fairness] needs format = {FORMAT_CHECKED!r}", "", "format")
        if data["format"] == FORMAT_CHECKED and "fairness" not in data:
            raise err(f"format {FORMAT_CHECKED!r} needs a [fairness] table (docs/fairness.md)", "", "format")
        hand_number = data.get("hand")
        if hand_number is not None and (type(hand_number) is not int or hand_number < 1):
            raise err(f"hand {hand_number!r}: the hand number must be a whole number >= 1", "", "hand")

        names = data["seats"]
        _check_seats(names, L)  # R2.1, R2.2: the engine's check
        n = len(names)

        def seat(v: Any, key: str, table: str = "", index: int | None = None) -> int:
            if not isinstance(v, str):
                raise err(f"{key}: {v!r} is not a seat; seats are p1..p{n} (R2.2)", table, key, index)
            try:
                return parse_seat(v, n)
            except ValueError as e:
                raise err(f"{key}: {e}", table, key, index) from None

        if "seated" in data:
            if not isinstance(data["seated"], list):
                raise err('seated must be a list of seats like ["p1", "p2"]', "", "seated")
            seated = tuple(sorted(seat(v, "seated", "", i) for i, v in enumerate(data["seated"])))
        else:
            seated = tuple(range(n))
        dealer = seat(data["dealer"], "dealer")
        stacks = data["stacks"]
        if not isinstance(stacks, list) or len(stacks) != n:
            raise err(f"stacks must be {n} whole numbers >= 0, one per seat (R3.3)", "", "stacks")
        pot = data["pot"]

        # rules (R8): every option checked on its own, so the error names its line
        rules = _check_rules(data["rules"], lambda reason, k, refusal=None: err(reason, "rules", k, refusal=refusal))
        try:  # the table as the engine checks it (R2.1, R3.2, R3.3, R3.5, R5.4)
            check_players(rules, n)
            check_table(rules, stacks, dealer, seated, pot)
        except TableError as e:
            raise _table_fault(e, L) from None

        # the deal (R4.2-R4.4)
        deal = data["deal"]
        if not isinstance(deal, dict):
            raise err("deal must be a table [deal]", "", "deal")
        deck = make_deck(rules.deck, rules.jokers)
        deck_set = set(deck)
        deck_name = f"the {rules.deck} deck{' with jokers' if rules.jokers else ''}"
        allowed = {"cut", "turn_up", "turned_aside"} | {seat_name(s) for s in seated}
        for k in deal:
            if k not in allowed:
                why = (
                    f"{k} is not seated in this hand (R3.5)"
                    if k in {seat_name(s) for s in range(n)}
                    else f"unknown key {k!r} in [deal]; allowed are cut, turn_up, turned_aside and "
                    f"{', '.join(seat_name(s) for s in seated)}"
                )
                raise err(why, "deal", k)
        cut = deal.get("cut")
        if cut is not None and (type(cut) is not int or not 1 <= cut <= len(deck) - 1):
            raise err(
                f"cut {cut!r} must leave at least one card in each packet: 1..{len(deck) - 1} (R4.2)", "deal", "cut"
            )
        seen: dict[Card, str] = {}
        seen_at: dict[Card, tuple[str, int | None]] = {}

        def card(v: Any, key: str, index: int | None, unknown_ok: bool) -> Card | None:
            where = f"{key} card {index + 1}" if index is not None else key
            if unknown_ok and v == UNKNOWN:
                return None
            if not isinstance(v, str):
                raise err(f"{where}: {v!r} is not a card (R1.6)", "deal", key, index)
            try:
                c = Card.parse(v)
            except CardError as e:
                raise err(f"{where}: {e}", "deal", key, index, e.refusal) from None
            if c not in deck_set:
                raise err(
                    f"{where}: {c} is not in {deck_name} (R1)",
                    "deal",
                    key,
                    index,
                    Refusal("hh_not_in_deck", "R1", {"card": str(c), "deck": rules.deck}),
                )
            if c in seen:
                other_key, other_index = seen_at[c]
                raise err(
                    f"{where}: card {c} is dealt twice (also {seen[c]}) (R1)",
                    "deal",
                    key,
                    index,
                    Refusal("hh_card_twice_key", "R1", {"card": str(c), "other": other_key})
                    if other_index is None
                    else Refusal(
                        "hh_card_twice", "R1", {"card": str(c), "other": other_key, "number": other_index + 1}
                    ),
                )
            seen[c] = where
            seen_at[c] = (key, index)
            return c

        def known_card(v: Any, key: str, index: int | None) -> Card:
            c = card(v, key, index, False)
            assert c is not None  # card() gives None only where an unknown card is allowed
            return c

        cards: list[tuple[Card | None, ...]] = [() for _ in range(n)]
        for s in seated:
            key = seat_name(s)
            if key not in deal:
                raise err(f"missing {key} = [five cards] in [deal] (R4.3)", "deal", "")
            v = deal[key]
            if not isinstance(v, list) or len(v) != 5:
                raise err(f'{key} must be dealt 5 cards, like ["AS", "KS", "??", "??", "??"] (R4.3)', "deal", key)
            cards[s] = tuple(card(x, key, i, True) for i, x in enumerate(v))
        if "turn_up" not in deal:
            raise err("missing turn_up in [deal] (R4.4)", "deal", "")
        turn_up = known_card(deal["turn_up"], "turn_up", None)
        if turn_up.is_joker:
            raise err("the turn-up must be a suited card; jokers are turned aside (R4.4, D-9)", "deal", "turn_up")
        aside_raw = deal.get("turned_aside", [])
        if not isinstance(aside_raw, list):
            raise err('turned_aside must be a list of jokers, like ["X1"] (D-9)', "deal", "turned_aside")
        aside = tuple(known_card(x, "turned_aside", i) for i, x in enumerate(aside_raw))
        for i, c in enumerate(aside):
            if not c.is_joker:
                raise err(
                    f"turned_aside card {i + 1}: only jokers are turned aside before the turn-up (D-9)",
                    "deal",
                    "turned_aside",
                    i,
                )

        # the actions
        play = data["play"]
        if not isinstance(play, dict) or set(play) - {"actions"}:
            raise err('[play] holds one key, actions = ["p2 in", ...]', "play", "")
        raw_actions = play.get("actions", [])
        if not isinstance(raw_actions, list):
            raise err('actions must be a list of action strings like "p2 pl AS"', "play", "actions")
        actions = []
        for i, a in enumerate(raw_actions):
            if not isinstance(a, str):
                raise err(f"action {i + 1}: {a!r} is not an action string", "play", "actions", i)
            try:
                act = Action.parse(a, n)
            except ValueError as e:
                raise err(f"action {i + 1}: {e}", "play", "actions", i) from None
            if str(act) != a:  # write -> read -> write is byte-identical: one spelling per action
                raise err(
                    f"action {i + 1}: {a!r} is not written as the engine writes it; write {str(act)!r} "
                    "(lower-case seat and verb, single spaces, cards as rank AKQJT98765432 then suit "
                    "SHDC, jokers X1 X2: R1.6)",
                    "play",
                    "actions",
                    i,
                )
            if act.kind == "pl" and None in cards[act.seat]:
                raise err(
                    f"action {i + 1} '{act}': the cards of {seat_name(act.seat)} are written as unknown "
                    f"({UNKNOWN}) at line {L.key('deal', seat_name(act.seat))}, but a seat that plays "
                    "must have all five cards recorded (R7)",
                    "play",
                    "actions",
                    i,
                    refusal=Refusal(
                        "hh_play_unknown",
                        "R7",
                        {
                            "number": i + 1,
                            "action": str(act),
                            "seat": act.seat,
                            "line": L.key("deal", seat_name(act.seat)),
                        },
                    ),
                )
            actions.append(act)

        # the recorded settlement (checked against the replay by replay())
        settlement = data.get("settlement")
        if settlement is not None:
            if not isinstance(settlement, dict):
                raise err("settlement must be a table [settlement]", "", "settlement")
            for k in settlement:
                if k not in _SETTLEMENT_KEYS:
                    raise err(
                        f"unknown key {k!r} in [settlement]; allowed are {', '.join(_SETTLEMENT_KEYS)}", "settlement", k
                    )

        # the deal's commitments and the reader's openings (docs/fairness.md)
        fairness = None
        if "fairness" in data:
            try:
                fairness = DealProof.from_data(data["fairness"], deck, n)
            except ProofError as e:
                line = L.key("fairness", "")
                if e.refusal.code in ("fair_bad_opening", "fair_position_twice") and "index" in e.refusal:
                    line = L.elem("fairness", "openings", int(e.refusal["index"]) - 1)
                elif e.refusal.code == "fair_bad_commitment":
                    line = L.elem("fairness", "commitments", int(e.refusal["position"]))
                raise HistoryError(f"[fairness]: {e}", line) from None
            if fairness.seat is not None and fairness.seat not in seated:
                raise err(f"[fairness]: the reader {seat_name(fairness.seat)} is not seated (R3.5)", "fairness", "seat")

        return cls(
            rules=rules,
            names=tuple(names),
            stacks=tuple(stacks),
            pot=pot,
            dealer=dealer,
            seated=seated,
            cut=cut,
            cards=tuple(cards),
            turn_up=turn_up,
            turned_aside=tuple(aside),
            actions=tuple(actions),
            settlement=settlement,
            hand_number=hand_number,
            fairness=fairness,
            _source=text,
        )

    @classmethod
    def read(cls, path: str | Path) -> HandHistory:
        """Read a hand history file (UTF-8).

        Raises:
            HistoryError: as :meth:`from_toml`, with ``path`` set; also for a missing or
                unreadable file.
        """
        p = Path(path)
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            raise HistoryError("no such file", None, str(p), refusal=Refusal("hh_no_file")) from None
        except OSError as e:
            raise HistoryError(
                f"cannot read the file: {e.strerror or e}",
                None,
                str(p),
                refusal=Refusal("hh_unreadable", None, {"error": str(e.strerror or e)}),
            ) from None
        try:
            return cls.from_toml(_decode(raw))
        except HistoryError as e:
            raise e.with_path(p) from None

    def write(self, path: str | Path) -> None:
        """Write :meth:`to_toml` to ``path`` (UTF-8, ``\\n`` line ends)."""
        Path(path).write_text(self.to_toml(), encoding="utf-8", newline="\n")

    # -- replaying ---------------------------------------------------------------------

    def _lines(self) -> _Lines:
        return _Lines(self._source if self._source is not None else self.to_toml())

    def start(self) -> Hand:
        """The hand as dealt, after the ante and before the first action (R4.1–R4.4).

        Raises:
            HistoryError: if the engine refuses the deal (the message names the rule).
        """
        hands = [list(c) for c in self.cards]
        try:
            return Hand.from_cards(
                self.rules,
                list(self.stacks),
                self.dealer,
                hands,
                self.turn_up,
                self.turned_aside,
                pot=self.pot,
                seated=self.seated,
                cut=self.cut,
            )
        except ValueError as e:
            raise HistoryError(f"the deal is refused: {e}", self._lines().key("deal", "")) from None

    def replay(self, upto: int | None = None) -> Hand:
        """Rebuild the hand and apply every action, re-validating each against the rules
        (R4.5–R4.12), then re-compute the settlement (R5) and compare it with the
        recorded one.

        Args:
            upto: apply only the first ``upto`` actions and skip the settlement check.

        Returns:
            the replayed :class:`~ramsli.hand.Hand` (over, unless the history is of an
            unfinished hand or ``upto`` is given).

        Raises:
            ReplayError: for an action the rules do not allow at that point (position,
                text, reason, rule id, line).
            HistoryError: if the hand is not over although a settlement is recorded, or
                the recorded settlement differs from the re-computed one (the line of the
                first differing key, both values).
        """
        hand = self.start()
        actions = self.actions if upto is None else self.actions[:upto]
        for i, action in enumerate(actions):
            try:
                hand.apply(action)
            except IllegalActionError as e:
                raise ReplayError(i + 1, str(action), e.refusal, self._lines().elem("play", "actions", i)) from None
        if upto is not None or self.settlement is None:
            return hand
        self._check_settlement(hand)
        return hand

    def _check_settlement(self, hand: Hand) -> None:
        """Compare the recorded ``[settlement]`` with the replayed hand's (R5).

        Raises:
            HistoryError: if the hand is not over, or a key is missing, extra or different.
        """
        L = self._lines()
        if not hand.is_over:
            who = seat_name(hand.to_act) if hand.to_act is not None else "nobody"
            raise HistoryError(
                f"a settlement is recorded, but the hand is not over after {len(self.actions)} "
                f"actions: {who} is to act ({hand.phase.value})",
                L.key("settlement", ""),
            )
        assert hand.settlement is not None and self.settlement is not None
        computed = settlement_record(hand.settlement)
        recorded = self.settlement
        for k in _SETTLEMENT_KEYS:
            if k not in recorded and k not in computed:
                continue
            if k not in recorded:
                raise HistoryError(
                    f"settlement: {k} is missing; the replay computes {k} = {_val(computed[k])} (R5)",
                    L.key("settlement", ""),
                )
            if k not in computed:
                raise HistoryError(
                    f"settlement: {k} is recorded, but the replay has no {k} (R5)", L.key("settlement", k)
                )
            if not _strict_eq(recorded[k], computed[k]):
                raise HistoryError(
                    f"settlement does not match the replay: recorded {k} = {_val(recorded[k])}, "
                    f"the replay computes {k} = {_val(computed[k])} (R5)",
                    L.key("settlement", k),
                    refusal=Refusal(
                        "hh_settlement", "R5", {"key": k, "recorded": _val(recorded[k]), "computed": _val(computed[k])}
                    ),
                )
        if hand.total() != sum(self.stacks) + self.pot:  # pragma: no cover - the engine conserves (R3.4)
            raise HistoryError("counters were created or destroyed (R3.4)")

    def seat_label(self, seat: int) -> str:
        """``"p2 Bo"``: seat id and name."""
        return f"{seat_name(seat)} {self.names[seat]}"


# -- sessions: a directory of hand histories -------------------------------------------------------


@dataclass(frozen=True)
class SessionHistory:
    """A whole session (R3) as a directory: ``session.toml`` plus one file per hand.

    Attributes:
        rules: the session's rules.
        names: one name per seat.
        starting_stacks: each seat's stack at the start (R3.3).
        seed: the session's random seed, or None.
        first_dealer: the first dealer (R3.1).
        cut_rounds: the high-card cut for the first dealer: per round ``(seat, card)`` draws (D-4).
        end_reason: why the session ended (``"bust"``, ``"players"``, ``"win-at"``, ``"hands"``,
            ``"time"``, ``"quit"``), or None if it had not ended when written.
        winners: the seats with the most counters at the end (R3.7), or () if not ended.
        stacks: stacks after the last hand written; pot: the pot left (R3.7, D-18).
        hands: the hand histories, in order.
        files: the hand files' names as listed in ``session.toml`` (``hand-0001.toml``, ...).
    """

    rules: Rules
    names: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    seed: int | None
    first_dealer: int
    cut_rounds: tuple[tuple[tuple[int, Card], ...], ...]
    end_reason: str | None
    winners: tuple[int, ...]
    stacks: tuple[int, ...]
    pot: int
    hands: tuple[HandHistory, ...]
    files: tuple[str, ...] = ()

    def to_toml(self) -> str:
        """The ``session.toml`` text (the hands are separate files)."""
        out = [f"# Ramsli session ({SESSION_FORMAT}); see docs/hand-history.md", f"format = {_q(SESSION_FORMAT)}"]
        out += _kv("seats", list(self.names))
        out += _kv("starting_stacks", list(self.starting_stacks))
        if self.seed is not None:
            out += _kv("seed", self.seed)
        out += _kv("first_dealer", seat_name(self.first_dealer))
        out += _kv("cut", [[f"{seat_name(s)} {c}" for s, c in r] for r in self.cut_rounds], multiline=True)
        out += _kv("hands", [_hand_file(i + 1) for i in range(len(self.hands))], multiline=True)
        if self.end_reason is not None:
            out += _kv("end_reason", self.end_reason)
        out += _kv("winners", [seat_name(s) for s in self.winners])
        out += _kv("stacks", list(self.stacks))
        out += _kv("pot", self.pot)
        out += ["", "[rules]"]
        for k, v in self.rules.to_dict().items():
            out += _kv(k, v)
        return "\n".join(out) + "\n"


def _hand_file(number: int) -> str:
    return f"hand-{number:04d}.toml"


def session_histories(session: Session, hide_folded: bool = False) -> list[HandHistory]:
    """The hand history of every finished hand of a session (:attr:`Session.results`), in order.

    Raises:
        ValueError: for a hand booked without its cards (:meth:`Session.record_hand`): it has no
            hand history.
    """
    out = []
    for e in session.results:
        if e.hand is None:
            raise ValueError(f"hand {e.number} was booked without its cards (record_hand): it has no hand history")
        out.append(HandHistory.from_hand(e.hand, session.names, e.number, hide_folded=hide_folded))
    return out


def write_session(directory: str | Path, session: Session, hide_folded: bool = False) -> list[Path]:
    """Write a session as a directory: ``session.toml`` and ``hand-0001.toml``, ... (one
    per finished hand of the ledger; a hand in progress is not written).

    Args:
        directory: created if missing; existing hand files of the same names are overwritten.
        session: the :class:`~ramsli.session.Session`.
        hide_folded: as :meth:`HandHistory.from_hand` (R7, D-16).

    Returns:
        the paths written, ``session.toml`` first.
    """
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    hands = session_histories(session, hide_folded)
    first_dealer = hands[0].dealer if hands else session.dealer
    sh = SessionHistory(
        rules=session.rules,
        names=tuple(session.names),
        starting_stacks=tuple([session.rules.starting_stack] * session.n_seats),
        seed=session.seed,
        first_dealer=first_dealer,
        cut_rounds=tuple(tuple(r) for r in session.cut_rounds),
        end_reason=session.end_reason,
        winners=tuple(session.winners()) if session.is_over else (),
        stacks=tuple(session.stacks),
        pot=session.pot,
        hands=tuple(hands),
        files=tuple(_hand_file(i + 1) for i in range(len(hands))),
    )
    paths = [d / "session.toml"]
    paths[0].write_text(sh.to_toml(), encoding="utf-8", newline="\n")
    for i, hh in enumerate(hands):
        p = d / _hand_file(i + 1)
        hh.write(p)
        paths.append(p)
    return paths


_SESSION_KEYS = (
    "format",
    "seats",
    "starting_stacks",
    "seed",
    "first_dealer",
    "cut",
    "hands",
    "end_reason",
    "winners",
    "stacks",
    "pot",
    "rules",
)
_END_REASONS: tuple[str, ...] = tuple(EndReason)
#: Ends a replay cannot re-derive (the clock, a player quitting): taken as written (R3.6).
_ENDS_AS_WRITTEN = (EndReason.TIME, EndReason.QUIT)


def read_session(directory: str | Path) -> SessionHistory:
    """Read a session directory written by :func:`write_session` and replay it through a
    real :class:`~ramsli.session.Session` (R3): each hand file must be the hand that
    session deals next, with the same seats and rules, the stacks and carry-over pot the
    previous hand left (R3.4, R5.4), the seats still at the table (R3.5) and the dealer
    (the first dealer, R3.1, then the deal passing to the left, R3.2); its actions are
    applied in the session (R4.12) and its recorded settlement compared with the replay's
    (R5). ``session.toml`` must hold the session's end: the stacks and pot after the last
    hand, the end reason the rules give (R3.5, R3.6; ``time`` and ``quit`` are taken as
    written), and the winners (R3.7). The first-dealer cut is read, not re-drawn.

    Raises:
        HistoryError: with the file and line of the first problem.
        ReplayError: for an action the rules do not allow, with the hand file (``path``) and line.
    """
    d = Path(directory)
    meta_path = d / "session.toml"
    try:
        raw = meta_path.read_bytes()
    except FileNotFoundError:
        raise HistoryError("no session.toml: not a session directory", None, str(d)) from None
    except OSError as e:
        raise HistoryError(f"cannot read the file: {e.strerror or e}", None, str(meta_path)) from None
    try:
        text = _decode(raw)
        data = _loads(text)
    except HistoryError as e:
        raise e.with_path(meta_path) from None
    L = _Lines(text)

    def err(reason: str, key: str = "", table: str = "") -> HistoryError:
        return HistoryError(reason, L.key(table, key) if key or table else None, str(meta_path))

    for k in data:
        if k not in _SESSION_KEYS:
            raise err(f"unknown key {k!r}; allowed are {', '.join(_SESSION_KEYS)}", k)
    for k in ("format", "seats", "starting_stacks", "first_dealer", "hands", "stacks", "pot", "rules"):
        if k not in data:
            raise HistoryError(f"missing key {k!r}", 1, str(meta_path))
    if data["format"] != SESSION_FORMAT:
        raise err(f"format {data['format']!r} is not supported; this reader reads {SESSION_FORMAT!r}", "format")
    names = data["seats"]
    _check_seats(names, L, str(meta_path))
    n = len(names)
    rules = _check_rules(data["rules"], lambda reason, k, refusal=None: err(reason, k, "rules"))

    def seat(v: Any, key: str) -> int:
        try:
            return parse_seat(v, n) if isinstance(v, str) else parse_seat(repr(v), n)
        except ValueError as e:
            raise err(f"{key}: {e}", key) from None

    def ints(key: str) -> tuple[int, ...]:
        v = data[key]
        if not isinstance(v, list) or len(v) != n or not all(type(x) is int and x >= 0 for x in v):
            raise err(f"{key} must be {n} whole numbers >= 0", key)
        return tuple(v)

    starting = ints("starting_stacks")
    stacks = ints("stacks")
    pot = data["pot"]
    if type(pot) is not int or pot < 0:
        raise err("pot must be a whole number >= 0", "pot")
    first_dealer = seat(data["first_dealer"], "first_dealer")
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise err("seed must be a whole number", "seed")
    rounds = []
    for r in data.get("cut", []):
        draws = []
        for x in r if isinstance(r, list) else [r]:
            parts = str(x).split()
            try:
                draws.append((parse_seat(parts[0], n), Card.parse(parts[1])))
            except (ValueError, IndexError):
                raise err(f'cut: {x!r} is not a draw like "p2 AS" (R3.1)', "cut") from None
        rounds.append(tuple(draws))
    end_reason = data.get("end_reason")
    if end_reason is not None and end_reason not in _END_REASONS:
        raise err(f"end_reason {end_reason!r}; allowed are {', '.join(_END_REASONS)}", "end_reason")
    winners = tuple(seat(w, "winners") for w in data.get("winners", []))
    files = data["hands"]
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise err("hands must be a list of file names", "hands")

    # the session is replayed by a real Session: its rotation (R3.2), bust (R3.5), carry-over
    # (R5.4) and ends (R3.6) say what each hand file must hold
    if starting != (rules.starting_stack,) * n:
        raise err(
            f"starting_stacks {list(starting)}: every seat starts with starting_stack = "
            f"{rules.starting_stack} counters (R3.3)",
            "starting_stacks",
        )
    try:
        check_players(rules, n)
        # the clock stands still: a recorded end by time (R3.6 time:M) is taken as written
        session = Session(rules, names, seed=seed, dealer=first_dealer, clock=lambda: 0.0)
    except TableError as e:
        raise _table_fault(e, L, str(meta_path)) from None
    hands: list[HandHistory] = []
    root = d.resolve()
    for i, f in enumerate(files):
        expect = _hand_file(i + 1)
        if f != expect:
            raise HistoryError(
                f"hands: entry {i + 1} is {f!r}; it must be {expect!r}: the hand files are plain "
                "names hand-0001.toml, hand-0002.toml, ... in the session directory, in order "
                "(no folders, no '..')",
                L.elem("", "hands", i),
                str(meta_path),
            )
        p = d / f
        if not p.resolve().is_relative_to(root):
            raise HistoryError(
                f"hands: entry {i + 1} {f!r} is a link to a file outside the session directory "
                f"({p.resolve()}); only files inside it are read",
                L.elem("", "hands", i),
                str(meta_path),
            )
        if session.is_over:
            raise HistoryError(
                f"hands: entry {i + 1}: the session ended ({session.end_reason}) after hand {i}, "
                "so there is no further hand (R3.5, R3.6)",
                L.elem("", "hands", i),
                str(meta_path),
            )
        hh = HandHistory.read(p)
        hands.append(hh)
        _replay_in_session(hh, i + 1, session, names, rules, p)
    if stacks != tuple(session.stacks) or pot != session.pot:
        raise err(
            f"stacks and pot must be those after the last hand (R3.4): stacks {list(session.stacks)}, "
            f"pot {session.pot}",
            "stacks",
        )
    if session.is_over and end_reason != session.end_reason:
        raise err(
            f"end_reason {end_reason!r}, but the session ends after hand {len(hands)} by "
            f"{session.end_reason!r} (R3.5, R3.6)",
            "end_reason" if end_reason is not None else "hands",
        )
    if not session.is_over and end_reason is not None and end_reason not in _ENDS_AS_WRITTEN:
        raise err(
            f"end_reason {end_reason!r}, but after hand {len(hands)} the rules do not end the session; "
            f"only {' and '.join(_ENDS_AS_WRITTEN)} are taken as written (R3.5, R3.6)",
            "end_reason",
        )
    expect_winners = tuple(session.winners()) if end_reason is not None else ()
    if winners != expect_winners:
        raise err(
            f"winners {[seat_name(w) for w in winners]}: the seats with the most counters are "
            f"{[seat_name(w) for w in expect_winners]} (R3.7)"
            if end_reason is not None
            else "winners are written only once the session has ended (R3.7)",
            "winners",
        )
    return SessionHistory(
        rules=rules,
        names=tuple(names),
        starting_stacks=starting,
        seed=seed,
        first_dealer=first_dealer,
        cut_rounds=tuple(rounds),
        end_reason=end_reason,
        winners=winners,
        stacks=stacks,
        pot=pot,
        hands=tuple(hands),
        files=tuple(files),
    )


def _replay_in_session(
    hh: HandHistory, number: int, session: Session, names: Sequence[str], rules: Rules, path: Path
) -> None:
    """Check hand ``number`` of a session directory against what ``session`` expects next,
    then play it in ``session``: the seats and rules of ``session.toml``, the stacks and
    carry-over pot the previous hand left (R3.4, R5.4), the seats still at the table (R3.5),
    the dealer (the first dealer, R3.1, then the deal passing left, R3.2); then every action
    (R4.12) and the recorded settlement (R5).

    Raises:
        HistoryError: naming ``path`` and the line; ReplayError: for an illegal action.
    """
    HL = hh._lines()

    def herr(reason: str, key: str = "", table: str = "") -> HistoryError:
        return HistoryError(reason, HL.key(table, key), str(path))

    if hh.names != tuple(names):
        raise herr("seats differ from session.toml", "seats")
    if hh.rules != rules:
        diff = _rules_diff(hh.rules, rules)
        raise herr(
            "rules differ from session.toml: "
            + "; ".join(
                f"{k} = {_val(a) if a is not None else '(unset)'} here, {_val(b) if b is not None else '(unset)'} "
                "in session.toml"
                for k, a, b in diff
            )
            + " (R8)",
            diff[0][0] if diff else "",
            "rules",
        )
    if hh.hand_number is not None and hh.hand_number != number:
        raise herr(f"hand {hh.hand_number} listed as hand {number} in session.toml", "hand")
    if hh.stacks != tuple(session.stacks):
        raise herr(
            f"stacks {list(hh.stacks)} do not continue from the previous hand's {list(session.stacks)} (R3.4)", "stacks"
        )
    if hh.pot != session.pot:
        raise herr(f"pot {hh.pot} does not continue from the previous carry-over {session.pot} (R5.4)", "pot")
    if hh.seated != tuple(session.seated):
        raise herr(
            f"seated {[seat_name(s) for s in hh.seated]}: the seats at the table are "
            f"{[seat_name(s) for s in session.seated]} (bust seats leave after their hand, R3.5)",
            "seated",
        )
    if hh.dealer != session.dealer:
        if number == 1:
            raise herr(f"the first hand's dealer is not the first dealer {seat_name(session.dealer)} (R3.1)", "dealer")
        raise herr(
            f"the deal must pass to the left: dealer {seat_name(session.dealer)}, not {seat_name(hh.dealer)} (R3.2)",
            "dealer",
        )
    if hh.settlement is None:
        raise herr("a hand of a session must be finished and have a [settlement] after [play]", "", "play")
    try:
        hand = session.start_hand_from_cards([list(c) for c in hh.cards], hh.turn_up, hh.turned_aside, hh.cut)
    except (ValueError, SessionError) as e:  # pragma: no cover - from_toml and the checks above refuse first
        raise herr(f"the deal is refused: {e}", "", "deal") from None
    for j, action in enumerate(hh.actions):
        try:
            session.apply(action)
        except IllegalActionError as e:
            raise ReplayError(j + 1, str(action), e.refusal, HL.elem("play", "actions", j), str(path)) from None
        except SessionError:  # actions after the hand is over
            raise ReplayError(
                j + 1, str(action), Refusal("hand_over", "R5"), HL.elem("play", "actions", j), str(path)
            ) from None
    try:
        hh._check_settlement(hand)
    except HistoryError as e:
        raise e.with_path(path) from None


_HAND_NAME_RE = re.compile(r"hand-(\d{4,})\.toml")


def hand_files(directory: str | Path) -> list[Path]:
    """The hand history files ``hand-0001.toml``, ``hand-0002.toml``, ... directly in
    ``directory`` (a folder saved by ``ramsli play``, which has no ``session.toml``),
    in hand order. Other names (``session.json``, sub-folders, ``hand-1.toml``) are ignored.

    Raises:
        HistoryError: if the folder cannot be listed, has no such file, or one of them is
            not a regular file inside the folder (a link to a file outside it, a folder).
    """
    d = Path(directory)
    try:
        names = [e.name for e in d.iterdir()]
    except OSError as e:
        raise HistoryError(f"cannot read the folder: {e.strerror or e}", None, str(d)) from None
    numbered = []
    for name in names:
        m = _HAND_NAME_RE.fullmatch(name)
        if m and _hand_file(int(m.group(1))) == name:
            numbered.append((int(m.group(1)), name))
    if not numbered:
        raise HistoryError(
            "no session.toml and no hand files (hand-0001.toml, hand-0002.toml, ...): not a session folder",
            None,
            str(d),
        )
    root = d.resolve()
    out = []
    for _, name in sorted(numbered):
        p = d / name
        if not p.resolve().is_relative_to(root):
            raise HistoryError(
                f"a link to a file outside the folder ({p.resolve()}); only files inside it are read", None, str(p)
            )
        if not p.is_file():
            raise HistoryError("not a file", None, str(p))
        out.append(p)
    return out


def read_hand_files(directory: str | Path) -> list[tuple[Path, HandHistory]]:
    """Read every hand file of a folder saved by ``ramsli play`` (no ``session.toml``), in
    hand order (see :func:`hand_files`), and check that each file's ``hand`` number is the
    number in its file name (``hand-0003.toml`` holds ``hand = 3``); a file without a
    ``hand`` key is accepted. Continuity between the hands is not checked.

    Returns:
        ``(path, history)`` per file.

    Raises:
        HistoryError: with the file and line of the first problem.
    """
    out = []
    for p in hand_files(directory):
        hh = HandHistory.read(p)
        number = int(_HAND_NAME_RE.fullmatch(p.name).group(1))  # type: ignore[union-attr]
        if hh.hand_number is not None and hh.hand_number != number:
            raise HistoryError(
                f"hand {hh.hand_number} in the file {p.name}: the file of hand {hh.hand_number} is "
                f"{_hand_file(hh.hand_number)}; a file's hand number must match its name",
                hh._lines().key("", "hand"),
                str(p),
            )
        out.append((p, hh))
    return out


def _replace(hh: HandHistory, **changes: Any) -> HandHistory:
    """A copy of ``hh`` with fields changed (for tests and tools); the source text is dropped."""
    return dataclasses.replace(hh, _source=None, **changes)
