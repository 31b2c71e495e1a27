"""The `nimmt` command's entry point: the command line loaded under a Ctrl-C guard, so that
an interrupt in its first half second (numpy and the extensions loading) ends like any
other, in one line with exit status 130, not in a traceback. Only the standard library's
built-in modules are loaded before the guard."""
import os
import signal


def _interrupted(signum, frame) -> None:
    # at once: nothing has run that needs Python's shutdown, and an exception raised here
    # could land in the import machinery's own callbacks, which print it and go on
    os.write(2, b"nimmt: error: interrupted (Ctrl-C)\n")
    os._exit(130)


def main() -> None:
    previous = signal.signal(signal.SIGINT, _interrupted)
    try:
        from .cli import main as command
    finally:
        signal.signal(signal.SIGINT, previous)
    command(prog_name="nimmt")
