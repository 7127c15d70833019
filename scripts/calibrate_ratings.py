#!/usr/bin/env python3
"""Calibrate the bots' ratings from duplicate sessions (``ramsli.server.players.ratings.calibrate``).

    python scripts/calibrate_ratings.py                      # the bundled calibration (docs/clubs.md)
    python scripts/calibrate_ratings.py --sessions 20 --out /tmp/cal.json

Writes ``src/ramsli/server/players/calibration.json`` by default; ``ramsli serve --calibration FILE`` takes
another file. Every duplicate session is played in every rotation of the bots; each rotation is
rated by its own final standings, as the server rates a session.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ramsli.server.players.ratings import CALIBRATION, calibrate  # noqa: E402 - after the path it needs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="easy,medium,hard,expert,random", help="bot specs, comma-separated")
    ap.add_argument("--sessions", type=int, default=60, help="duplicate sessions (each in every rotation)")
    ap.add_argument("--hands", type=int, default=10, help="hands a session")
    ap.add_argument("--preset", default="traditional")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=CALIBRATION)
    a = ap.parse_args()
    bots = [b.strip() for b in a.bots.split(",") if b.strip()]
    t0 = time.monotonic()
    total = a.sessions * len(bots)

    def progress(done: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"{done}/{total} sessions rated, {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)

    result = calibrate(bots, a.sessions, a.hands, a.preset, a.seed, progress)
    result["seconds"] = round(time.monotonic() - t0, 1)
    if result["seconds"] <= 0 or not all(e["sessions"] == total for e in result["entrants"]):
        print("error: nothing was measured", file=sys.stderr)
        return 1
    a.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for e in sorted(result["entrants"], key=lambda e: -(e["mu"] - 3 * e["sigma"])):
        print(f"{e['spec']:>10}  mu {e['mu']:7.2f}  sigma {e['sigma']:5.2f}  ({e['sessions']} sessions)")
    print(f"wrote {a.out} in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
