"""Self-play datasets: many hands played by bots, one ``ramsli-hh/1`` hand history per line of JSON.

:func:`write_dataset` writes a folder with two files:

- ``hands.jsonl``: one hand per line, the hand history format of
  ``docs/hand-history.md`` as JSON (:meth:`ramsli.history.HandHistory.to_json`)
  **with every seat's cards**, folded hands too: the data is for research,
  not a log shown to a player (that one writes ``??``, R7, D-16);
- ``DATASET.md``: the data card (fields, bots, seeds, rules, counts, licence,
  the file's SHA-256 and the command that makes it again).

Hand ``i`` (0-based; ``hand = i + 1`` in its history) is independent of the
others: equal stacks (``starting_stack``), an empty pot, the dealer seat
``i mod n``, bot ``j`` (of ``specs``) at seat ``(j + i // n) mod n`` (the deal
passes to the left every hand as in a session, R3.2, and after every round
of ``n`` hands the bots move one seat to the left, so every bot plays every
seat and every position after the dealer), the deck
shuffled and cut (R4.2) by ``random.Random(f"{seed}:dataset:deal:{i}")`` and
every bot made afresh for the hand with a seed drawn from
``random.Random(f"{seed}:dataset:bot:{i}:{j}")``. So the same seed gives a
byte-identical ``hands.jsonl`` whatever ``jobs`` is. A seat's name in the
history is its bot's label (the spec, ``#k`` added when a spec repeats).

Hands are played in work units and written in order as they finish, a
bounded window at a time: memory does not grow with the number of hands.
Every bot is guarded (:class:`~ramsli.bots.packages.GuardedBot`): a decision
where a bot raises or answers illegally is the ``tips`` move (counted in the
data card), so every line is a legal hand.

>>> import json
>>> lines = []
>>> summary = generate(["tips", "random", "random"], Rules(), hands=3, seed=1, on_line=lines.append)
>>> summary.hands, json.loads(lines[0])["format"]
(3, 'ramsli-hh/1')
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shlex
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ramsli
from ramsli.analysis.cluster import LocalRunner, stream_chunks
from ramsli.bots.base import describe_bot, make_bot
from ramsli.bots.levels import level_spec
from ramsli.bots.packages import GuardedBot
from ramsli.cards import make_deck
from ramsli.hand import Hand
from ramsli.history import FORMAT, HandHistory, HistoryError
from ramsli.rules import Rules

__all__ = [
    "HANDS_FILE",
    "CARD_FILE",
    "LICENCE",
    "DatasetSummary",
    "BotTally",
    "play_dataset_hand",
    "generate",
    "write_dataset",
    "data_card",
    "read_dataset",
    "reproduce_command",
]

#: the hands, one JSON object per line
HANDS_FILE = "hands.jsonl"
#: the data card
CARD_FILE = "DATASET.md"
#: the licence of a dataset (SPDX id): CC0 1.0, see :func:`data_card`
LICENCE = "CC0-1.0"


@dataclass
class BotTally:
    """What one bot did in a dataset (counters, 0/1 counts per hand)."""

    label: str
    spec: str
    plays_as: str = ""
    origin: str = ""
    hands: int = 0
    inn: int = 0
    bete: int = 0
    won_pot: int = 0
    net: int = 0
    decisions: int = 0
    faults: int = 0


@dataclass
class DatasetSummary:
    """The counts of a dataset (what the data card shows).

    Attributes:
        hands: hands written; actions: actions in all; kinds: hands by settlement kind
            (``played``, ``walkover``, ``thrown-in``); general_rams: hands with General Rams
            announced; targets: hands with a trick target announced.
        bots: one :class:`BotTally` per entrant of ``specs``.
        sha256: the SHA-256 of the lines (the file's bytes); size: their bytes.
    """

    hands: int = 0
    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    general_rams: int = 0
    targets: int = 0
    bots: list[BotTally] = field(default_factory=list)
    sha256: str = ""
    size: int = 0


def _labels(specs: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if specs.count(s) == 1 else f"{s}#{seen[s]}")
    return out


def play_dataset_hand(specs: Sequence[str], rules: Rules, seed: int, i: int) -> tuple[str, dict[str, Any]]:
    """Play hand ``i`` of a dataset (see the module text).

    Returns:
        ``(line, stats)``: the hand's JSON line (no line end) and, per entrant, its ``inn``, ``bete``,
        ``pot``, ``net``, ``decisions`` and ``faults`` (plus the hand's ``kind``, ``actions``, ``gr``,
        ``targets``).
    """
    n = len(specs)
    labels = _labels(specs)
    rng = random.Random(f"{seed}:dataset:deal:{i}")
    deck = list(make_deck(rules.deck, rules.jokers))
    rng.shuffle(deck)
    cut = rng.randrange(1, len(deck))
    seat_of = [(j + i // n) % n for j in range(n)]
    entrant_at = {seat_of[j]: j for j in range(n)}
    bots = {}
    for j in range(n):
        bot = make_bot(specs[j], seed=random.Random(f"{seed}:dataset:bot:{i}:{j}").getrandbits(32))
        if not isinstance(bot, GuardedBot):
            bot = GuardedBot(bot, labels[j], "ramsli", lambda: make_bot("tips"))
        bots[seat_of[j]] = bot
    start = [rules.starting_stack] * n
    hand = Hand.from_deck(rules, start, i % n, deck, cut, pot=0)
    decisions = [0] * n
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        hand.apply(bots[s].act(hand.observe(s)))
        decisions[entrant_at[s]] += 1
    names = [labels[entrant_at[s]] for s in range(n)]
    hh = HandHistory.from_hand(hand, names, hand_number=i + 1)
    line = hh.to_json()
    st = hand.settlement
    assert st is not None
    stats: dict[str, Any] = {
        "kind": str(st.kind),
        "actions": len(hh.actions),
        "gr": st.general_rams is not None,
        "targets": bool(st.targets),
        "inn": [0] * n,
        "bete": [0] * n,
        "pot": [0] * n,
        "net": [0] * n,
        "decisions": decisions,
        "faults": [0] * n,
    }
    for seat in range(n):
        j = entrant_at[seat]
        stats["inn"][j] = int(seat in st.active)
        stats["bete"][j] = int(seat in st.bete or (st.general_rams == seat and not st.general_rams_made))
        stats["pot"][j] = int(seat in st.winners)
        stats["net"][j] = hand.stacks[seat] - start[seat]
        stats["faults"][j] = bots[seat].faults
    return line, stats


def _chunk(args: tuple) -> list[tuple[str, dict[str, Any]]]:
    specs, rules_dict, seed, lo, hi = args
    rules = Rules.from_dict(rules_dict)
    return [play_dataset_hand(specs, rules, seed, i) for i in range(lo, hi)]


def generate(
    specs: Sequence[str],
    rules: Rules,
    hands: int,
    seed: int = 0,
    jobs: int = 1,
    on_line: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = 0,
) -> DatasetSummary:
    """Play ``hands`` hands and hand each JSON line (without its line end) to ``on_line``, in order.

    Args:
        specs: one bot spec per seat, 2..6 (built-in bots, levels, installed packages' bots).
        rules: the rules in force (R6, R8).
        hands: hands to play, >= 1.
        seed: the dataset's seed, >= 0.
        jobs: worker processes (1: this process).
        on_line: called with each line, in the order of the hands.
        progress: called with the number of hands just finished.
        chunk: hands per work unit (0: automatic).

    Returns:
        the counts; ``sha256`` and ``size`` are of the lines each followed by ``"\\n"``.

    Raises:
        ValueError: for fewer than 2 or more than 6 bots, a number unlike the option ``players``
            (R2.1), a bad bot spec, hands < 1 or a negative seed.
    """
    specs = list(specs)
    if not 2 <= len(specs) <= 6:
        raise ValueError(f"{len(specs)} bots: a table seats 2..6 (R2.1), one bot per seat")
    if rules.players is not None and rules.players != len(specs):
        raise ValueError(f"{len(specs)} bots but option players={rules.players}: name one bot per seat (R2.1)")
    if hands < 1:
        raise ValueError(f"hands={hands}: allowed is a whole number >= 1")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed={seed}: allowed is a whole number >= 0")
    for s in specs:
        make_bot(s, seed=0)
    n = len(specs)
    summary = DatasetSummary(bots=[])
    for label, spec in zip(_labels(specs), specs):
        info = describe_bot(spec.partition(":")[0])
        summary.bots.append(BotTally(label, spec, level_spec(spec), info.origin))
    digest = hashlib.sha256()
    jobs = max(1, int(jobs))
    size = chunk or max(1, min(100, hands // (jobs * 8) or 1))
    units = -(-hands // size)
    waiting: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    nxt = [0]

    def take(line: str, st: dict[str, Any]) -> None:
        data = (line + "\n").encode("utf-8")
        digest.update(data)
        summary.size += len(data)
        summary.hands += 1
        summary.actions += st["actions"]
        summary.kinds[st["kind"]] = summary.kinds.get(st["kind"], 0) + 1
        summary.general_rams += st["gr"]
        summary.targets += st["targets"]
        for j in range(n):
            b = summary.bots[j]
            b.hands += 1
            b.inn += st["inn"][j]
            b.bete += st["bete"][j]
            b.won_pot += st["pot"][j]
            b.net += st["net"][j]
            b.decisions += st["decisions"][j]
            b.faults += st["faults"][j]
        if on_line is not None:
            on_line(line)

    def finished(unit: int, results: list[tuple[str, dict[str, Any]]]) -> None:
        waiting[unit] = results  # units finish in any order; lines are written in the order of the hands
        while nxt[0] in waiting:
            for line, st in waiting.pop(nxt[0]):
                take(line, st)
            nxt[0] += 1
        if progress:
            progress(len(results))

    rd = rules.to_dict()
    work = (((specs, rd, seed, lo, min(hands, lo + size)),) for lo in range(0, hands, size))
    with LocalRunner(min(jobs, units), pool=ProcessPoolExecutor) as runner:
        stream_chunks(runner, _chunk, work, finished)
    summary.sha256 = digest.hexdigest()
    return summary


@contextlib.contextmanager
def _atomic(path: Path) -> Iterator[Any]:
    """Write text (UTF-8, ``\n`` line ends) to a temporary file beside ``path`` that replaces it only when
    the block ends without an error: a file appears complete or not at all (also after Ctrl-C)."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_dataset(
    out: str | Path,
    specs: Sequence[str],
    hands: int,
    *,
    preset: str = "traditional",
    rules: Sequence[str] = (),
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    overwrite: bool = False,
) -> DatasetSummary:
    """Write a dataset to the folder ``out`` (made if missing; its parent must exist): ``hands.jsonl`` and
    ``DATASET.md`` (see the module text). Each file appears complete or not at all.

    Args:
        preset, rules: the rules, a preset of R6 with ``key=value`` assignments (R8) on top.
        overwrite: replace the files of an earlier dataset in ``out`` (else that is refused).
        specs, hands, seed, jobs, progress: as :func:`generate`.

    Raises:
        ValueError: as :func:`generate`, for bad rules (``RulesError``), or for files that exist
            without ``overwrite``.
        OSError: if the folder or a file cannot be written.
    """
    rules_obj = Rules.preset(preset).with_assignments(list(rules))
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{str(folder)!r} is a file; the dataset is a folder")
    for name in (HANDS_FILE, CARD_FILE):
        if (folder / name).exists() and not overwrite:
            raise ValueError(f"{str(folder / name)!r} exists; choose a new folder (or overwrite)")
    folder.mkdir(exist_ok=True)
    with _atomic(folder / HANDS_FILE) as f:
        summary = generate(
            specs, rules_obj, hands, seed=seed, jobs=jobs, on_line=lambda line: f.write(line + "\n"), progress=progress
        )
    with _atomic(folder / CARD_FILE) as f:
        f.write(data_card(summary, rules_obj, preset, list(rules), seed))
    return summary


def reproduce_command(specs: Sequence[str], hands: int, preset: str, rules: Sequence[str], seed: int) -> str:
    """The ``ramsli dataset`` command line that writes the same ``hands.jsonl``.

    >>> reproduce_command(["hard", "easy"], 10, "nap", ["bete=3"], 7)
    'ramsli dataset --hands 10 --bots hard,easy --preset nap --rule bete=3 --seed 7 --out DIR'
    """
    parts = ["ramsli", "dataset", "--hands", str(hands), "--bots", ",".join(specs), "--preset", preset]
    for r in rules:
        parts += ["--rule", r]
    parts += ["--seed", str(seed), "--out", "DIR"]
    return " ".join(shlex.quote(p) if p != "DIR" else p for p in parts)


def data_card(summary: DatasetSummary, rules: Rules, preset: str, assignments: list[str], seed: int) -> str:
    """The text of ``DATASET.md`` for a dataset (deterministic: no date, no timing, so the same seed gives
    the same card)."""
    specs = [b.spec for b in summary.bots]
    n = len(specs)
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(summary.kinds.items()))
    cmd = reproduce_command(specs, summary.hands, preset, assignments, seed)
    bot_rows = "\n".join(
        f"| `{b.label}` | `{b.spec}` | `{b.plays_as}` | {b.origin} | {b.hands} | {b.inn / b.hands:.1%} | "
        f"{b.bete / b.hands:.1%} | {b.won_pot / b.hands:.1%} | {b.net / b.hands:+.3f} | {b.decisions} | {b.faults} |"
        for b in summary.bots
    )
    rules_toml = rules.to_toml().strip()
    return f"""# Ramsli self-play dataset

{summary.hands} hands of Ramsli (Rams, Ramscheln), the 19th-century trick-taking pub game, played by
ramsli's bots: one hand history per line of `{HANDS_FILE}`, **with every seat's cards**.

| | |
| --- | --- |
| hands | {summary.hands} |
| actions | {summary.actions} (declarations, announcements and cards played) |
| file | `{HANDS_FILE}`: {summary.size} bytes, UTF-8, one JSON object per line |
| SHA-256 | `{summary.sha256}` |
| format | `{FORMAT}` as JSON (docs/hand-history.md of ramsli) |
| made by | ramsli {ramsli.__version__} |
| seed | {seed} |
| rules | preset `{preset}`{", " + ", ".join(f"`{a}`" for a in assignments) if assignments else ""}, {n} players |
| licence | CC0 1.0 Universal (`{LICENCE}`) |

## How it was made

```sh
{cmd}
```

makes a byte-identical `{HANDS_FILE}` (the same SHA-256) with the same ramsli version, whatever
`--jobs` is. Every hand stands alone: it starts from equal stacks of {rules.starting_stack} counters
and an empty pot (no carry-over, R5.4; no session, R3), hand `i` (1-based, key `hand`) has the dealer
`p{{(i - 1) mod {n} + 1}}` (the deal passes to the left, R3.2), and after every {n} hands the bots move one
seat to the left, so each bot plays every seat and every position after the dealer.
The deck of hand `i` is shuffled and cut (R4.2) by Python's `random.Random(f"{{seed}}:dataset:deal:{{i - 1}}")`;
each bot is made afresh for every hand with its own seed from the dataset's seed. A bot's decision
that raised or was not legal would have been played by the `tips` player (column "faults").

## Bots

A seat's name in a hand (key `seats`) is its bot's label.

| label | spec | plays as | from | hands | in | bete | took the pot | counters/hand | decisions | faults |
| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
{bot_rows}

## Outcomes

Hands by settlement: {kinds}. General Rams announced in {summary.general_rams} hands, a trick target in
{summary.targets}.

## Fields

Each line is one hand history of the format `{FORMAT}` (ramsli's docs/hand-history.md), the keys of
its TOML form as a JSON object, in the same order:

| key | type | meaning | rule |
| --- | --- | --- | --- |
| `format` | string | always `"{FORMAT}"` | — |
| `hand` | int | the hand's number in the dataset, 1-based (the line number) | — |
| `seats` | strings | the seats' names, `p1` first: the bots' labels | R2.2 |
| `seated` | seat ids | the seats taking part (all) | R3.5 |
| `dealer` | seat id | the dealer | R3.2 |
| `stacks` | ints | counters per seat before the ante | R3.3, R4.1 |
| `pot` | int | the carry-in pot before the ante (0) | R5.4 |
| `rules` | object | every option of R8 with its value | R6, R8 |
| `deal` | object | `cut`; `p1` … `pN`: each seat's five dealt cards in the order dealt (**all known**, also of seats that folded); `turn_up`; `turned_aside` (jokers) | R4.2–R4.4, D-9 |
| `play` | object | `actions`: every action in order, e.g. `"p2 in"`, `"p3 gr"`, `"p4 t3"`, `"p2 pl AS"` | R4.5–R4.10 |
| `settlement` | object | `kind`, `pot`, `winners`, `share`, `carry_over`, `bete`, `general_rams`, `general_rams_made`, `targets`, `tricks`, `won`, `paid`, `shortfall`, `stacks_after`, `payments` | R5 |

Cards are written rank then suit (`AS`, `TH`, `7C`; jokers `X1`, `X2`; R1.6). To read and check a hand:

```python
from ramsli.history import HandHistory

with open("{HANDS_FILE}", encoding="utf-8") as f:
    for line in f:
        hand = HandHistory.from_json(line).replay()  # re-checks every action and the settlement
```

## The rules

```toml
{rules_toml}
```

## Licence

CC0 1.0 Universal (public domain dedication, https://creativecommons.org/publicdomain/zero/1.0/).
The hands are machine-made game records with no personal data in them; CC0 lets anyone copy, mix,
train on and redistribute them (also inside other datasets and benchmarks) without carrying an
attribution notice along, which an attribution licence would ask of every derived dataset. A citation
of ramsli is welcome, not required.

## Limits

- Bots only, no human play: the hands show how these bots play, not how people do.
- Every seat's cards are in the data, also those of seats that folded: a log for a player hides them
  (R7, D-16), this file is for research.
- Independent hands: no carry-over pot, no busts, no session ends (R3, R5.4).
"""


def read_dataset(path: str | Path) -> Iterator[HandHistory]:
    """The hand histories of a ``hands.jsonl`` file, one at a time (a generator; the file is read lazily).

    Raises:
        HistoryError: (``ramsli.history``) for a line that is not a hand history, with ``path`` and the
            line number in the message.
    """
    p = Path(path)
    with p.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            try:
                yield HandHistory.from_json(line)
            except HistoryError as e:
                raise HistoryError(e.reason, lineno, str(p)) from None
