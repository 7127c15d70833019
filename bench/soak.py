"""Soak test of the ramsli engine: many random hands, every invariant after every action.

Run::

    python bench/soak.py --hands 100000 [--seed S] [--no-progress]

The invariants, the rules written again and the soak itself live in
:mod:`ramsli.testing` (the tests use the same checks); this script is its
command line: a Rich progress bar, a final line ``N hands, K invariant
violations``, exit status 1 if K > 0. Deterministic for a given ``--seed``.
"""

from __future__ import annotations

import sys

from ramsli.testing import main

if __name__ == "__main__":
    sys.exit(main())
