"""Saving and resuming a session of ``ramsli play`` ("nothing lost").

The save file is JSON, versioned (``"format": "ramsli-session"``, ``"version": 2``; version 1,
the same without ``hand_cut``, is read too),
written atomically (temporary file + ``os.replace``). It holds the session as it
stands *between* hands — stacks, pot, dealer, seated seats, hands played, the
session's random state (``random.Random.getstate()``), the rules (TOML), names,
bots and seed — plus, while a hand is in progress, the actions applied so far in it
(``hand_actions``, as ``str(Action)``, rewritten atomically after every action) and
the cut point the player chose as cutter (``hand_cut``, R4.2; null for a random cut).
A quit, a crash or Ctrl-C in the middle of a hand loses nothing (R3.4): a resume
deals the same hand from the same random state, re-applies the saved actions
(each checked by the engine, R4.12) and continues exactly where the hand was, so
a declaration once made cannot be taken back by quitting.

Layout of the data folder (default ``platformdirs.user_data_dir("ramsli")``):

- ``session.json``: the current session;
- ``sessions/<id>/hand-0001.toml``...: the hand histories of each session
  (written with :mod:`ramsli.history` when it is available), and
  ``sessions/<id>/session.json`` for a session that was set aside by a new one.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs

try:  # POSIX; elsewhere the folder lock is not taken (see SaveFolder.lock)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from ramsli.bots import make_bot
from ramsli.cards import CardError, make_deck
from ramsli.hand import Action
from ramsli.i18n import LANGS
from ramsli.rules import Rules, RulesError
from ramsli.session import EndReason

__all__ = [
    "FORMAT",
    "VERSION",
    "READ_VERSIONS",
    "SaveError",
    "FolderLocked",
    "SavedSession",
    "SaveFolder",
    "default_data_dir",
    "atomic_write",
]

FORMAT = "ramsli-session"
#: the version written; 2 added ``hand_cut`` (R4.2), which a reader of version 1 would ignore
VERSION = 2
#: the versions read (a version-1 save has no ``hand_cut``: its hand was cut at random)
READ_VERSIONS = (1, 2)
#: the largest save file read (bytes); a save is a few kB
MAX_SAVE_BYTES = 1_000_000
#: the longest ``session_id`` accepted (characters; it names a folder)
MAX_SESSION_ID = 100
#: the engine's reasons why a session ended (``Session.end_reason``, R3.5, R3.6)
END_REASONS: tuple[str, ...] = tuple(EndReason)


class SaveError(Exception):
    """A save file that cannot be read: missing fields, wrong types, broken JSON, counters
    that do not add up (R3.4). The message names the file and what is wrong.

    Attributes:
        path: the file.
    """

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"the saved session {path} cannot be used: {problem}")
        self.path = path
        self.problem = problem


class FolderLocked(Exception):
    """Another ``ramsli play`` holds the data folder (two processes on one folder
    would overwrite each other's session and allow take-backs).

    Attributes:
        root: the data folder.
    """

    def __init__(self, root: Path) -> None:
        super().__init__(
            f"another ramsli play is using the data folder {root}; "
            f"finish that game first, or give another folder with --data-dir"
        )
        self.root = root


@dataclass
class SavedSession:
    """A session between two hands, as saved.

    Attributes:
        session_id: folder name of the session's hand histories.
        names: one name per seat (2..6).
        bots: one bot spec per seat, ``None`` for the human seat.
        human: the human's seat (0-based).
        seed: the session seed (bots are seeded from it per hand).
        rules_toml: the rules in force (``Rules.to_toml()``).
        hands_played: hands finished so far (R3.6 ``hands:N`` counts them).
        stacks: counters per seat; pot: the carry-over (R5.4).
        dealer: the dealer of the next hand; seated: seats still at the table (R3.5).
        departed: ``[seat, after hand number]`` of players who left bust (R3.5 ``leave``).
        rng_state: ``random.Random.getstate()`` of the session, as JSON lists.
        elapsed: seconds played so far (R3.6 ``time:M``).
        end_reason: None while the session runs, else why it ended (R3.5, R3.6).
        lang, suits: the player's display choices.
        four_colour: the four-colour deck (♦ blue, ♣ green) on screen, a display choice; False when a
            save made before it existed has no such field.
        hand_actions: None between hands; during a hand, the actions applied so far in it
            (``str(Action)``, e.g. ``"p2 in"``), the hand being dealt from this state (R4.1–R4.4).
        hand_cut: during a hand, the cut point the player chose as the cutter (R4.2), so that a
            resume deals the same cards; None for a random cut (drawn from ``rng_state``) and
            between hands.
    """

    session_id: str
    names: list[str]
    bots: list[str | None]
    human: int
    seed: int
    rules_toml: str
    hands_played: int
    stacks: list[int]
    pot: int
    dealer: int
    seated: list[int]
    departed: list[list[int]]
    rng_state: list[Any]
    elapsed: float = 0.0
    end_reason: str | None = None
    lang: str = "en"
    suits: str = "french"
    four_colour: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    hand_actions: list[str] | None = None
    hand_cut: int | None = None

    #: display choices in the file that this ramsli does not know (``{"lang": "fr"}``); not saved
    unknown_display: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def rules(self) -> Rules:
        """The rules (parsed from :attr:`rules_toml`)."""
        return Rules.from_toml(self.rules_toml)

    def to_json(self) -> str:
        """The save file's text."""
        data = asdict(self)
        data.pop("unknown_display")
        return json.dumps({"format": FORMAT, "version": VERSION, **data}, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str, path: Path) -> SavedSession:
        """Read and validate a save file's text.

        Raises:
            SaveError: naming ``path`` and the first problem found.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SaveError(path, f"it is not valid JSON ({e})") from None
        except (RecursionError, MemoryError):
            raise SaveError(path, "it is nested too deeply (or too large) to be a save file") from None
        except ValueError as e:  # a number of more than 4300 digits
            raise SaveError(path, f"it holds a number too large to be a save file ({str(e)[:60]})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveError(path, f'it is not a ramsli save file (no "format": "{FORMAT}")')
        if data.get("version") not in READ_VERSIONS or isinstance(data.get("version"), bool):
            raise SaveError(
                path,
                f"save format version {data.get('version')!r} is not supported; "
                f"this ramsli reads versions {', '.join(map(str, READ_VERSIONS))}",
            )

        def need(key: str, typ: type | tuple[type, ...]) -> Any:
            if key not in data:
                raise SaveError(path, f"the field {key!r} is missing")
            v = data[key]
            if not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
                raise SaveError(path, f"the field {key!r} has the wrong type ({type(v).__name__})")
            return v

        names = need("names", list)
        n = len(names)
        if not 2 <= n <= 6 or not all(isinstance(x, str) and x for x in names):
            raise SaveError(path, "'names' must be 2..6 non-empty names (R2.1)")
        bots = need("bots", list)
        if len(bots) != n or not all(b is None or isinstance(b, str) for b in bots):
            raise SaveError(path, "'bots' must give one bot spec (or null for you) per seat")
        human = need("human", int)
        if not 0 <= human < n or bots[human] is not None:
            raise SaveError(path, "'human' must be a seat without a bot")
        if sum(b is None for b in bots) != 1:
            raise SaveError(path, "'bots' must have exactly one null (your seat) and a bot spec for every other seat")
        for b in set(bots) - {None}:
            try:
                make_bot(b, 0)
            except ValueError as e:
                raise SaveError(path, f"'bots' holds a bad bot spec: {e}") from None
        stacks = need("stacks", list)
        if len(stacks) != n or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in stacks):
            raise SaveError(path, "'stacks' must be one whole number >= 0 per seat (R3.3)")
        pot = need("pot", int)
        if pot < 0:
            raise SaveError(path, "'pot' must be >= 0")
        try:
            rules = Rules.from_toml(need("rules_toml", str))
        except RulesError as e:
            raise SaveError(path, f"the rules are not valid: {e}") from None
        except (RecursionError, MemoryError, ValueError):  # nested [[[...]]], a number of 4300+ digits
            raise SaveError(
                path,
                "the rules are not valid: 'rules_toml' is nested too deeply or holds a number "
                "too large to be rule options (R8)",
            ) from None
        if rules.players is not None and rules.players != n:
            raise SaveError(path, f"the rules say players = {rules.players} but {n} names are saved (R2.1)")
        if sum(stacks) + pot != rules.starting_stack * n:
            raise SaveError(
                path,
                f"the counters do not add up: stacks {sum(stacks)} + pot {pot} != {n} x {rules.starting_stack} (R3.4)",
            )
        seated = need("seated", list)
        if (
            not seated
            or len(set(seated)) != len(seated)
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in seated)
        ):
            raise SaveError(path, "'seated' must list seats of the table, each once (R3.5)")
        dealer = need("dealer", int)
        if dealer not in seated and (data.get("end_reason") is None or not 0 <= dealer < n):
            # a finished session may keep the dealer of its last hand, who may have left bust (R3.5)
            raise SaveError(path, "'dealer' must be a seated seat (R3.2)")
        hands = need("hands_played", int)
        if hands < 0:
            raise SaveError(path, "'hands_played' must be >= 0")
        departed = need("departed", list)
        for d in departed:
            if (
                not isinstance(d, list)
                or len(d) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in d)
                or not 0 <= d[0] < n
                or not 0 <= d[1] <= hands
            ):
                raise SaveError(path, f"'departed' entry {d!r} is not [seat, after hand 0..{hands}] (R3.5)")
        gone = [d[0] for d in departed]
        if len(set(gone)) != len(gone) or sorted(gone + list(seated)) != list(range(n)):
            raise SaveError(path, "every seat must be either seated or departed, exactly once (R3.5)")
        rng = need("rng_state", list)
        if (
            len(rng) != 3
            or not isinstance(rng[1], list)
            or len(rng[1]) != 625
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**32 for x in rng[1])
            or not 1 <= rng[1][-1] <= 624
            or not isinstance(rng[0], int)
            or isinstance(rng[0], bool)
            or not (rng[2] is None or isinstance(rng[2], float))
        ):
            raise SaveError(path, "'rng_state' is not a random state (625 words of 0..2**32-1, the last 1..624)")
        end_reason = data.get("end_reason")
        if end_reason is not None and end_reason not in END_REASONS:
            raise SaveError(path, f"'end_reason' must be null or one of {', '.join(END_REASONS)} (R3.5, R3.6)")
        if len(seated) < 2 and end_reason is None:
            raise SaveError(path, "a running session needs at least two seated players (R3.5)")
        seed = need("seed", int)
        sid = need("session_id", str)
        if (
            not sid
            or "/" in sid
            or "\\" in sid
            or sid.startswith(".")
            or len(sid) > MAX_SESSION_ID
            or any(unicodedata.category(c)[0] in "CZ" for c in sid)
        ):  # NUL, escape codes, blanks
            raise SaveError(
                path,
                f"'session_id' is not a folder name (1..{MAX_SESSION_ID} letters, digits "
                f"and signs, no control characters, no '/')",
            )
        lang, suits = data.get("lang", "en"), data.get("suits", "french")
        elapsed = data.get("elapsed", 0.0)
        if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool) or not 0 <= elapsed < float("inf"):
            raise SaveError(path, "'elapsed' must be seconds >= 0")
        actions = data.get("hand_actions")
        if actions is not None:
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise SaveError(path, "'hand_actions' must be null or a list of actions such as \"p2 in\" (R4.12)")
            if end_reason is not None:
                raise SaveError(path, "'hand_actions' is set but the session is over (R3.5, R3.6)")
            for i, a in enumerate(actions, 1):
                try:
                    Action.parse(a)
                except (ValueError, CardError) as e:
                    raise SaveError(path, f"'hand_actions' entry {i} {a!r} is not an action: {e} (R4.12)") from None
        four_colour = data.get("four_colour", False)
        if data["version"] >= 2 and "hand_cut" not in data:  # a random cut is written as null, never left out
            raise SaveError(
                path,
                "'hand_cut' is missing: a version-2 save names the cut of the hand in progress "
                "(null for a random cut) (R4.2)",
            )
        cut = data.get("hand_cut")
        if cut is not None:
            deck = len(make_deck(rules.deck, rules.jokers))
            if type(cut) is not int or not 1 <= cut <= deck - 1:
                raise SaveError(path, f"'hand_cut' must be null or a cut point 1..{deck - 1} (R4.2)")
            if actions is None:
                raise SaveError(path, "'hand_cut' is set but no hand is in progress ('hand_actions' is null) (R4.2)")
        unknown = {k: v for k, v, ok in (("lang", lang, LANGS), ("suits", suits, ("french", "german"))) if v not in ok}
        if not isinstance(four_colour, bool):  # 1, "yes": not a choice this ramsli writes
            unknown["four_colour"] = four_colour
        return cls(
            session_id=sid,
            names=names,
            bots=bots,
            human=human,
            seed=seed,
            rules_toml=data["rules_toml"],
            hands_played=hands,
            stacks=stacks,
            pot=pot,
            dealer=dealer,
            seated=seated,
            departed=departed,
            rng_state=rng,
            elapsed=float(elapsed),
            end_reason=end_reason,
            lang=lang if lang in LANGS else "en",
            suits=suits if suits in ("french", "german") else "french",
            four_colour=four_colour if isinstance(four_colour, bool) else False,
            extra=data["extra"] if isinstance(data.get("extra"), dict) else {},
            hand_actions=list(actions) if actions is not None else None,
            hand_cut=cut,
            unknown_display=unknown,
        )


def default_data_dir() -> Path:
    """``platformdirs.user_data_dir("ramsli")`` (e.g. ``~/.local/share/ramsli`` on Linux)."""
    return Path(platformdirs.user_data_dir("ramsli"))


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file (temp + ``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class SaveFolder:
    """The data folder of ``ramsli play``.

    Args:
        root: the folder; default :func:`default_data_dir`.
    """

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root) if root is not None else default_data_dir()
        self._lock_file: BinaryIO | None = None

    def lock(self) -> None:
        """Take the folder's lock (``<root>/lock``, ``flock``), held until :meth:`unlock` or the
        process ends (a kill releases it too). Without ``fcntl`` (Windows) nothing is locked.

        Raises:
            FolderLocked: if another process (or another :class:`SaveFolder` here) holds it.
            OSError: if the folder cannot be made or written (read-only, not a folder).
        """
        if fcntl is None or self._lock_file is not None:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        f = open(self.root / "lock", "a+b")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.close()
            raise FolderLocked(self.root) from None
        except OSError:
            f.close()
            raise
        self._lock_file = f
        self._remove_stale_temporaries()

    def _remove_stale_temporaries(self) -> None:
        """Delete ``*.tmp`` files left by a writer that was killed mid-write (:func:`atomic_write`);
        only called with the lock held, so no writer is at work."""
        for pattern in ("session.json.*.tmp", "sessions/*/*.tmp"):
            for p in self.root.glob(pattern):
                try:
                    p.unlink()
                except OSError:
                    pass

    def unlock(self) -> None:
        """Release the lock taken by :meth:`lock` (no-op if none)."""
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

    @property
    def session_file(self) -> Path:
        """``<root>/session.json``: the current session."""
        return self.root / "session.json"

    def session_dir(self, session_id: str) -> Path:
        """``<root>/sessions/<id>``: the hand histories of one session."""
        return self.root / "sessions" / session_id

    def exists(self) -> bool:
        """True if a current session file exists."""
        return self.session_file.exists()

    def load(self) -> SavedSession:
        """Read the current session.

        Raises:
            FileNotFoundError: if there is none.
            SaveError: if it cannot be used (the message names the file).
        """
        path = self.session_file
        try:
            st = path.stat()  # follows a link: a link to /dev/zero is a device
            if not stat.S_ISREG(st.st_mode):
                raise SaveError(path, "it is not a regular file (a folder, device or pipe)")
            if st.st_size > MAX_SAVE_BYTES:
                raise SaveError(path, f"it has {st.st_size:,} bytes; a save file has at most {MAX_SAVE_BYTES:,}")
            with path.open("rb") as f:
                raw = f.read(MAX_SAVE_BYTES + 1)
        except FileNotFoundError:
            raise
        except OSError as e:
            raise SaveError(path, f"it cannot be read ({e.strerror or e})") from None
        if len(raw) > MAX_SAVE_BYTES:
            raise SaveError(path, f"it has more than {MAX_SAVE_BYTES:,} bytes; a save file is smaller")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError(path, "it is not UTF-8 text") from None
        return SavedSession.from_json(text, path)

    def save(self, saved: SavedSession) -> Path:
        """Write the current session atomically; returns the file."""
        atomic_write(self.session_file, saved.to_json())
        return self.session_file

    def set_aside(self) -> Path | None:
        """Move the current session file (if any) out of the way, so a new session can start.

        A readable save goes to its own session folder (``session.json``, or
        ``session-N.json`` if that exists: nothing is overwritten); an unreadable one is
        renamed ``session.json.broken-N``. Returns the new path, or None if there was no file.
        """
        path = self.session_file
        if not path.exists():
            return None
        try:
            folder = self.session_dir(self.load().session_id)
            target = folder / "session.json"
            k = 1
            while target.exists():  # never overwrite a session set aside before
                k += 1
                target = folder / f"session-{k}.json"
        except SaveError:
            k = 1
            while (self.root / f"session.json.broken-{k}").exists():
                k += 1
            target = self.root / f"session.json.broken-{k}"
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        return target

    def write_history(self, session_id: str, number: int, text: str) -> Path:
        """Write one hand history ``hand-NNNN.toml`` of a session atomically."""
        path = self.session_dir(session_id) / f"hand-{number:04d}.toml"
        atomic_write(path, text)
        return path
