"""The `nimmt` command's entry point: the command line loaded under a Ctrl-C guard, so that
an interrupt in its first half second (numpy and the extensions loading) ends like any
other, in one line with exit status 130, not in a traceback."""
import os
import sys

from .files import interrupts_held


def main() -> None:
    try:
        # held, not raised where it lands: in the import machinery's own callbacks Python
        # would print and forget it
        with interrupts_held():
            from .cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("nimmt: error: interrupted (Ctrl-C)\n")
        sys.stderr.flush()
        os._exit(130)       # at once: nothing has run that needs Python's shutdown
    command(prog_name="nimmt")
