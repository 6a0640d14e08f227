"""The ``balance`` command line: thin wrappers over the Python API (one command each).

The group is here; the core commands are in ``commands.py``, ``value``/``sweep``/``tune`` in
``lab.py``, and what they share (options, specs, one-line errors) in ``options.py``.
"""

from __future__ import annotations

import atexit
import threading
from typing import Any

import click

from balance.cli import commands, lab
from balance.cli.options import CONTEXT
from balance.executors import exit_now


class LabGroup(click.Group):
    """The command group; run as a program, a command that succeeds ends without the interpreter's teardown.

    Freeing every module (Numba's compiled code, polars, pyarrow, matplotlib) took about
    0.3 s after the command's work was done (1 s under load), on the wall clock of every
    ``balance run`` and ``balance report``. When the arguments come from the command line
    (``main()`` without ``args``: the ``balance`` script, ``python -m balance``) and the
    command exits with status 0, the exit handlers run (pools, resource trackers, logging),
    the streams are flushed and the process ends there, unless a non-daemon thread is still
    running. Called with ``args`` (tests, ``CliRunner``), it returns or raises as click does.
    """

    def main(self, args: Any = None, *rest: Any, **extra: Any) -> Any:
        """Run the command line (see the class doc)."""
        if args is not None:
            return super().main(args, *rest, **extra)
        try:
            return super().main(args, *rest, **extra)
        except SystemExit as done:
            if done.code in (0, None) and not _other_threads():
                atexit._run_exitfuncs()  # what the interpreter's exit would run first
                exit_now()
            raise


def _other_threads() -> bool:
    """Return whether a non-daemon thread other than this one is still running (the exit would wait for it)."""
    me = threading.current_thread()
    return any(t.is_alive() and not t.daemon and t is not me for t in threading.enumerate())


@click.group(cls=LabGroup, context_settings=CONTEXT)
@click.version_option(package_name="balance-lab")
def cli() -> None:
    """Balance lab: simulate card games between bots, store Parquet, report balance.

    \b
    Example:
      balance games
      balance run --game cardinger -n 100000 --seed 1 --bots greedy,greedy --workers 2
      balance report runs/<run_id>
    """


for command in (*commands.COMMANDS, *lab.COMMANDS):
    cli.add_command(command)
