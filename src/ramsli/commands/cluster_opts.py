"""The ``--scheduler`` option shared by ``simulate``, ``tournament`` and ``odds``, and Ctrl-C.

With ``--scheduler tcp://HOST:PORT`` a command's chunks become tasks on that Dask
cluster (:mod:`ramsli.analysis.cluster`, docs/cluster.md); without it nothing
changes and Dask is not imported. Ctrl-C during a run cancels the run's tasks
(on the cluster or in local processes) and exits with status 130 and one line.
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from ramsli.analysis.cluster import ClusterError, check_address
from ramsli.frontends.text import refusal_text

__all__ = ["SchedulerOption", "check_scheduler", "interrupted", "EXIT_INTERRUPTED"]

#: exit status after Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130

SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="Play the chunks as tasks on this Dask cluster instead of "
        "local processes (the extra 'dask'; the workers need the same ramsli with the extra 'lab'; see "
        "docs/cluster.md). The same seed gives the same results.",
        show_default=False,
    ),
]


def check_scheduler(scheduler: str | None, jobs: int = 1) -> list[str]:
    """The errors of a ``--scheduler`` value (its form only; nothing is contacted), as message lines.

    ``--jobs`` other than 1 together with ``--scheduler`` is refused: the cluster's workers play the chunks.

    >>> check_scheduler("tcp://127.0.0.1:8786"), check_scheduler(None, jobs=4)
    ([], [])
    >>> check_scheduler("127.0.0.1:8786")[0][:40]
    "--scheduler '127.0.0.1:8786': allowed is"
    """
    if scheduler is None:
        return []
    errors = []
    try:
        check_address(scheduler)
    except ClusterError as e:
        errors.append(refusal_text(e))
    if jobs != 1:
        errors.append(f"--jobs {jobs} with --scheduler: the cluster's workers play the chunks; give one of them")
    return errors


def interrupted(scheduler: str | None) -> NoReturn:
    """Say in one line on stderr that the run was stopped by Ctrl-C, and exit with status 130.

    Raises:
        typer.Exit: always, with code :data:`EXIT_INTERRUPTED`.
    """
    what = f"the run's tasks on the Dask cluster at {scheduler} were cancelled" if scheduler else "the run stopped"
    typer.echo(f"interrupted (Ctrl-C): {what}; nothing was written", err=True)
    raise typer.Exit(EXIT_INTERRUPTED)
