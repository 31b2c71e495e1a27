"""The `nimmt` command line: `app` holds the command group, the exit statuses and the handling
of bad input and closed output; each other module registers one family of commands on it."""
from . import analysis, batch, bench, bots, play, positions, train  # noqa: F401 (they register)
from .app import ExitStatus, main

__all__ = ["ExitStatus", "main"]
